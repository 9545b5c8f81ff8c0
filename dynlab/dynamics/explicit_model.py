"""The explicit model of an arm as Armstrong, Khatib & Burdick (1986) wrote the PUMA 560's ("The
explicit dynamic model and inertial parameters of the PUMA 560 arm", Proc. IEEE ICRA, 510-518):
every element of ``D(q)``, of the velocity terms ``h`` and of the gravity terms ``c(q)`` in ``tau
= D qdd + h + c`` (Fu, Gonzalez & Lee, Eq. (3.2-26)) a sum of named constants times products of
sines and cosines; the constants are combinations of the base parameters
(:func:`dynlab.dynamics.identification.base_parameters`) evaluated with the arm's values, and
the terms below a significance cut are dropped.

How.  ``D``'s column ``j`` is ``Y_b(q, 0, e_j) pi_b`` less gravity's ``c = Y_b(q, 0, 0) pi_b``;
each entry of ``Y_b`` is a trigonometric polynomial of degree at most 2 in each joint angle (a
joint twist times an acceleration, each rotated once by every angle between), so 5 samples an
angle give its Fourier coefficients exactly (a discrete Fourier transform).  ``D`` does not depend
on ``q1`` (turning the whole arm about the fixed first axis changes no kinetic energy).  ``h_i =
sum_jk Gamma_ijk qd_j qd_k`` with ``Gamma_ijk = (dD_ij/dq_k + dD_ik/dq_j - dD_jk/dq_i) / 2``
(Lynch & Park (2017), Sec. 8.1.2; Fu, Gonzalez & Lee's ``h_ikm``, Eq. (3.2-33)), differentiated
coefficient by coefficient; an element of ``h`` is the coefficient ``Gamma_ijj`` of ``qd_j^2`` or
``2 Gamma_ijk`` of ``qd_j qd_k`` (Armstrong et al.'s centrifugal and Coriolis matrices).  An
element is written in ``cos(k phi)``, ``sin(k phi)`` of the joint angles or, along joints with
parallel axes, of their sums (``C23 = cos(q2 + q3)``, Fu, Gonzalez & Lee, Sec. 3.2.6), whichever
gives it fewer terms (angles ``theta = q + offset``).  The angles are then independent and
every factor reaches 1, so a term's largest magnitude over full turns of the joints is its
coefficient: its significance is that over its element's largest magnitude, found at random
states.  Full turns stand for the joint ranges, which the arm registry does not give; over a
narrower range a term's magnitude is at most its coefficient.

>>> from dynlab.model.robots import planar_2r
>>> model = explicit_model(planar_2r())
>>> print(model.formula("D11"))
D11 = I1 + I2*C2
>>> print(model.formula("c2"))
c2 = g2*C12
>>> model.terms_in("D11"), [name for name, _ in model.constants]
(2, ['I1', 'I2', 'I3', 'g1', 'g2'])
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import numpy as np
import scipy.fft

from dynlab.dynamics.identification import BaseParameters, base_parameters, standard_parameters
from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.engine.opcount import Counted, OpCounter, counting_backend
from dynlab.engine.tracing import Tape, backend_for
from dynlab.model.checks import count, number
from dynlab.model.display import table_markdown
from dynlab.model.robot import Robot
from dynlab.model.symbolic import ROUND_OFF


@dataclass(frozen=True)
class Term:
    """``factor * constants[constant] * product of (cos|sin)(k * angle)``: ``monomial`` holds
    ``(joints, k, kind)``, the angle the sum of the joints' ``theta``, kind 0 cos, 1 sin."""

    constant: int
    factor: float
    monomial: tuple


def _fourier(values, axes: int, scale) -> np.ndarray:
    """Fourier coefficients of samples on the 5-point grid of each of the first ``axes`` axes,
    index ``m`` of an axis frequency ``m - 2``; FFT round-off (below ``ROUND_OFF`` of each base
    parameter's ``scale``) made 0."""
    F = scipy.fft.fftn(values.reshape((5,) * axes + values.shape[1:]), axes=range(axes))
    F = np.fft.fftshift(F, axes=range(axes)) / 5**axes
    return np.where(np.abs(F) > ROUND_OFF * scale, F, 0)


