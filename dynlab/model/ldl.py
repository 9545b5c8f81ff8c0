"""The ``L D L^T`` solve of ``D x = b`` over any scalar type: the last step of forward dynamics,
``D qdd = tau - bias`` (Lynch & Park, Sec. 8.5 (draft Eq. (9.89)))."""

from __future__ import annotations

#: A pivot of ``D = L diag(d) L^T`` at or below this fraction of its own diagonal element,
#: ``d_j <= SINGULAR_PIVOT * D_jj``, means ``D`` is singular: joint ``j`` moves no mass or
#: inertia that the joints eliminated before it do not already move.  ``d_j / D_jj`` lies in
#: ``(0, 1]`` for a positive definite ``D`` and is the same for ``S D S`` with ``S`` diagonal
#: and positive (other units per joint), so a light spindle on a heavy shoulder, a mass of
#: 1e300 or a link 1e20 m long is judged like any other arm.  (Eliminated in the other order,
#: as the articulated body algorithm does, the pivots differ, the test does not.)
SINGULAR_PIVOT = 1e-12


class ZeroPivot(ZeroDivisionError):
    """An ``L D L^T`` pivot is exactly zero (for the tracer: zero at every ``q``)."""

    def __init__(self, joint: int):
        super().__init__(f"pivot {joint} is zero")
        self.joint = joint


def ldl_solve(D, b):
    """``(x, d)``: ``D x = b`` by ``D = L diag(d) L^T`` (``L y = b``, ``z = y / d``, ``L^T x = z``),
    no square roots, any scalar type; the pivots ``d`` are all positive exactly when ``D`` is
    positive definite.

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


def singular_pivot(pivots, diagonal) -> tuple | None:
    """``(j, what was measured)`` for the first pivot ``d_j`` not above :data:`SINGULAR_PIVOT`
    times its own diagonal element ``D_jj`` (a NaN is not above it), or None when every pivot
    is: ``D`` is then positive definite.

    >>> singular_pivot([190.0, 1e-10], [190.0, 1e-10]) is None         # a light spindle
    True
    >>> singular_pivot([2.0, 1e-17], [2.0, 0.5])
    (2, 'pivot 2 is 1e-17, 2e-17 of D_22 = 0.5')
    """
    for j, (pivot, element) in enumerate(zip(pivots, diagonal), start=1):
        if not pivot > SINGULAR_PIVOT * element:
            share = f", {pivot / element:.2g} of" if element > 0 else " and"
            return j, f"pivot {j} is {pivot:.3g}{share} D_{j}{j} = {element:.3g}"
    return None
