"""One place to add a formulation: toys registered in dynlab.formulations.registry (Lynch &
Park's energy form, Luh's recursion, and SymPy's LagrangesMethod on SymPy only) reach every
consumer, which none names; no module outside the registry compares a method's name."""

import ast
from pathlib import Path

import numpy as np
import pytest
import sympy
import sympy.physics.mechanics as me

from dynlab import equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.cli import main
from dynlab.dynamics.codegen import generate
from dynlab.dynamics.control import computed_torque
from dynlab.dynamics.simulation import simulate
from dynlab.engine.opcount import count_operations
from dynlab.formulations import lagrange_euler, newton_euler
from dynlab.formulations import registry as formulations
from dynlab.model import kinematics
from dynlab.model import vectors as V
from dynlab.model.robots import pendulum, planar_2r, scara
from dynlab.teaching import side_by_side
from dynlab.teaching.dashboards.arm import dashboard

ROOT = Path(__file__).resolve().parents[2]
FORMULATION_REGISTRY = ROOT / "dynlab" / "formulations" / "registry.py"


def energy_form(links, q, qd, gravity, backend):
    """A "terms" toy: only D, h, c of Lynch & Park's form, none of its pieces."""
    terms = lagrange_euler.christoffel_terms(links, q, qd, gravity, backend)
    return {"D": terms["D"], "h": terms["h"], "c": terms["c"]}


def luh(links, q, qd, qdd, gravity, tip_force, tip_moment, backend, **options):
    """A "torques" toy: Luh's link-frame recursion under another name."""
    return newton_euler.link_frame(links, q, qd, qdd, gravity, tip_force, tip_moment, backend,
                                   **options)


@pytest.fixture
def toys():
    added = [formulations.register(formulations.Formulation(
                 "toy_terms", "toy energy form", "terms", {"energy": energy_form}, "energy",
                 "Lynch & Park, Sec. 8.1")),
             formulations.register(formulations.Formulation(
                 "toy_torques", "toy recursion", "torques", {"luh": luh}, "luh",
                 "Fu, Gonzalez & Lee (1987), Table 3.3"))]
    yield [f.name for f in added]
    for formulation in added:
        formulations.unregister(formulation.name)


STATE = ([0.3, -0.7, 0.1], [0.5, 1.1, -0.4], [1.0, -2.0, 0.3])


def test_a_registered_formulation_derives_the_same_equations(toys):
    arm = planar_2r("fu", symbolic=True)
    reference = equations_of_motion(arm, method="lagrange_euler")
    for method in toys:
        eom = equations_of_motion(arm, method=method)
        assert eom.method == method
        for mine, theirs in ((eom.D, reference.D), (eom.h, reference.h), (eom.c, reference.c)):
            assert sympy.simplify(mine - theirs) == sympy.zeros(*theirs.shape)


def test_a_registered_formulation_gives_torques_and_accelerations(toys):
    robot = scara(viscous=0.2)
    q, qd, qdd = STATE
    expected = inverse_dynamics(robot, q, qd, qdd)
    for method in toys:
        tau = inverse_dynamics(robot, q, qd, qdd, method=method)
        assert np.allclose(tau, expected, rtol=1e-12, atol=1e-12)
        assert np.allclose(inverse_dynamics(robot, q, qd, qdd, method=method, compiled=False),
                           expected, rtol=1e-12, atol=1e-12)
        assert np.allclose(forward_dynamics(robot, q, qd, tau, method=method), qdd,
                           rtol=1e-9, atol=1e-9)


def test_a_registered_formulation_generates_code(toys):
    robot = scara()
    q, qd, qdd = STATE
    for method in toys:
        code = generate(robot, method=method, cache=False)
        assert np.allclose(code(q, qd, qdd), inverse_dynamics(robot, q, qd, qdd), atol=1e-12)


