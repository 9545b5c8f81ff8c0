"""dynlab.teaching.textbook: the worked examples' printed equations against the derivations; every
discrepancy (stated in full below) is an erratum, whose corrected form agrees."""

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab.model.symbolic import is_zero
from dynlab.teaching.errata import ERRATA
from dynlab.teaching.textbook import catalogue, comparison, derivation, letters, lynch_park, records
from dynlab.teaching.textbook.letters import a1, g, l, m1, m2, q1, q2, qd1, qd2, qdd1, qdd2
from tests.support.refusals import assert_refused, refusals

E_J = "Sec. 3.2.6, pseudo-inertias J_1, J_2, entry (1,1)"
E_TEXT = "Eqs. (3.3-50)-(3.3-55)"
L_TORQUES = "Sec. 8.1.1, the torques of the 2R example"
#: arm -> {(place, element, erratum place)}: every discrepancy the comparison must find
EXPECTED = {
    "pendulum": {
        ("Eq. (6-9-21), fifth line", "n_1[3]", "Eq. (6-9-21), fifth line")},
    "planar_2r/fu": {
        ("Sec. 3.2.6, J_1", "J_1[1,1]", E_J),
        ("Sec. 3.2.6, J_2", "J_2[1,1]", E_J),
        ("Sec. 3.2.6, D_11", "D_11", "Sec. 3.2.6, D_11"),
        ("Sec. 3.2.6, D_12", "D_12", "Sec. 3.2.6, D_12 = D_21"),
        ("Sec. 3.2.6, D_22", "D_22", "Sec. 3.2.6, D_22"),
        ("Eq. (3.2-34) with the example's U_ji", "c_1",
         "Eq. (3.2-34)"),
        ("Sec. 3.3.7, tau_2", "tau_2", "Sec. 3.3.7, tau_2 of the N-E example"),
        ("Sec. 3.3.7, tau_1", "tau_1", "Sec. 3.3.7, tau_1 of the N-E example"),
        ("Eq. (3.3-50), i = 1, with omega_0 = omega-dot_0 = 0",
         "omega_dot_1[3]", E_TEXT),
        ("Eq. (3.3-52), i = 2, with the values of Sec. 3.3.7", "v_dot_2[1]", E_TEXT),
        ("Eq. (3.3-53), i = 2, with the values of Sec. 3.3.7", "a_bar_2[1]", E_TEXT),
        ("Table 3.3, run on the arm", "tau_1", "Table 3.3, n_i equation")},
    "planar_2r/schilling": set(),
    "planar_2r/lynch_park": {
        ("Sec. 8.1.1, K_1 + K_2", "K",
         "Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))"),
        (L_TORQUES, "tau_1", "Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 "
                             "(draft: after Eq. (9.8))"),
        (L_TORQUES, "tau_2",
         "Sec. 8.1.1, tau_2 of the 2R example, velocity term (draft: after Eq. (9.8))"),
        (L_TORQUES, "tau_2",
         "Sec. 8.1.1, tau_2 of the 2R example, gravity term (draft: after Eq. (9.8))")},
    "planar_2r/macsyma": set(),
    "scara": {
        ("Table 6-2, joint 2", "theta_2", "Table 6-2, joint 2"),
        ("Eq. (6-6-20), B^3", "B^3[3,1]", "Eq. (6-6-20), B^3"),
        ("Eq. (6-6-25)", "tau_1", "Eq. (6-6-25)"),
        ("Eq. (6-6-28)", "tau_2", "Eq. (6-6-28)")},
}


def found(result):
    return {(d.place, d.element, d.erratum.place if d.erratum else None) for d in result}


@pytest.mark.parametrize("arm", list(letters.ARMS))
def test_discrepancies_of_each_arm_are_exactly_the_errata(arm):
    result = comparison.compare_with_derivation(arm)
    assert found(result) == EXPECTED[arm]
    assert result.unconfirmed == []
    for d in result:
        assert d.erratum in ERRATA and d.erratum.source == d.source
        assert d.explanation == d.erratum.why
        assert d.record.arm == arm and d.erratum.place in d.record.errata
    # every printed equation without an erratum agrees; every one with an erratum does not
    assert {id(r) for r in result.agreeing} == {id(r) for r in result.checked if not r.errata}
    assert len(result.checked) == len(catalogue.printed(arm=arm)) > 0


