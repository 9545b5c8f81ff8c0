"""The operation counts the sources print, as laws in ``n``: Fu, Gonzalez & Lee's Tables 3.1,
3.4, 3.5, Hollerbach (1980), and the figures Schilling and the thesis quote.

>>> table_3_4(6)                       # Fu, Gonzalez & Lee, Table 3.4, totals for n = 6
{'mul': 678, 'add': 597}
>>> hollerbach_1980(6)                 # Schilling, Sec. 6-8 quotes 852 and 738
{'mul': 852, 'add': 738}
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dynlab.engine.opcount import polynomial_text


def law_value(coefficients, n):
    """``sum c_k n^k`` with exact fractions; an int when the value is integral.

    >>> law_value((0, Fraction(1, 2), 3), 2)
    13
    """
    value = sum(Fraction(c) * n**k for k, c in enumerate(coefficients))
    return int(value) if value.denominator == 1 else float(value)


def table_3_1(n: int) -> dict:
    """Fu, Gonzalez & Lee, Table 3.1, last row: L-E ``tau = D qdd + h + c`` per trajectory point.
    Multiplications ``128/3 n^4 + 512/3 n^3 + 844/3 n^2 + 76/3 n``, additions
    ``98/3 n^4 + 781/6 n^3 + 637/3 n^2 + 107/6 n``."""
    return {"mul": law_value((0, Fraction(76, 3), Fraction(844, 3), Fraction(512, 3),
                          Fraction(128, 3)), n),
            "add": law_value((0, Fraction(107, 6), Fraction(637, 3), Fraction(781, 6),
                          Fraction(98, 3)), n)}


def table_3_1_rows(n: int) -> dict:
    """Fu, Gonzalez & Lee, Table 3.1 row by row: ``{row: (multiplications, additions)}``.  The
    rows add up to the printed total (:func:`table_3_1`) for every ``n``; it is Table 3.5 that
    disagrees with them (:func:`disagreements`).

    >>> rows = table_3_1_rows(6)
    >>> sum(m for m, _ in rows.values()) == table_3_1(6)["mul"]
    True
    """
    F = Fraction
    rows = {
        "A_j' (4x4 products)": (32 * n * (n - 1), 24 * n * (n - 1)),
        "-m_j g U_ji r_j": (4 * n * (9 * n - 7), F(n * (51 * n - 45), 2)),
        "sum_j m_j g U_ji r_j": (0, F(n * (n - 1), 2)),
        "Tr(U_kj J_k U_ki^T)": (F(128, 3) * n * (n + 1) * (n + 2),
                                F(65, 2) * n * (n + 1) * (n + 2)),
        "sum_k Tr(U_kj J_k U_ki^T)": (0, F(1, 6) * n * (n - 1) * (n + 1)),
        "Tr(U_mjk J_m U_mi^T)": (F(128, 3) * n**2 * (n + 1) * (n + 2),
                                 F(65, 2) * n**2 * (n + 1) * (n + 2)),
        "sum_m Tr(U_mjk J_m U_mi^T)": (0, F(1, 6) * n**2 * (n - 1) * (n + 1)),
    }
    return {key: tuple(int(v) if F(v).denominator == 1 else float(v) for v in pair)
            for key, pair in rows.items()}


def table_3_4(n: int) -> dict:
    """Fu, Gonzalez & Lee, Table 3.4, totals: link-frame N-E, ``117n - 24`` multiplications and
    ``103n - 21`` additions (printed "for a PUMA robot arm", in ``n``)."""
    return {"mul": 117 * n - 24, "add": 103 * n - 21}


TABLE_3_4_ROWS = {          # Fu, Gonzalez & Lee, Table 3.4: (mul, add) as (a, b) meaning a*n + b
    "omega_i": ((9, 0), (7, 0)), "omega_dot_i": ((9, 0), (9, 0)),
    "v_dot_i": ((27, 0), (22, 0)), "a_i": ((15, 0), (14, 0)), "F_i": ((3, 0), (0, 0)),
    "f_i": ((9, -9), (9, -6)), "N_i": ((24, 0), (18, 0)), "n_i": ((21, -15), (24, -15)),
}


#: Table 3.5's two multiplication laws as the scanned copy reads them, where the counts they give
#: are not whole numbers (an erratum of the scan in :mod:`dynlab.teaching.errata`):
#: L-E ``(112/3) n^3`` and G-D ``(105/12) n^2``
TABLE_3_5_AS_SCANNED = {"lagrange_euler": (0, Fraction(169, 3), Fraction(739, 3), Fraction(112, 3),
                                           Fraction(128, 3)),
                        "dalembert": (69, Fraction(268, 3), Fraction(105, 12), Fraction(13, 6))}


#: Table 3.5's L-E multiplications, as read (``sum c_k n^k``, ``c_0`` first)
TABLE_3_5_LE_MUL = (0, Fraction(169, 3), Fraction(739, 3), Fraction(512, 3), Fraction(128, 3))


def table_3_5(n: int) -> dict:
    """Fu, Gonzalez & Lee, Table 3.5 (L-E, N-E, G-D ``{"mul", "add"}``), two multiplication laws
    read as they must stand (whole counts at every ``n``): L-E's ``(512/3) n^3`` (Table 3.1's
    term) and G-D's ``(105/2) n^2``, not the scan's (:data:`TABLE_3_5_AS_SCANNED`).

    >>> table_3_5(1)["lagrange_euler"]["mul"], table_3_5(1)["dalembert"]["mul"]
    (516, 213)
    >>> all(isinstance(table_3_5(n)[k][c], int) for n in range(1, 25) for k in table_3_5(1)
    ...     for c in ("mul", "add"))
    True
    >>> law_value(TABLE_3_5_AS_SCANNED["dalembert"], 1)
    169.25
    """
    F = Fraction
    return {"lagrange_euler": {"mul": law_value(TABLE_3_5_LE_MUL, n),
                               "add": law_value((0, F(245, 6), F(559, 3), F(781, 6), F(98, 3)), n)},
            "newton_euler": {"mul": 132 * n, "add": 111 * n - 4},
            "dalembert": {"mul": law_value((69, F(268, 3), F(105, 2), F(13, 6)), n),
                          "add": law_value((45, F(146, 3), 44, F(4, 3)), n)}}


#: Figures quoted in the sources (multiplications, additions).
QUOTED = {
    "Schilling, Sec. 6-7: L-E, n = 6 (Hollerbach 1980)": (66271, 51548),
    "Schilling, Sec. 6-8: link-frame N-E, n = 6 (Hollerbach 1980)": (852, 738),
    "the thesis appendix, B.7: Macsyma two-link inverse dynamics": (30, 17),
    "the thesis appendix, B.7: its precomputed constants": (24, 16),
    "the thesis appendix, B.7: Macsyma two-link forward dynamics": (57, 33),
    "the thesis appendix, B.7: Raibert-Horn minimum, two-link inverse dynamics "
    "(Brady et al. 1982)": (20, 14),
}


#: Armstrong, Khatib & Burdick (1986), abstract and introduction: the calculations (multiplications
#: and additions) reported for the PUMA 560's full explicit model, for the model abbreviated with
#: a 1 % significance criterion ("one fifth the number required by the recursive Newton-Euler
#: method"), and for the six-joint recursive Newton-Euler algorithm they compare with.
ARMSTRONG_KHATIB_BURDICK_1986 = {
    "full explicit model": {"mul": 739, "add": 426, "total": 1165},
    "1 % significance": {"total": 305},
    "recursive Newton-Euler": {"total": 1560},
}


def disagreements() -> list:
    """Where the sources' own figures disagree with each other, computed from the tables.

    >>> for line in disagreements():
    ...     print(line)
    L-E, n = 6: Table 3.1 102440 mul / 78203 add; Table 3.5 101366 / 77405; Schilling quotes 66271 /
    51548
    L-E, in n: Table 3.1 128/3 n^4 + 512/3 n^3 + 844/3 n^2 + 76/3 n mul; Table 3.5 128/3 n^4 + 512/3
    n^3 + 739/3 n^2 + 169/3 n
    N-E, n = 6: Table 3.4 678 mul / 597 add; Table 3.5 792 / 662; Schilling quotes 852 / 738
    """
    t1, t5, t4 = table_3_1(6), table_3_5(6), table_3_4(6)
    F = Fraction
    return [
        f"L-E, n = 6: Table 3.1 {t1['mul']} mul / {t1['add']} add; Table 3.5 "
        f"{t5['lagrange_euler']['mul']} / {t5['lagrange_euler']['add']}; Schilling quotes "
        f"66271 / 51548",
        "L-E, in n: Table 3.1 "
        + polynomial_text([0, F(76, 3), F(844, 3), F(512, 3), F(128, 3)])
        + " mul; Table 3.5 " + polynomial_text(list(TABLE_3_5_LE_MUL)),
        f"N-E, n = 6: Table 3.4 {t4['mul']} mul / {t4['add']} add; Table 3.5 "
        f"{t5['newton_euler']['mul']} / {t5['newton_euler']['add']}; Schilling quotes 852 / 738",
    ]


def hollerbach_1980(n: int) -> dict:
    """Hollerbach (1980)'s count of Luh's link-frame recursion for a general arm: ``150n - 48``
    multiplications and ``131n - 48`` additions (Schilling, Sec. 6-8 quotes them at ``n = 6``)."""
    return {"mul": 150 * n - 48, "add": 131 * n - 48}


#: The labels of :func:`source_laws`, in the order they are drawn.
SOURCE_LAWS = ("L-E, Table 3.1", "L-E, Table 3.5", "G-D, Table 3.5", "N-E, Table 3.5",
               "N-E, Hollerbach (1980) (Luh, general arm)", "N-E, Table 3.4 (Luh, PUMA)")


def source_laws(n: int) -> dict:
    """The sources' operation counts at ``n`` joints: label (:data:`SOURCE_LAWS`) ->
    ``{"mul", "add"}``, the L-E ones rounded to whole operations.

    >>> source_laws(1)["G-D, Table 3.5"]
    {'mul': 213, 'add': 139}
    >>> source_laws(0)
    Traceback (most recent call last):
    ...
    ValueError: n must be a whole number of joints >= 1, not 0
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a whole number of joints >= 1, not {n!r}")
    n = int(n)
    t5 = table_3_5(n)
    laws = {
        "L-E, Table 3.1": table_3_1(n),
        "L-E, Table 3.5": t5["lagrange_euler"],
        "G-D, Table 3.5": t5["dalembert"],
        "N-E, Table 3.5": t5["newton_euler"],
        "N-E, Hollerbach (1980) (Luh, general arm)": hollerbach_1980(n),
        "N-E, Table 3.4 (Luh, PUMA)": table_3_4(n),
    }
    return {label: {kind: int(round(float(value[kind]))) for kind in ("mul", "add")}
            for label, value in laws.items()}
