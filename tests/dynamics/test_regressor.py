"""tau = Y(q, qd, qdd) pi: the regressor derived from the symbolic equations of motion gives,
times the base parameters, the torques of the numeric Newton-Euler engine, for random states and
random arms (the planar two-link arm and the one-link pendulum); bad input gets a clear error."""

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import Link, Robot, equations_of_motion, inverse_dynamics, joint_symbols
from dynlab.dynamics.regressor import regressor
from dynlab.model.symbolic import is_zero

finite = dict(allow_nan=False, allow_infinity=False)
l1, l2, d1, d2, m1, m2, I1, I2, g = sympy.symbols("l1 l2 d1 d2 m1 m2 I1 I2 g", positive=True)
PI = sympy.symbols("pi1:5")


def two_link(l1, l2, d1, d2, m1, m2, I1, I2, g):
    """The planar two-link arm: link i of length l_i, mass m_i with its centre d_i from joint i,
    moment I_i about it; frame i at the distal end (Fu, Gonzalez & Lee's frames)."""
    return Robot([Link("R", a=l1, mass=m1, com=(d1 - l1, 0, 0), inertia=(0, I1, I1), name="l1"),
                  Link("R", a=l2, mass=m2, com=(d2 - l2, 0, 0), inertia=(0, I2, I2), name="l2")],
                 gravity=(0, -g, 0), name="two-link arm")


def two_link_base(l1, d1, d2, m1, m2, I1, I2):
    return (I1 + m1 * d1**2 + m2 * l1**2, m1 * d1 + m2 * l1, I2 + m2 * d2**2, m2 * d2)


@pytest.fixture(scope="module")
def two_link_Y():
    q, qd, qdd = joint_symbols(2)
    tau = equations_of_motion(two_link(l1, l2, d1, d2, m1, m2, I1, I2, g)).torque(qdd)
    Y = regressor(tau, dict(zip(PI, two_link_base(l1, d1, d2, m1, m2, I1, I2))),
                  solve_for=(I1, m1, I2, m2))
    assert is_zero(Y * sympy.Matrix(two_link_base(l1, d1, d2, m1, m2, I1, I2)) - tau)
    return sympy.lambdify([*q, *qd, *qdd, l1, g], Y, "numpy")


def test_the_two_link_regressor_depends_on_the_motion_and_the_known_geometry_only():
    q, qd, qdd = joint_symbols(2)
    tau = equations_of_motion(two_link(l1, l2, d1, d2, m1, m2, I1, I2, g)).torque(qdd)
    Y = regressor(tau, dict(zip(PI, two_link_base(l1, d1, d2, m1, m2, I1, I2))),
                  solve_for=(I1, m1, I2, m2))
    assert Y.shape == (2, 4)
    assert Y.free_symbols <= {*q, *qd, *qdd, l1, g}
    assert Y[1, 0] == 0 and Y[1, 1] == 0          # link 1's parameters do not load the elbow


lengths = st.floats(0.2, 2.0, **finite)
fractions = st.floats(0.05, 0.95, **finite)
masses = st.floats(0.1, 10.0, **finite)
moments = st.floats(0.001, 1.0, **finite)
angles = st.floats(-np.pi, np.pi, **finite)
rates = st.floats(-5.0, 5.0, **finite)


@settings(max_examples=40, deadline=None)
@given(st.tuples(lengths, lengths, fractions, fractions, masses, masses, moments, moments),
       st.tuples(*[angles] * 2, *[rates] * 4))
def test_Y_pi_is_the_engines_torque_for_the_two_link_arm(two_link_Y, parameters, state):
    L1, L2, f1, f2, M1, M2, J1, J2 = parameters
    D1, D2 = f1 * L1, f2 * L2
    arm = two_link(L1, L2, D1, D2, M1, M2, J1, J2, 9.8062)
    q, qd, qdd = state[:2], state[2:4], state[4:]
    tau = inverse_dynamics(arm, q, qd, qdd)
    Y = np.array(two_link_Y(*q, *qd, *qdd, L1, 9.8062), dtype=float)
    pi = np.array(two_link_base(L1, D1, D2, M1, M2, J1, J2), dtype=float)
    assert np.allclose(Y @ pi, tau, rtol=1e-9, atol=1e-9)


