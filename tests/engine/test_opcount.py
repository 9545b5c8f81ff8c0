"""Operation counts (dynlab.engine.opcount): counts by hand, exact laws in n for generic chains
up to n = 12, and the sources' tables (Fu, Gonzalez & Lee, Tables 3.1, 3.4, 3.5; Schilling,
Secs. 6-7, 6-8) against each other and against dynlab."""

from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import Link, Robot
from dynlab.dynamics.codegen import generate
from dynlab.engine.opcount import (
    Counted,
    OpCounter,
    count_operations,
    counting_backend,
    fit_exponent,
    generic_chain,
    polynomial_law,
    polynomial_text,
)
from dynlab.model import vectors as V
from dynlab.model.robots import puma560
from dynlab.teaching.textbook.printed_counts import (
    QUOTED,
    TABLE_3_4_ROWS,
    disagreements,
    table_3_1,
    table_3_1_rows,
    table_3_4,
    table_3_5,
)
from tests.support.strategies import chains


def counted(count):
    counter = OpCounter()
    return counter, [Counted(counter) for _ in range(count)]


# -- by hand ---------------------------------------------------------------------------------------
def test_counted_scalars_follow_the_folding_rules():
    counter, (x, y) = counted(2)
    value = 0 * x + 1 * y - x * 0.0 + (-1) * x + x / 1 + 0 / y
    # 1*y, x*0, x/1, 0/y and the zeros cost nothing; (-1)*x is a negation; 2 additions join them
    assert counter.counts() == {"mul": 0, "add": 3, "div": 0, "call": 0}
    assert isinstance(value, Counted)
    counter, (x, y) = counted(2)
    counting_backend(counter).cos(x * y / 2.0)
    assert counter.counts() == {"mul": 1, "add": 0, "div": 1, "call": 1}


def test_vector_primitives_cost_what_table_3_4_charges():
    counter, values = counted(12)
    w, p = tuple(values[:3]), tuple(values[3:6])
    V.cross(w, p)                                              # 6 mul, 3 add
    assert counter.counts() == {"mul": 6, "add": 3, "div": 0, "call": 0}
    counter, values = counted(12)
    R = (tuple(values[0:3]), tuple(values[3:6]), tuple(values[6:9]))
    w = tuple(values[9:12])
    # Fu, Gonzalez & Lee, Table 3.4, row iR0 w_i: 9 mul and 7 add per link = a rotation (9 mul, 6
    # add) of
    # w_{i-1} + z0 qd_i (1 add), Eq. (3.3-50)
    qd = Counted(counter)
    V.tmatvec(R, (w[0], w[1], w[2] + qd))
    assert counter.counts() == {"mul": 9, "add": 7, "div": 0, "call": 0}


def test_a_sliding_mass_counts_by_hand():
    # one prismatic joint along z0, gravity along -z0, a point mass: the link-frame recursion
    # leaves v_dot = (0, 0, g + qdd) (1 add, Eq. (3.3-52)), F = m a (1 mul, Eq. (3.3-54)) and
    # tau = f . z0 = F_z; everything else multiplies by an exact 0 or 1
    robot = Robot([Link("P", theta=0.0, mass=2.0, name="slider")], gravity=(0, 0, -9.81))
    for variant in ("link", "base"):
        assert count_operations(robot, "newton_euler", variant) == \
            {"mul": 1, "add": 1, "div": 0, "call": 0}
    code = generate(robot, cache=False)
    assert code.counts == {"mul": 1, "add": 1, "div": 0, "call": 0}
    assert code([0.3], [1.0], [0.5]).tolist() == [2.0 * (0.5 + 9.81)]