def _derivative(T, k: int) -> np.ndarray:
    """``d/dtheta_k`` of a series: ``d e^{iK.theta}/dtheta_k = i K_k e^{iK.theta}``."""
    width = T.shape[k]
    shape = [1] * T.ndim
    shape[k] = width
    return T * (1j * (np.arange(width) - width // 2)).reshape(shape)


def _elements(base, links):
    """The Fourier series of every element, ``("D", i, j)``, then ``("h", i, j, k)``, then
    ``("c", i)``, one at a time (an ``h`` series of the PUMA 560 is 2 MB, and there are 126):
    one axis a joint, then one a base parameter."""
    n = len(links)
    theta = 2 * np.pi * np.array(list(itertools.product(range(5), repeat=n))) / 5
    q = theta - np.array([link.offset for link in links])
    zero = np.zeros_like(q)
    gravity = base.regressor(q, zero, zero).reshape(len(q), n, -1)
    rows = 5 ** (n - 1)                                   # theta_1 = 0: D is free of q1
    columns = []
    for j in range(n):
        unit = np.zeros_like(q[:rows])
        unit[:, j] = 1
        columns.append(base.regressor(q[:rows], zero[:rows], unit).reshape(rows, n, -1)
                       - gravity[:rows])
    upper = [(i, j) for i in range(n) for j in range(i, n)]
    inertia = np.stack([columns[j][:, i] for i, j in upper], axis=1)
    del columns
    scale = np.maximum(np.abs(inertia).max(axis=(0, 1)), np.abs(gravity).max(axis=(0, 1)))
    D = _fourier(inertia, n - 1, scale)[None]
    series = {(i + 1, j + 1): D[..., e, :] for e, (i, j) in enumerate(upper)}
    yield from ((("D", *key), value) for key, value in series.items())

    def d(a, b, k):
        return _derivative(series[min(a, b) + 1, max(a, b) + 1], k)
    for i, j, k in itertools.product(range(n), repeat=3):   # Gamma_ijk, Lynch & Park 8.1.2
        if j <= k:                                          # 2 Gamma_ijk: qd_j qd_k, qd_k qd_j
            parts = (d(i, j, k), d(i, k, j), -d(j, k, i))
            total, size = sum(parts), sum(map(np.abs, parts))
            yield ("h", i + 1, j + 1, k + 1), (0.5 if j == k else 1.0) * np.where(
                np.abs(total) > ROUND_OFF * size, total, 0)
    moving = np.abs(gravity).max(axis=(0, 1)) > 0       # the columns gravity shows
    c = np.zeros((5,) * n + gravity.shape[1:], dtype=complex)
    c[..., moving] = _fourier(gravity[..., moving], n, scale[moving])
    for i in range(n):
        yield ("c", i + 1), c[..., i, :]


def _angle_systems(links) -> list:
    """Each choice of angles: per run of parallel axes (``alpha = 0``) the joint angles or
    their running sums; ``(angles, summed runs)``."""
    n = len(links)
    runs, start = [], 0
    for i in range(1, n + 1):
        if i == n or not (links[i - 1].sin_alpha == 0 and links[i - 1].cos_alpha == 1):
            if i - start > 1:
                runs.append(range(start, i))
            start = i
    systems = []
    for summed in itertools.product((False, True), repeat=len(runs)):
        angles = [(j + 1,) for j in range(n)]
        chosen = [run for run, on in zip(runs, summed) if on]
        for run in chosen:
            for j in run:
                angles[j] = tuple(range(run[0] + 1, j + 2))
        systems.append((tuple(angles), chosen))
    return systems


def _summed(T, j: int) -> np.ndarray:
    """The series in ``phi_{j+1} = theta_{j+1} + theta_{j+2}`` for axes ``j``, ``j + 1``: the
    frequency of ``phi_{j+1}`` is ``K_{j+1} - K_{j+2}`` (``theta_{j+2} = phi_{j+2} -
    phi_{j+1}``)."""
    X = np.moveaxis(T, (j, j + 1), (0, 1))
    a, b = X.shape[0] // 2, X.shape[1] // 2
    new = np.zeros((2 * (a + b) + 1,) + X.shape[1:], dtype=complex)
    for m, k in itertools.product(range(2 * a + 1), range(2 * b + 1)):
        new[m - k + 2 * b, k] += X[m, k]
    return np.moveaxis(new, (0, 1), (j, j + 1))


def _atoms(T, axis: int, absolute: bool = False) -> np.ndarray:
    """Along ``axis``, frequencies ``-h..h`` to the factors ``1, cos phi, sin phi, ...,
    sin h phi``: ``e^{il phi} = cos l phi + i sin l phi`` (``absolute``: the sizes of what adds
    into each)."""
    h = T.shape[axis] // 2
    M = np.zeros((2 * h + 1, 2 * h + 1), dtype=complex)
    M[0, h] = 1
    for k in range(1, h + 1):
        M[2 * k - 1, h + k] = M[2 * k - 1, h - k] = 1
        M[2 * k, h + k], M[2 * k, h - k] = 1j, -1j
    X = T.reshape(math.prod(T.shape[:axis]), T.shape[axis], -1)
    return (np.abs(M) if absolute else M) @ X


def _products(T, angles, summed, values) -> dict:
    """Series ``T`` in products of ``cos``/``sin(k phi)`` of ``angles``: ``{monomial: real
    vector over the base parameters}``.  A product whose value is below ``ROUND_OFF`` of what
    added into it is round-off, and so is such an entry of its vector."""
    for run in summed:
        for j in list(run)[:-1]:
            T = _summed(T, j)
    value, size = T @ values, np.abs(T) @ np.abs(values)
    for axis in range(T.ndim - 1):
        if T.shape[axis] > 1:
            value = _atoms(value, axis).reshape(value.shape)
            size = _atoms(size, axis, absolute=True).real.reshape(size.shape)
    products = {}
    for index in np.argwhere((np.abs(value.real) > ROUND_OFF * size) & (size > 0)):
        options = [[(h, 1)] if m == 0 else [(h + (m + 1) // 2, 1j ** (1 - m % 2)),
                                            (h - (m + 1) // 2, (-1j) ** (1 - m % 2))]
                   for m, h in zip(index, np.array(T.shape[:-1]) // 2)]
        vector, parts = 0, 0
        for choice in itertools.product(*options):   # of cos k phi: c_k + c_-k; sin: i c_k - i c_-k
            c = T[tuple(p for p, _ in choice)] * math.prod(w for _, w in choice)
            vector, parts = vector + c, parts + np.abs(c)
        monomial = tuple((angle, (m + 1) // 2, 1 - m % 2) for angle, m in zip(angles, index) if m)
        products[monomial] = np.where(np.abs(vector.real) > ROUND_OFF * parts, vector.real, 0)
    return products


@dataclass(frozen=True, eq=False)
class ExplicitModel:
    """An arm's explicit model: :attr:`constants` ``(name, coefficients over the base parameters
    of`` :attr:`base` ``)`` at the base parameters' :attr:`values`; the :attr:`terms` of every
    non-zero element (``"D12"``; ``"h1[2,3]"``, the coefficient of ``qd2 qd3`` in ``h1``;
    ``"c2"``); the elements' :attr:`maxima` over full turns (at random states); :attr:`kept`,
    the terms of significance at least :attr:`significance`; the cut's torque :attr:`error`
    over random states."""

    robot: Robot
    base: BaseParameters
    values: np.ndarray
    constants: tuple
    terms: dict
    maxima: dict
    significance: float
    kept: dict
    error: dict

    def coefficient(self, term: Term) -> float:
        """The term's coefficient: its largest magnitude over full turns."""
        return float(term.factor * (self.constants[term.constant][1] @ self.values))

    def terms_in(self, element: str, cut: bool = False) -> int:
        return len((self.kept if cut else self.terms).get(element, ()))

    def formula(self, element: str, cut: bool = False) -> str:
        """``element = ...`` in the named constants; ``C23`` is ``cos(q2 + q3)``."""
        parts = []
        for term in (self.kept if cut else self.terms).get(element, ()):
            text = (f"{abs(term.factor):.4g}*" if abs(term.factor) != 1 else "") + \
                self.constants[term.constant][0]
            for joints, k, kind in term.monomial:
                angle = "".join(map(str, joints))
                text += f"*{'CS'[kind]}{angle}" if k == 1 else f"*{('cos', 'sin')[kind]}" \
                    f"({k}*q{angle})"
            parts.append(("- " if term.factor < 0 else "+ ") + text)
        return f"{element} = " + (" ".join(parts).removeprefix("+ ") if parts else "0")

    def constant_rows(self, digits: int = 4) -> list:
        """``[name, value, the base parameters it combines]`` per constant, largest part
        first."""
        rows = []
        for name, vector in self.constants:
            order = np.argsort(-np.abs(vector * self.values), kind="stable")
            parts = " ".join(f"{'-' if vector[k] < 0 else '+'} {abs(vector[k]):.{digits}g} "
                             f"{self.base.symbols[k]}" for k in order if vector[k])
            rows.append([name, f"{vector @ self.values:.{digits}g}",
                         parts.removeprefix("+ ")])
        return rows

    def _coefficients(self, cut: bool) -> dict:
        return {key: [(self.coefficient(t), t.monomial) for t in terms]
                for key, terms in (self.kept if cut else self.terms).items()}

    def evaluate(self, q, qd, qdd, cut: bool = False) -> np.ndarray:
        """``tau`` at ``(N, n)`` states, the cut model's with ``cut``."""
        q, qd, qdd = (np.atleast_2d(np.asarray(v, dtype=float)) for v in (q, qd, qdd))
        _, tau = _run(self.robot, self._coefficients(cut), q.T, qd.T, qdd.T, np.sin, np.cos)
        return np.array([np.broadcast_to(t, len(q)) for t in tau]).T

    def elements(self, q, cut: bool = False) -> dict:
        """Every element's value at ``(N, n)`` joint angles."""
        q = np.atleast_2d(np.asarray(q, dtype=float))
        values, _ = _run(self.robot, self._coefficients(cut), q.T, None, None, np.sin, np.cos)
        return {key: np.broadcast_to(v, len(q)) for key, v in values.items()}

    def bound(self) -> dict:
        """Per element the sum of its dropped terms' coefficients: the cut's largest error."""
        return {key: sum(abs(self.coefficient(t)) for t in terms if t not in self.kept[key])
                for key, terms in self.terms.items()}

    def operations(self, cut: bool = False, whole: bool = True, traced: bool = False) -> dict:
        """Operations of ``tau = D qdd + h + c`` (``whole``) or of the elements alone: run on
        :class:`~dynlab.engine.opcount.Counted` scalars (a sine or cosine a call; products and
        terms shared), or ``traced``: the tape's program (equal operations once)."""
        n = self.robot.n
        if traced:
            tape = Tape()
            q, qd, qdd = (tape.inputs(stem, n) for stem in ("q", "qd", "qdd"))
            backend = backend_for(tape)
        else:
            counter = OpCounter()
            q, qd, qdd = ([Counted(counter) for _ in range(n)] for _ in range(3))
            backend = counting_backend(counter)
        values, tau = _run(self.robot, self._coefficients(cut), q, qd if whole else None, qdd,
                           backend.sin, backend.cos)
        if traced:
            tape.outputs(tau if whole else list(values.values()))
            return tape.counts()
        return counter.counts()

    def rows(self) -> list:
        """Before and after the cut: terms of ``D11``, all terms, operations (mul + add, calls)
        of the elements and of ``tau``."""
        rows = []
        for cut, label in ((False, "full"), (True, f"cut at {self.significance:.0%}")):
            counts = [self.operations(cut, whole) for whole in (False, True)]
            rows.append([label, self.terms_in("D11", cut),
                         sum(map(len, (self.kept if cut else self.terms).values())),
                         *(f"{o['mul']} + {o['add']} = {o['mul'] + o['add']} ({o['call']})"
                           for o in counts)])
        return rows

    def markdown(self) -> str:
        return table_markdown(["model", "terms of D11", "terms", "D, h, c: mul + add (calls)",
                               "tau: mul + add (calls)"], self.rows())

    def __repr__(self) -> str:
        e = self.error
        return (f"{self.robot.name}: explicit model, {len(self.constants)} named constants\n"
                f"{self.markdown()}\nthe cut's torque error over {e['states']} states: largest "
                f"{e['max']:.3g} N m ({e['relative max']:.2%} of the largest torque), RMS "
                f"{e['rms']:.3g} N m ({e['relative rms']:.2%} of the torques' RMS)")


def _run(robot, coefficients, q, qd, qdd, sin, cos) -> tuple:
    """The elements, and with ``qd`` the torques, from ``coefficients`` (``{element: [(value,
    monomial)]}``) on any scalars: angles, factors, products and terms computed once each."""
    offsets = [link.offset for link in robot.numeric()[0]]
    angles, atoms, products, scaled = {}, {}, {(): 1.0}, {}

    def angle(joints):
        if joints not in angles:
            theta = q[joints[-1] - 1] + offsets[joints[-1] - 1]
            angles[joints] = theta if len(joints) == 1 else angle(joints[:-1]) + theta
        return angles[joints]

    def atom(joints, k, kind):
        key = (joints, k, kind)
        if key not in atoms:
            if k == 1:
                atoms[key] = (cos, sin)[kind](angle(joints))
            else:                                   # cos 2a = (C - S)(C + S), sin 2a = 2 S C
                C, S = atom(joints, 1, 0), atom(joints, 1, 1)
                c, s = atom(joints, k - 1, 0), atom(joints, k - 1, 1)
                atoms[key] = ((C - S) * (C + S) if kind == 0 else (S + S) * C) if k == 2 else \
                    (C * c - S * s if kind == 0 else S * c + C * s)
        return atoms[key]

    def product(monomial):
        if monomial not in products:
            products[monomial] = product(monomial[:-1]) * atom(*monomial[-1])
        return products[monomial]

    values = {}
    for key, terms in coefficients.items():
        total = 0.0
        for value, monomial in terms:
            if (value, monomial) not in scaled:
                scaled[value, monomial] = value * product(monomial) if monomial else value
            total = total + scaled[value, monomial]
        values[key] = total
    if qd is None:
        return values, None
    n, velocity, tau = robot.n, {}, []
    for i in range(1, n + 1):
        total = values.get(f"c{i}", 0.0)
        for j in range(1, n + 1):
            element = values.get(f"D{min(i, j)}{max(i, j)}")
            if element is not None:
                total = total + element * qdd[j - 1]
        for j, k in itertools.combinations_with_replacement(range(1, n + 1), 2):
            element = values.get(f"h{i}[{j},{k}]")
            if element is not None:
                if (j, k) not in velocity:
                    velocity[j, k] = qd[j - 1] * qd[k - 1]
                total = total + element * velocity[j, k]
        tau.append(total)
    return values, tau


def _name(key: tuple) -> str:
    kind, i, *rest = key
    return f"h{i}[{rest[0]},{rest[1]}]" if kind == "h" else f"{kind}{i}{''.join(map(str, rest))}"


def explicit_model(robot: Robot, *, significance: float = 0.01, samples: int = 2000,
                   seed: int = 0, speed: float = 1.0, acceleration: float = 1.0
                   ) -> ExplicitModel:
    """The explicit model of ``robot`` (revolute joints, numeric parameters; no friction, no
    tool wrench) and its cut at ``significance`` (:class:`ExplicitModel`).  The elements'
    maxima and the cut's torque error (against
    :func:`dynlab.dynamics.inverse.inverse_dynamics`) are measured over ``samples`` random
    states from a generator seeded by ``seed``: joints anywhere, ``|qd_i| <= speed``,
    ``|qdd_i| <= acceleration``.  Named constants ``I1, I2, ...`` (of ``D`` and ``h``) and
    ``g1, ...`` (of ``c``) are shared by terms equal up to sign and a power of 2.

    >>> from dynlab.model.robots import pendulum
    >>> model = explicit_model(pendulum())     # a rod: m a^2 / 3 and m g a / 2 (Schilling 6-9)
    >>> [(name, round(float(vector @ model.values), 6)) for name, vector in model.constants]
    [('I1', 0.083333), ('g1', 2.45155)]
    """
    if not isinstance(robot, Robot):
        raise TypeError(f"robot must be a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise ValueError(f"{robot.name}: the explicit model takes numbers; give the arm's values")
    prismatic = [k for k, kind in enumerate(robot.joint_types, 1) if kind != "revolute"]
    if prismatic:
        raise ValueError(f"{robot.name}: the explicit model here is written in sines and "
                         f"cosines of revolute joints; joint {prismatic[0]} is prismatic")
    if isinstance(significance, bool) or not isinstance(significance, (int, float)) \
            or not 0 <= significance < 1:
        raise ValueError(f"significance must be a fraction in [0, 1), got {significance!r}")
    samples = count(samples, "explicit_model", "samples", 1)
    speed, acceleration = number(speed, "speed"), number(acceleration, "acceleration")
    links = robot.numeric()[0]
    base = base_parameters(robot)
    values = base.values(standard_parameters(robot))
    constants, terms = _named_terms(_elements(base, links), _angle_systems(links), values)
    model = ExplicitModel(robot, base, values, constants, terms, {}, float(significance), {}, {})
    rng = np.random.default_rng(seed)
    q = rng.uniform(-np.pi, np.pi, (samples, robot.n))
    maxima = {key: float(np.abs(v).max()) for key, v in model.elements(q).items()}
    model = replace(model, maxima=maxima, kept={
        key: tuple(t for t in ts if abs(model.coefficient(t)) >= significance * maxima[key])
        for key, ts in terms.items()})
    qd = rng.uniform(-speed, speed, (samples, robot.n))
    qdd = rng.uniform(-acceleration, acceleration, (samples, robot.n))
    reference = np.array([inverse_dynamics(robot, *state, friction=False, tip_wrench=False)
                          for state in zip(q, qd, qdd)])
    difference = model.evaluate(q, qd, qdd, cut=True) - reference
    largest, rms = float(np.abs(difference).max()), float(np.sqrt((difference**2).mean()))
    return replace(model, error={
        "states": samples, "max": largest, "rms": rms,
        "relative max": largest / float(np.abs(reference).max()),
        "relative rms": rms / float(np.sqrt((reference**2).mean()))})


def _named_terms(elements, systems, values) -> tuple:
    """Each element in its best angles (fewest terms), its terms largest first; one constant
    per coefficient vector up to sign and a power of 2 (to 1e-9; ``I``: of ``D`` and ``h``,
    ``g``: of ``c``)."""
    constants, terms = [], {}
    for key, series in elements:                          # D, then h, then c
        prefix = "g" if key[0] == "c" else "I"
        best = min((_products(series, *system, values) for system in systems), key=len)
        for monomial, vector in sorted(best.items(), key=lambda mv: -abs(mv[1] @ values)):
            p = int(np.argmax(np.abs(vector)))
            for c, (name, known) in enumerate(constants):
                factor = vector[p] / known[p] if known[p] else 0
                power = math.copysign(2.0 ** round(math.log2(abs(factor))), factor) \
                    if factor else 0
                if name[0] == prefix and power and \
                        np.abs(vector - power * known).max() <= 1e-9 * abs(vector[p]):
                    break
            else:
                c, power = len(constants), 1.0
                constants.append((f"{prefix}{sum(n[0] == prefix for n, _ in constants) + 1}",
                                  vector))
            terms.setdefault(_name(key), []).append(Term(c, power, monomial))
    return tuple(constants), {key: tuple(ts) for key, ts in terms.items()}
