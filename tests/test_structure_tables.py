"""dynlab.teaching.structure_tables: Table 1 dependence, the parameters behind Table 3's differences,
the sparsity rows and the PUMA's coupling zeros."""

import math

import numpy as np
import pytest

from dynlab.teaching.properties import TABLE3_PRINTED, model_structure
from dynlab.model.robots import cylindrical, puma560, spherical
from dynlab.teaching.structure_tables import (coupling_figure, coupling_map, coupling_zeros,
                                              dependence_rows, off_line_parameters, sparsity_rows,
                                              table3_markdown, what_each_parameter_adds)


def test_dependence_rows_of_the_spherical_arm():
    rows = dict((label, (allowed, found)) for label, allowed, found in
                dependence_rows(model_structure(spherical(inertia="general"))))
    assert set(rows) == {"d11", "d22", "d33", "d12", "d13", "d23"}
    assert rows["d33"] == ("constant", "constant")          # a prismatic joint: Eq. (25)


def test_cylindrical_arm_gets_d13_from_rx3_only():
    assert what_each_parameter_adds("cylindrical") == {"rx3": ["d13"]}
    assert "rx3" in off_line_parameters("cylindrical")


def test_sparsity_rows_and_table3():
    structures = {(name, level): model_structure(cylindrical(inertia=level))
                  for name in ("cylindrical",) for level in ("axial",)}
    with pytest.raises(KeyError):
        sparsity_rows(structures)                            # every arm of Table 3 is needed
    with pytest.raises(KeyError):
        table3_markdown(structures)
    assert len(TABLE3_PRINTED) == 6


def test_puma_coupling_zeros_and_map():
    links = puma560().numeric()[0]
    roots = coupling_zeros(links, [(1.0, math.pi / 2), (math.pi / 2, 2.1)])
    assert abs(roots[0] - 1.2411) < 1e-4 and abs(roots[1] - 1.9572) < 1e-4
    with pytest.raises(ValueError, match="same sign"):
        coupling_zeros(links, [(0.0, 0.5)])
    grid = np.linspace(-math.pi, math.pi, 5)
    K = coupling_map(links, grid)
    assert set(K) == {(0, 1), (0, 2), (1, 2)} and all(k.shape == (5, 5) for k in K.values())
    assert all(0 <= k.min() and k.max() < 1 for k in K.values())
    fig = coupling_figure(grid, K)
    assert len(fig.axes) == 4 and fig.axes[-1].get_ylabel().startswith("coefficient of coupling")
