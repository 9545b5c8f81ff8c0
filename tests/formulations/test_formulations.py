"""The three formulations (L-E in three forms, N-E in two, G-D) agree, and D, h, c have the
structure the sources prove (Fu, Gonzalez & Lee, Sec. 3.2, Lynch & Park, Prop. 8.1, Tourassis &
Neuman, Sec. 3)."""

import itertools

import numpy as np
import pytest
import sympy
from hypothesis import assume, given, settings

from dynlab import EquationsOfMotion, equations_of_motion, inverse_dynamics, probe
from dynlab.model.kinematics import link_jacobians
from dynlab.model.robots import puma560
from tests.support.arms import ALL_FORMULATIONS as ALL
from tests.support.arms import REFERENCE, symbolic_arms
from tests.support.strategies import chain_and_state


def test_every_method_of_the_sources_is_available():
    assert set(ALL) >= {("newton_euler", "link"), ("newton_euler", "base"),
                        ("lagrange_euler", "uicker"), ("lagrange_euler", "jacobian"),
                        ("lagrange_euler", "christoffel"), ("dalembert", "lee"),
                        ("twist_wrench", "poe"), ("twist_wrench", "featherstone"),
                        ("twist_wrench", "matrix")}


def source_arms():
    from dynlab.model import robots
    arms = [robots.pendulum(symbolic=True), robots.scara(symbolic=True)]
    arms += [robots.planar_2r(variant=v, symbolic=True)
             for v in ("fu", "schilling", "lynch_park", "macsyma")]
    return arms


@pytest.mark.slow
@pytest.mark.parametrize("robot", symbolic_arms() + source_arms(), ids=lambda r: r.name)
def test_all_formulations_agree_symbolically_in_compact_form(robot):
    reference = equations_of_motion(robot, method=REFERENCE[0], variant=REFERENCE[1])
    for method, variant in ALL:
        eom = equations_of_motion(robot, method=method, variant=variant)
        comparison = eom.compare(reference)
        assert comparison, f"{method}/{variant}: {comparison}"
        # compact form: no sin^2 + cos^2 left for the reader to simplify
        for element in (*eom.D, *eom.h, *eom.c):
            for q in reference.q:
                assert not (element.has(sympy.sin(q) ** 2) and element.has(sympy.cos(q) ** 2)), \
                    f"{method}/{variant} left sin^2 + cos^2 of {q} in {element}"


def test_comparison_names_the_element_that_differs():
    robot = symbolic_arms()[1]                      # the 2R arm with uniform rods
    right = equations_of_motion(robot, method="lagrange_euler")
    m2, l1 = sorted((s for s in robot.free_symbols if str(s) in ("m2", "l1")), key=str)[::-1]
    wrong_D = right.D.copy()
    wrong_D[0, 1] += m2 * l1                       # an extra term in D12
    wrong = EquationsOfMotion(robot, "printed", wrong_D, right.h, right.c, right.friction,
                              q=right.q, qd=right.qd)
    comparison = right.compare(wrong)
    assert not comparison
    assert [(d.term, d.index) for d in comparison.differences] == [("D", (0, 1))]
    assert "D[1][2]" in str(comparison) and "l1*m2" in str(comparison)


def test_probing_counts_and_matches_the_closed_form():
    robot = puma560()
    calls = []

    def counted(q, qd, qdd, **switches):
        calls.append(1)
        return inverse_dynamics(robot, q, qd, qdd, **switches)

    q, qd = np.full(6, 0.4), np.full(6, -0.3)
    probed = probe(robot, counted, q, qd)
    assert len(calls) == robot.n + 2                # Fu, Gonzalez & Lee, Prob. 3.12: n + 2 calls
    assert probed.compare(equations_of_motion(robot, q, qd, method="dalembert"))


def full_rank(robot, q) -> bool:
    """The bodies' stacked velocity Jacobian has full column rank (D is then definite)."""
    stacked = np.vstack([np.vstack(pair) for pair in link_jacobians(robot, q)])
    return np.linalg.svd(stacked, compute_uv=False)[-1] > 1e-3


@settings(max_examples=40, deadline=None)
@given(chain_and_state())
def test_random_chains_all_formulations_agree(case):
    robot, q, qd, qdd = case
    reference = inverse_dynamics(robot, q, qd, qdd)
    scale = max(1.0, float(np.max(np.abs(reference))))
    for method, variant in ALL:
        tau = inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant,
                               compiled=False)
        assert np.max(np.abs(tau - reference)) <= 1e-9 * scale, (method, variant)


@settings(max_examples=30, deadline=None)
@given(chain_and_state())
def test_random_chains_structure_of_D_h_and_passivity(case):
    robot, q, qd, _ = case
    eom = equations_of_motion(robot, q, qd, method="lagrange_euler", variant="christoffel")
    D = eom.D
    scale = max(1.0, float(np.max(np.abs(D))))
    np.testing.assert_allclose(D, D.T, atol=1e-12 * scale)
    # the velocity terms vanish at rest (Fu, Gonzalez & Lee, Sec. 3.2: h is quadratic in qd):
    # without gravity
    # and acceleration nothing is left of tau
    zero = np.zeros(robot.n)
    for method, variant in ALL:
        at_rest = inverse_dynamics(robot, q, zero, zero, method=method, variant=variant,
                                   gravity=False, compiled=False)
        assert np.max(np.abs(at_rest)) <= 1e-10 * scale, (method, variant)
    # Lynch & Park, Prop. 8.1: Ddot - 2C is skew-symmetric, Ddot = sum_k dD/dq_k qd_k
    dD = np.asarray(eom.terms["dD_dq"])
    N = np.einsum("ijk,k->ij", dD, qd) - 2 * eom.terms["C"]
    assert np.max(np.abs(N + N.T)) <= 1e-9 * scale * max(1.0, float(np.max(np.abs(qd))))
    # positive definite, and d_ij^2 < d_ii d_jj (Tourassis & Neuman, Sec. 3), wherever the
    # kinematics is regular
    assume(full_rank(robot, q))
    assert np.linalg.eigvalsh(D)[0] > 0
    for i, j in itertools.combinations(range(robot.n), 2):
        assert D[i, j] ** 2 < D[i, i] * D[j, j]


