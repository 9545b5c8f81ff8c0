"""dynlab.teaching.cost_tables and the sources' printed counts: the laws as drawn equal the laws
as printed; the one-joint count by hand; the explorer's slider redraws the figure at the new n."""

from fractions import Fraction as F

import pytest

from dynlab.engine.opcount import forward_dynamics_operations
from dynlab.teaching.cost_tables import (
    algorithm_laws_table,
    cost_explorer,
    cost_figure,
    one_joint_multiplications,
    recursion_shapes_table,
)
from dynlab.teaching.textbook.printed_counts import SOURCE_LAWS, source_laws

#: Fu, Gonzalez & Lee's polynomial laws, transcribed here from the book (``c_0`` first):
#: Table 3.1's last row, and Table 3.5's L-E and G-D columns as read (512/3 n^3 and 105/2 n^2
#: where the scan shows 112/3 and 105/12: the erratum of test_opcount's whole-count test)
PRINTED = {
    "L-E, Table 3.1": ((0, F(76, 3), F(844, 3), F(512, 3), F(128, 3)),
                       (0, F(107, 6), F(637, 3), F(781, 6), F(98, 3))),
    "L-E, Table 3.5": ((0, F(169, 3), F(739, 3), F(512, 3), F(128, 3)),
                       (0, F(245, 6), F(559, 3), F(781, 6), F(98, 3))),
    "G-D, Table 3.5": ((69, F(268, 3), F(105, 2), F(13, 6)), (45, F(146, 3), 44, F(4, 3))),
}


@pytest.mark.parametrize("n", [1, 2, 6, 12])
def test_source_laws_are_the_printed_laws(n):
    laws = source_laws(n)
    assert laws["N-E, Table 3.4 (Luh, PUMA)"] == {"mul": 117 * n - 24, "add": 103 * n - 21}
    assert laws["N-E, Hollerbach (1980) (Luh, general arm)"] == {"mul": 150 * n - 48,
                                                                 "add": 131 * n - 48}
    assert laws["N-E, Table 3.5"] == {"mul": 132 * n, "add": 111 * n - 4}
    for label, (mul, add) in PRINTED.items():
        assert laws[label] == {kind: round(sum(c * n**k for k, c in enumerate(law)))
                               for kind, law in (("mul", mul), ("add", add))}, label


def test_the_printed_counts_at_six_joints_are_the_quoted_ones():
    # Schilling, Sec. 6-8 quotes Hollerbach (1980)'s 852 and 738 at n = 6; Table 3.1's laws at
    # n = 6 by hand: 128/3 1296 + 512/3 216 + 844/3 36 + 76/3 6 = 55296 + 36864 + 10128 + 152
    # and 98/3 1296 + 781/6 216 + 637/3 36 + 107/6 6 = 42336 + 28116 + 7644 + 107
    assert source_laws(6)["N-E, Hollerbach (1980) (Luh, general arm)"] == {"mul": 852, "add": 738}
    assert source_laws(6)["L-E, Table 3.1"] == {"mul": 102440, "add": 78203}


@pytest.mark.parametrize("bad", [0, -3, 2.5, "6", True])
def test_source_laws_refuses_a_bad_n(bad):
    with pytest.raises(ValueError, match="whole number of joints"):
        source_laws(bad)


@pytest.mark.parametrize("n", [1, 6, 12])
def test_figure_plots_the_laws(n):
    fig = cost_figure(n)
    bars, lines = fig.axes
    heights = [bar.get_height() for bar in bars.patches]
    laws = source_laws(n)
    assert heights == [laws[label][kind] for label in SOURCE_LAWS for kind in ("mul", "add")]
    drawn = {line.get_label(): line for line in lines.get_lines()}
    for label in SOURCE_LAWS:
        ns, values = drawn[label].get_data()
        assert list(ns) == list(range(1, 13))
        assert list(values) == [source_laws(int(m))[label]["mul"] for m in ns]
    marker = drawn[f"n = {n}"].get_xdata()
    assert list(marker) == [n, n]
    # each panel carries its legend and labelled axes
    for ax in (bars, lines):
        assert ax.get_legend() is not None and ax.get_xlabel() and ax.get_ylabel()
    assert [t.get_text() for t in lines.get_legend().get_texts()][:len(SOURCE_LAWS)] == list(
        SOURCE_LAWS)


