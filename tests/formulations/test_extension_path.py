"""One more arm and one more formulation, registered through the public registries
(tests/support/registered_extras.py), reach the command line, the side-by-side tables, the
dashboards and the equations of motion; the registries' doctests still pass."""

from __future__ import annotations

import doctest
import re

import numpy as np
import pytest
import sympy

import dynlab.cli
import dynlab.formulations.registry
import dynlab.model.robots
import dynlab.model.robots.registry
import dynlab.teaching.dashboards.arm
import dynlab.teaching.side_by_side
from dynlab import equations_of_motion, inverse_dynamics
from dynlab.cli import main
from dynlab.formulations.registry import FORMULATIONS
from dynlab.model.robots import ARM_SPECS
from dynlab.teaching import side_by_side
from dynlab.teaching.dashboards.arm import dashboard
from tests.support.registered_extras import (
    ARM,
    METHOD,
    polar_arm,
    register_extras,
    unregister_extras,
)

STATE = ((0.3, 0.5), (1.0, 0.2), (0.5, -1.0))


@pytest.fixture
def extras():
    register_extras()
    yield
    unregister_extras()
    assert ARM not in ARM_SPECS and METHOD not in FORMULATIONS


def test_the_command_line_lists_computes_compares_and_checks_them(extras, capsys):
    assert main(["list"]) == 0
    assert re.search(rf"^{ARM} +2 joints \(RP\)  polar arm \(an extension's\)$",
                     capsys.readouterr().out, flags=re.M)
    assert main(["torque", "--help"]) == 0
    help_text = capsys.readouterr().out
    assert ARM in help_text and METHOD in help_text
    q, qd, qdd = STATE
    assert main(["torque", ARM, "--q", "0.3,0.5", "--qd", "1,0.2", "--qdd", "0.5,-1",
                 "--method", METHOD, "--digits", "10"]) == 0
    printed = [float(v) for v in re.findall(r"^tau\d = +(\S+)", capsys.readouterr().out,
                                            flags=re.M)]
    np.testing.assert_allclose(printed, inverse_dynamics(polar_arm(), q, qd, qdd), atol=1e-9)
    assert main(["compare", ARM]) == 0                       # symbolic: two joints
    out = capsys.readouterr().out
    assert f"by {sum(len(f.variants) for f in FORMULATIONS.values())} formulation(s)" in out
    assert re.search(rf"^{METHOD} \(luh\) .* agree$", out, flags=re.M), out
    assert main(["check", ARM, "--states", "2"]) == 0
    out = capsys.readouterr().out
    # every variant twice (compiled and step by step), generated code, forward dynamics
    expected = 2 * (2 * sum(len(f.variants) for f in FORMULATIONS.values()) + 2)
    assert f"{expected} results at 2 random states" in out and "all formulations agree" in out


def test_the_side_by_side_tables_hold_them(extras, capsys):
    table = side_by_side.torques_side_by_side(polar_arm(), *STATE)
    label = FORMULATIONS[METHOD].variant_label("luh")
    assert label in capsys.readouterr().out
    assert list(table.torques) == [row[2] for row in side_by_side.variants()]
    assert table.spread < 1e-10
    counts = side_by_side.operation_counts(polar_arm(), show=False)
    assert counts[label] == counts["Newton-Euler (link frame)"]


def test_a_dashboard_shows_the_arm_by_the_formulation(extras):
    reference = dashboard(ARM, render=False)
    board = dashboard(ARM, engine=METHOD, render=False)
    assert [w.description for w in board.q_sliders] == ["q1", "q2"]
    for part, values in reference.parts.items():
        np.testing.assert_allclose(board.parts[part], values, atol=1e-10, err_msg=part)


def test_the_equations_of_motion_derive_the_arm_by_the_formulation(extras):
    arm = ARM_SPECS[ARM].build(symbolic=True)
    mine = equations_of_motion(arm, method=METHOD)
    assert mine.compare(equations_of_motion(arm, method="lagrange_euler"))
    symbols = {symbol.name: symbol for symbol in arm.free_symbols}
    m2, l = symbols["m2"], symbols["l"]
    r = mine.q[1] - l / 2                               # the rod's centre from the axis
    assert sympy.simplify(mine.D[0, 0] - (0.05 + m2 * l**2 / 12 + m2 * r**2)) == 0


@pytest.mark.parametrize("module", [dynlab.formulations.registry, dynlab.model.robots,
                                    dynlab.model.robots.registry, dynlab.teaching.side_by_side,
                                    dynlab.teaching.dashboards.arm, dynlab.cli],
                         ids=lambda m: m.__name__)
def test_the_doctests_that_show_the_registries_pass_with_them_registered(extras, module):
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    failures, tried = doctest.testmod(module, optionflags=flags, verbose=False)
    assert tried > 0 and failures == 0
