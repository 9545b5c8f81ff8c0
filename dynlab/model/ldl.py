"""The ``L D L^T`` solve of ``D x = b`` for a symmetric positive definite ``D``, over any scalar
type (floats, SymPy, the tracing tape): the last step of forward dynamics, ``D qdd = tau - bias``
(Lynch & Park, Sec. 8.5 (draft Eq. (9.89))), shared by :mod:`dynlab.dynamics.forward`,
Featherstone's articulated body algorithm (its pivots, :class:`ZeroPivot`) and the operation counts.
:mod:`dynlab.dynamics.forward` offers both names too.
"""

from __future__ import annotations


class ZeroPivot(ZeroDivisionError):
    """An ``L D L^T`` pivot is exactly zero (for the tracer: zero at every ``q``)."""

    def __init__(self, joint: int):
        super().__init__(f"pivot {joint} is zero")
        self.joint = joint


def ldl_solve(D, b):
    """Solve ``D x = b`` for a symmetric positive definite ``D`` (rows) by ``D = L diag(d) L^T``
    with unit lower-triangular ``L``: ``L y = b``, ``z = y / d``, ``L^T x = z``.

    No square roots, one division per pivot, the same code for floats and for the tracer.
    Returns ``(x, d)``; the pivots ``d`` are all positive exactly when ``D`` is positive
    definite.

    >>> x, d = ldl_solve([[4.0, 2.0], [2.0, 3.0]], [2.0, 1.0])
    >>> [round(v, 12) for v in x], d
    ([0.5, 0.0], [4.0, 2.0])
    """
    n = len(b)
    L = [[0] * n for _ in range(n)]
    d, inverse = [0] * n, [0] * n
    for j in range(n):
        v = [L[j][k] * d[k] for k in range(j)]
        total = D[j][j]
        for k in range(j):
            total = total - L[j][k] * v[k]
        if isinstance(total, (int, float)) and total == 0:
            raise ZeroPivot(j + 1)
        d[j] = total
        inverse[j] = 1 / total
        for i in range(j + 1, n):
            total = D[i][j]
            for k in range(j):
                total = total - L[i][k] * v[k]
            L[i][j] = total * inverse[j]
    y = []
    for i in range(n):
        total = b[i]
        for k in range(i):
            total = total - L[i][k] * y[k]
        y.append(total)
    x = [0] * n
    for i in range(n - 1, -1, -1):
        total = y[i] * inverse[i]
        for k in range(i + 1, n):
            total = total - L[k][i] * x[k]
        x[i] = total
    return x, d
