"""How a dashboard names, colours and prints the parts of a joint's torque: Fu, Gonzalez & Lee,
Eq. (3.2-26) plus Schilling's friction (6-3-3), ``tau = D(q) qdd + h(q, qd) + c(q) + b(qd)``,
or Lynch & Park's letters for the twist-wrench engine (:func:`part_labels`).

>>> [PART_LABELS[part] for part in PARTS[:3]]
['inertial D(q) qdd', 'Coriolis/centrifugal h(q, qd)', 'gravity c(q)']
"""

from __future__ import annotations

import numpy as np

#: The parts of the torque, in the order of the bars and of the table, with their labels
#: and colours.  ``tip`` appears only for an arm with a tool wrench.
PARTS = ("inertial", "coriolis", "gravity", "friction", "tip", "total")
PART_LABELS = {"inertial": "inertial D(q) qdd", "coriolis": "Coriolis/centrifugal h(q, qd)",
               "gravity": "gravity c(q)", "friction": "friction b(qd)",
               "tip": "tool wrench J^T w", "total": "total tau"}
#: The same parts as the figure's legend names them (Matplotlib's mathtext), in the notation
#: of Fu, Gonzalez & Lee, Eq. (3.2-26) with Schilling's friction b (6-3-3), and of Lynch & Park,
#: Eq. (8.1) for the twist-wrench engine
FIGURE_LABELS = {"inertial": r"inertial $D(q)\,\ddot q$",
                 "coriolis": r"Coriolis/centrifugal $h(q,\dot q)$",
                 "gravity": r"gravity $c(q)$", "friction": r"friction $b(\dot q)$",
                 "tip": r"tool wrench $J^T w$", "total": r"total $\tau$"}
LYNCH_PARK_LABELS = {**FIGURE_LABELS,
                     "inertial": r"inertial $M(\theta)\,\ddot\theta$",
                     "coriolis": r"Coriolis/centrifugal $c(\theta,\dot\theta)$",
                     "gravity": r"gravity $g(\theta)$",
                     "friction": r"friction $b(\dot\theta)$",
                     "tip": r"tip wrench $J^T\mathcal{F}_{tip}$"}


#: The parts as the table under the figure names them (plain text), in the same notation as
#: the figure's legend: one letter keeps one meaning on one screen (Lynch & Park's c is the
#: Coriolis and centrifugal torque, Fu, Gonzalez & Lee's c the gravity torque)
TABLE_LABELS = PART_LABELS
LYNCH_PARK_TABLE_LABELS = {**PART_LABELS, "inertial": "inertial M(θ) θ̈",
                           "coriolis": "Coriolis/centrifugal c(θ, θ̇)",
                           "gravity": "gravity g(θ)", "friction": "friction b(θ̇)",
                           "tip": "tip wrench J^T F_tip"}


def part_labels(formulation, table: bool = False) -> dict:
    """Part -> its name in the figure's legend (or, with ``table``, in the table under it), in
    the notation of ``formulation``'s source: Lynch & Park, Sec. 8.1.2, write
    τ = M(θ)θ̈ + c(θ, θ̇) + g(θ); Fu, Gonzalez & Lee, Eq. (3.2-26), τ = D q̈ + h + c.

    >>> from dynlab.formulations.registry import FORMULATIONS
    >>> part_labels(FORMULATIONS["twist_wrench"])["gravity"].startswith("gravity $g(")
    True
    >>> part_labels(FORMULATIONS["twist_wrench"], table=True)["gravity"]
    'gravity g(θ)'
    >>> part_labels(FORMULATIONS["dalembert"], table=True)["gravity"]
    'gravity c(q)'
    """
    lynch_park = "Lynch & Park" in formulation.citation
    if table:
        return LYNCH_PARK_TABLE_LABELS if lynch_park else TABLE_LABELS
    return LYNCH_PARK_LABELS if lynch_park else FIGURE_LABELS


PART_COLOURS = {"inertial": "tab:blue", "coriolis": "tab:orange", "gravity": "tab:green",
                "friction": "tab:red", "tip": "tab:purple", "total": "0.15"}


def format_value(value: float) -> str:
    """The text a torque is shown with: signed, 3 decimals, no ``-0.000``.

    >>> format_value(12.34567), format_value(-0.0001), format_value(-2.5)
    ('+12.346', '+0.000', '-2.500')
    """
    rounded = round(float(value), 3) + 0.0        # + 0.0 turns -0.0 into 0.0
    return f"{rounded:+.3f}"


def plain(value) -> str:
    """A number as a student reads it in a message: ``repr`` of a Python float, whatever type
    it came as (NumPy's scalars print as ``np.float64(10.0)``).

    >>> plain(np.float64(10.0)), plain(np.int64(3)), plain(float("nan")), plain("x")
    ('10.0', '3.0', 'nan', "'x'")
    """
    if isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool):
        return repr(float(value))
    return repr(value)