# -- laws in n for generic chains ------------------------------------------------------------------
#: Multiplications of Luh's link-frame recursion (newton_euler.link_frame) on one interior revolute
#: link of a generic chain, counted by hand from its lines (Fu, Gonzalez & Lee, Table 3.3).
#: R = ((c, -ca s, sa s), (s, ca c, -sa c), (0, sa, ca)) has a constant zero, so each R^T x and
#: R x costs 8; p* = (a, d sa, d ca) and the centre of mass are constants.
LINK_FRAME_MUL_PER_JOINT = {
    "R from cos q, sin q: ca s, sa s, ca c, sa c": 4,
    "omega, (3.3-50): R^T (w + z0 qd)": 8,
    "omega_dot, (3.3-51): R^T (wd + w x z0 qd + z0 qdd), the cross 2": 8 + 2,
    "v_dot, (3.3-52): wd x p*, w x (w x p*), R^T v_dot": 6 + 12 + 8,
    "a_bar, (3.3-53): wd x s, w x (w x s)": 6 + 12,
    "F, (3.3-54): m a_bar": 3,
    "N, (3.3-55): I wd, I w, w x (I w)": 9 + 9 + 6,
    "f, (3.3-56): R_{i+1} f_{i+1}": 8,
    "n, (3.3-57): R_{i+1} n_{i+1}, p* x (R f), (p* + s) x F": 8 + 6 + 6,
    "tau, (3.3-58): n . (0, sa, ca)": 2,
}
#: What the ends of a chain of n >= 2 links save of that, by hand: link 1 starts from w_0 = wd_0 = 0
#: (w_1 = (0, sa qd, ca qd) and wd_1 = (0, sa qdd, ca qdd): each cross with them costs 4, each I x
#: 6) and from the constant v_dot_0 = -g (R^T g: 6); link 2 gets w_1 with no x component; link n
#: carries no f_{n+1}, n_{n+1} (no tool wrench).
LINK_FRAME_MUL_SAVED = {
    "link 1, omega = R^T z0 qd": 8 - 2,
    "link 1, omega_dot = R^T z0 qdd": 10 - 2,
    "link 1, v_dot: wd x p*, w x (w x p*), R^T g": 2 + 4 + 2,
    "link 1, a_bar: wd x s, w x (w x s)": 2 + 4,
    "link 1, N: I wd, I w, w x (I w)": 3 + 3 + 2,
    "link 2, omega: R^T w_1, w_1x = 0": 3,
    "link 2, omega_dot: w_1x qd_2 = 0": 1,
    "link n, f: R f_{n+1} = 0": 8,
    "link n, n: R n_{n+1}, p* x (R f_{n+1})": 8 + 6,
}


def test_link_frame_multiplications_are_the_hand_count():
    per_joint, saved = sum(LINK_FRAME_MUL_PER_JOINT.values()), sum(LINK_FRAME_MUL_SAVED.values())
    ns = list(range(2, 13))
    assert [count_operations(generic_chain(n), "newton_euler", "link")["mul"] for n in ns] == [
        per_joint * n - saved for n in ns]
    # beside Fu, Gonzalez & Lee, Table 3.4 (117 a joint): R from cos/sin (+4), tau = n . z (+2),
    # a full centre of mass in a_bar (+3), w x z0 qd in omega_dot (+2), R's zero in omega,
    # omega_dot, v_dot, f and n (-5)
    assert per_joint == table_3_4(1)["mul"] - table_3_4(0)["mul"] + 4 + 2 + 3 + 2 - 5


def interpolated(ns, values) -> list:
    """The coefficients (low order first) of the polynomial through ``(n, value)``, by SymPy's
    interpolation: a second method beside :func:`polynomial_law`'s finite differences."""
    n = sympy.Symbol("n")
    law = sympy.Poly(sympy.interpolate(list(zip(ns, values)), n), n)
    return [F(int(c.p), int(c.q)) for c in reversed(law.all_coeffs())]


def law_of(ns, values, degree):
    """The law that the counts at ``ns`` follow from ``ns[0]`` on: fixed by the first ``degree +
    1`` points, confirmed at every later one."""
    coefficients = interpolated(ns[:degree + 1], values[:degree + 1])
    assert [sum(c * n**k for k, c in enumerate(coefficients)) for n in ns] == values
    return coefficients


