"""Generalized d'Alembert (Fu, Gonzalez & Lee, Sec. 3.4, extended to prismatic joints) against
Newton-Euler, on symbols and on numbers, and against Fu, Gonzalez & Lee's worked example 3.4.2."""

import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from dynlab import Link, Robot, inverse_dynamics, joint_symbols, probe
from dynlab.engine.tracing import Tape, backend_for
from dynlab.formulations.dalembert import VARIANTS, terms
from dynlab.model import vectors as V
from dynlab.model.robots import puma560
from dynlab.model.symbolic import compact, is_zero
from dynlab.teaching.errata import errata_table
from tests.support.strategies import chain_and_state

m1, m2, m3, l1, l2, d1, g = sympy.symbols("m1 m2 m3 l1 l2 d1 g", positive=True)
I1, I2, I3 = sympy.symbols("I1 I2 I3", positive=True)
gx, gy, gz, e = sympy.symbols("g_x g_y g_z e", real=True)

PARTS = ("D_rot", "D_tran", "h_rot", "h_tran")


def rod_x(m, l):
    """A uniform rod along x about its centre: diag(0, m l^2/12, m l^2/12)."""
    return sympy.diag(0, m * l**2 / 12, m * l**2 / 12)


def plate(I):
    """A flat plate in the xy plane: diag(I/2, I/2, I) (the triangle inequality holds)."""
    return (I / 2, I / 2, I)


def pendulum():
    return Robot([Link("R", a=l1, mass=m1, com=(-l1 / 2, 0, 0), inertia=rod_x(m1, l1),
                       name="link 1")], gravity=(0, -g, 0), name="pendulum")


def planar_2r():
    return Robot([Link("R", a=l1, mass=m1, com=(-l1 / 2, 0, 0), inertia=rod_x(m1, l1),
                       name="link 1"),
                  Link("R", a=l2, mass=m2, com=(-l2 / 2, 0, 0), inertia=rod_x(m2, l2),
                       name="link 2")], gravity=(0, -g, 0), name="2R")


def scara_rrp():
    """RRP: two horizontal plates, then a vertical quill (a rod along z_3) sliding along z_2."""
    return Robot([Link("R", a=l1, d=d1, mass=m1, com=(-l1 / 2, 0, 0), inertia=plate(I1),
                       name="link 1"),
                  Link("R", a=l2, alpha=sympy.pi, mass=m2, com=(-l2 / 2, 0, 0),
                       inertia=plate(I2), name="link 2"),
                  Link("P", mass=m3, com=(0, 0, -d1 / 2), inertia=(I3, I3, 0), name="quill")],
                 gravity=(0, 0, -g), name="RRP")


def spatial_rpr():
    """RPR with right angles, joint 3's axis across joint 1's (so the wrist's angular velocity
    turns: beta_3 = w_2 x qd_3 z_2 != 0), off-axis centres of mass, gravity in any direction."""
    return Robot([Link("R", alpha=sympy.pi / 2, d=d1, mass=m1, com=(0, -e, 0),
                       inertia=(I1, I1, I1), name="link 1"),
                  Link("P", theta=sympy.pi / 2, alpha=-sympy.pi / 2, mass=m2, com=(e, 0, -l1),
                       inertia=(I2, I2, 0), name="link 2"),
                  Link("R", a=l2, mass=m3, com=(-l2 / 2, 0, 0), inertia=rod_x(m3, l2),
                       name="link 3")], gravity=(gx, gy, gz), name="RPR")


SYMBOLIC_ARMS = [pendulum, planar_2r, scara_rrp, spatial_rpr]


def symbolic_terms(robot):
    links, gravity, _, _ = robot.symbolic()
    q, qd, _ = joint_symbols(robot.n)
    return terms(links, q, qd, gravity, V.SYMBOLIC)


def tau_of(result, qdd):
    D, h, c = (np.array(result[k], dtype=float) for k in ("D", "h", "c"))
    return D @ np.asarray(qdd, dtype=float) + h + c


# -- symbols ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("make_robot", SYMBOLIC_ARMS, ids=lambda f: f.__name__)
def test_agrees_with_newton_euler_symbolically(make_robot):
    robot = make_robot()
    ours = symbolic_terms(robot)
    theirs = probe(robot)     # D, h, c of Newton-Euler (Fu, Gonzalez & Lee, Probs. 3.11-3.12)
    assert is_zero(sympy.Matrix(ours["D"]) - theirs.D)
    assert is_zero(sympy.Matrix(ours["h"]) - theirs.h)
    assert is_zero(sympy.Matrix(ours["c"]) - theirs.c)


