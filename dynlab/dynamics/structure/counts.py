"""Tourassis & Neuman (1985), Tables 2 and 3: the independent coefficients of an ``n``-joint
model, how many of them a model has non-zero and constant (:class:`ModelStructure`, decided by
:func:`dynlab.dynamics.structure.exact.model_structure`), and its sparsity.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from dynlab.model.robot import Robot

# ==============================================================================================
# Tourassis & Neuman, Tables 2 and 3: counting coefficients
# ==============================================================================================
#: The columns of Tourassis & Neuman, Table 3, in its order.
COLUMNS = ("d_ii", "d_ij", "c_jj(i)", "c_jm(i)", "G_i")


def table2_counts(n: int) -> dict:
    """Independent coefficients of an n-joint model (Tourassis & Neuman, Table 2): ``N``,
    ``N(N-1)/2``, ``N(N-1)``, ``N(N-1)(N-2)/3``, ``N`` and the total ``N(2N^2 + 3N + 7)/6``.

    >>> table2_counts(3), table2_counts(6)["total"]
    ({'d_ii': 3, 'd_ij': 3, 'c_jj(i)': 6, 'c_jm(i)': 2, 'G_i': 3, 'total': 17}, 97)
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"table2_counts: n must be a positive integer, got {n!r}")
    counts = {"d_ii": n, "d_ij": n * (n - 1) // 2, "c_jj(i)": n * (n - 1),
              "c_jm(i)": n * (n - 1) * (n - 2) // 3, "G_i": n}
    counts["total"] = n * (2 * n * n + 3 * n + 7) // 6
    return counts


def independent_coefficients(n: int) -> list:
    """Tourassis & Neuman, Table 2's independent coefficients ``(column, label, (i, j, m))``
    (1-based): ``d_ij``, centrifugal ``c_jj(i)`` (``i != j``), Coriolis two per triple ``a < b < c``
    (``c_bc(a)``, ``c_ab(c)``; by symmetry, (38) and (39)), ``G_i``.

    >>> [label for _, label, _ in independent_coefficients(3)][-5:]
    ['c23(1)', 'c12(3)', 'G1', 'G2', 'G3']
    """
    sep = "," if n > 9 else ""
    out = [("d_ii", f"d{i}{sep}{i}", (i, i, 0)) for i in range(1, n + 1)]
    out += [("d_ij", f"d{i}{sep}{j}", (i, j, 0))
            for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    out += [("c_jj(i)", f"c{j}{sep}{j}({i})", (i, j, j))
            for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    for a, b, c in itertools.combinations(range(1, n + 1), 3):
        out += [("c_jm(i)", f"c{b}{sep}{c}({a})", (a, b, c)),
                ("c_jm(i)", f"c{a}{sep}{b}({c})", (c, a, b))]
    out += [("G_i", f"G{i}", (i, 0, 0)) for i in range(1, n + 1)]
    return out


@dataclass(frozen=True)
class Table3Row:
    """One printed row of Tourassis & Neuman, Table 3: per column ``(non-zero, constant)``, ``None``
    where the table prints no count of constants."""

    n: int
    n_revolute: int
    axes: str
    counts: dict
    total: int
    sparsity: float


#: Tourassis & Neuman, Table 3 as printed.
TABLE3_PRINTED = {
    "cartesian": Table3Row(3, 0, "z _|_ x _|_ y", {"d_ii": (3, 3), "d_ij": (0, None),
                           "c_jj(i)": (0, None), "c_jm(i)": (0, None), "G_i": (1, 1)}, 4, 0.235),
    "cylindrical": Table3Row(3, 1, "theta || z _|_ r", {"d_ii": (3, 2), "d_ij": (0, None),
                             "c_jj(i)": (1, None), "c_jm(i)": (0, None), "G_i": (1, 1)},
                             5, 0.294),
    "spherical": Table3Row(3, 2, "theta _|_ phi _|_ r", {"d_ii": (3, 1), "d_ij": (0, None),
                           "c_jj(i)": (3, None), "c_jm(i)": (0, None), "G_i": (2, None)},
                           8, 0.471),
    "articulated": Table3Row(3, 3, "q1 _|_ q2 || q3", {"d_ii": (3, 1), "d_ij": (3, None),
                             "c_jj(i)": (6, None), "c_jm(i)": (2, None), "G_i": (2, None)},
                             16, 0.941),
    "stanford": Table3Row(6, 5, "q1 _|_ q2 _|_ q3 || q4 _|_ q5 _|_ q6",
                          {"d_ii": (6, 1), "d_ij": (12, None), "c_jj(i)": (19, None),
                           "c_jm(i)": (25, None), "G_i": (4, None)}, 66, 0.680),
    "puma": Table3Row(6, 6, "q1 _|_ q2 || q3 _|_ q4 _|_ q5 _|_ q6",
                      {"d_ii": (6, 1), "d_ij": (14, None), "c_jj(i)": (30, None),
                       "c_jm(i)": (34, None), "G_i": (4, None)}, 88, 0.907),
}


def sparsity_formula(n: int, n_revolute: int, cartesian: float = 0.235) -> float:
    """Tourassis & Neuman's empirical sparsity ``0.235 [1 + (N_R / N)^2]^2`` (Sec. 6; ``N_R / N`` is
    the degree of anthropomorphism, 0.235 = 4/17 the Cartesian arm's).

    >>> round(sparsity_formula(3, 3), 3), round(sparsity_formula(6, 5), 3)
    (0.94, 0.675)
    """
    if not (isinstance(n, int) and isinstance(n_revolute, int) and 0 <= n_revolute <= n
            and n >= 1):
        raise ValueError(f"sparsity_formula: need 0 <= n_revolute <= n, n >= 1; got "
                         f"n = {n!r}, n_revolute = {n_revolute!r}")
    return cartesian * (1 + (n_revolute / n) ** 2) ** 2


@dataclass(frozen=True)
class Coefficient:
    """One independent coefficient: its column of Table 3, label (``c23(1)``), Tourassis & Neuman
    indices, status (``"zero"``, ``"constant"``, ``"varying"``) and the joints it depends on."""

    column: str
    label: str
    index: tuple
    status: str
    depends_on: frozenset


@dataclass
class ModelStructure:
    """Which independent coefficients of a model are zero, constant or coordinate-dependent
    (Tourassis & Neuman, Tables 2 and 3), decided exactly; see :func:`model_structure`."""

    robot: Robot
    coefficients: list
    polynomials: dict = field(repr=False)     # label -> reduced polynomial
    seconds: float = 0.0

    @property
    def n(self) -> int:
        return self.robot.n

    def counts(self) -> dict:
        """Per Table 3 column ``(non-zero, constant)``."""
        result = {}
        for column in COLUMNS:
            these = [c for c in self.coefficients if c.column == column]
            result[column] = (sum(c.status != "zero" for c in these),
                              sum(c.status == "constant" for c in these))
        return result

    @property
    def total(self) -> int:
        return sum(c.status != "zero" for c in self.coefficients)

    @property
    def sparsity(self) -> float:
        """Non-zero independent coefficients over all independent ones (Tourassis & Neuman, Sec. 6).
        """
        return self.total / table2_counts(self.n)["total"]

    def row(self) -> dict:
        return {**self.counts(), "total": self.total}

    def status(self, label: str) -> str:
        for c in self.coefficients:
            if c.label == label:
                return c.status
        raise KeyError(f"{label!r} is not an independent coefficient of this {self.n}-joint "
                       f"model; see independent_coefficients({self.n})")

    def labels(self, status: str | None = None, column: str | None = None) -> list:
        """Labels of the coefficients with ``status`` (``"zero"``, ``"constant"``,
        ``"varying"``, or ``"non-zero"``) in ``column`` (all when ``None``)."""
        def keep(c):
            ok = status is None or c.status == status or (
                status == "non-zero" and c.status != "zero")
            return ok and (column is None or c.column == column)
        return [c.label for c in self.coefficients if keep(c)]
