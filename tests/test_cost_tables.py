"""dynlab.teaching.cost_tables: the sources' laws as drawn equal the laws; the one-joint count; the
explorer's slider redraws the figure at the new n."""

import numpy as np
import pytest

from dynlab.teaching.cost_tables import (SOURCE_LAWS, cost_explorer, cost_figure,
                                         one_joint_multiplications, source_laws)
from dynlab.engine.opcount import table_3_1, table_3_4, table_3_5


@pytest.mark.parametrize("n", [1, 2, 6, 12])
def test_source_laws_are_the_printed_laws(n):
    laws = source_laws(n)
    assert laws["N-E, Table 3.4 (Luh, PUMA)"] == {"mul": 117 * n - 24, "add": 103 * n - 21}
    assert laws["N-E, Hollerbach (1980) (Luh, general arm)"] == {"mul": 150 * n - 48,
                                                                 "add": 131 * n - 48}
    assert laws["N-E, Table 3.5"] == {"mul": 132 * n, "add": 111 * n - 4}
    assert laws["L-E, Table 3.1"] == {k: round(v) for k, v in table_3_1(n).items()}
    for key, label in (("lagrange_euler", "L-E, Table 3.5"), ("dalembert", "G-D, Table 3.5")):
        assert laws[label] == {k: round(float(v)) for k, v in table_3_5(n)[key].items()}


def test_hollerbach_at_six_joints_is_what_schilling_quotes():
    assert source_laws(6)["N-E, Hollerbach (1980) (Luh, general arm)"] == {"mul": 852, "add": 738}
    assert source_laws(6)["N-E, Table 3.4 (Luh, PUMA)"] == {"mul": 678, "add": 597} == table_3_4(6)


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


def test_one_joint_adds_up_to_table_3_4_and_to_dynlab_law():
    rows = one_joint_multiplications()
    assert sum(t for t, _ in rows.values()) == 117
    assert sum(d for _, d in rows.values()) == 123          # the slope of dynlab's 123n - 62
    assert np.array([d - t for t, d in rows.values()]).tolist() == [4, -1, 1, -1, 3, 0, 0, -1,
                                                                     -1, 2]