@pytest.mark.parametrize("make_robot", SYMBOLIC_ARMS, ids=lambda f: f.__name__)
def test_parts_add_up_and_are_symmetric(make_robot):
    result = symbolic_terms(make_robot())
    D, D_rot, D_tran = (sympy.Matrix(result[k]) for k in ("D", "D_rot", "D_tran"))
    assert is_zero(D_rot + D_tran - D)
    assert is_zero(sympy.Matrix(result["h_rot"]) + sympy.Matrix(result["h_tran"])
                   - sympy.Matrix(result["h"]))
    assert D_rot == D_rot.T and D_tran == D_tran.T


@pytest.mark.parametrize("make_robot", SYMBOLIC_ARMS, ids=lambda f: f.__name__)
def test_point_masses_have_no_rotational_part(make_robot):
    robot = make_robot()
    points = robot.replace(links=[link.replace(inertia=None) for link in robot.links])
    result = symbolic_terms(points)
    assert all(x == 0 for row in result["D_rot"] for x in row)
    assert all(x == 0 for x in result["h_rot"])
    assert is_zero(sympy.Matrix(result["D_tran"]) - probe(points).D)


@pytest.mark.parametrize("make_robot", SYMBOLIC_ARMS, ids=lambda f: f.__name__)
def test_h_is_velocity_only_and_c_gravity_only(make_robot):
    robot = make_robot()
    links, gravity, _, _ = robot.symbolic()
    q, qd, _ = joint_symbols(robot.n)
    at_rest = terms(links, q, [0] * robot.n, gravity, V.SYMBOLIC)
    weightless = terms(links, q, qd, (0, 0, 0), V.SYMBOLIC)
    assert all(sympy.expand(x) == 0 for x in at_rest["h"])
    assert all(sympy.expand(x) == 0 for x in weightless["c"])
    gravity_symbols = {s for v in gravity if isinstance(v, sympy.Basic) for s in v.free_symbols}
    full = terms(links, q, qd, gravity, V.SYMBOLIC)
    assert not any(sympy.sympify(x).free_symbols & gravity_symbols
                   for x in (*full["h"], *(y for row in full["D"] for y in row)))


def test_prismatic_joint_has_no_rotational_part():
    """In the RRP arm the quill's joint (3) neither turns anything nor feels rotation."""
    result = symbolic_terms(scara_rrp())
    assert all(result["D_rot"][2][j] == 0 and result["D_rot"][j][2] == 0 for j in range(3))
    assert result["h_rot"][2] == 0
    assert is_zero(result["D"][2][2] - m3)                    # a slide carries its mass
    assert is_zero(result["c"][2] + m3 * g)                   # z_2 points down (alpha_2 = pi)


# -- Fu, Gonzalez & Lee's worked example 3.4.2 -----------------------------------------------------
def test_worked_example_3_4_2_term_by_term():
    """Fu, Gonzalez & Lee, Sec. 3.4.2, lines 1197-1296: every printed intermediate split and final
    result."""
    l = sympy.Symbol("l", positive=True)
    arm = planar_2r().subs({l1: l, l2: l})
    q, qd, _ = joint_symbols(2)
    result = symbolic_terms(arm)
    C1, C2, C12, S2 = sympy.cos(q[0]), sympy.cos(q[1]), sympy.cos(q[0] + q[1]), sympy.sin(q[1])
    printed = {
        # D_11 = (0,0,1) I_1 (0,0,1)^T + (0,0,1) I_2 (0,0,1)^T + m1 (...) + m2 (...)
        "D_rot": [[m1 * l**2 / 12 + m2 * l**2 / 12, m2 * l**2 / 12],
                  [m2 * l**2 / 12, m2 * l**2 / 12]],
        # D_22 = (1/12) m2 l^2 + (1/4) m2 l^2
        "D_tran": [[m1 * l**2 / 4 + m2 * l**2 * (sympy.Rational(5, 4) + C2),
                    m2 * l**2 * (sympy.Rational(1, 4) + C2 / 2)],
                   [m2 * l**2 * (sympy.Rational(1, 4) + C2 / 2), m2 * l**2 / 4]],
        "D": [[m1 * l**2 / 3 + 4 * m2 * l**2 / 3 + m2 * C2 * l**2,
               m2 * l**2 / 3 + m2 * C2 * l**2 / 2],
              [m2 * l**2 / 3 + m2 * C2 * l**2 / 2, m2 * l**2 / 3]],
        "h_tran": [m2 * l**2 * S2 * qd[0]**2 / 2 - m2 * l**2 * S2 * qd[0]**2 / 2
                   - m2 * l**2 * S2 * qd[1]**2 / 2 - m2 * l**2 * S2 * qd[0] * qd[1],
                   m2 * l**2 * S2 * qd[0]**2 / 2],
        "h_rot": [0, 0],
        "h": [-m2 * l**2 * S2 * qd[1]**2 / 2 - m2 * l**2 * S2 * qd[0] * qd[1],
              m2 * l**2 * S2 * qd[0]**2 / 2],
        "c": [(m1 / 2 + m2) * g * l * C1 + m2 * g * l * C12 / 2, m2 * g * l * C12 / 2],
    }
    for key, value in printed.items():
        assert is_zero(sympy.Matrix(result[key]) - sympy.Matrix(value)), key