def test_a_registered_formulation_is_a_choice_of_the_command_line(toys, capsys):
    assert main(["torque", "scara", "--q", "0.3,-0.7,0.1", "--qdd", "1,-2,0.3"]) == 0
    expected = capsys.readouterr().out
    for method in toys:
        assert main(["torque", "scara", "--q", "0.3,-0.7,0.1", "--qdd", "1,-2,0.3",
                     "--method", method]) == 0
        out = capsys.readouterr().out
        numbers = [line.split("=")[1].split()[0] for line in out.splitlines() if "tau" in line]
        assert numbers and numbers == [line.split("=")[1].split()[0]
                                       for line in expected.splitlines() if "tau" in line]


def test_a_registered_formulation_drives_a_dashboard(toys):
    reference = dashboard("scara", render=False)
    reference.set_state(q=[0.3, -0.7, 0.1], qd=[0.5, 1.1, -0.4], qdd=[1.0, -2.0, 0.3])
    for method in toys:
        board = dashboard("scara", engine=method, render=False)
        board.set_state(q=[0.3, -0.7, 0.1], qd=[0.5, 1.1, -0.4], qdd=[1.0, -2.0, 0.3])
        for part, values in reference.parts.items():
            assert np.allclose(board.parts[part], values, atol=1e-10), part


def test_a_registered_formulation_joins_the_chapters_side_by_side_tables(toys):
    from dynlab.teaching import side_by_side
    robot = scara()
    table = side_by_side.torques_side_by_side(robot, *STATE, show=False)
    labels = [label for method, _, label in side_by_side.variants() if method in toys]
    assert labels == ["toy energy form (energy)", "toy recursion (luh)"]
    expected = inverse_dynamics(robot, *STATE)
    for label in labels:
        assert np.allclose(table.torques[label], expected, atol=1e-10), label
    assert table.spread < 1e-10
    counts = side_by_side.operation_counts(robot, show=False)
    assert counts["toy recursion (luh)"] == counts["Newton-Euler (link frame)"]


def test_registry_refuses_what_it_cannot_dispatch():
    with pytest.raises(ValueError, match="kind must be one of torques, terms"):
        formulations.Formulation("odd", "odd", "matrices", {"a": energy_form}, "a", "")
    with pytest.raises(ValueError, match="default variant 'b'"):
        formulations.Formulation("odd", "odd", "terms", {"a": energy_form}, "b", "")
    with pytest.raises(ValueError, match="already registered"):
        formulations.register(formulations.FORMULATIONS["newton_euler"])
    with pytest.raises(TypeError, match="method must be a string"):
        formulations.lookup(["newton_euler"])
    with pytest.raises(ValueError, match="unknown variant 'luh' of newton_euler"):
        formulations.lookup("newton_euler", "luh")


