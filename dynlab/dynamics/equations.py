"""One result type for every formulation, :class:`EquationsOfMotion`:
``tau = D(q) qdd + h(q, qd) + c(q) + b(qd) + J^T w`` in Fu, Gonzalez & Lee's letters with
Schilling's friction ``b``, symbolic or evaluated; the formulation's own pieces in ``terms``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy

from dynlab.model.display import book_form, matrix_form
from dynlab.model.robot import Robot
from dynlab.model.symbolic import chop, compact, is_zero, reduce_trig

#: Absolute/relative tolerance of numeric comparisons.
NUMERIC_TOLERANCE = 1e-9


@dataclass
class Difference:
    """One element in which two results differ."""

    term: str            # "D", "h", "c", "friction" or a ``terms`` key
    index: tuple         # 0-based index into the term
    ours: Any
    theirs: Any
    difference: Any

    def __str__(self) -> str:
        where = self.term + "".join(f"[{i + 1}]" for i in self.index)
        return f"{where}: {self.ours} vs {self.theirs} (difference {self.difference})"


def _listed(names) -> str:
    """``("D", "c")`` -> ``"D and c"``; ``("D", "h", "c")`` -> ``"D, h and c"``."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass
class Comparison:
    """The outcome of :meth:`EquationsOfMotion.compare`; true when nothing differs."""

    names: tuple
    differences: list = field(default_factory=list)
    terms: tuple = ("D", "h", "c", "friction", "tip")

    def __bool__(self) -> bool:
        return not self.differences

    def __str__(self) -> str:
        a, b = self.names
        if not self.differences:
            return f"{a} and {b} agree in {_listed(self.terms)}"
        lines = [f"{a} and {b} differ in {len(self.differences)} element(s) "
                 f"(element numbers 1-based as in the books):"]
        lines += [f"  {d}" for d in self.differences]
        return "\n".join(lines)

    __repr__ = __str__