def test_worked_example_h1_tran_pieces():
    """Fu, Gonzalez & Lee lines 1240-1243: h_1^tran's three printed pieces, each evaluated (the m_1
    piece is 0)."""
    l = sympy.Symbol("l", positive=True)
    q, qd, _ = joint_symbols(2)
    C1, S1, C12, S12 = (sympy.cos(q[0]), sympy.sin(q[0]), sympy.cos(q[0] + q[1]),
                        sympy.sin(q[0] + q[1]))
    z = (0, 0, 1)
    p1 = (l * C1, l * S1, 0)
    c1 = (l * C1 / 2, l * S1 / 2, 0)
    c2 = (l * C12 / 2, l * S12 / 2, 0)
    r1, r2 = c1, V.add(p1, c2)
    w1, w2 = V.scale(qd[0], z), V.scale(qd[0] + qd[1], z)
    pieces = [m2 * V.dot(V.cross(w1, V.cross(w1, p1)), V.cross(z, r2)),
              m1 * V.dot(V.cross(w1, V.cross(w1, c1)), V.cross(z, r1)),
              m2 * V.dot(V.add(V.cross(w2, V.cross(w2, c2)),
                               V.cross(V.cross(w1, V.scale(qd[1], z)), c2)), V.cross(z, r2))]
    S2 = sympy.sin(q[1])
    expected = [m2 * l**2 * S2 * qd[0]**2 / 2, 0,
                -m2 * l**2 * S2 * (qd[0] + qd[1])**2 / 2]
    assert all(is_zero(a - b) for a, b in zip(pieces, expected))
    arm = planar_2r().subs({l1: l, l2: l})
    assert is_zero(sum(pieces) - symbolic_terms(arm)["h_tran"][0])


def test_errata_of_section_3_4_are_recorded():
    places = [e.place for e in errata_table("fu")]
    for equation in ("(3.4-8)", "(3.4-23)", "(3.4-26)", "(3.4-27)"):
        assert any(equation in place for place in places), equation


# -- numbers ---------------------------------------------------------------------------------------
def test_contract_plain_lists_of_floats():
    robot = puma560()
    links, gravity, _, _ = robot.numeric()
    result = VARIANTS["lee"](links, (0.1,) * 6, (0.2,) * 6, gravity)
    assert set(result) >= {"D", "h", "c", *PARTS}
    for key in ("D", "D_rot", "D_tran"):
        assert isinstance(result[key], (list, tuple)) and len(result[key]) == 6
        assert all(isinstance(row, (list, tuple)) and len(row) == 6 for row in result[key])
        assert all(type(x) is float for row in result[key] for x in row)
    for key in ("h", "c", "h_rot", "h_tran"):
        assert isinstance(result[key], (list, tuple)) and len(result[key]) == 6
        assert all(type(x) is float for x in result[key])


def test_puma_agrees_with_newton_euler_at_50_random_states():
    robot = puma560()
    links, gravity, _, _ = robot.numeric()
    rng = np.random.default_rng(3_4_25)
    for _ in range(50):
        q, qd, qdd = rng.uniform(-np.pi, np.pi, 6), rng.uniform(-3, 3, 6), rng.uniform(-5, 5, 6)
        result = terms(links, tuple(q), tuple(qd), gravity)
        expected = inverse_dynamics(robot, q, qd, qdd, friction=False)
        scale = max(1.0, float(np.max(np.abs(expected))))
        assert np.max(np.abs(tau_of(result, qdd) - expected)) <= 1e-9 * scale
        D = np.array(result["D"])
        np.testing.assert_allclose(D, D.T, atol=1e-12)
        np.testing.assert_allclose(D, np.array(result["D_rot"]) + np.array(result["D_tran"]),
                                   atol=1e-12)
        np.testing.assert_allclose(result["h"], np.add(result["h_rot"], result["h_tran"]),
                                   atol=1e-12)