def test_explorer_redraws_at_the_slider_value():
    box = cost_explorer(n=3)
    assert box.slider.min == 1 and box.slider.max == 12 and box.slider.value == 3
    first = box.figure
    box.slider.value = 9
    assert box.figure is not first
    heights = [bar.get_height() for bar in box.figure.axes[0].patches]
    assert heights[-2:] == [117 * 9 - 24, 103 * 9 - 21]


def test_one_joint_counts_by_hand_against_table_3_4():
    """Each line of one middle joint, counted by hand from the vector operations it makes on a
    generic link (every DH and inertial entry non-zero): a cross product is 6 multiplications,
    a full 3x3 matrix times a vector 9, a rotation ``iR(i-1)`` times a vector 8, since its third
    row is ``(0, sin alpha, cos alpha)`` (Fu, Gonzalez & Lee, Eq. (3.3-48)), and building it
    from ``cos theta, sin theta`` 4 (``cos alpha`` and ``sin alpha`` times each).  Table 3.4's
    column is the book's per-link multiplications, transcribed."""
    cross, full, rotation = 6, 9, 8
    by_hand = {
        "iR(i-1) from cos, sin (3.3-48)": (0, 4),
        "omega_i (3.3-50)": (9, rotation),                        # R^T (w + z0 qd)
        "omega_dot_i (3.3-51)": (9, 2 + rotation),                # w x z0 qd: 2 products
        "v_dot_i (3.3-52)": (27, cross + 2 * cross + rotation),   # wd x p + w x (w x p) + R^T vd
        "a_i (3.3-53)": (15, cross + 2 * cross),                  # wd x r + w x (w x r) + vd
        "F_i (3.3-54)": (3, 3),                                   # m a
        "N_i (3.3-55)": (24, full + full + cross),                # I wd + w x (I w)
        "f_i (3.3-56)": (9, rotation),                            # R f_next + F
        "n_i (3.3-57)": (21, rotation + 2 * cross),               # R n_next + p x f + (p+r) x F
        "tau_i (3.3-58)": (0, 2),                                 # n . R's third row
    }
    assert one_joint_multiplications() == by_hand
    assert sum(t for t, _ in by_hand.values()) == 117             # Table 3.4's 117n - 24


def test_chapter_09s_table_of_shapes_carries_the_printed_counts():
    """The last two rows are Fu, Gonzalez & Lee's Table 3.4 (117n - 24, 103n - 21) and
    Hollerbach (1980) (150n - 48, 131n - 48) at n = 6, by hand; Luh's recursion as written
    needs fewer multiplications than the twist-wrench form in every shape."""
    rows = [[cell.strip(" |") for cell in line.split(" | ")]
            for line in recursion_shapes_table(6).data.splitlines()[2:]]
    assert [row[1:] for row in rows[-2:]] == [["678", "597"], ["852", "738"]]
    luh, *twist_wrench = (int(row[1]) for row in rows[:4])
    assert all(luh < other for other in twist_wrench)


def test_the_articulated_body_algorithm_costs_less_than_forming_and_solving():
    """Featherstone (2008), Sec. 7.3: the ABA is O(n), forming D and solving O(n^3); counted as
    written, the ABA is cheaper from one joint on, and from two joints on the gap widens."""
    gaps = []
    for n in range(1, 10):
        totals = forward_dynamics_operations(n)
        gaps.append(totals["CRBA + RNEA + LDL^T"] - totals["ABA"])
    assert min(gaps) > 0 and all(b > a for a, b in zip(gaps[1:], gaps[2:]))


def test_the_table_of_laws_reads_the_degrees_the_algorithms_promise():
    """The matrix form multiplies 6n x 6n matrices with their zeros skipped: quadratic; the RNEA
    and the ABA linear, the CRBA quadratic, forming and solving cubic (Featherstone (2008))."""
    degrees = []
    for line in algorithm_laws_table().data.splitlines()[2:]:
        multiplications = line.split(" | ")[1]
        degrees.append(3 if "n^{3}" in multiplications else 2 if "n^{2}" in multiplications
                       else 1)
    assert degrees == [2, 1, 2, 1, 3]
