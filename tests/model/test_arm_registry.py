"""The arm registry: an arm registered once appears in the command line, the dashboards and
``dynlab.model.robots``; its dashboard spec, if it has one, is registered on the teaching floor;
bad registrations are refused with a message naming what is wrong."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import dynlab
import dynlab.model.robots
from dynlab.cli import main
from dynlab.model.link import G
from dynlab.model.robot import Robot
from dynlab.model.robots import ARM_SPECS, ROBOTS, register_arm, unregister_arm
from dynlab.teaching.dashboards.arm import dashboard
from dynlab.teaching.dashboards.specs import (
    DASHBOARD_SPECS,
    DashboardSpec,
    LengthSlider,
    dashboard_spec,
    register_dashboard,
    unregister_dashboards,
)

# the same arm, one builder
from tests.support.registered_extras import polar_arm as extension_polar_arm


def polar_arm(symbolic: bool = False, *, m2=None, l=None) -> Robot:
    """A polar arm in the vertical plane ``x0 y0`` (gravity ``-y0``): a hub turning about ``z0`` (a
    disc of 1 kg on the axis, moment ``I1 = 0.05`` about it; ``z0`` is ``y1``) and a rod of mass
    ``m2`` and length ``l`` sliding along ``z1 = (sin q1, -cos q1, 0)``; the rod's centre of mass is
    ``l/2`` behind frame 2's origin, at distance ``r = q2 - l/2`` from the axis."""
    return extension_polar_arm(symbolic, m2=m2, l=l).replace(name="polar arm (a test's)")


def polar_torques(q, qd, qdd, m2=1.5, l=0.4, I1=0.05):
    """Lagrange's equations of the polar arm, by hand: ``K = (I1 + m2 l^2/12 + m2 r^2) qd1^2/2
    + m2 qd2^2/2``, ``V = -m2 g r cos q1`` with ``r = q2 - l/2``."""
    r = q[1] - l / 2
    tau1 = ((I1 + m2 * l**2 / 12 + m2 * r**2) * qdd[0] + 2 * m2 * r * qd[0] * qd[1]
            + m2 * G * r * math.sin(q[0]))
    f2 = m2 * qdd[1] - m2 * r * qd[0] ** 2 - m2 * G * math.cos(q[0])
    return np.array([tau1, f2])


START = ((0.3, 0.5), (1.0, 0.2), (0.5, -1.0))


@pytest.fixture
def polar():
    spec = register_arm("polar", polar_arm, source="a test's arm")
    register_dashboard("polar", DashboardSpec(
        state=START, joint_ranges={2: (0.2, 1.0)}, link_lengths=False,
        lengths=(LengthSlider("l", "rod length, m", links=(2,), parameter=None, body=(2, "z")),),
        payload=1.0))
    yield spec
    unregister_arm("polar")
    unregister_dashboards("polar")
    assert "polar" not in ROBOTS and "polar" not in ARM_SPECS
    assert not any(arm == "polar" for arm, _ in DASHBOARD_SPECS)


def test_a_registered_arm_is_in_dynlab_robots(polar):
    assert ROBOTS["polar"] is polar_arm and ARM_SPECS["polar"] is polar
    assert list(ROBOTS)[-1] == "polar"
    assert dynlab.model.robots.ROBOTS["polar"]().joint_types == ("revolute", "prismatic")
    with pytest.raises(TypeError):                     # a view: only register_arm changes it
        ROBOTS["other"] = polar_arm


def test_the_by_hand_torques_are_the_library_s(polar):
    q, qd, qdd = (0.7, 0.9), (-0.4, 0.3), (1.1, 0.6)
    np.testing.assert_allclose(dynlab.inverse_dynamics(polar_arm(), q, qd, qdd),
                               polar_torques(q, qd, qdd), rtol=1e-12, atol=1e-12)


def test_a_registered_arm_is_on_the_command_line(polar, capsys):
    q, qd, qdd = (0.7, 0.9), (-0.4, 0.3), (1.1, 0.6)
    status = main(["torque", "polar:m2=2.5", "--q", "0.7,0.9", "--qd", "-0.4,0.3",
                   "--qdd", "1.1,0.6", "--digits", "8"])
    out, err = capsys.readouterr()
    assert status == 0, err
    rows = re.findall(r"^tau(\d) = +(\S+) (N m|N)$", out, flags=re.M)
    assert [(k, unit) for k, _, unit in rows] == [("1", "N m"), ("2", "N")]
    np.testing.assert_allclose([float(v) for _, v, _ in rows],
                               polar_torques(q, qd, qdd, m2=2.5), rtol=0, atol=1e-8)
    assert main(["list"]) == 0
    out, _ = capsys.readouterr()
    assert re.search(r"^polar +2 joints \(RP\)  polar arm \(a test's\)\n +source: a test's arm$",
                     out, flags=re.M), out
    assert main(["torque", "--help"]) == 0
    assert "polar" in capsys.readouterr().out
    assert main(["torque", "polar:3", "--q", "0,0"]) == 2          # it has no option
    assert "takes its options as key=value (m2, l)" in capsys.readouterr().err