def test_puma_D_h_c_separately_equal_probed_newton_euler():
    robot = puma560()
    links, gravity, _, _ = robot.numeric()
    rng = np.random.default_rng(560)
    for _ in range(5):
        q, qd = rng.uniform(-np.pi, np.pi, 6), rng.uniform(-3, 3, 6)
        result = terms(links, tuple(q), tuple(qd), gravity)
        eom = probe(robot, q=q, qd=qd)
        for key in ("D", "h", "c"):
            np.testing.assert_allclose(result[key], getattr(eom, key), rtol=1e-9, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(chain_and_state())
def test_random_chains_agree_with_newton_euler(case):
    robot, q, qd, qdd = case
    links, gravity, _, _ = robot.numeric()
    result = terms(links, q, qd, gravity)
    expected = inverse_dynamics(robot, q, qd, qdd, friction=False)
    scale = max(1.0, float(np.max(np.abs(expected))))
    assert np.max(np.abs(tau_of(result, qdd) - expected)) <= 1e-9 * scale
    # and term by term: D, h, c each equal Newton-Euler's, probed
    eom = probe(robot, q=np.array(q), qd=np.array(qd))
    for key in ("D", "h", "c"):
        ours, theirs = np.array(result[key]), getattr(eom, key)
        assert np.max(np.abs(ours - theirs)) <= 1e-9 * max(1.0, float(np.max(np.abs(theirs))))
    assert np.all(np.linalg.eigvalsh(np.array(result["D"])) > -1e-9)


def test_numeric_path_builds_no_sympy_objects(sympy_objects_created):
    robot = puma560()
    links, gravity, _, _ = robot.numeric()        # built before counting
    mixed = spatial_rpr().subs({m1: 1.5, m2: 2.0, m3: 0.7, l1: 0.4, l2: 0.9, d1: 0.3, e: 0.05,
                                I1: 0.1, I2: 0.2, I3: 0.05, gx: 1.0, gy: -2.0, gz: -9.0})
    mixed_links, mixed_gravity, _, _ = mixed.numeric()
    sympy_objects_created.clear()
    terms(links, (0.3,) * 6, (0.1,) * 6, gravity)
    terms(mixed_links, (0.3, 0.2, -0.4), (0.1, 0.5, -0.2), mixed_gravity)
    assert sympy_objects_created == []


def test_traced_terms_match_the_float_run():
    """The same lines run on the tracer (dynlab.engine.tracing): the compiled straight-line code
    gives the float results, so the dispatcher can compile G-D like Newton-Euler."""
    for robot in (puma560(), scara_rrp().subs({m1: 2.0, m2: 1.5, m3: 0.5, l1: 0.4, l2: 0.3,
                                                d1: 0.2, I1: 0.05, I2: 0.04, I3: 0.01,
                                                g: 9.8062})):
        links, gravity, _, _ = robot.numeric()
        n = robot.n
        tape = Tape()
        q_in, qd_in = tape.inputs("q", n), tape.inputs("qd", n)
        traced = terms(links, q_in, qd_in, gravity, backend_for(tape))
        flat = lambda r: [x for key in ("D", "h", "c") for x in np.ravel(  # noqa: E731
            np.array(r[key], dtype=object))]
        tape.outputs(flat(traced))
        function = tape.compile("gd", ("q", "qd"))
        rng = np.random.default_rng(7)
        for _ in range(5):
            q, qd = tuple(rng.uniform(-2, 2, n)), tuple(rng.uniform(-2, 2, n))
            np.testing.assert_allclose(function(q, qd), flat(terms(links, q, qd, gravity)),
                                       rtol=1e-12, atol=1e-12)


def test_symbolic_result_at_numbers_equals_numeric_result():
    robot = spatial_rpr()
    values = {m1: 1.5, m2: 2.0, m3: 0.7, l1: 0.4, l2: 0.9, d1: 0.3, e: 0.05, I1: 0.1, I2: 0.2,
              I3: 0.05, gx: 1.0, gy: -2.0, gz: -9.0}
    q, qd, _ = joint_symbols(3)
    state = dict(zip(q + qd, (0.3, 0.2, -0.4, 0.1, 0.5, -0.2)))
    symbolic = symbolic_terms(robot)
    links, gravity, _, _ = robot.subs(values).numeric()
    numeric = terms(links, (0.3, 0.2, -0.4), (0.1, 0.5, -0.2), gravity)
    for key in ("D", "h", "c", *PARTS):
        derived = sympy.Matrix(symbolic[key]).subs(values).subs(state)
        np.testing.assert_allclose(np.array(derived, dtype=float).reshape(np.shape(numeric[key])),
                                   numeric[key], rtol=1e-12, atol=1e-12)


def test_compact_form_of_the_scara_translational_inertia():
    """The RRP arm's D^tran in book form: the quill's mass enters joints 1-2 like a point at
    the end of link 2, and its slide decouples (D_13 = D_23 = 0 for a vertical quill)."""
    D_tran = compact(sympy.Matrix(symbolic_terms(scara_rrp())["D_tran"]))
    assert D_tran[0, 2] == 0 and D_tran[1, 2] == 0
    assert is_zero(D_tran[1, 1] - (m2 * l2**2 / 4 + m3 * l2**2))