@pytest.mark.parametrize("variant", ["link", "base"])
def test_newton_euler_counts_are_linear_in_n_up_to_12(variant):
    ns = list(range(1, 13))
    rows = [count_operations(generic_chain(n), "newton_euler", variant) for n in ns]
    for kind in ("mul", "add"):
        values = [r[kind] for r in rows]
        assert polynomial_law(ns, values) == (law_of(ns[1:], values[1:], 1), 2)
    assert [r["call"] for r in rows] == [2 * n for n in ns]            # one sin, one cos a joint
    assert fit_exponent(ns[5:], [r["mul"] for r in rows][5:]) == pytest.approx(1.0, abs=0.1)


def test_dalembert_counts_are_cubic_in_n_up_to_12():
    ns = list(range(1, 13))
    muls = [count_operations(generic_chain(n), "dalembert")["mul"] for n in ns]
    coefficients, start = polynomial_law(ns, muls)
    assert (coefficients, start) == (law_of(ns[1:], muls[1:], 3), 2)
    # Fu, Gonzalez & Lee, Table 3.5's cubic term is 13/6 n^3: dynlab forms each w_k, beta_k once
    assert 0 < coefficients[3] < F(13, 6)


def test_lagrange_euler_law_found_on_small_n_predicts_larger_n():
    ns = list(range(1, 9))
    for variant, degree in (("uicker", 4), ("jacobian", 4)):
        muls = [count_operations(generic_chain(n), "lagrange_euler", variant)["mul"]
                for n in ns]
        coefficients, start = polynomial_law(ns, muls)
        assert len(coefficients) - 1 == degree
        n = 9
        predicted = sum(c * n**k for k, c in enumerate(coefficients))
        assert count_operations(generic_chain(n), "lagrange_euler", variant)["mul"] == predicted
    # Uicker's 4x4 form: 15/2 n^4, where Fu, Gonzalez & Lee, Table 3.1 has 128/3 n^4 (dynlab reuses
    # U_ij, U_ijk)
    assert coefficients[4] == F(13, 4)                      # the link-Jacobian form


def test_generic_chain_is_deterministic_and_generic():
    a, b = generic_chain(5, seed=3), generic_chain(5, seed=3)
    assert a.numeric()[0] == b.numeric()[0]
    for link in a.numeric()[0]:
        assert 0 not in (link.a, link.d, link.sin_alpha, link.cos_alpha, *link.com)
        assert all(x != 0 for row in link.inertia for x in row)
    assert generic_chain(2, joints="RP").joint_types == ("revolute", "prismatic")
    with pytest.raises(ValueError):
        generic_chain(0)
    with pytest.raises(ValueError):
        generic_chain(2, joints="RX")


@settings(max_examples=20, deadline=None)
@given(chains(max_joints=5), st.sampled_from(["link", "base"]))
def test_sharing_never_costs_more_than_the_algorithm_as_written(robot, variant):
    as_written = count_operations(robot, "newton_euler", variant)
    traced = generate(robot, variant=variant, cache=False)
    for kind in ("mul", "add", "call"):
        assert traced.counts_before[kind] <= as_written[kind]
    assert sum(traced.counts.values()) <= sum(traced.counts_before.values())


# -- the sources' tables ---------------------------------------------------------------------------
def test_table_3_1_rows_add_up_to_its_printed_total():
    for n in range(1, 13):
        rows = table_3_1_rows(n)
        assert sum(m for m, _ in rows.values()) == table_3_1(n)["mul"]
        assert sum(a for _, a in rows.values()) == table_3_1(n)["add"]
    assert table_3_1(6) == {"mul": 102440, "add": 78203}


def test_table_3_4_rows_add_up_to_117n_minus_24():
    for n in range(1, 13):
        mul = sum(a * n + b for (a, b), _ in TABLE_3_4_ROWS.values())
        add = sum(a * n + b for _, (a, b) in TABLE_3_4_ROWS.values())
        assert table_3_4(n) == {"mul": mul, "add": add}
    assert table_3_4(6) == {"mul": 678, "add": 597}