def pendulum(a, d, m, inertia, g):
    return Robot([Link("R", a=a, mass=m, com=(d - a, 0, 0), inertia=(0, inertia, inertia),
                       name="rod")], gravity=(0, -g, 0), name="pendulum")


@pytest.fixture(scope="module")
def pendulum_Y():
    a, d, m, inertia = sympy.symbols("a d m I", positive=True)
    (q,), (qd,), (qdd,) = joint_symbols(1)
    p1, p2 = sympy.symbols("p1 p2")
    tau = equations_of_motion(pendulum(a, d, m, inertia, g)).torque([qdd])
    Y = regressor(tau, {p1: inertia + m * d**2, p2: m * d}, solve_for=(inertia, m))
    assert Y.free_symbols <= {q, qdd, g}
    return sympy.lambdify([q, qd, qdd, g], Y, "numpy")


@settings(max_examples=25, deadline=None)
@given(st.tuples(lengths, fractions, masses, moments), st.tuples(angles, rates, rates))
def test_Y_pi_is_the_engines_torque_for_the_pendulum(pendulum_Y, parameters, state):
    A, F, M, J = parameters
    pi = np.array([J + M * (F * A)**2, M * F * A])
    engine = inverse_dynamics(pendulum(A, F * A, M, J, 9.8062), *([s] for s in state))
    Y = np.array(pendulum_Y(*state, 9.8062), dtype=float)
    assert np.allclose(Y @ pi, engine, rtol=1e-9, atol=1e-9)


def test_bad_input_gets_a_clear_error():
    q1, qdd1, m, d, I = sympy.symbols("q1 qdd1 m d I")
    p, r = sympy.symbols("p r")
    tau = [(I + m * d**2) * qdd1]
    with pytest.raises(TypeError, match="torques"):
        regressor("I*qdd1", {p: I}, solve_for=[I])
    with pytest.raises(TypeError, match=r"torques\[0\]"):
        regressor(["I*qdd1"], {p: I}, solve_for=[I])
    with pytest.raises(TypeError, match="base_parameters"):
        regressor(tau, [I + m * d**2], solve_for=[I])
    with pytest.raises(TypeError, match="base_parameters: each key"):
        regressor(tau, {"p": I + m * d**2}, solve_for=[I])
    with pytest.raises(TypeError, match="solve_for"):
        regressor(tau, {p: I + m * d**2}, solve_for=I)
    with pytest.raises(ValueError, match="one physical parameter per base parameter"):
        regressor(tau, {p: I + m * d**2}, solve_for=[I, m])
    with pytest.raises(ValueError, match="already occur"):
        regressor(tau, {m: I + m * d**2}, solve_for=[I])
    with pytest.raises(ValueError, match="do not determine"):
        regressor(tau, {p: m * d, r: 2 * m * d}, solve_for=[m, d])
    with pytest.raises(ValueError, match="not linear"):
        regressor([m**2 * qdd1], {p: m}, solve_for=[m])
    with pytest.raises(ValueError, match="not Y \\* pi"):
        regressor(tau, {p: m * d}, solve_for=[m])


def test_a_small_parameter_keeps_its_column_and_a_stray_small_term_is_refused():
    """Issue 39: floats below 1e-12 of the largest were dropped, and so were I's column and a
    term that no base parameter holds (and the proof passed).  By hand: d tau / d p1 =
    1000 qdd1, d tau / d p2 = 1e-10 qdd1."""
    q1, qdd1, m, I, p1, p2 = sympy.symbols("q1 qdd1 m I p1 p2")
    Y = regressor([1e3 * m * qdd1 + 1e-10 * I * qdd1], {p1: m, p2: I}, [m, I])
    assert Y == sympy.Matrix([[1e3 * qdd1, 1e-10 * qdd1]])
    with pytest.raises(ValueError, match="not Y \\* pi"):
        regressor([m * qdd1 + 1e-13 * sympy.cos(q1)], {p1: m}, [m])
