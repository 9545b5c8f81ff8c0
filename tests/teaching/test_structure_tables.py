"""dynlab.teaching.structure_tables: Table 1 dependence, the parameters behind Table 3's
differences, the sparsity rows and the PUMA's coupling zeros."""

import math

import numpy as np
import pytest

from dynlab import inverse_dynamics
from dynlab.dynamics.structure.exact import model_structure
from dynlab.model.robots import TOURASSIS_NEUMAN_ARMS, articulated, puma560, spherical
from dynlab.teaching.structure_tables import (
    coupling_figure,
    coupling_map,
    coupling_zeros,
    dependence_rows,
    off_line_parameters,
    sparsity_rows,
    what_each_parameter_adds,
)


def test_dependence_rows_of_the_spherical_arm():
    rows = dict((label, (allowed, found)) for label, allowed, found in
                dependence_rows(model_structure(spherical(inertia="general"))))
    assert set(rows) == {"d11", "d22", "d33", "d12", "d13", "d23"}
    assert rows["d33"] == ("constant", "constant")          # a prismatic joint: Eq. (25)


def test_cylindrical_arm_gets_d13_from_rx3_only():
    assert what_each_parameter_adds("cylindrical") == {"rx3": ["d13"]}
    assert "rx3" in off_line_parameters("cylindrical")


def test_sparsity_rows_against_table_3_and_the_formula():
    """Tourassis & Neuman, Table 3, transcribed: the arm's N_R/N and its printed sparsity, which
    is its count of non-zero coefficients (4, 5, 8, 16, 66, 88) over Table 2's independent ones
    (N(2N^2 + 3N + 7)/6: 17 for N = 3, 97 for N = 6); the formula of Sec. 6 by hand.  dynlab's
    sparsity is the printed one but for the articulated arm, whose c12(3) = -c13(2) vanishes
    when z1 || z2 (the erratum of Table 3): 15 of 17."""
    structures = {(name, "axial"): model_structure(build(inertia="axial"))
                  for name, build in TOURASSIS_NEUMAN_ARMS.items()}
    structures["articulated", "general"] = model_structure(articulated(inertia="general"))
    rows, deviation = sparsity_rows(structures)
    printed = {"cartesian": ("0/3", 4 / 17), "cylindrical": ("1/3", 5 / 17),
               "spherical": ("2/3", 8 / 17), "articulated": ("3/3", 16 / 17),
               "stanford": ("5/6", 66 / 97), "puma": ("6/6", 88 / 97)}
    ours = {**{name: value for name, (_, value) in printed.items()}, "articulated": 15 / 17}
    for name, ratio, formula, printed_text, _, ours_text, _ in rows:
        share, sparsity = printed[name]
        by_hand = 0.235 * (1 + (int(share[0]) / int(share[2])) ** 2) ** 2
        assert (ratio, formula, printed_text, ours_text) == (
            share, f"{by_hand:.3f}", f"{sparsity:.3f}", f"{ours[name]:.3f}"), name
        assert deviation[name] == pytest.approx(
            (round(sparsity, 3) / by_hand - 1, round(ours[name], 3) / by_hand - 1)), name
    assert [row[0] for row in rows] == list(printed)


def test_puma_coupling_zeros_and_map():
    links = puma560().numeric()[0]
    roots = coupling_zeros(links, [(1.0, math.pi / 2), (math.pi / 2, 2.1)])
    arm = puma560()

    def d23(q3):
        """d23 by a second method: Newton-Euler's torques for qdd = e3 less those for qdd = 0
        (Fu, Gonzalez & Lee, Probs. 3.11-3.12), at rest, the other joints at zero."""
        q, e3 = [0.0, 0.0, q3, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
        zero = [0.0] * 6
        return float(inverse_dynamics(arm, q, zero, e3)[1] - inverse_dynamics(arm, q, zero,
                                                                              zero)[1])
    for root in roots:
        assert 1.0 < root < 2.1 and abs(d23(root)) < 1e-9
        assert d23(root - 1e-3) * d23(root + 1e-3) < 0                  # a zero, not a touch
    with pytest.raises(ValueError, match="same sign"):
        coupling_zeros(links, [(0.0, 0.5)])
    grid = np.linspace(-math.pi, math.pi, 5)
    K = coupling_map(links, grid)
    assert set(K) == {(0, 1), (0, 2), (1, 2)} and all(k.shape == (5, 5) for k in K.values())
    assert all(0 <= k.min() and k.max() < 1 for k in K.values())
    fig = coupling_figure(grid, K)
    assert len(fig.axes) == 4 and fig.axes[-1].get_ylabel().startswith("coefficient of coupling")