def test_the_sources_disagree_with_each_other():
    t5 = table_3_5(6)
    # N-E: Table 3.4 (117n - 24) and Table 3.5 (132n) differ, and Schilling's 852 is neither
    assert table_3_4(6)["mul"] == 678 and t5["newton_euler"]["mul"] == 792
    assert QUOTED["Schilling, Sec. 6-8: link-frame N-E, n = 6 (Hollerbach 1980)"] == (852, 738)
    # L-E: Table 3.1 and Table 3.5 share the n^4 and n^3 terms and nothing below them (the
    # scanned copy's 112/3 n^3 is a misreading of 512/3: an erratum of the scan)
    assert table_3_1(6)["mul"] == 102440 and t5["lagrange_euler"]["mul"] == 101366
    assert QUOTED["Schilling, Sec. 6-7: L-E, n = 6 (Hollerbach 1980)"] == (66271, 51548)
    assert len(disagreements()) == 3


def test_table_3_5_counts_whole_operations_where_the_scan_does_not():
    """Every law of Table 3.5 gives a whole number of operations at every n; the scanned copy's
    L-E (112/3 n^3) and G-D (105/12 n^2) multiplications do not, so dynlab reads them as 512/3
    (Table 3.1's own term) and 105/2, and the register records the scan's reading."""
    from fractions import Fraction

    from dynlab.teaching.errata import ERRATA
    from dynlab.teaching.textbook.printed_counts import TABLE_3_5_AS_SCANNED, law_value
    for n in range(1, 40):
        for counts in table_3_5(n).values():
            assert all(isinstance(v, int) for v in counts.values()), n
    assert {key: law_value(law, 1) for key, law in TABLE_3_5_AS_SCANNED.items()} == {
        "lagrange_euler": float(Fraction(1148, 3)), "dalembert": 169.25}
    assert table_3_5(1)["lagrange_euler"]["mul"] == 516 and table_3_5(6)["dalembert"]["mul"] == 2963
    # the additions of Tables 3.1 and 3.5 share n^4 and n^3: so do the multiplications, as read
    assert (table_3_1(1)["mul"] - table_3_5(1)["lagrange_euler"]["mul"]
            == (844 - 739 + 76 - 169) // 3)
    [erratum] = [e for e in ERRATA if e.place == "Table 3.5, multiplications of L-E and G-D"]
    assert erratum.kind == "scan" and r"\tfrac{112}{3}" in erratum.printed


def test_dynlab_counts_beside_the_tables_at_n_6():
    # the generic chain's 123 n - 62 multiplications (the hand count above) beside Table 3.4's
    # 117 n - 24; one sin and one cos a joint
    generic = count_operations(generic_chain(6), "newton_euler", "link")
    assert abs(generic["mul"] - table_3_4(6)["mul"]) <= 2 and generic["call"] == 12
    # a tool wrench adds the rotation into frame n and J^T w
    loaded = Robot(generic_chain(6).links, gravity=generic_chain(6).gravity,
                   tip_force=(1.0, 2.0, 3.0), tip_moment=(0.1, 0.2, 0.3))
    assert count_operations(loaded, "newton_euler", "link")["mul"] > generic["mul"]
    assert count_operations(loaded, "newton_euler", "link", tip_wrench=False) == generic
    # the PUMA's zeros (alpha = +-90 deg, diagonal inertias) fold away: less than half of it
    puma = count_operations(puma560(), "newton_euler", "link")
    assert puma["mul"] < table_3_4(6)["mul"] / 2
    # the generated program: below 500 operations in all (goal of issue 6), fewer than as written
    counts = generate(puma560(), cache=False).counts
    assert sum(counts.values()) < 500 and counts["mul"] < puma["mul"]


def test_fit_exponent_and_polynomial_law_on_exact_data():
    ns = list(range(1, 9))
    assert fit_exponent([2, 4, 8, 16], [5 * n**3 for n in (2, 4, 8, 16)]) == pytest.approx(3.0)
    law = polynomial_law(ns, [117 * n - 24 for n in ns])
    assert law == ([F(-24), F(117)], 1)
    # a count whose n = 1 value is off the law: the law is found from n = 2
    values = [7] + [n**2 + 1 for n in ns[1:]]
    assert polynomial_law(ns, values) == ([F(1), F(0), F(1)], 2)
    assert polynomial_text([F(-21), F(103)]) == "103n - 21"
    with pytest.raises(ValueError):
        fit_exponent([1, 2], [0, 3])