def test_numeric_paths_of_every_formulation_build_no_sympy_objects(sympy_objects_created):
    robot = puma560()
    sympy_objects_created.clear()
    q, qd, qdd = np.full(6, 0.3), np.full(6, 0.1), np.full(6, -0.2)
    for method, variant in ALL:
        for compiled in (True, False):
            inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant,
                             compiled=compiled)
        equations_of_motion(robot, q, qd, method=method, variant=variant)
    assert sympy_objects_created == []


@pytest.mark.parametrize("method", ["lagrange_euler", "newton_euler"])
def test_symbols_keep_the_velocity_terms_of_tiny_speeds(method):
    """Issue 39: at speeds of 1e-7 rad/s the symbolic h came out [0, 0] (floats below 1e-12 of
    the largest were dropped), while the numbers kept it.  By hand (Fu, Gonzalez & Lee,
    Sec. 3.2.6): h1 = -m2 l^2 S2 (qd1 qd2 + qd2^2 / 2), h2 = m2 l^2 S2 qd1^2 / 2."""
    from dynlab.model.robots import planar_2r
    eom = equations_of_motion(planar_2r("fu", symbolic=True), [0.3, 0.4], [1e-7, 1e-7],
                              method=method)
    m2, l = sympy.Symbol("m2", positive=True), sympy.Symbol("l", positive=True)
    s2 = np.sin(0.4)
    expected = [-s2 * (1e-14 + 0.5e-14), s2 * 0.5e-14]
    for element, value in zip(eom.h, expected):
        coefficient = sympy.expand(element / (m2 * l**2))
        assert not coefficient.free_symbols
        assert float(coefficient) == pytest.approx(value, rel=1e-12, abs=0)


def test_results_with_float_coefficients_compare_up_to_their_own_round_off():
    """L-E and N-E at a numeric state agree up to round-off of each coefficient (issue 39: the
    comparison failed with a TypeError); a term of 1e-20 that one of them lacks is a
    difference, however small."""
    from dynlab.model.robots import planar_2r
    arm = planar_2r("fu", symbolic=True)
    le = equations_of_motion(arm, [0.3, 0.4], [1.1, 0.7], method="lagrange_euler")
    ne = equations_of_motion(arm, [0.3, 0.4], [1.1, 0.7], method="newton_euler")
    assert le.compare(ne), le.compare(ne)
    h = ne.h.copy()
    h[1] += 1e-20 * sympy.Symbol("m1", positive=True)
    other = EquationsOfMotion(arm, "printed", ne.D, h, ne.c, ne.friction, q=ne.q, qd=ne.qd)
    assert [(d.term, d.index) for d in le.compare(other).differences] == [("h", (1,))]


def test_a_long_chain_is_derived_by_newton_euler_and_the_workbooks_arms_by_lagrange_euler():
    """Issue 39: Lagrange-Euler's O(n^4) made a 200-link chain a 1.5 h hang.  Without a method,
    chains of up to LAGRANGE_EULER_UP_TO joints (the chapters' arms among them) keep
    Lagrange-Euler and its printed terms; longer ones are probed by Newton-Euler, whose D, h, c
    still give the chain's torques."""
    from dynlab import Link, Robot
    from dynlab.dynamics.inverse import LAGRANGE_EULER_UP_TO

    def chain(n):
        return Robot([Link("R", a=0.3, alpha=0.4 * (k % 3), mass=1.0 + 0.1 * k,
                           com=(-0.15, 0.01, 0.02), inertia=np.diag([0.01, 0.02, 0.03]).tolist(),
                           name=f"l{k}") for k in range(n)], name=f"{n}-link chain")

    assert LAGRANGE_EULER_UP_TO >= 6
    arm = puma560()
    q6 = np.linspace(-1, 1, 6)
    assert equations_of_motion(arm, q6, -q6).method == "lagrange_euler"
    assert equations_of_motion(chain(LAGRANGE_EULER_UP_TO), np.zeros(LAGRANGE_EULER_UP_TO),
                               np.zeros(LAGRANGE_EULER_UP_TO)).method == "lagrange_euler"
    assert equations_of_motion(arm, q6, -q6, variant="christoffel").method == "lagrange_euler"
    long = chain(LAGRANGE_EULER_UP_TO + 1)
    rng = np.random.default_rng(8)
    q, qd, qdd = rng.uniform(-1, 1, (3, long.n))
    eom = equations_of_motion(long, q, qd)
    assert eom.method == "newton_euler"
    tau = inverse_dynamics(long, q, qd, qdd)
    np.testing.assert_allclose(eom.D @ qdd + eom.h + eom.c + eom.friction + eom.tip, tau,
                               rtol=0, atol=1e-9 * np.abs(tau).max())
