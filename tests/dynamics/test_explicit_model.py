"""The explicit model (Armstrong, Khatib & Burdick (1986)): the planar two-link arm's against Fu,
Gonzalez & Lee's hand derivation (Sec. 3.2.6) and a hand count of its operations; the PUMA 560's
uncut model against dynlab's inverse dynamics and equations of motion at random states, D11 in
at most 40 terms, the 1 % cut keeping exactly the terms of 1 % of their element and erring at most
by the dropped terms' coefficients; its operations counted twice (as written and on a tape)."""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings

from dynlab.dynamics.explicit_model import explicit_model
from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics
from dynlab.model.robots import planar_2r, puma560, scara, ur20
from dynlab.teaching.cost_tables import explicit_model_table
from tests.support.strategies import chain_and_state

M1, M2, L, G = 1.3, 0.7, 0.9, 9.8062


@pytest.fixture(scope="module")
def two_link():
    return explicit_model(planar_2r("fu", m1=M1, m2=M2, l=L))


@pytest.fixture(scope="module")
def puma():
    return explicit_model(puma560())


def states(rng, samples, n):
    return (rng.uniform(-np.pi, np.pi, (samples, n)), rng.uniform(-2, 2, (samples, n)),
            rng.uniform(-3, 3, (samples, n)))


def value(model, name):
    return next(float(vector @ model.values) for n, vector in model.constants if n == name)


# -- the planar two-link arm by hand ------------------------------------------------------------
def test_the_two_link_arms_model_is_fu_gonzalez_and_lees_hand_derivation(two_link):
    # Fu, Gonzalez & Lee, Sec. 3.2.6 (uniform rods of length l): D11 = m1 l^2/3 + 4 m2 l^2/3 +
    # m2 l^2 C2, D12 = m2 l^2/3 + m2 l^2 C2/2, D22 = m2 l^2/3, h1 = -m2 l^2 S2 (qd1 qd2 + qd2^2/2),
    # h2 = m2 l^2 S2 qd1^2/2, c1 = (m1/2 + m2) g l C1 + m2 g l C12/2, c2 = m2 g l C12/2
    assert [two_link.formula(k) for k in two_link.terms] == [
        "D11 = I1 + I2*C2", "D12 = 0.5*I2*C2 + I3", "D22 = I3", "h1[1,2] = - I2*S2",
        "h1[2,2] = - 0.5*I2*S2", "h2[1,1] = 0.5*I2*S2", "c1 = g1*C1 + g2*C12", "c2 = g2*C12"]
    expected = {"I1": L**2 * (M1 / 3 + 4 * M2 / 3), "I2": M2 * L**2, "I3": M2 * L**2 / 3,
                "g1": (M1 / 2 + M2) * G * L, "g2": M2 * G * L / 2}
    assert {name: value(two_link, name) for name, _ in two_link.constants} == pytest.approx(
        expected, rel=1e-12)


def test_the_two_link_arms_operations_are_the_hand_count(two_link):
    # the elements: cos q1, cos q2, sin q2, cos(q1 + q2) (4 calls, q1 + q2 one addition);
    # I2 C2, 0.5 I2 C2, -I2 S2, -0.5 I2 S2, 0.5 I2 S2, g1 C1, g2 C12 (7 multiplications; c2's
    # g2 C12 is c1's); D11, D12, c1 one addition each.  tau: D qdd 4 multiplications, qd1 qd2,
    # qd2^2, qd1^2 and their 3 coefficients 6, tau1 4 additions, tau2 3.
    elements = {"mul": 7, "add": 4, "div": 0, "call": 4}
    whole = {"mul": 7 + 4 + 6, "add": 4 + 7, "div": 0, "call": 4}
    assert two_link.operations(whole=False) == two_link.operations(whole=False, traced=True) \
        == elements
    assert two_link.operations() == two_link.operations(traced=True) == whole


@settings(max_examples=15)
@given(chain_and_state(max_joints=3))
def test_the_uncut_model_of_any_revolute_chain_is_its_inverse_dynamics(case):
    # any DH geometry, offsets and gravity: D, h and c have no more frequencies than 5 samples
    # an angle resolve, the Christoffel coefficients are right, gravity may turn with q1
    arm, q, qd, qdd = case
    assume(all(kind == "revolute" for kind in arm.joint_types))
    # no twist within 1e-3 of a quarter turn but on it: there the base parameters lose a
    # grouping coefficient of 1e-7 (the regressor's columns all but dependent)
    off = [min(abs(link.sin_alpha), abs(link.cos_alpha)) for link in arm.numeric()[0]]
    assume(all(x == 0 or x > 1e-3 for x in off))
    model = explicit_model(arm, samples=50)
    tau = inverse_dynamics(arm, q, qd, qdd, friction=False, tip_wrench=False)
    assert np.allclose(model.evaluate(q, qd, qdd)[0], tau, rtol=0,
                       atol=1e-9 * max(1.0, np.abs(tau).max()))