def _name_comparisons(path: Path, names: set, root: Path = ROOT) -> list:
    """``file:line`` of every ``==``/``!=``/``in`` comparison with a formulation's name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Compare):
            continue
        for operand in (node.left, *node.comparators):
            literals = (operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set))
                        else [operand])
            if any(isinstance(x, ast.Constant) and x.value in names for x in literals):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_the_scan_finds_a_name_comparison(tmp_path):
    probe = tmp_path / "branching.py"
    probe.write_text('def f(method, m):\n    return method == "newton_euler" or m in ("x",)\n'
                     'def g(method):\n    return method in ("dalembert", "other")\n')
    assert sorted(_name_comparisons(probe, set(formulations.FORMULATIONS), tmp_path)) == [
        "branching.py:2", "branching.py:4"]


def test_no_module_outside_the_registry_compares_a_formulation_name():
    names = set(formulations.FORMULATIONS)
    found = [hit for path in sorted((ROOT / "dynlab").rglob("*.py"))
             if path != FORMULATION_REGISTRY for hit in _name_comparisons(path, names)]
    assert found == []


def test_a_comparison_names_only_the_terms_it_compared():
    from dynlab.model.robots import pendulum
    le = equations_of_motion(pendulum(), method="lagrange_euler")
    gd = equations_of_motion(pendulum(), method="dalembert")
    assert str(le.compare(gd, terms=("D", "c"))) == "lagrange_euler and dalembert agree in D and c"
    assert str(le.compare(gd, terms=("h",))) == "lagrange_euler and dalembert agree in h"
    assert str(le.compare(gd)) == "lagrange_euler and dalembert agree in D, h, c, friction and tip"
    different = le.compare(equations_of_motion(pendulum(m1=2.0), method="dalembert"),
                           terms=("D",))
    assert not different and "differ in" in str(different)


# -- a formulation that runs on SymPy only ---------------------------------------------------------
def lagranges_method(links, q, qd, gravity, backend):
    """A "terms" formulation by SymPy's ``LagrangesMethod``: ``L = K - P`` with each link's
    kinetic energy ``(m v_c . v_c + omega . I omega) / 2`` and potential energy ``-m g . r_c``
    (Fu, Gonzalez & Lee (1987), Sec. 3.2), the angular velocity read from ``R' R^T``."""
    t = me.dynamicsymbols._t
    xs = me.dynamicsymbols(f"x1:{len(links) + 1}")
    rotations, origins = kinematics.chain(links, xs, V.SYMBOLIC)
    lagrangian = 0
    for k, link in enumerate(links):
        R = sympy.Matrix(rotations[k + 1])
        centre = sympy.Matrix(origins[k + 1]) + R * sympy.Matrix(link.com)
        spin = sympy.simplify(R.diff(t) * R.T)               # the skew matrix of omega
        omega = sympy.Matrix([spin[2, 1], spin[0, 2], spin[1, 0]])
        velocity = centre.diff(t)
        inertia = R * sympy.Matrix(link.inertia) * R.T
        lagrangian += (link.mass * velocity.dot(velocity) + omega.dot(inertia * omega)) / 2
        lagrangian += link.mass * sympy.Matrix(gravity).dot(centre)
    method = me.LagrangesMethod(lagrangian, xs)
    method.form_lagranges_equations()
    rates = {x.diff(t): v for x, v in zip(xs, qd)}
    at_rest = {x.diff(t): 0 for x in xs}
    angles = dict(zip(xs, q))
    bias = me.msubs(-method.forcing, rates, angles)
    c = me.msubs(-method.forcing, at_rest, angles)
    return {"D": me.msubs(method.mass_matrix, angles).tolist(), "h": list(bias - c),
            "c": list(c)}


@pytest.fixture
def symbolic_only():
    formulation = formulations.register(formulations.Formulation(
        "sympy_lagrange", "SymPy's LagrangesMethod", "terms", {"energy": lagranges_method},
        "energy", "Fu, Gonzalez & Lee (1987), Sec. 3.2", numeric=False))
    yield formulation.name
    formulations.unregister(formulation.name)


def numeric_refusal(method: str) -> str:
    """The message a numeric consumer gives for a formulation that runs on SymPy only."""
    return (f"{method} is symbolic only; numeric methods are "
            f"{', '.join(formulations.methods('numeric'))}")


def test_the_capabilities_are_declared_and_asked_for(symbolic_only):
    mine = formulations.FORMULATIONS[symbolic_only]
    assert mine.capabilities() == ("symbolic", "terms", "own_inertia")
    assert symbolic_only in formulations.methods("symbolic")
    assert symbolic_only not in formulations.methods("numeric")
    assert formulations.methods("numeric") == [
        name for name in formulations.FORMULATIONS if name != symbolic_only]
    assert all(method != symbolic_only for method, _ in formulations.every_variant("numeric"))
    featherstone = formulations.FORMULATIONS["twist_wrench"]
    assert featherstone.can("own_forward_dynamics", "featherstone")
    assert not featherstone.can("own_forward_dynamics", "poe")
    with pytest.raises(ValueError, match="unknown capability 'fast'"):
        mine.can("fast")
    with pytest.raises(ValueError, match="must run on numbers .* or on both"):
        formulations.Formulation("odd", "odd", "terms", {"a": energy_form}, "a", "",
                                 numeric=False, symbolic=False)
    with pytest.raises(TypeError, match="numeric must be True or False"):
        formulations.Formulation("odd", "odd", "terms", {"a": energy_form}, "a", "", numeric=1)


