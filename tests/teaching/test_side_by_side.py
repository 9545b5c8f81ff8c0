"""The side-by-side torque tables fit a notebook column: printed for a narrow arm, a Markdown
table with the torques' symbols and units for a wide one (the PUMA 560's six joints)."""

from __future__ import annotations

import numpy as np

from dynlab.model.robots import puma560, scara
from dynlab.teaching import side_by_side


def test_a_narrow_arm_prints_within_a_column(capsys):
    table = side_by_side.torques_side_by_side(scara(), [0.3, -0.4, 0.1], [1.0, 0.5, 0.0],
                                              [0.2, -0.1, 0.3])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-2:] == ["tau_3", "(N)"]          # the prismatic joint: a force
    assert len(lines) == 1 + len(table.torques) and max(map(len, lines)) <= 100


def test_a_six_joint_arm_is_shown_as_a_markdown_table(monkeypatch, capsys):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    state = ([0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.5, -0.3, 0.8, 0.1, -0.6, 0.4], [1.0] * 6)
    table = side_by_side.torques_side_by_side(puma560(), *state)
    assert capsys.readouterr().out == "" and len(shown) == 1
    rows = shown[0]._repr_markdown_().splitlines()
    assert rows[0] == "| formulation | " + " | ".join(
        rf"$\tau_{i}$ (N m)" for i in range(1, 7)) + " |"
    assert len(rows) == 2 + len(table.torques)
    first = rows[2].split(" | ")[1:]
    reference = table.torques["Newton-Euler (link frame)"]
    assert [float(v.strip(" |").replace("−", "-")) for v in first] == \
        [round(float(t), 6) + 0.0 for t in reference]
    labels = {row.split(" | ")[0].removeprefix("| "): row for row in rows[2:]}
    assert r"Lagrange-Euler (Uicker $4\times4$)" in labels          # the labels' mathematics
    assert any(label.startswith(r"twist-wrench (closed form $\mathcal A^T") for label in labels)
    assert np.isclose(table.spread, 0.0, atol=1e-12)


def test_inertia_matrices_side_by_side_show_each_diagonal_with_its_unit(monkeypatch):
    """Every formulation's D(q) (the torque-only ones by probing) is the same matrix; the table
    shows each one's diagonal, kg m^2 for a revolute joint and kg for a prismatic one."""
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    arm = scara()
    table = side_by_side.inertias_side_by_side(arm, [0.3, -0.4, 0.1])
    assert list(table.matrices) == [label for *_, label in side_by_side.variants()]
    assert table.spread < 1e-12
    D = next(iter(table.matrices.values()))
    m2, m3, a2 = arm.links[1].mass, arm.links[2].mass, arm.links[1].a
    assert np.isclose(D[1, 1], (m2 / 3 + m3) * a2**2, rtol=0, atol=1e-12)   # Schilling (6-6-22)
    rows = shown[0]._repr_markdown_().splitlines()
    assert rows[0] == ("| formulation | $D_{11}$ (kg m²) | $D_{22}$ (kg m²) | $D_{33}$ (kg) |")
    assert rows[2].split(" | ")[2] == f"+{D[1, 1]:.4f}"