# -- the PUMA 560 --------------------------------------------------------------------------------
def test_the_uncut_puma_model_is_the_inverse_dynamics_to_round_off(puma, rng):
    q, qd, qdd = states(rng, 12, 6)
    expected = np.array([inverse_dynamics(puma560(), *s) for s in zip(q, qd, qdd)])
    assert np.abs(puma.evaluate(q, qd, qdd) - expected).max() < 1e-10 * np.abs(expected).max()
    elements = puma.elements(q)
    for k in range(len(q)):
        eom = equations_of_motion(puma560(), q[k], qd[k])
        for i, j in itertools.product(range(6), repeat=2):
            D = elements.get(f"D{min(i, j) + 1}{max(i, j) + 1}", np.zeros(len(q)))[k]
            assert D == pytest.approx(eom.D[i, j], abs=1e-12)
        h = [sum(elements.get(f"h{i + 1}[{j + 1},{l + 1}]", np.zeros(len(q)))[k] * qd[k, j]
                 * qd[k, l] for j, l in itertools.combinations_with_replacement(range(6), 2))
             for i in range(6)]
        c = [elements.get(f"c{i + 1}", np.zeros(len(q)))[k] for i in range(6)]
        assert np.allclose(h, eom.h, rtol=0, atol=1e-11)
        assert np.allclose(c, eom.c, rtol=0, atol=1e-11)


def test_d11_of_the_puma_has_at_most_40_terms_whole_and_a_few_after_the_cut(puma):
    assert puma.terms_in("D11") <= 40
    assert 0 < puma.terms_in("D11", cut=True) < puma.terms_in("D11")


def test_the_cut_keeps_exactly_the_terms_of_one_percent_of_their_element(puma):
    for key, terms in puma.terms.items():
        for term in terms:
            significant = abs(puma.coefficient(term)) >= 0.01 * puma.maxima[key]
            assert (term in puma.kept[key]) == significant, (key, term)


def test_the_cut_errs_at_most_by_the_dropped_terms_coefficients(puma, rng):
    # every factor of a term is a cos or sin: |term| <= |coefficient| at every state
    q, qd, qdd = states(rng, 400, 6)
    full, cut, bound = puma.elements(q), puma.elements(q, cut=True), puma.bound()
    assert any(bound.values())
    for key in full:
        assert np.abs(full[key] - cut[key]).max() <= bound[key] * (1 + 1e-12) + 1e-15, key
    # and the torques: |dtau_i| <= sum_j bound(D_ij) |qdd_j| + sum_jk bound(h_i[j,k]) |qd_j qd_k|
    # + bound(c_i)
    limit = np.zeros_like(q)
    for key, b in bound.items():
        if key[0] == "D":
            i, j = int(key[1]) - 1, int(key[2]) - 1
            limit[:, i] += b * np.abs(qdd[:, j])
            if i != j:
                limit[:, j] += b * np.abs(qdd[:, i])
        elif key[0] == "h":
            i, (j, k) = int(key[1]) - 1, (int(x) - 1 for x in key[3:-1].split(","))
            limit[:, i] += b * np.abs(qd[:, j] * qd[:, k])
        else:
            limit[:, int(key[1]) - 1] += b
    error = np.abs(puma.evaluate(q, qd, qdd, cut=True) - puma.evaluate(q, qd, qdd))
    assert (error <= limit * (1 + 1e-12) + 1e-12).all()
    assert puma.error["relative max"] <= 0.05


def test_the_cut_costs_fewer_operations_and_both_counts_agree(puma):
    for cut in (False, True):
        written, taped = puma.operations(cut), puma.operations(cut, traced=True)
        # the tape also shares what the written model repeats (equal elements times one rate)
        assert taped["call"] == written["call"] == 10     # sin, cos of q2, q3, q23, q4, q5
        assert taped["mul"] <= written["mul"] and taped["add"] <= written["add"]
    full, cut = puma.operations(), puma.operations(cut=True)
    assert cut["mul"] + cut["add"] < full["mul"] + full["add"]
    table = explicit_model_table(puma).data
    assert "| 305 |" in table and "739 + 426 = 1165" in table


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize("call, error, message", [
    (lambda: explicit_model("puma"), TypeError, "dynlab Robot"),
    (lambda: explicit_model(scara()), ValueError, "joint 3 is prismatic"),
    (lambda: explicit_model(puma560(symbolic=True)), ValueError, "takes numbers"),
    (lambda: explicit_model(planar_2r(), significance=1.5), ValueError, "significance"),
    (lambda: explicit_model(planar_2r(), samples=0), ValueError, "samples"),
    (lambda: explicit_model(planar_2r(), speed=-1), ValueError, "speed"),
])
def test_bad_input_is_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.slow
def test_the_uncut_ur20_model_is_its_inverse_dynamics(rng):
    # three parallel axes (joints 2, 3, 4): the running sums q23 and q234 are tried
    arm = ur20()
    model = explicit_model(arm, samples=200)
    q, qd, qdd = states(rng, 8, 6)
    expected = np.array([inverse_dynamics(arm, *s) for s in zip(q, qd, qdd)])
    assert np.abs(model.evaluate(q, qd, qdd) - expected).max() < 1e-10 * np.abs(expected).max()
    assert any(len(joints) == 3 for terms in model.terms.values() for t in terms
               for joints, _, _ in t.monomial)
