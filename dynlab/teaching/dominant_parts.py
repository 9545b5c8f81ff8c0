"""Which part, translational or rotational, of each element of ``D`` and ``h`` dominates along a
motion: Fu, Gonzalez & Lee, Sec. 3.4.1's study of the PUMA (the book's verdicts:
:data:`dynlab.dynamics.control.FGL_PUMA_D_PARTS`,
:data:`~dynlab.dynamics.control.FGL_PUMA_H_PARTS`).

>>> dominance([1.0, -2.0], [0.05, 0.1], scale=2.0)
'tran'
"""

from __future__ import annotations

import numpy as np

from dynlab.model.display import numbers

#: a part smaller than this fraction of the other is dominated by it
DOMINATED = 0.1
#: an element whose parts are all below this fraction of the scale is zero (round-off)
ROUND_OFF = 1e-12


def dominance(tran, rot, scale: float) -> str:
    """``"tran"`` or ``"rot"`` when one part's largest magnitude along the samples is less than
    :data:`DOMINATED` of the other's, ``"zero"`` when both are round-off against ``scale``,
    else ``"both"``.

    >>> dominance([0.0], [1e-15], scale=1.0), dominance([1.0], [0.5], scale=1.0)
    ('zero', 'both')
    """
    big_t, big_r = float(np.abs(tran).max()), float(np.abs(rot).max())
    if max(big_t, big_r) < ROUND_OFF * scale:
        return "zero"
    if big_r < DOMINATED * big_t:
        return "tran"
    if big_t < DOMINATED * big_r:
        return "rot"
    return "both"


def verdicts(D_tran, D_rot, h_tran, h_rot) -> tuple:
    """``(verdicts of D, verdicts of h)``: ``{(i, j): verdict}`` for ``i <= j`` (from 1) and
    ``{i: verdict}``, from the parts sampled along a motion (``D_*[k, i, j]``, ``h_*[k, i]``
    at sample ``k``).  ``D`` is judged against the largest part of any element of ``D``,
    ``h`` against the largest total ``h``.

    >>> D_t, D_r = np.array([[[2.0, 0.0], [0.0, 0.1]]]), np.array([[[0.1, 0.0], [0.0, 3.0]]])
    >>> verdicts(D_t, D_r, np.array([[1.0, 0.0]]), np.array([[0.0, 0.0]]))
    ({(1, 1): 'tran', (1, 2): 'zero', (2, 2): 'rot'}, {1: 'tran', 2: 'zero'})
    """
    D_tran, D_rot, h_tran, h_rot = (np.asarray(a, dtype=float)
                                    for a in (D_tran, D_rot, h_tran, h_rot))
    n = D_tran.shape[-1]
    scale = max(np.abs(D_tran).max(), np.abs(D_rot).max())
    of_D = {(i + 1, j + 1): dominance(D_tran[:, i, j], D_rot[:, i, j], scale)
            for i in range(n) for j in range(i, n)}
    h_scale = np.abs(h_tran + h_rot).max()
    of_h = {i + 1: dominance(h_tran[:, i], h_rot[:, i], h_scale) for i in range(n)}
    return of_D, of_h


def _largest(values, scale: float) -> str:
    big = float(np.abs(values).max())
    if big < ROUND_OFF * scale:
        return "round-off"
    return f"${numbers(big, 3)}$"


def dominance_markdown(D_tran, D_rot, h_tran, h_rot, book_D: dict, book_h: dict) -> tuple:
    """``(table, agreements)``: a Markdown table of every element's largest translational and
    rotational part, the verdict of :func:`verdicts` and the book's (``book_D``, ``book_h``;
    an element the book does not name keeps both parts), and how many verdicts agree.

    >>> D_t, D_r = np.array([[[2.0]]]), np.array([[[0.1]]])
    >>> text, same = dominance_markdown(D_t, D_r, [[1.0]], [[0.0]], {(1, 1): "rot"}, {1: "tran"})
    >>> same, text.splitlines()[2]
    (1, '| $D_{11}$ | $2$ | $0.1$ | tran | rot |')
    """
    D_tran, D_rot, h_tran, h_rot = (np.asarray(a, dtype=float)
                                    for a in (D_tran, D_rot, h_tran, h_rot))
    of_D, of_h = verdicts(D_tran, D_rot, h_tran, h_rot)
    scale, h_scale = max(np.abs(D_tran).max(), np.abs(D_rot).max()), np.abs(h_tran + h_rot).max()
    lines = ["| element | max abs, translational | max abs, rotational | dynlab | "
             "Fu, Gonzalez & Lee, Sec. 3.4.1 |", "|---|---|---|---|---|"]
    for (i, j), verdict in of_D.items():
        lines.append(f"| $D_{{{i}{j}}}$ | {_largest(D_tran[:, i - 1, j - 1], scale)} | "
                     f"{_largest(D_rot[:, i - 1, j - 1], scale)} | {verdict} | "
                     f"{book_D.get((i, j), 'both')} |")
    for i, verdict in of_h.items():
        lines.append(f"| $h_{i}$ | {_largest(h_tran[:, i - 1], h_scale)} | "
                     f"{_largest(h_rot[:, i - 1], h_scale)} | {verdict} | {book_h[i]} |")
    same = (sum(of_D[k] == book_D.get(k, "both") for k in of_D)
            + sum(of_h[i] == book_h[i] for i in of_h))
    return "\n".join(lines), same


def simplified_torques(D_tran, D_rot, h_tran, h_rot, c, qdd, choice_D: dict,
                       choice_h: dict) -> np.ndarray:
    """The torques ``D_s qdd + h_s + c`` at every sample of a motion, of the model that keeps
    for each element only the part ``choice_D[(i, j)]`` (``i <= j``, from 1) or
    ``choice_h[i]`` names (``"tran"``, ``"rot"``; anything else, or an element not named,
    keeps both); gravity ``c`` in full, as Fu, Gonzalez & Lee keep it.

    >>> D_t, D_r = np.array([[[2.0]]]), np.array([[[0.5]]])
    >>> simplified_torques(D_t, D_r, [[1.0]], [[0.2]], [[3.0]], [[1.0]], {(1, 1): "tran"},
    ...                    {1: "both"}).tolist()
    [[6.2]]
    """
    D_tran, D_rot, h_tran, h_rot, c, qdd = (np.asarray(a, dtype=float)
                                            for a in (D_tran, D_rot, h_tran, h_rot, c, qdd))
    D_full, h_full = D_tran + D_rot, h_tran + h_rot
    n = D_full.shape[-1]
    D_s = np.empty_like(D_full)
    for i in range(n):
        for j in range(n):
            pick = choice_D.get((min(i, j) + 1, max(i, j) + 1), "both")
            D_s[:, i, j] = {"tran": D_tran, "rot": D_rot}.get(pick, D_full)[:, i, j]
    h_s = np.column_stack([{"tran": h_tran, "rot": h_rot}.get(choice_h.get(i + 1), h_full)[:, i]
                           for i in range(n)])
    return np.einsum("kij,kj->ki", D_s, qdd) + h_s + c