class EquationsOfMotion:
    """``tau = D qdd + h + c + friction + tip`` of one formulation for one robot (``tip = J^T (f,
    m)``): SymPy column matrices in ``q``, ``qd``, or NumPy arrays at ``state``."""

    def __init__(self, robot: Robot, method: str, D, h, c, friction, tip=None, *, q=None,
                 qd=None, state=None, terms: dict | None = None, seconds: float | None = None):
        self.robot = robot
        self.method = method
        self.symbolic = isinstance(D, sympy.MatrixBase)
        self.q, self.qd = q, qd
        self.state = state          # (q, qd) of an evaluated result, else None
        self.D, self.h, self.c, self.friction = D, h, c, friction
        n = robot.n
        if tip is None:
            tip = sympy.zeros(n, 1) if self.symbolic else np.zeros(n)
        self.tip = tip
        self.terms = dict(terms or {})
        self.seconds = seconds

    @property
    def n(self) -> int:
        return self.robot.n

    def torque(self, *state):
        """``tau`` for joint accelerations ``qdd``: ``torque(qdd)`` at this result's own state (an
        evaluated result, or symbolic in q, qd), or ``torque(q, qd, qdd)`` for a symbolic one."""
        if len(state) == 1:
            (qdd,) = state
            q = qd = None
        elif len(state) == 3:
            q, qd, qdd = state
        else:
            raise TypeError("torque takes (qdd) or (q, qd, qdd)")
        if self.symbolic:
            qdd = sympy.Matrix(qdd) if not isinstance(qdd, sympy.MatrixBase) else qdd
            self._check_length(qdd, "qdd")
            tau = self.D * qdd + self.h + self.c + self.friction + self.tip
            if q is not None:
                self._check_length(q, "q")
                self._check_length(qd, "qd")
                mapping = {**dict(zip(self.q, q)), **dict(zip(self.qd, qd))}
                tau = tau.subs(mapping)
                if not tau.free_symbols:
                    return np.array(tau, dtype=float).ravel()
            return tau
        if q is not None:
            if not (np.allclose(q, self.state[0]) and np.allclose(qd, self.state[1])):
                raise ValueError(f"{self.robot.name}: this result was evaluated at q = "
                                 f"{list(self.state[0])}, qd = {list(self.state[1])}; evaluate "
                                 f"the equations at the new state instead")
        qdd = np.asarray(qdd, dtype=float)
        self._check_length(qdd, "qdd")
        return self.D @ qdd + self.h + self.c + self.friction + self.tip

    def _check_length(self, vector, name):
        if len(vector) != self.n:
            raise ValueError(f"{self.robot.name}: {name} must have {self.n} entries, "
                             f"got {len(vector)}")

    def simplified(self, progress: bool = False) -> EquationsOfMotion:
        """The same result with every symbolic element in compact book form (``progress=True``
        reports each matrix and element as it goes: the PUMA's take a while)."""
        if not self.symbolic:
            return self
        report = Progress(progress, f"compacting {self.robot.name} ({self.method})")
        main = [report.matrix(name, compact, getattr(self, name))
                for name in ("D", "h", "c", "friction", "tip")]
        terms = {k: (report.matrix(k, compact, v) if isinstance(v, sympy.MatrixBase) else v)
                 for k, v in self.terms.items()}
        report.done()
        return EquationsOfMotion(self.robot, self.method, *main, q=self.q, qd=self.qd,
                                 terms=terms, seconds=self.seconds)

    def compare(self, other: EquationsOfMotion, terms: Sequence[str] = ("D", "h", "c",
                                                                         "friction", "tip"),
                tolerance: float = NUMERIC_TOLERANCE) -> Comparison:
        """Element-by-element comparison; symbolic results are compared by simplifying the
        difference, numeric ones to ``tolerance`` (absolute and relative).  Printed, the result
        names the terms it compared and nothing else:

        >>> from dynlab import equations_of_motion
        >>> from dynlab.model.robots import pendulum
        >>> le = equations_of_motion(pendulum(), method="lagrange_euler")
        >>> le.compare(equations_of_motion(pendulum(), method="newton_euler"), terms=("D", "c"))
        lagrange_euler and newton_euler agree in D and c
        """
        if not isinstance(other, EquationsOfMotion):
            raise TypeError(f"compare needs another EquationsOfMotion, got "
                            f"{type(other).__name__}")
        if other.n != self.n:
            raise ValueError(f"cannot compare a {self.n}-joint result with a {other.n}-joint one")
        terms = tuple(terms)
        result = Comparison((self.method, other.method), terms=terms)
        for term in terms:
            ours, theirs = _as_term(self, term), _as_term(other, term)
            if self.symbolic != other.symbolic:
                raise ValueError("compare a symbolic result with a symbolic one, an evaluated "
                                 "one with an evaluated one (use .at(q, qd) to evaluate)")
            if self.symbolic:
                theirs = theirs.subs({**dict(zip(other.q, self.q)),
                                      **dict(zip(other.qd, self.qd))})
                for index in np.ndindex(*ours.shape):
                    delta = ours[index] - theirs[index]
                    # equal canonical forms settle it at once; else decide exactly
                    canonical = chop(self._canonical(term, index, ours[index]),
                                     -other._canonical(term, index, theirs[index]))
                    if canonical != 0 and not is_zero(ours[index], -theirs[index]):
                        result.differences.append(Difference(
                            term, _index(index, ours.shape), ours[index], theirs[index],
                            compact(delta)))
            else:
                ours, theirs = np.asarray(ours, float), np.asarray(theirs, float)
                scale = max(1.0, float(np.max(np.abs(ours), initial=0.0)),
                            float(np.max(np.abs(theirs), initial=0.0)))
                for index in np.ndindex(*ours.shape):
                    delta = ours[index] - theirs[index]
                    if abs(delta) > tolerance * scale:
                        result.differences.append(Difference(
                            term, _index(index, ours.shape), ours[index], theirs[index], delta))
        return result

    def _canonical(self, term: str, index: tuple, element):
        """``reduce_trig`` of one element, computed once per result (comparisons reuse it)."""
        key = (term, index, tuple(self.q), tuple(self.qd))
        cache = self.__dict__.setdefault("_canonical_forms", {})
        if key not in cache:
            cache[key] = reduce_trig(element)
        return cache[key]

    def at(self, q: Sequence, qd: Sequence) -> EquationsOfMotion:
        """A symbolic result evaluated at numbers (``q``, ``qd``) and numeric parameters."""
        if not self.symbolic:
            raise TypeError("this result is already evaluated")
        mapping = {**dict(zip(self.q, q)), **dict(zip(self.qd, qd))}

        def number(matrix):
            value = matrix.subs(mapping)
            if value.free_symbols:
                raise TypeError(f"{self.robot.name}: parameters "
                                f"{sorted(map(str, value.free_symbols))} are symbolic; "
                                f"substitute them first")
            array = np.array(value, dtype=float)
            return array if array.shape[1] > 1 else array.ravel()

        return EquationsOfMotion(self.robot, self.method, number(self.D), number(self.h),
                                 number(self.c), number(self.friction), number(self.tip),
                                 state=(np.asarray(q, float), np.asarray(qd, float)),
                                 seconds=self.seconds)

    def __repr__(self) -> str:
        kind = "symbolic" if self.symbolic else f"evaluated at q={self.state[0].tolist()}"
        return (f"EquationsOfMotion({self.robot.name!r}, method={self.method!r}, {kind}, "
                f"terms={sorted(self.terms)})")

    def _repr_latex_(self) -> str:
        return equations_latex(self)


