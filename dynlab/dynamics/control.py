"""Joint-space controllers ``controller(t, q, qd) -> tau`` for :func:`dynlab.simulate`, following a
reference ``r(t) -> (q_d, qd_d, qdd_d)`` with ``e = q_d - q`` and gains ``Kp``, ``Kd`` (``Ki``):
:func:`pd`, :func:`pid`; :func:`pd_gravity` (PD plus the model's ``c_m(q)``: comes to rest at a
set point by the passivity of ``Ddot - 2C``, Lynch & Park, Prop. 8.1, Sec. 8.4 (draft Eq.
(9.88)); Takegaki & Arimoto, 1981); :func:`computed_torque` (Fu, Gonzalez & Lee, Ch. 5: with an
exact model ``e'' + Kd e' + Kp e = 0``, :func:`error_dynamics`); :func:`feedforward`.  The
model is a :class:`Model` (exact, wrong, or Fu, Gonzalez & Lee Sec. 3.4.1's simplified one).

>>> from dynlab.model.robots import pendulum
>>> arm = pendulum()
>>> pd_gravity(arm, Kp=10.0, Kd=2.0, reference=[0.0])(0.0, [0.0], [0.0])   # m g a / 2
array([2.45155])
>>> law = computed_torque(arm, Kp=100.0, Kd=20.0, reference=[0.0])
>>> law(0.0, [0.1], [0.0]).round(5)            # (1/12)(100 (0 - 0.1)) + 2.45155 cos 0.1
array([1.60597])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from dynlab.dynamics.forward import compiled_terms, inertia_and_bias
from dynlab.dynamics.trajectory import SetPoint, as_reference, joint_array
from dynlab.engine.tracing import compile_joint_function
from dynlab.formulations import dalembert
from dynlab.formulations import registry as formulations
from dynlab.model import checks
from dynlab.model import vectors as V
from dynlab.model.robot import Robot, joint_vector, joint_vector_is_numeric

#: Fu, Gonzalez & Lee Sec. 3.4.1's reading of the PUMA 560's ``D_ij`` along their trajectory:
#: the part that dominates each element (``"tran"``: translational, ``"rot"``: rotational);
#: elements not named keep both parts.  Keys are 1-based ``(i, j)``, ``i <= j``.
FGL_PUMA_D_PARTS = {**{k: "tran" for k in ((1, 2), (2, 2), (2, 3), (3, 3), (4, 5), (5, 6))},
                    **{k: "rot" for k in ((4, 4), (4, 6), (5, 5), (6, 6))}}
#: ... and of ``h_i`` (both parts of ``h_5``, ``h_6``); gravity ``c`` is kept in full.
FGL_PUMA_H_PARTS = {1: "tran", 2: "tran", 3: "tran", 4: "rot", 5: "both", 6: "both"}

PARTS = ("both", "tran", "rot", "none")


# -- gains ---------------------------------------------------------------------------------------
def gain_matrix(value, n: int, name: str = "gain") -> np.ndarray:
    """A gain as an ``n x n`` matrix: a positive number (times the identity), ``n`` positive
    numbers (a diagonal matrix: one servo per joint) or a symmetric positive definite matrix.

    >>> gain_matrix([4.0, 9.0], 2, "Kp").tolist()
    [[4.0, 0.0], [0.0, 9.0]]
    >>> gain_matrix(-1.0, 2, "Kd")
    Traceback (most recent call last):
    ...
    ValueError: Kd must be positive, got -1.0
    >>> gain_matrix("10", 2, "Kp")
    Traceback (most recent call last):
    ...
    TypeError: Kp must be a number, 2 numbers or a 2x2 matrix, got '10' (a str)
    """
    wanted = f"{name} must be a number, {n} numbers or a {n}x{n} matrix, got {value!r}"
    try:
        entries = np.asarray(value, dtype=object)
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(wanted) from None
    # NumPy reads "10" as 10 and True as 1: a gain is made of real numbers only
    odd = [e for e in entries.flat if not checks.real_number(e)]
    if odd or isinstance(value, (str, bytes)):
        raise TypeError(f"{wanted} (a {type(odd[0] if odd else value).__name__})")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {array.tolist()}")
    if array.ndim == 0:
        if not array > 0:
            raise ValueError(f"{name} must be positive, got {float(array)}")
        return float(array) * np.eye(n)
    if array.ndim == 1:
        if len(array) != n:
            raise ValueError(f"{name} has {len(array)} entries; the arm has {n} joints")
        if not np.all(array > 0):
            raise ValueError(f"{name} must be positive on every joint, got {array.tolist()}")
        return np.diag(array)
    if array.shape != (n, n):
        raise ValueError(f"{name} must be a number, {n} numbers or a {n}x{n} matrix, "
                         f"got shape {array.shape}")
    if not np.allclose(array, array.T, rtol=0, atol=1e-12 * np.abs(array).max()):
        raise ValueError(f"{name} must be symmetric, got {array.tolist()}")
    if not np.linalg.eigvalsh(array).min() > 0:
        raise ValueError(f"{name} must be positive definite, got {array.tolist()}")
    return array


def critical_damping(Kp) -> np.ndarray:
    """The ``Kd`` that makes ``e'' + Kd e' + Kp e = 0`` critically damped joint by joint:
    ``Kd = 2 sqrt(Kp)`` (characteristic roots ``-sqrt(Kp)``, twice), for a number or one
    number per joint.

    >>> critical_damping([100.0, 25.0]).tolist()
    [20.0, 10.0]
    """
    Kp = np.array(Kp, dtype=float)
    if Kp.ndim > 1:
        raise ValueError("critical_damping takes a number or one number per joint")
    if not np.all(np.isfinite(Kp)) or not np.all(Kp > 0):
        raise ValueError(f"Kp must be positive, got {Kp.tolist()}")
    return 2.0 * np.sqrt(Kp)


def matched_gains(robot: Robot, q: Sequence, omega_n: float, zeta: float = 1.0) -> tuple:
    """PD gains ``(Kp, Kd)`` giving each joint alone at ``q`` computed torque's loop
    ``Kp = omega_n^2``, ``Kd = 2 zeta omega_n``: ``Kp_i = omega_n^2 D_ii(q)``,
    ``Kd_i = 2 zeta omega_n D_ii(q)``.

    >>> from dynlab.model.robots import pendulum
    >>> Kp, Kd = matched_gains(pendulum(), [0.0], omega_n=10.0)    # D = m a^2 / 3 = 1/12
    >>> [round(float(Kp[0]), 4), round(float(Kd[0]), 4)]
    [8.3333, 1.6667]
    """
    robot = _arm(robot)
    q = joint_array(q, "q", robot.n)
    omega_n = checks.number(omega_n, "matched_gains: omega_n", unit=" of rad/s")
    zeta = checks.number(zeta, "matched_gains: zeta")
    D, _ = inertia_and_bias(robot, q, np.zeros(robot.n))
    inertia = np.diag(D).copy()
    return omega_n ** 2 * inertia, 2.0 * zeta * omega_n * inertia


# -- the controller's model ----------------------------------------------------------------------
def _part_choice(parts, keys, name: str) -> dict:
    parts = {} if parts is None else dict(parts)
    for key, value in parts.items():
        if key not in keys:
            order = ", i <= j" if name == "D_parts" else ""
            raise ValueError(f"{name}: no element {key!r} (elements are {sorted(keys)[0]!r} .. "
                             f"{sorted(keys)[-1]!r}, 1-based{order})")
        if value not in PARTS:
            raise ValueError(f"{name}[{key!r}] must be one of {', '.join(PARTS)}, got {value!r}")
    return {key: parts.get(key, "both") for key in keys}


def _simplified_recursion(D_choice: dict, h_choice: dict):
    """Fu, Gonzalez & Lee-style G-D torque with only the chosen parts of each ``D_ij`` and ``h_i``:
    ``tau_i = sum_j D^s_ij qdd_j + h^s_i + c_i`` (Fu, Gonzalez & Lee Eqs. (3.4-24), (3.4-25))."""
    def torques(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC):
        n = len(links)
        terms = dalembert.terms(links, q, qd, gravity, backend)

        def pick(kind, choice, *index):
            total, tran, rot = (terms[kind], terms[kind + "_tran"], terms[kind + "_rot"])
            for i in index:
                total, tran, rot = total[i], tran[i], rot[i]
            return {"both": total, "tran": tran, "rot": rot, "none": 0}[choice]

        tau = []
        for i in range(n):
            value = terms["c"][i]
            for j in range(n):
                part = D_choice[(min(i, j) + 1, max(i, j) + 1)]
                if part != "none":
                    value = value + pick("D", part, i, j) * qdd[j]
            if h_choice[i + 1] != "none":
                value = value + pick("h", h_choice[i + 1], i)
            tau.append(value)
        return tau
    return torques


class Model:
    """The arm as a controller believes it to be: ``tau_m(q, qd, qdd)`` and ``c_m(q)`` of ``robot``
    by ``method``/``variant``; ``D_parts``/``h_parts`` (``"tran"``, ``"rot"``, ``"both"``,
    ``"none"`` per element) make Fu, Gonzalez & Lee Sec. 3.4.1's simplified model from the G-D
    split (Eqs. (3.4-24)-(3.4-28)).

    >>> from dynlab.model.robots import puma560
    >>> arm = puma560()
    >>> book = Model(arm, D_parts=FGL_PUMA_D_PARTS, h_parts=FGL_PUMA_H_PARTS)
    >>> book
    Model('PUMA 560', simplified (Fu, Gonzalez & Lee Sec. 3.4.1 style))
    >>> q, qd = [0.1, -0.4, 0.3, 0.2, 0.5, -0.6], [0.5, 1.0, -0.7, 0.3, 0.2, 0.1]
    >>> exact = Model(arm).torque(q, qd, [1.0] * 6)
    >>> (book.torque(q, qd, [1.0] * 6) - exact).round(3).tolist()
    [-0.14, -0.682, -0.178, 0.0, -0.0, 0.0]
    """

    def __init__(self, robot: Robot, *, method: str | None = None, variant: str | None = None,
                 friction: bool = True, tip_wrench: bool = True,
                 D_parts: Mapping | None = None, h_parts: Mapping | None = None):
        if not isinstance(robot, Robot):
            raise TypeError(f"a controller's model is a dynlab Robot, got "
                            f"{type(robot).__name__}")
        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: a controller's model needs numbers; substitute the "
                            f"symbols {sorted(map(str, robot.free_symbols))} first")
        friction = checks.flag(friction, "Model", "friction")
        tip_wrench = checks.flag(tip_wrench, "Model", "tip_wrench")
        self.robot, self.n = robot, robot.n
        self.simplified = D_parts is not None or h_parts is not None
        n = robot.n
        if self.simplified:
            if method is not None or variant is not None:
                raise ValueError("a simplified model is built from the G-D split of "
                                 "D and h; leave method and variant out")
            self.D_choice = _part_choice(D_parts, [(i, j) for i in range(1, n + 1)
                                                   for j in range(i, n + 1)], "D_parts")
            self.h_choice = _part_choice(h_parts, list(range(1, n + 1)), "h_parts")
            self.method, self.variant = "dalembert", "lee"
            key = ("control simplified", tuple(sorted(self.D_choice.items())),
                   tuple(sorted(self.h_choice.items())))
            self._torque, _ = compile_joint_function(
                robot, key, _simplified_recursion(self.D_choice, self.h_choice))
            self._gravity = self._torque
        else:
            method = "newton_euler" if method is None else method
            _, self.variant = formulations.require(method, variant, "numeric", "control")
            self.method = method
            full_recursion = formulations.torque_recursion(method, self.variant)

            def recursion(*args, **options):
                return full_recursion(*args, **options)[0]
            # the cache keys of dynlab.inverse_dynamics: the traced code is shared with it
            full = dict(use_gravity=True, use_friction=bool(friction),
                        use_tip=bool(tip_wrench))
            self._torque, _ = compile_joint_function(
                robot, ("inverse_dynamics", method, self.variant, *full.values()), recursion,
                **full)
            still = dict(full, use_friction=False)
            self._gravity, _ = compile_joint_function(
                robot, ("inverse_dynamics", method, self.variant, *still.values()), recursion,
                **still)
        self._zero = (0.0,) * n

    def torque(self, q, qd, qdd) -> np.ndarray:
        """``tau_m = D_m(q) qdd + h_m(q, qd) + c_m(q) (+ b_m(qd) + J^T w)``.  Each vector has
        ``n`` finite numbers; a result that overflows is a
        :class:`~dynlab.model.checks.NotFiniteError`.

        >>> from dynlab.model.robots import planar_2r
        >>> Model(planar_2r("fu")).torque([0.0, 0.0], [float("nan"), 0.0], [0.0, 0.0])
        Traceback (most recent call last):
        ...
        dynlab.model.checks.NotFiniteError: Model.torque: qd must be finite, got [nan, 0.0]
        """
        vectors = checks.plain_float_vectors(q, qd, qdd, self.n)
        if vectors is None:
            vectors = tuple(self._vector(v, name) for v, name in ((q, "q"), (qd, "qd"),
                                                                  (qdd, "qdd")))
        q, qd, qdd = vectors
        if not math.isfinite(sum(q) + sum(qd) + sum(qdd)):
            for values, name in ((q, "q"), (qd, "qd"), (qdd, "qdd")):
                self._check_finite(values, "Model.torque", name)
        tau = self._torque(tuple(q), tuple(qd), tuple(qdd))
        if not math.isfinite(sum(tau)) and not checks.all_finite(tau):
            raise checks.not_finite("tau", tau, f"the model of {self.robot.name}",
                                    {"q": q, "qd": qd, "qdd": qdd})
        return np.array(tau)

    def gravity(self, q) -> np.ndarray:
        """``c_m(q) (+ J^T w)``: the torque that holds the model still at ``q``."""
        values = checks.plain_floats(q, self.n)
        if values is None:
            values = self._vector(q, "q")
        self._check_finite(values, "Model.gravity", "q")
        tau = self._gravity(tuple(values), self._zero, self._zero)
        if not math.isfinite(sum(tau)) and not checks.all_finite(tau):
            raise checks.not_finite("c", tau, f"the model of {self.robot.name}", {"q": values})
        return np.array(tau)

    def _vector(self, values, name: str) -> list:
        """``values`` as ``n`` floats, or an error naming ``name`` (``q``, ``qd``, ``qdd``)."""
        array = np.asarray(values) if isinstance(values, np.ndarray) else None
        if array is not None and array.dtype.kind in "iuf" and array.shape == (self.n,):
            return array.astype(float).tolist()      # inf or NaN: NotFiniteError, by the caller
        entries = [v for v in values] if isinstance(values, (list, tuple)) else None
        if entries is not None and len(entries) == self.n and all(
                type(v) in (float, int) or isinstance(v, np.floating) for v in entries):
            return [float(v) for v in entries]
        entries = joint_vector(self.robot, values, name)
        if not joint_vector_is_numeric(entries):
            raise TypeError(f"{self.robot.name}: {name} of a controller's model must be "
                            f"numbers, got {list(entries)}")
        return [float(v) for v in entries]

    @staticmethod
    def _check_finite(values, where: str, name: str) -> None:
        if not checks.all_finite(values):
            raise checks.NotFiniteError(f"{where}: {name} must be finite, got {list(values)}")

    def __repr__(self) -> str:
        kind = ("simplified (Fu, Gonzalez & Lee Sec. 3.4.1 style)" if self.simplified
                else f"{self.method}/{self.variant}")
        return f"Model({self.robot.name!r}, {kind})"


def as_model(model, **options) -> Model:
    """A :class:`Model` as it is, or a Robot made into one with ``options``."""
    if isinstance(model, Model):
        if options:
            raise TypeError(f"give {', '.join(sorted(options))} to Model(...), not with a "
                            f"ready Model")
        return model
    return Model(model, **options)


# -- the controllers -----------------------------------------------------------------------------
def _arm(model_or_robot) -> Robot:
    if isinstance(model_or_robot, Model):
        return model_or_robot.robot
    if isinstance(model_or_robot, Robot):
        return model_or_robot
    raise TypeError(f"expected a dynlab Robot or Model, got {type(model_or_robot).__name__}")


class Controller:
    """``controller(t, q, qd) -> tau`` (a NumPy array), for :func:`dynlab.simulate`'s
    ``torque``.  ``law`` names the control law; ``Kp``, ``Kd`` (``Ki``) are the gain matrices,
    ``reference`` the reference, ``model`` the :class:`Model` (``None`` for PD and PID)."""

    def __init__(self, law: str, n: int, Kp, Kd, reference, model: Model | None = None,
                 Ki=None):
        self.law, self.n, self.model = law, n, model
        self.Kp = gain_matrix(Kp, n, "Kp")
        self.Kd = gain_matrix(Kd, n, "Kd")
        self.Ki = None if Ki is None else gain_matrix(Ki, n, "Ki")
        self.reference = as_reference(reference, n)
        self._history = None if Ki is None else []

    def errors(self, t, q, qd):
        """``(e, ed, qdd_d)`` at one instant."""
        q_d, qd_d, qdd_d = self.reference(t)
        return np.asarray(q_d) - q, np.asarray(qd_d) - qd, np.asarray(qdd_d)

    def __call__(self, t, q, qd) -> np.ndarray:
        """The torque at time ``t`` and state ``(q, qd)`` (``n`` finite numbers each); inf or
        NaN going in or coming out is a :class:`~dynlab.model.checks.NotFiniteError`."""
        q, qd = self._joint(q, "q"), self._joint(qd, "qd")
        try:
            with np.errstate(all="ignore"):            # inf or NaN: checked below, and named
                tau = self._law(t, q, qd)
        except checks.NotFiniteError as error:       # in the model: the law's own overflow,
            self._check_inputs(t, q, qd)              # unless the caller's input is to blame
            raise checks.NotFiniteError(f"{self.law} controller at t = {t:g}: {error}") from None
        if not math.isfinite(tau.sum()):              # one sum checks every entry
            self._check_inputs(t, q, qd)
            raise checks.not_finite("tau", tau, f"the {self.law} controller",
                                    {"q": q, "qd": qd})
        return tau

    def _joint(self, values, name: str) -> np.ndarray:
        """``values`` as ``n`` floats (a float64 array is taken as it is), or an error naming
        ``name``: text and truth values are not joint values."""
        if type(values) is np.ndarray and values.dtype == np.float64 and values.shape == (self.n,):
            return values
        array = np.asarray(values, dtype=object if isinstance(values, (list, tuple)) else None)
        kind = array.dtype.kind
        if kind not in "iufO" or (kind == "O" and not all(map(checks.real_number, array.flat))):
            raise TypeError(f"{self.law} controller: {name} must be {self.n} real numbers, got "
                            f"{values!r}")
        if array.shape != (self.n,):
            raise ValueError(f"{self.law} controller: {name} must have {self.n} entries (one "
                             f"per joint), got {values!r}")
        return array.astype(float)

    def _check_inputs(self, t, q, qd) -> None:
        """A NotFiniteError naming the input that is inf or NaN, if one is."""
        for values, name in ((q, "q"), (qd, "qd")):
            if not checks.all_finite(values):
                raise checks.NotFiniteError(f"{self.law} controller: {name} must be finite, "
                                            f"got {values.tolist()}")
        if not (checks.real_number(t) and math.isfinite(t)):
            raise (checks.NotFiniteError if checks.real_number(t) else TypeError)(
                f"{self.law} controller: t must be a finite number of seconds, got {t!r}")

    def _law(self, t, q, qd) -> np.ndarray:
        e, ed, qdd_d = self.errors(t, q, qd)
        if self.law == "computed torque":           # tau_m(q, qd, qdd_d + Kd ed + Kp e)
            return self.model.torque(q, qd, qdd_d + self.Kd @ ed + self.Kp @ e)
        tau = self.Kp @ e + self.Kd @ ed
        if self.law == "PD + gravity":
            tau = tau + self.model.gravity(q)
        elif self.law == "feed-forward + PD":
            q_d, qd_d, _ = self.reference(t)
            tau = tau + self.model.torque(q_d, qd_d, qdd_d)
        elif self.law == "PID":
            tau = tau + self.Ki @ self._integral(float(t), e)
        return tau

    def _integral(self, t: float, e: np.ndarray) -> np.ndarray:
        """``int_0^t e dt`` by the trapezoidal rule over the calls, in time order; a call at an
        earlier time first drops what came after it (a rejected integrator step)."""
        history = self._history
        while history and history[-1][0] > t:
            history.pop()
        if history and history[-1][0] == t:
            history.pop()
        if history:
            t_last, e_last, total = history[-1]
            total = total + 0.5 * (t - t_last) * (e_last + e)
        else:
            total = np.zeros(self.n)
        history.append((t, e.copy(), total))
        return total

    def tracking_error(self, trajectory) -> np.ndarray:
        """``e(t) = q_d(t) - q(t)`` along a simulated
        :class:`~dynlab.dynamics.simulation.Trajectory` (``N x n``)."""
        return np.array([self.reference(t)[0] for t in trajectory.t]) - trajectory.q

    def __repr__(self) -> str:
        model = f", model={self.model!r}" if self.model is not None else ""
        return f"Controller({self.law!r}, {self.n} joints, reference={self.reference!r}{model})"


def pd(robot: Robot, Kp, Kd, reference) -> Controller:
    """Independent-joint PD: ``tau = Kp e + Kd ed`` (no model; ``robot`` gives the joints)."""
    return Controller("PD", _arm(robot).n, Kp, Kd, reference)


def pid(robot: Robot, Kp, Kd, Ki, reference) -> Controller:
    """PID: ``tau = Kp e + Kd ed + Ki int_0^t e dt``, the integral the controller's own state by the
    trapezoidal rule over its calls in time order (an earlier time drops the later history).
    Simulate it with ``integrator="euler"``, a new controller for each run."""
    return Controller("PID", _arm(robot).n, Kp, Kd, reference, Ki=Ki)


def pd_gravity(model, Kp, Kd, reference, **model_options) -> Controller:
    """PD plus gravity compensation ``tau = Kp e + Kd ed + c_m(q)``.  With an exact ``c_m`` and a
    set point, ``V = 1/2 qd^T D qd + 1/2 e^T Kp e`` has ``dV/dt = -qd^T Kd qd <= 0`` because
    ``Ddot - 2C`` is skew-symmetric (Lynch & Park, Prop. 8.1; Takegaki & Arimoto, 1981); a wrong
    ``c_m = c - delta_c`` rests where ``Kp e = delta_c`` (:func:`steady_state`).  ``model``: a
    Robot (with ``method``/``variant``/... for its :class:`Model`) or a Model."""
    model = as_model(model, **model_options)
    return Controller("PD + gravity", model.n, Kp, Kd, reference, model)


def computed_torque(model, Kp, Kd, reference, **model_options) -> Controller:
    """Computed torque ``tau = D_m (qdd_d + Kd ed + Kp e) + h_m + c_m``: one inverse-dynamics
    call of the model per evaluation (module docstring)."""
    model = as_model(model, **model_options)
    return Controller("computed torque", model.n, Kp, Kd, reference, model)


def feedforward(model, Kp, Kd, reference, **model_options) -> Controller:
    """Feed-forward of the reference torques plus PD: ``tau = tau_m(q_d, qd_d, qdd_d) + Kp e +
    Kd ed``."""
    model = as_model(model, **model_options)
    return Controller("feed-forward + PD", model.n, Kp, Kd, reference, model)


# -- predictions ---------------------------------------------------------------------------------
def error_dynamics(Kp, Kd, e0: Sequence, ed0: Sequence, t: Sequence) -> np.ndarray:
    """The solution ``e(t)`` of ``e'' + Kd e' + Kp e = 0`` from ``(e0, ed0)``: ``expm(A t)`` with
    ``A = [[0, 1], [-Kp, -Kd]]``; critically damped from ``e0 = 1``, ``(1 + w t) exp(-w t)``:

    >>> round(float(error_dynamics(100.0, 20.0, [1.0], [0.0], [0.1])[0, 0]), 6)
    0.735759
    """
    from scipy.linalg import expm
    e0 = joint_array(e0, "e0")
    n = len(e0)
    ed0 = joint_array(ed0, "ed0", n)
    Kp, Kd = gain_matrix(Kp, n, "Kp"), gain_matrix(Kd, n, "Kd")
    A = np.block([[np.zeros((n, n)), np.eye(n)], [-Kp, -Kd]])
    x0 = np.concatenate([e0, ed0])
    times = np.atleast_1d(np.asarray(t, dtype=float))
    return np.array([(expm(A * float(s)) @ x0)[:n] for s in times])


def lyapunov_function(trajectory, Kp, set_point) -> np.ndarray:
    """``V = 1/2 qd^T D(q) qd + 1/2 e^T Kp e`` along a simulated run (``D`` the simulated arm's
    own, by the run's formulation), ``e = q_d - q`` for a set point ``q_d``: the energy-like
    function that PD plus exact gravity compensation never lets increase (:func:`pd_gravity`)."""
    robot = trajectory.robot
    n = robot.n
    Kp = gain_matrix(Kp, n, "Kp")
    q_d = joint_array(set_point, "the set point", n)
    terms = compiled_terms(robot, trajectory.method, trajectory.variant)
    upper = np.triu_indices(n)
    values = []
    for q, qd in zip(trajectory.q, trajectory.qd):
        D = np.empty((n, n))
        entries = terms(tuple(q.tolist()), tuple(qd.tolist()), (0.0,) * n)[:len(upper[0])]
        D[upper] = entries
        D.T[upper] = entries
        e = q_d - q
        values.append(0.5 * qd @ D @ qd + 0.5 * e @ Kp @ e)
    return np.array(values)


def steady_state(controller: Controller, plant: Robot, q0: Sequence | None = None,
                 tolerance: float = 1e-12) -> np.ndarray:
    """Where ``plant`` rests under ``controller`` holding a set point: ``controller(t, q, 0) = c(q)
    + J^T w`` (PD plus gravity: ``Kp e = c - c_m``; computed torque: ``Kp e = D_m^-1 (c - c_m)``),
    solved from ``q0`` by SciPy's ``root``; a PID is refused (no offset).

    >>> from dynlab.model.robots import pendulum
    >>> arm, light = pendulum(), pendulum(m1=0.5)     # a model that thinks the rod weighs half
    >>> q = steady_state(pd_gravity(light, Kp=20.0, Kd=5.0, reference=[0.0]), arm)
    >>> round(float(q[0]), 6)                          # 20 e = (m g a / 4) cos q
    -0.061174
    """
    import scipy.optimize
    if not isinstance(controller, Controller):
        raise TypeError("expected a dynlab.dynamics.control Controller, got "
                        f"{type(controller).__name__}")
    if controller.law == "PID":
        raise ValueError("a PID's integral removes the static offset; steady_state predicts "
                         "the offset of PD-type laws")
    if not isinstance(controller.reference, SetPoint):
        raise ValueError("steady_state needs a set-point reference (a constant q_d)")
    if not isinstance(plant, Robot) or plant.n != controller.n:
        raise ValueError(f"the plant must be a dynlab Robot with {controller.n} joints")
    plant_model = Model(plant, friction=False)
    zero = np.zeros(controller.n)
    start = controller.reference.q if q0 is None else joint_array(q0, "q0", controller.n)

    def residual(q):
        return controller(0.0, q, zero) - plant_model.gravity(q)

    solution = scipy.optimize.root(residual, start, method="hybr", options=dict(xtol=1e-14))
    q = solution.x
    error = float(np.abs(residual(q)).max())
    if not error <= tolerance * max(1.0, float(np.abs(plant_model.gravity(q)).max())):
        raise ValueError(f"no rest position found from q0 = {start.tolist()} (residual torque "
                         f"{error:.3g}); try another q0")
    return q