def test_a_registered_arm_has_a_dashboard(polar):
    board = dashboard("polar", render=False)
    assert [w.description for w in board.q_sliders] == ["q1", "q2"]
    assert (board.q_sliders[1].min, board.q_sliders[1].max) == (0.2, 1.0)   # its stroke
    assert [w.description for w in board.parameter_sliders.values()] == [
        "m1", "m2", "l", "payload", "viscous"]
    np.testing.assert_allclose(board.tau, polar_torques(*START), rtol=1e-12, atol=1e-12)
    board.sliders["m2"].value = 2.5
    np.testing.assert_allclose(board.tau, polar_torques(*START, m2=2.5), rtol=1e-12,
                               atol=1e-12)
    board.sliders["l"].value = 0.5                      # the rod, stretched about its end
    np.testing.assert_allclose(board.tau, polar_torques(*START, m2=2.5, l=0.5), rtol=1e-12,
                               atol=1e-12)


def test_an_arm_without_a_dashboard_spec_gets_the_plain_robot_s_dashboard():
    register_arm("polar", polar_arm, source="a test's arm")
    try:
        board, plain = dashboard("polar", render=False), dashboard(polar_arm(), render=False)
        assert dashboard_spec("polar") == DashboardSpec()
        assert list(board.sliders) == list(plain.sliders) == [
            "q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "m1", "m2", "payload", "viscous"]
        np.testing.assert_allclose(board.tau, polar_torques((0, 0), (0, 0), (0, 0)),
                                   rtol=1e-12, atol=1e-12)
    finally:
        unregister_arm("polar")


def test_an_unregistered_arm_is_gone(capsys):
    assert "polar" not in ROBOTS
    assert main(["torque", "polar", "--q", "0,0"]) == 2
    assert "unknown arm 'polar'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="unknown arm 'polar'; choose one of pendulum"):
        dashboard("polar")


@pytest.mark.parametrize("name", list(ARM_SPECS))
def test_every_registered_arm_builds_from_its_spec_with_numbers_and_symbols(name):
    spec = ARM_SPECS[name]
    assert spec.source and not re.search(r"\b00[0-4]\b", spec.source)   # as cited in print
    assert not spec.build().is_symbolic and spec.build(symbolic=True).is_symbolic
    for arm, option in DASHBOARD_SPECS:
        if arm == name and option is not None:
            assert spec.build(option).n == spec.build().n


@pytest.mark.parametrize("bad, error, message", [
    (dict(name="polar arm"), ValueError, "must be a Python identifier"),
    (dict(name="pendulum"), ValueError, "registered already; pass replace=True"),
    (dict(builder=lambda m2=1.0: None), TypeError, "must take symbolic="),
    (dict(option="joints"), TypeError, "option 'joints' is no keyword parameter"),
    (dict(source=" "), ValueError, "source must name where the arm comes from"),
])
def test_a_bad_registration_is_refused_and_changes_nothing(bad, error, message):
    arguments = dict(name="polar", builder=polar_arm, source="a test's arm") | bad
    before = dict(ARM_SPECS)
    with pytest.raises(error, match=re.escape(message)):
        register_arm(arguments.pop("name"), arguments.pop("builder"), **arguments)
    assert dict(ARM_SPECS) == before


@pytest.mark.parametrize("arm, spec, option, error, message", [
    ("polar", DashboardSpec(), None, ValueError, "no arm named 'polar' is registered"),
    ("pendulum", {"payload": 1.0}, None, TypeError, "must be a DashboardSpec, got dict"),
    ("pendulum", DashboardSpec(), "long", TypeError, "arm 'pendulum' has no option"),
])
def test_a_bad_dashboard_spec_is_refused_and_changes_nothing(arm, spec, option, error, message):
    before = dict(DASHBOARD_SPECS)
    with pytest.raises(error, match=re.escape(message)):
        register_dashboard(arm, spec, option=option)
    assert dict(DASHBOARD_SPECS) == before


def test_a_length_slider_names_its_body():
    with pytest.raises(ValueError, match="say which body spans d: body=\\(link, axis\\)"):
        LengthSlider("d4", "forearm", links=(4,), parameter="d")
    with pytest.raises(ValueError, match="links must be link numbers"):
        LengthSlider("a0", "nothing", links=(0,))