def equations_text(eom, progress: Callable[[int, int], None] | None = None) -> str:
    """The equations of motion as plain text, one element per line, as the books print them.
    ``progress(done, total)``, if given, is called after each element is written (the PUMA
    560's take minutes).

    >>> from dynlab.dynamics.inverse import equations_of_motion
    >>> from dynlab.model.robots import pendulum
    >>> print(equations_text(equations_of_motion(pendulum(symbolic=True))))
    Equations of motion of one-axis arm (pendulum) (lagrange_euler):
      D11 = a1**2*m1/3
      c1 = C1*a1*g*m1/2
    >>> equations_text("x")
    Traceback (most recent call last):
    ...
    TypeError: equations_text: eom must be an EquationsOfMotion (from dynlab.equations_of_motion),
    got str 'x'
    """
    if not isinstance(eom, EquationsOfMotion):
        raise TypeError(f"equations_text: eom must be an EquationsOfMotion (from "
                        f"dynlab.equations_of_motion), got {type(eom).__name__} {eom!r}")
    if progress is not None and not callable(progress):
        raise TypeError(f"equations_text: progress must be a function (done, total) or None, "
                        f"got {progress!r}")
    if not eom.symbolic:
        return repr(eom)
    lines = [f"Equations of motion of {eom.robot.name} ({eom.method}):"]
    n = eom.n
    elements = [(f"D{i + 1}{k + 1}", eom.D[i, k], ()) for i in range(n) for k in range(i, n)]
    for name, vector, by in (("h", eom.h, eom.qd), ("c", eom.c, ()),
                             ("b", eom.friction, eom.qd)):
        elements += [(f"{name}{i + 1}", vector[i], by) for i in range(n) if vector[i] != 0]
    for done, (name, value, by) in enumerate(elements, start=1):
        lines.append(f"  {name} = {book_form(value, by)}")
        if progress is not None:
            progress(done, len(elements))
    return "\n".join(lines)


def equations_latex(eom: EquationsOfMotion) -> str:
    """``D(q)``, ``h(q, qd)``, ``c(q)`` (and friction) as a LaTeX display, in book form
    (:func:`dynlab.model.display.matrix_form`)."""
    if not eom.symbolic:
        return ("$$D = " + sympy.latex(sympy.Matrix(np.round(eom.D, 6))) + ",\\quad h = "
                + sympy.latex(sympy.Matrix(np.round(eom.h, 6))) + ",\\quad c = "
                + sympy.latex(sympy.Matrix(np.round(eom.c, 6))) + "$$")
    names = {}
    for k, (q, qd) in enumerate(zip(eom.q, eom.qd), start=1):
        names[qd] = rf"\dot q_{{{k}}}"
        names[q] = f"q_{{{k}}}"
    parts = [("D(q)", matrix_form(eom.D)), (r"h(q, \dot q)", matrix_form(eom.h, eom.qd)),
             ("c(q)", matrix_form(eom.c))]
    if any(e != 0 for e in eom.friction):
        parts.append((r"b(\dot q)", matrix_form(eom.friction)))
    body = r",\quad ".join(f"{name} = {sympy.latex(value, symbol_names=names)}"
                           for name, value in parts)
    return f"$${body}$$"



class Progress:
    """Stage-by-stage progress of a long derivation, printed as it goes (when enabled)."""

    def __init__(self, enabled: bool, title: str):
        import time
        self.enabled, self.clock, self.start = enabled, time.perf_counter, time.perf_counter()
        self.say(f"{title} ...")

    def say(self, message: str) -> None:
        if self.enabled:
            print(f"[{self.clock() - self.start:7.1f} s] {message}", flush=True)

    def matrix(self, name: str, function, matrix):
        """``matrix.applyfunc(function)``, reporting every tenth of the elements."""
        count, done = len(matrix), [0]
        step = max(1, count // 10)

        def each(element):
            result = function(element)
            done[0] += 1
            if done[0] % step == 0 or done[0] == count:
                self.say(f"  {name}: {done[0]}/{count} elements")
            return result
        return matrix.applyfunc(each)

    def done(self) -> None:
        self.say("done")


def _as_term(eom: EquationsOfMotion, term: str):
    value = getattr(eom, term) if term in ("D", "h", "c", "friction", "tip") else eom.terms[term]
    if eom.symbolic and not isinstance(value, sympy.MatrixBase):
        value = sympy.Matrix(value)
    return value


def _index(index: tuple, shape: tuple) -> tuple:
    # a column vector is indexed by its row alone, as in the books (h_1, c_2)
    return index[:1] if len(shape) == 2 and shape[1] == 1 else tuple(index)
