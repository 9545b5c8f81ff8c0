"""Book-form printing: angle sums and differences in the books' shorthand, long closed forms
folded to their structure, exact numbers in a robot's table."""

from __future__ import annotations

import re

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import joint_symbols
from dynlab.model.display import Folded, book_form, group_angle_sums, shorthand, structure, wrapped
from dynlab.model.symbolic import chop, compact, is_zero, reduce_trig

q, qd, qdd = joint_symbols(3)
q1, q2, q3 = q
a, b = sympy.symbols("a b")


def test_differences_print_as_schilling_writes_them():
    # Schilling, Sec. 6-6: the SCARA's T_0^2 in C_{1-2} = cos(q1 - q2), S_{1-2} = sin(q1 - q2)
    C1m2, S1m2 = sympy.Symbol("C_{1-2}"), sympy.Symbol("S_{1-2}")
    assert shorthand(sympy.cos(q1 - q2)) == C1m2
    assert shorthand(sympy.cos(q2 - q1)) == C1m2          # cos is even
    assert shorthand(sympy.sin(q2 - q1)) == -S1m2         # sin is odd
    assert sympy.latex(shorthand(a * sympy.sin(q1 - q2))) == "S_{1-2} a"


def test_sums_keep_the_plain_shorthand():
    assert shorthand(sympy.cos(q1 + q2 + q3)) == sympy.Symbol("C123")
    assert shorthand(sympy.sin(2 * q1)) == sympy.sin(2 * q1)      # no book symbol for it


def test_products_collapse_to_angle_sums():
    expr = sympy.expand(a * (sympy.cos(q2) * sympy.cos(q3) - sympy.sin(q2) * sympy.sin(q3))**2
                        + b * sympy.cos(q2) * (sympy.cos(q2) * sympy.sin(q3)
                                               + sympy.sin(q2) * sympy.cos(q3)))
    grouped = group_angle_sums(expr)
    assert is_zero(grouped - expr)
    C2, C23, S23 = sympy.symbols("C2 C23 S23")
    assert shorthand(grouped) == a * C23**2 + b * C2 * S23


def test_grouping_leaves_a_prismatic_variable_alone():
    expr = q3 * sympy.cos(q2) * sympy.cos(q3) - q3 * sympy.sin(q2) * sympy.sin(q3)
    assert is_zero(group_angle_sums(expr) - expr)
    assert q3 in group_angle_sums(expr).free_symbols


def test_structure_and_folded_count_the_terms():
    C2, C23 = sympy.cos(q2), sympy.cos(q2 + q3)
    expr = a + b + 2 * a * C2 * C23 + (a - b) * C23**2 * qd[0]**2
    groups = structure(expr, qd)
    assert groups[sympy.S.One] == a + b
    assert groups[sympy.Symbol("C2") * sympy.Symbol("C23")] == 2 * a
    assert groups[sympy.Symbol("C23")**2 * qd[0]**2] == a - b
    f = Folded("x", expr, qd)
    assert (len(f.groups), f.terms) == (3, 5)
    text = f._repr_markdown_()
    assert "<details><summary>" in text and text.count(r"\kappa_{") == 2 * 3
    assert r"\dot q_{1}^{2}" in f.summary


def test_wrapped_lines_fit_a_column():
    long = sum(sympy.symbols("x1:40")) * a
    tex = wrapped("s", sympy.expand(long), width=60)
    lines = tex.replace(r"\begin{aligned}", "").replace(r"\end{aligned}", "").split(r" \\ ")
    assert len(lines) > 1
    # what renders: no commands, braces, sub/superscript marks or spaces
    assert all(len(re.sub(r"\\[A-Za-z]+|[{}^_ &]", "", line)) <= 60 for line in lines)


def test_book_form_groups_large_expressions():
    # a PUMA-like inertia element: too many operations for trigsimp, still printed in C23
    expr = sympy.expand(sum(sympy.Symbol(f"p{k}") * (sympy.cos(q2) * sympy.cos(q3)
                                                      - sympy.sin(q2) * sympy.sin(q3))**2
                            * sympy.cos(q2)**(k % 2) for k in range(12)))
    assert sympy.Symbol("C23") in book_form(expr).free_symbols


def test_trace_table_writes_a_torque_by_rates_within_a_column():
    # the two-link arm's tau_1 (Fu, Gonzalez & Lee, Eq. (3.2-37)): one bracket per acceleration
    # and rate product, the inertia entries D_11, D_12 as brackets, every line within a column
    from dynlab import inverse_dynamics
    from dynlab.model.display import _rendered_width, trace_table
    from dynlab.model.robots import planar_2r
    q2_, qd2_, qdd2_ = joint_symbols(2)
    tau, trace = inverse_dynamics(planar_2r(symbolic=True), q2_, qd2_, qdd2_, trace=True)
    data = trace_table(trace, ("F", "tau")).data
    rows = re.split(r"\\\\", data)
    torque = next(r for r in rows if r"\tau_{1}" in r)
    assert r"\ddot q_{1}" in torque and r"\dot q_{1} \dot q_{2}" in torque
    assert r"\left(\frac{C_{1}" not in torque          # not the factored l(...) of one term
    assert all(_rendered_width(row) <= 80 for row in rows if r"\tau" in row or "&\\quad" in row)
    assert r"{}^{2}R_0 F_{2}" in data and "{}^iR_0" not in data     # the link's own number


def test_a_grouped_form_takes_out_the_factor_every_term_carries():
    from dynlab.model.display import grouped_form
    g, m, r = sympy.symbols("g m r", positive=True)
    text = grouped_form("c_2", g * m * r * sympy.cos(q2) - g * m * a * sympy.sin(q2 + q3),
                        factor=g)
    assert text.startswith(r"\begin{aligned}c_2 = g\,\Big[ &m r C_{2}")
    assert r"\\ &- a m S_{23}\Big]" in text
    with pytest.raises(ValueError, match="not every term of c_2 carries g"):
        grouped_form("c_2", g * m * sympy.cos(q2) + m * sympy.sin(q2), factor=g)


# -- floats in symbols (issue 39): only a term's own round-off goes ------------------------------
small = st.floats(min_value=1e-300, max_value=1e-10) | st.floats(min_value=-1e-10,
                                                                  max_value=-1e-300)
sizes = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False).filter(lambda v: abs(v) > 1e-3)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(sizes, sizes, small)
def test_a_term_that_nothing_cancels_stays_however_small(a, b, c):
    x, y = sympy.symbols("x y")
    expr = a * x * sympy.cos(q1) + b * x**2 + c * y * sympy.sin(q2)
    for kept in (chop(expr), compact(expr), reduce_trig(expr)):
        assert sympy.expand(kept).coeff(y) == sympy.Float(c) * sympy.sin(q2)
    assert not is_zero(expr, -a * x * sympy.cos(q1) - b * x**2)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(sizes, sizes, sizes)
def test_the_round_off_of_a_terms_own_cancellation_goes(a, b, c):
    """(a + b + c) x in floats against a x + b x + c x: equal up to the round-off of adding
    a, b and c, also through sin^2 + cos^2 = 1 and over a denominator."""
    x, m = sympy.symbols("x m")
    total = sympy.Float(a + b + c)
    parts = [sympy.Float(v) * x for v in (a, b, c)]
    assert chop(total * x, *(-p for p in parts)) == 0
    assert is_zero(total * x * (sympy.sin(q1)**2 + sympy.cos(q1)**2), *(-p for p in parts))
    assert is_zero(total * x / (m + 1), *(-p / (m + 1) for p in parts))