@pytest.mark.parametrize("method", ["lagrange_euler", "dalembert"])
@pytest.mark.parametrize("arm", ["pendulum", "planar_2r/lynch_park"])
def test_discrepancies_do_not_depend_on_the_formulation(arm, method):
    assert found(comparison.compare_with_derivation(arm, method=method)) == EXPECTED[arm]


def test_every_named_erratum_is_in_the_register_and_every_record_is_derivable():
    places = {(e.source, e.place) for e in ERRATA}
    for record in catalogue.RECORDS:
        assert all((record.source, p) in places for p in record.errata), record
        assert len(record.erratum_records()) == len(record.errata)
        assert record.source in letters.SOURCES and record.quantity in letters.QUANTITIES
    assert {(r.source, p) for r in catalogue.RECORDS for p in r.errata} <= places
    # the worked examples' sections are all covered
    assert {r.source for r in catalogue.RECORDS} == {"fu", "thesis", "schilling", "lynch_park"}
    assert {r.arm for r in catalogue.RECORDS} == set(letters.ARMS)


def test_corrected_records_equal_the_derivation_and_printed_ones_do_not():
    for record in catalogue.RECORDS:
        if not record.errata:
            continue
        derived = comparison._select(derivation.derived(record.arm, record.quantity,
                                                        frame=record.frame), record.index)[0]
        if record.given:
            derived = derived.xreplace(record.given)
        difference = sympy.sympify(record.corrected() - derived)
        assert is_zero(difference), record
        assert not is_zero(sympy.sympify(record.expression() - derived)), record


def test_discrepancy_terms_are_the_difference_the_erratum_makes():
    result = comparison.compare_with_derivation("planar_2r/fu", source="fu")
    by_place = {d.place: d for d in result}
    tau2 = by_place["Sec. 3.3.7, tau_2"]
    assert is_zero(tau2.printed - (m2 * l**2 * (qdd1 + qdd2) / 2))
    assert is_zero(tau2.derived - (m2 * l**2 * (qdd1 + qdd2) / 3))
    c1 = by_place["Eq. (3.2-34) with the example's U_ji"]
    assert c1.printed == 0 and is_zero(c1.derived - m2 * g * l * sympy.cos(q1))
    for d in result:          # printed - derived of the element = the erratum's correction
        element = d.record.expression()
        fix = d.record.corrected()
        if isinstance(element, sympy.MatrixBase):
            continue
        assert is_zero((d.printed - d.derived) - (element - fix)), d


def test_a_print_without_erratum_that_differs_is_reported_as_unexplained():
    wrong = records.PrintedEquation("schilling", "made up", "pendulum", "D", (1, 1),
                                    m1 * a1**2 / 2, {}, "D(q)")
    found_, unconfirmed = comparison._compare_record(wrong, "newton_euler", None)
    assert unconfirmed == () and len(found_) == 1 and found_[0].erratum is None
    assert "no erratum" in found_[0].explanation
    assert found_[0].printed == m1 * a1**2 / 2 and found_[0].derived == m1 * a1**2 / 3
    # an erratum that the derivation does not confirm is listed as unconfirmed
    right = records.PrintedEquation("schilling", "made up", "pendulum", "D", (1, 1),
                                    m1 * a1**2 / 3, {}, "D(q)", errata=("Eq. (6-6-25)",),
                                    corrections=(m1 * a1**2,))
    found_, unconfirmed = comparison._compare_record(right, "newton_euler", None)
    assert found_ == () and [e.place for _, e in unconfirmed] == ["Eq. (6-6-25)"]


