"""The physical parameters of the small arms by the source's letters: numbers or symbols.

>>> physical_parameters(False, {"m1": 2.0}, {"m1": 1.0, "a1": 0.5}, "pendulum")
{'m1': 2.0, 'a1': 0.5}
"""

from __future__ import annotations

import numpy as np
import sympy

from dynlab.model.checks import flag
from dynlab.model.link import scalar

#: The largest size of a numeric physical parameter: the cube root of the largest float
#: (1.8e308), so that a product of three of them (a rod's ``m l^2``) stays finite.
LARGEST_PARAMETER = float(np.finfo(float).max) ** (1 / 3)


def physical_parameters(symbolic: bool, given: dict, defaults: dict, builder: str) -> dict:
    """Each parameter ``given[name]``, else a positive symbol (``symbolic``) or ``defaults[name]``;
    an unknown name is refused, naming the builder.

    >>> physical_parameters(False, {"m3": 1.0}, {"m1": 1.0}, "pendulum")
    Traceback (most recent call last):
    ...
    TypeError: pendulum: unknown parameter(s) ['m3']; this arm has m1
    >>> physical_parameters(False, {"a1": 1e200}, {"a1": 1.0}, "pendulum")
    Traceback (most recent call last):
    ...
    ValueError: pendulum: a1 = 1e+200 is too large: products of three parameters (m l^2) would
    exceed the range of floating-point numbers; use at most 5.64e+102 (or other units)
    """
    symbolic = flag(symbolic, builder, "symbolic")
    unknown = set(given) - set(defaults)
    if unknown:
        raise TypeError(f"{builder}: unknown parameter(s) {sorted(unknown)}; "
                        f"this arm has {', '.join(defaults)}")
    values = {}
    for name, default in defaults.items():
        if given.get(name) is not None:
            # checked here, so that the error names the builder's parameter (m1, not the
            # mass of link 1); kept as given, so that an integer stays exact in derivations
            number = scalar(given[name], builder, name)
            if isinstance(number, float) and not abs(number) <= LARGEST_PARAMETER:
                raise ValueError(f"{builder}: {name} = {number:g} is too large: products of "
                                 f"three parameters (m l^2) would exceed the range of "
                                 f"floating-point numbers; use at most "
                                 f"{LARGEST_PARAMETER:.3g} (or other units)")
            values[name] = given[name]
        else:
            values[name] = sympy.Symbol(name, positive=True) if symbolic else default
    return values


def friction_per_joint(n: int, viscous, coulomb, static, epsilon, builder: str) -> list:
    """Per joint, the keyword arguments of Schilling (1990) Eq. (6-3-3)'s friction for
    :class:`dynlab.Link`, from a scalar (every joint) or one value per joint; ``static=None``
    means ``static = coulomb`` (pure Coulomb friction, no stiction).

    >>> friction_per_joint(2, [0.1, 0.2], 0, None, 0.01, "planar_2r")[1]
    {'viscous': 0.2, 'coulomb': 0, 'static': 0, 'epsilon': 0.01}
    >>> friction_per_joint(2, [0.1], 0, None, 0.01, "planar_2r")
    Traceback (most recent call last):
    ...
    ValueError: planar_2r: viscous needs 2 entries (one per joint), got 1
    """
    def per_joint(value, name):
        if isinstance(value, np.ndarray):
            value = value.tolist() if value.ndim else value.item()
        if isinstance(value, (list, tuple)):
            if len(value) != n:
                raise ValueError(f"{builder}: {name} needs {n} entries (one per joint), "
                                 f"got {len(value)}")
            return list(value)
        return [value] * n
    viscous, coulomb = per_joint(viscous, "viscous"), per_joint(coulomb, "coulomb")
    static = coulomb if static is None else per_joint(static, "static")
    epsilon = per_joint(epsilon, "epsilon")
    return [dict(viscous=v, coulomb=c, static=s, epsilon=e)
            for v, c, s, e in zip(viscous, coulomb, static, epsilon)]


def rod_inertia(mass, length, axis: str = "x") -> list:
    """Inertia tensor of a uniform slender rod along ``axis`` (``"x"`` or ``"z"`` of its
    frame) about its centre, ``(m l^2/12)`` on the two other axes, as a plain nested list
    (floats stay floats, symbols stay symbols)."""
    moment = mass * length**2 / 12
    return {"x": [[0, 0, 0], [0, moment, 0], [0, 0, moment]],
            "z": [[moment, 0, 0], [0, moment, 0], [0, 0, 0]]}[axis]