@pytest.mark.slow
def test_a_symbolic_only_formulation_joins_the_derivations_and_their_comparison(symbolic_only):
    for arm in (pendulum(symbolic=True), planar_2r("fu", symbolic=True)):
        eom = equations_of_motion(arm, method=symbolic_only)
        reference = equations_of_motion(arm, method="lagrange_euler")
        comparison = eom.compare(reference)
        assert comparison, str(comparison)
        assert str(comparison) == (f"{symbolic_only} and lagrange_euler agree in D, h, c, "
                                   f"friction and tip")
    # a symbolic inverse dynamics runs it through its D, h, c
    arm = pendulum(symbolic=True)
    q, qd, qdd = ([s] for s in sympy.symbols("q1 qd1 qdd1"))
    assert sympy.simplify(inverse_dynamics(arm, q, qd, qdd, method=symbolic_only)
                          - inverse_dynamics(arm, q, qd, qdd)) == sympy.zeros(1, 1)


def test_the_command_line_derives_and_compares_with_it(symbolic_only, capsys):
    assert main(["compare", "pendulum"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(symbolic_only))
    assert row.split()[-4:] == ["-", "-", "-", "agree"]        # no generated code: SymPy only
    assert main(["equations", "pendulum", "--method", symbolic_only]) == 0
    assert f"({symbolic_only}, energy;" in capsys.readouterr().out


def test_numeric_consumers_refuse_it_by_name_and_leave_it_out_of_their_lists(symbolic_only,
                                                                             capsys):
    robot, message = scara(), numeric_refusal(symbolic_only)
    q, qd, qdd = STATE
    for call in (lambda: inverse_dynamics(robot, q, qd, qdd, method=symbolic_only),
                 lambda: forward_dynamics(robot, q, qd, qdd, method=symbolic_only),
                 lambda: equations_of_motion(robot, q, qd, method=symbolic_only),
                 lambda: generate(robot, method=symbolic_only, cache=False),
                 lambda: count_operations(robot, symbolic_only),
                 lambda: simulate(robot, q, qd, method=symbolic_only),
                 lambda: computed_torque(robot, 1.0, 1.0, q, method=symbolic_only),
                 lambda: dashboard("scara", engine=symbolic_only, render=False)):
        with pytest.raises(ValueError) as error:
            call()
        assert message in str(error.value)
    assert main(["torque", "scara", "--q", "0,0,0", "--method", symbolic_only]) == 2
    assert message in capsys.readouterr().err
    # the tables of numbers and the command line's numeric lists leave it out, with a note
    assert all(method != symbolic_only for method, _, _ in side_by_side.variants())
    table = side_by_side.torques_side_by_side(robot, *STATE)
    out = capsys.readouterr().out
    assert symbolic_only not in str(table.torques) and table.spread < 1e-9
    assert out.splitlines()[-1] == ("(not in the table, symbolic only: SymPy's LagrangesMethod "
                                    "(energy))")
    assert main(["compare", "scara", "--numeric"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"(left out, not numeric: {symbolic_only})"
    assert not any(line.startswith(symbolic_only) for line in out.splitlines())
    assert main(["check", "pendulum", "--states", "1"]) == 0
    assert f"(left out, not numeric: {symbolic_only})" in capsys.readouterr().out


def _kind_reads(path: Path, root: Path = ROOT) -> list:
    """``file:line`` of every read of a formulation's ``.kind`` (``formulation.kind``,
    ``self.formulation.kind``, ``FORMULATIONS[m].kind``)."""
    return [f"{path.relative_to(root)}:{node.lineno}"
            for node in ast.walk(ast.parse(path.read_text(), str(path)))
            if isinstance(node, ast.Attribute) and node.attr == "kind"
            and "formulation" in ast.unparse(node.value).lower()]


def test_consumers_ask_for_a_capability_not_a_kind(tmp_path):
    probe = tmp_path / "asking.py"
    probe.write_text('if self.formulation.kind == "terms" or FORMULATIONS[m].kind: pass\n'
                     'if parameter.kind == 1 or formulation.can("terms"): pass\n')
    assert _kind_reads(probe, tmp_path) == ["asking.py:1", "asking.py:1"]
    found = [hit for path in sorted((ROOT / "dynlab").rglob("*.py"))
             if path != FORMULATION_REGISTRY for hit in _kind_reads(path)]
    assert found == []