def test_display_text_and_html():
    result = comparison.compare_with_derivation("scara")
    text, n, wrong = str(result), len(catalogue.printed(arm="scara")), len(EXPECTED["scara"])
    assert text.splitlines()[0] == (f"scara (newton_euler): {n} printed equations checked, "
                                    f"{n - wrong} agree with the derivation, {wrong} "
                                    f"discrepancies:")
    assert len(text.splitlines()) == 1 + 2 + wrong
    assert "| Schilling (1990) | Eq. (6-6-20), B^3 | B^3[3,1] | 0 | 1 |" in text
    page = result._repr_html_()
    assert page.count("<tr>") == 1 + 4 and "theta_2" in page and "qdd2**2" in page
    clean = comparison.compare_with_derivation("planar_2r/schilling")
    n = len(catalogue.printed(arm="planar_2r/schilling"))
    assert str(clean) == (f"planar_2r/schilling (newton_euler): {n} printed equations checked, "
                          f"{n} agree with the derivation, 0 discrepancies")
    assert "<table>" not in clean._repr_html_()


def test_records_read_as_printed():
    fifth = catalogue.lookup("schilling", "Eq. (6-6-25)")
    assert fifth.as_printed().has(qdd2**2) and fifth.name == "tau_1"
    assert fifth.expression().has(letters.bv1)          # b_1(qd_1) mapped to the arm's friction
    D = catalogue.lookup("fu", "Sec. 3.2.6, D")
    assert D.as_printed().has(letters.th2) and not D.expression().has(letters.th2)
    assert catalogue.lookup("fu", "Sec. 3.4.2, D").expression() == D.expression()
    assert [r.place for r in catalogue.printed("lynch_park")][-1] == L_TORQUES
    assert len(catalogue.printed()) == sum(len(catalogue.printed(arm=a)) for a in letters.ARMS)
    tau_L81 = lynch_park.torques_lynch_park_8_1_1(p1=True, p2=True, p3=True)
    assert is_zero(tau_L81.xreplace(letters.THETA)
                   - catalogue.lookup("lynch_park", L_TORQUES).corrected())


def _printed(*args, **options):
    return lambda: records.PrintedEquation("schilling", "x", "pendulum", *args, **options)


@refusals(
    (lambda: comparison.compare_with_derivation("planar_2r"), ValueError,
     "unknown arm 'planar_2r'"),
    (lambda: catalogue.printed("005"), ValueError, "unknown source '005'"),
    (lambda: comparison.compare_with_derivation("pendulum", method="hamilton"), ValueError,
     "unknown method"),
    (_printed("M", None, 0), ValueError, "unknown quantity 'M'"),
    (_printed("v_dot", (1,), 0), ValueError, "frame='link' or 'base'"),
    (_printed("D", None, 0, errata=("Eq. (6-6-25)",)), ValueError, "one correction per erratum"),
    (lambda: derivation.derived("pendulum", "n"), ValueError, "frame='link' or 'base'"),
    (lambda: records.PrintedEquation("tourassis_neuman", "x", "pendulum", "D", None, 0),
     ValueError, "unknown source 'tourassis_neuman'"),
    (_printed("D", 1, 0), TypeError, "index must be a tuple"),
    (lambda: catalogue.lookup("fu", "nowhere"), KeyError, "0 records of fu at 'nowhere'"),
    (lambda: _printed("D", None, 0, errata=("nowhere",), corrections=(0,))().erratum_records(),
     KeyError, "no erratum of schilling"))
def test_bad_input_is_named(call, error, words):
    assert_refused(call, error, words)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=6, max_size=6),
       st.lists(st.integers(-3, 3), min_size=6, max_size=6))
def test_differing_terms_drop_the_common_terms(a, b):
    monomials = [qdd1, qd1 * qd2 * sympy.sin(q2), g * sympy.cos(q1 + q2), qd2**2,
                 sympy.sin(q1)**2 * qdd2, l * sympy.cos(q2)]
    x = sum(c * m for c, m in zip(a, monomials))
    y = sum(c * m for c, m in zip(b, monomials))
    x_only, y_only = comparison._split_terms(x, y)
    assert is_zero((x_only - y_only) - (x - y))
    if is_zero(x - y):
        assert x_only == 0 and y_only == 0
    # a term both share never shows
    shared = comparison._split_terms(x + 5 * qd1**3, y + 5 * qd1**3)
    assert not shared[0].has(qd1**3) and not shared[1].has(qd1**3)
