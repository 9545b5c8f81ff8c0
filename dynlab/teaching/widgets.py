"""Slider dashboards: move an arm and watch each joint's torque split into its parts.

``dashboard(robot_or_name)`` returns a :class:`Dashboard`: sliders for the joint positions
``q``, velocities ``qd`` and accelerations ``qdd`` and for key parameters (link masses, link
lengths, a payload at the tool, viscous friction), a Matplotlib figure with the arm
(:func:`dynlab.model.drawing.draw_arm`) and a bar chart of every joint's torque (force, for a
prismatic joint) split as in Fu, Gonzalez & Lee, Eq. (3.2-26) plus Schilling's friction (6-3-3),

    tau = D(q) qdd  +  h(q, qd)  +  c(q)  +  b(qd)
          inertial     Coriolis/     gravity   friction
                       centrifugal

and the same numbers in a table.  Display it in a notebook by making it the last expression of
a cell (or ``display(board)``); besides the live widget the display carries a PNG of the
figure, which a notebook stored without widget state shows until the cell is run again.

The figure explains itself: above the drawing a legend of its marks (joints, centres of mass,
frame axes, gravity; lengths in m), above the bars a legend of the parts in the notation of the
engine's source (Fu, Gonzalez & Lee's ``D qdd``, ``h``, ``c``; Lynch & Park's ``M thetadd``,
``c``, ``g`` for the twist-wrench engine), torques in N m and forces in N on the axes.  An arm
with a wrist (by default joints 4 to n of an arm with more than four joints, the PUMA 560's
4-6; :class:`dynlab.model.robots.DashboardSpec`'s ``wrist``) shows the wrist's bars on a shaded axis
of their own scale beside the arm's: a wrist's torques are a hundredth of a shoulder's.

Units: a revolute joint's position slider holds **degrees** (1 degree steps, finer where a
start needs it; a start or a :meth:`Dashboard.set_state` value is shown on the slider's grid and
kept exactly until the slider moves), a prismatic joint's metres; rates stay rad/s (m/s) and accelerations rad/s^2 (m/s^2).
Everything else of the API is in radians as in all of dynlab: ``dashboard(q=...)``,
``set_state``, ``state``, ``parts_at`` and :meth:`Dashboard.joint_positions`.  Length sliders
run from half to twice the arm's length, mass sliders from 0 to three times the mass; every
slider's ends are rounded (3 significant digits at most) and the start lies on its grid.

Every slider change recomputes from the numeric path only (no SymPy object is built): by
default Lee's generalized d'Alembert terms at the state, ``equations_of_motion(robot, q, qd,
method="dalembert")`` (``D``, ``h``, ``c`` and friction in one pass, nothing to compile, so a
parameter change costs no more than a joint change); ``engine="newton_euler"`` takes the parts
from the compiled Newton-Euler recursion instead (three calls: ``D qdd`` with gravity off and
``qd = 0``, ``h`` with ``qdd = 0``, ``c`` with ``qd = qdd = 0``, as in Fu, Gonzalez & Lee, Probs. 3.11-3.12),
quicker per call but traced anew for every changed parameter; ``benchmarks/bench_dashboard.py``
measures both.  Any formulation of :mod:`dynlab.formulations.registry` can be the engine: one that yields
the terms ``D``, ``h``, ``c`` is evaluated at the state, one that yields torques is probed.  The artists are updated in place (``set_data``, ``set_height``), the figure is
rendered with Agg and shown as a PNG in an ``ipywidgets.Image``, so it works in JupyterLab,
Voila and on a plain kernel alike, without a Matplotlib widget backend.

A spatial arm (drawn in 3-D) is shown instead on an ipympl canvas (Matplotlib's widget backend,
``interactive=True``, the default when ipympl is installed): the same Agg rendering, but the
browser sends the mouse to Matplotlib, so a drag turns the view (left button) and zooms it
(right button), with the frames and centres of mass drawn as in the printed figures; the
canvas receives only the changed pixels.  Chosen over a WebGL viewer because it draws the very
artists the rest of the workbook tests (:mod:`dynlab.model.drawing`), needs no JavaScript of ours
and no download at run time, and the dashboards' blitting keeps its frames fast.

A play row animates a motion (:mod:`dynlab.teaching.animation`) from the sliders' state: ``Play``
linked to a frame slider, a menu of motions (a free swing, PD + gravity holding the start pose,
computed torque to ``q = 0``) and a clock.  Pressing play simulates the whole motion once;
each frame then redraws the arm, the bars and the table at that frame's state (the joint
sliders keep the start).  Scrubbing the frame slider shows any frame; moving any other slider
or choosing another motion drops the motion, stops it and shows the sliders' state, and the
next play starts from there.

A parameter slider rebuilds the arm from the one it started from with
:meth:`dynlab.model.robot.Robot.replace_link` (so the new link is validated): :func:`with_mass`,
:func:`with_length`, :func:`with_payload`, :func:`with_viscous`.  A bad value (a NaN typed into
a slider, a parameter that makes a link invalid) never raises into the notebook: the message
appears in the dashboard's status line and the last valid arm stays on screen.

For tests and browser automation, every widget has a stable ``description`` and CSS classes
(``_dom_classes``; in the page they are classes of the widget's DOM element):

================================  =================================================================
``dynlab-dashboard``              the whole dashboard (a ``VBox``)
``dynlab-figure``                 the ``Image`` widget showing the figure (PNG), or for a 3-D arm
                                  the ipympl canvas (a ``<canvas>`` in the page)
``dynlab-slider``                 every slider
``dynlab-q``, ``dynlab-qd``,      the joint position, velocity, acceleration sliders; each also
``dynlab-qdd``                    ``dynlab-q1``, ``dynlab-qd1``, ``dynlab-qdd1``, ... (description
                                  ``q1``, ``qd1``, ``qdd1``, ...)
``dynlab-parameter``              every parameter slider; each also ``dynlab-param-<name>`` with
                                  description ``<name>``: ``m1``.., ``a2``, ``l``, ``l3``, ``d4``,
                                  ``payload``, ``viscous``
``dynlab-view``                   the azimuth slider of a 3-D drawing shown as a PNG
                                  (description ``view``)
``dynlab-view-angle``             the view's angles of a 3-D drawing on the canvas (an ``HTML``
                                  widget: ``<span data-azim=".." data-elev="..">``)
``dynlab-play``, ``dynlab-time``  the ``Play`` control and the frame slider linked to it
``dynlab-motion``                 the menu of motions (a ``Dropdown``)
``dynlab-clock``                  the time shown (``<span data-frame="k" data-t="..">``; frame
                                  ``-1``: the sliders' state)
``dynlab-pose``                   (in the readout) the joint positions as text, ``q1 = 60.0 deg``
``dynlab-torques``                the readout (an ``HTML`` widget): a table whose value cells are
                                  ``<td class="dynlab-value" data-joint="1" data-part="gravity"
                                  data-value="12.3456789...">+12.346</td>``; ``data-part`` is one
                                  of ``inertial``, ``coriolis``, ``gravity``, ``friction``,
                                  (``tip``,) ``total``; ``data-value`` is the full float
                                  (``repr``), the text is rounded to 3 decimals
``dynlab-status``                 the status line (an ``HTML`` widget); its text starts with
                                  ``ok:`` or ``error:``
================================  =================================================================

>>> board = dashboard("pendulum", q=[0.0], qd=[0.0], qdd=[0.0])
>>> round(float(board.tau[0]), 6)                  # m g a/2 = 1 * 9.8062 * 0.25
2.45155
>>> board.sliders["q1"].value = 60.0                # degrees: the source's home position, pi/3
>>> round(float(board.parts["gravity"][0]), 6)      # ... times cos(pi/3)
1.225775
>>> board.sliders["m1"].value = 2.0
>>> round(float(board.tau[0]), 6)
2.45155
>>> board.sliders["q1"].value = float("nan")
>>> print(board.message)
error: ValueError: q1 must be a finite number, got nan
>>> round(float(board.tau[0]), 6)                  # the last valid state stays on screen
2.45155
"""

from __future__ import annotations

import contextlib
import html
import io
import math
import time
import warnings
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from dynlab.model import checks
from dynlab.model.robot import Robot, joint_vector, joint_vector_is_numeric
from dynlab.model.robots import ARM_SPECS, DashboardSpec, LengthSlider

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


def round_significant(x: float, digits: int = 3, direction: str = "nearest") -> float:
    """``x`` rounded to ``digits`` significant digits (``direction``: ``"nearest"``, ``"down"``
    or ``"up"``): the clean ends of a slider.

    >>> round_significant(0.03999999999999915), round_significant(0.8636, 2, "up")
    (0.04, 0.87)
    >>> round_significant(0.2159, 2, "down"), round_significant(-0.2159, 2, "down")
    (0.21, -0.22)
    """
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return x
    power = math.floor(math.log10(abs(x))) - digits + 1
    scaled = x / 10.0 ** power
    near = round(scaled)
    if abs(scaled - near) < 1e-9 * max(1.0, abs(scaled)):
        scaled = near                        # already clean: no step up or down
    else:
        scaled = {"nearest": round, "down": math.floor, "up": math.ceil}[direction](scaled)
    return float(f"{scaled * 10.0 ** power:.{digits}g}")


def _grid_step(value: float, low: float, step: float) -> float:
    """The largest of ``step``, then 1, 2 and 5 times the powers of ten below it, on whose grid
    ``low + k * step`` the value lies (a browser's slider takes only those values)."""
    candidates = [step]
    power = 10.0 ** math.floor(math.log10(step))
    for _ in range(8):
        candidates += [c * power for c in (5.0, 2.0, 1.0) if c * power < step * (1 - 1e-12)]
        power /= 10.0
    for candidate in candidates:
        k = (value - low) / candidate
        if abs(k - round(k)) < 1e-6:
            return float(f"{candidate:.1g}") if candidate != step else step
    return 0.0


def slider(description: str, value: float, low: float, high: float, step: float,
           classes: Sequence[str] = (), tooltip: str = "", *, width: str = "250px",
           description_width: str = "60px"):
    """A dashboard's ``FloatSlider``: continuous updates, the CSS classes ``dynlab-slider``
    plus ``classes`` (tests and browsers find sliders by them).  The ends are rounded to 3
    significant digits (no float noise in what the page shows), the range is widened to hold
    ``value`` rather than clipping it, and the step is made fine enough that ``value`` lies on
    the slider's grid ``min + k * step`` (the page moves a value onto the grid and sends it
    back: ``q1 = pi/3`` became 1.0484, the SCARA's ``m2 = 6`` kg became 6.03 kg); the readout
    shows as many decimals as the step has.

    >>> w = slider("m2", 1.5, 0.1, 1.0, 0.1, ("dynlab-parameter",), "mass of link 2")
    >>> (w.value, w.min, w.max, w._dom_classes)
    (1.5, 0.1, 1.5, ('dynlab-slider', 'dynlab-parameter'))
    >>> w = slider("m3", 4.8, 0.0, 14.0, 0.07)             # 4.8 is on no 0.07 grid from 0
    >>> w.min, w.step, w.readout_format
    (0.0, 0.05, '.2f')
    >>> w = slider("a2", 0.4318, 0.21, 0.87, 0.005)
    >>> w.min, w.step, w.readout_format
    (0.21, 0.0002, '.4f')
    """
    import ipywidgets as widgets

    value = float(value)
    low, high = round_significant(low), round_significant(high)
    if not low <= value <= high:
        low = round_significant(min(low, value), 3, "down")
        high = round_significant(max(high, value), 3, "up")
    fine = _grid_step(value, low, step)
    if fine:
        step = fine
    else:        # no decimal grid holds it: start the grid at a point of it below ``value``
        low = value - math.floor((value - low) / step + 1e-9) * step
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    widget = widgets.FloatSlider(value=value, min=low, max=high, step=step,
                                 description=description, continuous_update=True,
                                 readout_format=f".{decimals}f",
                                 layout=widgets.Layout(width=width),
                                 style={"description_width": description_width},
                                 tooltip=tooltip)
    for css in ("dynlab-slider", *classes):
        widget.add_class(css)
    return widget


def degrees(radians: float) -> float:
    """An angle in degrees as a degree slider holds it: to 0.1 degree, which a slider's grid
    holds exactly (``pi/3`` gives ``60.0``, not ``59.99999999999999``).

    >>> degrees(math.pi / 3), degrees(-math.pi), degrees(1.0)
    (60.0, -180.0, 57.3)
    """
    return round(math.degrees(float(radians)), 1) + 0.0


def _on_grid(widget, value: float) -> float:
    """``value`` moved to the nearest point ``min + k * step`` of ``widget``'s grid (the page
    would move it there and send it back), with the step's decimals."""
    k = round((value - widget.min) / widget.step)
    decimals = max(0, -math.floor(math.log10(widget.step) + 1e-9))
    return round(widget.min + k * widget.step, decimals) + 0.0


# -- changing a parameter of an arm (every change goes through Robot.replace_link) ------------
def _numeric_link(robot: Robot, index: int):
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: has symbolic parameters; the dashboard needs numbers")
    if not isinstance(index, int) or not 1 <= index <= robot.n:
        raise ValueError(f"{robot.name}: link index must be 1..{robot.n}, got {index!r}")
    return robot.links[index - 1]


def _finite(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return value


def with_mass(robot: Robot, index: int, mass: float) -> Robot:
    """Link ``index`` (1-based) with mass ``mass`` and the same shape: the inertia tensor about
    the centre of mass scales with the mass (a denser or lighter material).

    >>> from dynlab.model.robots import pendulum
    >>> arm = with_mass(pendulum(), 1, 3.0)              # a1 = 0.5: I_yy = m a1^2 / 12
    >>> arm.links[0].mass, round(arm.links[0].inertia[1][1], 6)
    (3.0, 0.0625)
    >>> with_mass(pendulum(), 1, -1.0)
    Traceback (most recent call last):
    ...
    ValueError: link 1: mass must be non-negative, got -1.0
    """
    link = _numeric_link(robot, index)
    mass = _finite(mass, f"{link.name or f'link {index}'}: mass")
    if link.mass == 0:
        if mass == 0:
            return robot
        raise ValueError(f"{link.name or f'link {index}'}: has no mass, so its shape (inertia "
                         f"per kg) is unknown; set mass and inertia with replace_link")
    factor = mass / link.mass if mass >= 0 else 1.0     # a negative mass: replace_link says so
    inertia = [[entry * factor for entry in row] for row in link.inertia]
    return robot.replace_link(index, mass=mass, inertia=inertia)


def stretch_link(robot: Robot, index: int, axis: str, factor: float) -> Robot:
    """Link ``index``'s body stretched by ``factor`` along an axis of its own frame (about the
    frame's origin): the centre of mass moves with it and the second moments about the centre
    of mass ``S = (tr I / 2) E - I`` (Fu, Gonzalez & Lee, Eq. (3.2-18)) become ``F S F``, ``F`` the stretch.
    A uniform rod ``x in [-a, 0]`` stays a uniform rod of the new length.

    >>> from dynlab.model.robots import pendulum
    >>> arm = stretch_link(pendulum(), 1, "x", 2.0)       # rod of 0.5 m -> 1 m
    >>> arm.links[0].com, round(arm.links[0].inertia[2][2], 6)   # m l^2/12 = 1/12
    ((-0.5, 0.0, 0.0), 0.083333)
    """
    link = _numeric_link(robot, index)
    factor = _finite(factor, "stretch factor")
    if factor <= 0:
        raise ValueError(f"stretch factor must be positive, got {factor!r}")
    if axis not in ("x", "y", "z"):
        raise ValueError(f"axis must be 'x', 'y' or 'z', got {axis!r}")
    F = np.ones(3)
    F["xyz".index(axis)] = factor
    inertia = np.array(link.inertia, dtype=float)
    second = np.trace(inertia) / 2 * np.eye(3) - inertia        # int r r^T dm about the CoM
    second = second * np.outer(F, F)
    stretched = np.trace(second) * np.eye(3) - second
    com = tuple(float(c) * f for c, f in zip(link.com, F))
    return robot.replace_link(index, com=com, inertia=stretched.tolist())


def with_length(robot: Robot, index: int, length: float, parameter: str = "a",
                body: tuple | None = None) -> Robot:
    """Link ``index`` with DH ``a`` (or ``d``) set to ``length``, and the body that spans it
    stretched in proportion (:func:`stretch_link`): by default, for ``a_i`` (along ``x_i``),
    link ``i`` along ``x``.  ``body=(link, axis)`` names another body, e.g. the PUMA 560's
    forearm: ``d_4`` runs along ``z_3`` inside link 3, ``body=(3, "z")``.  ``parameter=None``
    stretches the body alone (the SCARA's sliding rod, whose length ``l3`` is no DH parameter).

    >>> from dynlab.model.robots import planar_2r
    >>> arm = with_length(planar_2r("schilling"), 2, 0.8)          # a2 = 0.4 -> 0.8
    >>> arm.links[1].a, arm.links[1].com[0]
    (0.8, -0.4)
    >>> with_length(planar_2r("schilling"), 2, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: link 2: a must stay positive, got 0.0
    """
    link = _numeric_link(robot, index)
    where = link.name or f"link {index}"
    name = parameter or "body length"
    if parameter not in ("a", "d", None):
        raise ValueError(f"parameter must be 'a', 'd' or None, got {parameter!r}")
    if parameter == "d" and link.is_prismatic:
        raise ValueError(f"{where}: d is the joint variable of this prismatic joint")
    if body is None:
        if parameter != "a":
            raise ValueError(f"{where}: say which body spans {name}: body=(link, axis)")
        body = (index, "x")
    length = _finite(length, f"{where}: {name}")
    if parameter is None:
        reference = _body_extent(_numeric_link(robot, body[0]), body[1])
    else:
        reference = float(getattr(link, parameter))
    if reference <= 0:
        raise ValueError(f"{where}: {name} is {reference!r}; only a positive length can be "
                         f"scaled")
    if length <= 0:
        raise ValueError(f"{where}: {name} must stay positive, got {length!r}")
    if parameter:
        robot = robot.replace_link(index, **{parameter: length})
    return stretch_link(robot, body[0], body[1], length / reference)


def _body_extent(link, axis: str) -> float:
    """Twice the distance of the centre of mass from the frame's origin along ``axis``: the
    length of a uniform rod that ends at the origin (the SCARA's ``l3``)."""
    return 2 * abs(float(link.com["xyz".index(axis)]))


def with_payload(robot: Robot, mass: float, index: int | None = None) -> Robot:
    """A point mass ``mass`` fixed at the origin of frame ``index`` (default ``n``: the tool),
    folded into link ``index`` as one rigid body: total mass, combined centre of mass, and the
    inertia about it by the parallel-axis theorem (the way the thesis appendix, App. B's payload ``Mp`` is
    folded in :func:`dynlab.model.robots.planar_2r`, variant ``"macsyma"``).

    >>> from dynlab.model.robots import planar_2r
    >>> arm = with_payload(planar_2r("macsyma", payload=0.0), 0.5)
    >>> book = planar_2r("macsyma", payload=0.5)
    >>> bool(np.allclose(arm.links[1].inertia, book.links[1].inertia, rtol=1e-14, atol=0))
    True
    """
    index = robot.n if index is None else index
    link = _numeric_link(robot, index)
    where = link.name or f"link {index}"
    mass = _finite(mass, f"{where}: payload")
    if mass < 0:
        raise ValueError(f"{where}: payload must be non-negative, got {mass!r}")
    if mass == 0:
        return robot
    m, total = float(link.mass), float(link.mass) + mass
    c = np.array(link.com, dtype=float)
    centre = m * c / total                                 # the point mass sits at (0, 0, 0)

    def shift(r):                                          # parallel axes: |r|^2 E - r r^T
        return float(r @ r) * np.eye(3) - np.outer(r, r)
    inertia = (np.array(link.inertia, dtype=float) + m * shift(c - centre)
               + mass * shift(-centre))
    return robot.replace_link(index, mass=total, com=tuple(centre.tolist()),
                              inertia=inertia.tolist())


def with_viscous(robot: Robot, coefficient: float) -> Robot:
    """Every joint with viscous friction ``b_v = coefficient`` (Schilling, Eq. (6-3-3); Fu, Gonzalez & Lee's
    ``b_i``), the other friction coefficients unchanged.

    >>> from dynlab.model.robots import pendulum
    >>> with_viscous(pendulum(), 0.2).links[0].viscous
    0.2
    """
    coefficient = _finite(coefficient, "viscous friction")
    for index in range(1, robot.n + 1):
        robot = robot.replace_link(index, viscous=coefficient)
    return robot


# -- what a dashboard shows -----------------------------------------------------------------------
@dataclass
class Parameter:
    """One parameter slider: ``apply(robot, value)`` returns the changed robot (applied in
    order to the arm the dashboard started from)."""

    name: str                 # the slider's description, e.g. "m2"
    help: str                 # its tooltip
    value: float
    minimum: float
    maximum: float
    step: float
    apply: Callable[[Robot, float], Robot]
    unit: str = ""


def _mass_parameters(robot: Robot, skip=()) -> list:
    found = []
    for k, link in enumerate(robot.links, start=1):
        if link.mass > 0 and k not in skip:
            m = float(link.mass)
            found.append(Parameter(f"m{k}", f"mass of link {k} (kg); its inertia scales with it",
                                   m, 0.0, round_significant(3 * m, 2, "up"), _step(3 * m),
                                   lambda r, v, k=k: with_mass(r, k, v), "kg"))
    return found


def _length_parameters(robot: Robot, reach: float) -> list:
    found = []
    for k, link in enumerate(robot.links, start=1):
        if isinstance(link.a, float) and link.a > 0.05 * reach:
            a = float(link.a)
            found.append(Parameter(f"a{k}", f"length a{k} of link {k} (m); the link's body is "
                                   f"stretched with it", a, *_length_range(a),
                                   lambda r, v, k=k: with_length(r, k, v), "m"))
    return found


def _payload_parameter(maximum: float, value: float = 0.0, index: int | None = None,
                       note: str = "") -> Parameter:
    return Parameter("payload", "point mass at the tool (origin of the last frame), kg" + note,
                     value, 0.0, maximum, _step(maximum),
                     lambda r, v: with_payload(r, v, index), "kg")


def _viscous_parameter(robot: Robot, maximum: float) -> list:
    values = {float(link.viscous) for link in robot.links}
    if len(values) != 1:
        return []                       # per-joint coefficients: keep them, no common slider
    return [Parameter("viscous", "viscous friction b_v of every joint (Schilling, Eq. (6-3-3)), "
                      "N m s/rad or N s/m", values.pop(), 0.0, maximum, _step(maximum),
                      with_viscous)]


def _nice(x: float) -> float:
    """``x`` rounded to 2 significant digits (slider ends)."""
    if x == 0:
        return 0.0
    return float(f"{x:.2g}")


def _step(span: float) -> float:
    return float(f"{span / 200:.1g}") or 1e-3


def _length_range(length: float) -> tuple:
    """``(minimum, maximum, step)`` of a length slider: from half to twice the arm's length
    (the chapters' "double a1"), the ends rounded outwards to 2 significant digits.

    >>> _length_range(0.4318)
    (0.21, 0.87, 0.004)
    """
    low = round_significant(0.5 * length, 2, "down")
    high = round_significant(2.0 * length, 2, "up")
    return low, high, _step(high)


# -- the registered arms ----------------------------------------------------------------------
def _length_parameter(robot: Robot, length: LengthSlider) -> Parameter:
    """The parameter slider of a :class:`dynlab.model.robots.LengthSlider` on ``robot``."""
    first = _numeric_link(robot, length.links[0])
    if length.parameter is None:
        value = _body_extent(_numeric_link(robot, length.body[0]), length.body[1])
    else:
        value = float(getattr(first, length.parameter))

    def apply(r, v):
        for index in length.links:
            r = with_length(r, index, v, length.parameter, length.body)
        return r
    return Parameter(length.name, length.help, value, *_length_range(value), apply, "m")


def _has_links(robot: Robot, length: LengthSlider) -> bool:
    """Whether ``robot`` has every link ``length`` names (the PUMA 560's first three joints
    have no ``d4``)."""
    body = (length.body[0],) if length.body else ()
    return max(length.links + body) <= robot.n


def _parameters(robot: Robot, board: DashboardSpec, payload: float = 0.0) -> list:
    """The parameter sliders ``board`` asks for: every link's mass, the lengths, a payload at
    the tool and one viscous friction coefficient."""
    from dynlab.model.drawing import reach_of  # matplotlib: loaded when drawn
    parameters = _mass_parameters(robot)
    if board.link_lengths:
        parameters += _length_parameters(robot, reach_of(robot))
    parameters += [_length_parameter(robot, length) for length in board.lengths
                   if _has_links(robot, length)]
    total = sum(float(link.mass) for link in robot.links)
    maximum = board.payload if board.payload is not None else max(1.0, _nice(total / 4))
    parameters.append(_payload_parameter(maximum, payload, note=board.payload_note))
    return parameters + _viscous_parameter(robot, board.viscous)


def default_parameters(robot: Robot, payload: float | None = None) -> list:
    """The parameter sliders of an arm without a named set: every link's mass, every link
    length ``a_i`` longer than 5 % of the reach, a payload at the tool (up to ``payload``,
    default a quarter of the arm's mass, at least 1 kg) and one viscous friction coefficient."""
    return _parameters(robot, DashboardSpec(payload=payload))


def _arm(name: str, variant: str | None, builder_options: dict):
    """``(robot, parameters, q, qd, qdd, joint ranges, labels, wrist)`` of a registered arm,
    as its :class:`dynlab.model.robots.DashboardSpec` says."""
    if name not in ARM_SPECS:
        raise ValueError(f"unknown arm {name!r}; choose one of {', '.join(ARM_SPECS)}, or "
                         f"pass a dynlab Robot")
    spec = ARM_SPECS[name]
    options = dict(builder_options)
    if variant is not None:
        options[spec.option] = variant
    board = spec.dashboard_for(options.get(spec.option, spec.option_default)
                               if spec.option else None)
    payload = 0.0
    if board.payload_options:                  # a payload option: built without, on a slider
        given = None
        for option in board.payload_options:
            given = options.pop(option, given)
        payload = board.payload_value if given is None else given
        options[board.payload_options[0]] = 0.0
    robot = spec.builder(**options)
    state = board.state(robot) if callable(board.state) else board.state
    ranges = board.joint_ranges(robot) if callable(board.joint_ranges) else board.joint_ranges
    ranges = {joint: (_nice(low), _nice(high)) for joint, (low, high) in (ranges or {}).items()}
    labels = board.labels or ("frames" if robot.n > 3 else "axes")
    return (robot, _parameters(robot, board, payload), *(state or (None, None, None)), ranges,
            labels, board.wrist)


def _joint_values(robot: Robot, values, name: str) -> list:
    """``values`` (``q``, ``qd`` or ``qdd`` of a dashboard) as ``n`` finite floats, or an error
    naming ``name``: text, truth values, inf and NaN are no joint values.

    >>> from dynlab.model.robots import planar_2r
    >>> _joint_values(planar_2r("fu"), np.array([[0.5], [1.0]]), "q")
    [0.5, 1.0]
    >>> _joint_values(planar_2r("fu"), [float("nan"), 0.0], "q")
    Traceback (most recent call last):
    ...
    ValueError: two-link arm (Fu, Gonzalez & Lee, Fig. 3.2): q[0] must be finite, got nan
    """
    if isinstance(values, np.ndarray) and values.ndim > 1:
        values = values.ravel()                        # a column vector
    entries = joint_vector(robot, values, name)
    if not joint_vector_is_numeric(entries):
        raise TypeError(f"{robot.name}: {name} must be numbers, got {list(entries)}")
    return [float(v) for v in entries]


# -- the dashboard ------------------------------------------------------------------------------
class Dashboard:
    """Sliders, a figure (arm and torque bars) and a readout for one arm; see the module.

    Attributes for tests and notebooks: ``sliders`` (description -> slider), ``q_sliders``,
    ``qd_sliders``, ``qdd_sliders``, ``parameter_sliders``; ``robot`` (the arm now shown),
    ``base`` (the arm the parameters are applied to); ``state`` (``q``, ``qd``, ``qdd``
    arrays), ``parts`` (part -> array of the joints' values), ``tau`` (their sum);
    ``figure``, ``drawing`` (:class:`dynlab.model.drawing.ArmDrawing`), ``bar_axes``, ``bars``
    (part -> the bar patches); ``readout``, ``status``, ``image`` and ``widget`` (the whole
    ``VBox``); ``message`` (the status line's text); ``seconds`` (time of the last recompute and of the last redraw).
    ``interactive`` (the figure is on an ipympl canvas, ``figure_widget``; else on ``image``),
    :meth:`view`; the motion: ``play``, ``time_slider``, ``motion_menu``, ``clock``, ``frames``
    (the :class:`dynlab.teaching.animation.MotionFrames` being shown, or ``None``), ``frame``,
    :meth:`compute_motion`, :meth:`show_frame`, :meth:`forget_motion`.
    """

    def __init__(self, robot: Robot, *, parameters: Sequence[Parameter] = (), q=None, qd=None,
                 qdd=None, prismatic_ranges: dict | None = None, engine: str = "dalembert",
                 labels="axes", figsize=(10.0, 5.0), dpi: int = 72, render: bool = True,
                 blit: bool = True, interactive: bool | None = None,
                 wrist: Sequence[int] | None = None):
        self._check_arguments(robot, engine)
        self.wrist = self._wrist_joints(robot, wrist)
        self.engine = engine
        self.base = robot
        self.robot = robot
        self.parameters = list(parameters)
        self.render = render
        n = robot.n
        self.n = n
        self.seconds = {"compute": 0.0, "draw": 0.0}
        self.parameter_error = ""
        self._holding = 0
        self._pending = set()

        q, qd, qdd = (_joint_values(robot, values, name) if values is not None else [0.0] * n
                      for values, name in ((q, "q"), (qd, "qd"), (qdd, "qdd")))
        for parameter in self.parameters:             # the starting values must be valid
            self.robot = parameter.apply(self.robot, parameter.value)
        self._make_sliders(q, qd, qdd, prismatic_ranges)
        three = self._make_figure(q, labels, figsize, dpi, blit, interactive)
        self._make_page(three)
        for widget in (*self.q_sliders, *self.qd_sliders, *self.qdd_sliders):
            widget.observe(self._on_state, names="value")
        for widget in self.parameter_sliders.values():
            widget.observe(self._on_parameter, names="value")
        self.refresh()
        if self.interactive:                           # the first picture is rendered: show
            self._show_interactive_canvas()            # it on the canvas the mouse turns

    def _check_arguments(self, robot, engine) -> None:
        """A numeric robot and a registered formulation as the engine, or a clear error."""
        if not isinstance(robot, Robot):
            raise TypeError(f"dashboard needs a dynlab Robot or an arm's name, got "
                            f"{type(robot).__name__}")
        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: has symbolic parameters "
                            f"({', '.join(sorted(map(str, robot.free_symbols)))}); build it "
                            f"with numbers (symbolic=False) or substitute them")
        from dynlab.formulations import registry as formulations
        if not isinstance(engine, str) or engine not in formulations.FORMULATIONS:
            raise ValueError(f"engine must be one of {', '.join(formulations.methods('numeric'))}"
                             f" (the registered formulations that run on numbers), got "
                             f"{engine!r}")
        self.formulation, _ = formulations.require(engine, None, "numeric", "dashboard")

    @staticmethod
    def _wrist_joints(robot: Robot, wrist) -> tuple:
        """The joints whose bars have an axis of their own: ``wrist``, or by default joints 4
        to n of an arm with more than four joints (a wrist on a 3-joint arm)."""
        if wrist is None:
            return tuple(range(4, robot.n + 1)) if robot.n > 4 else ()
        if isinstance(wrist, (str, bytes)) or not hasattr(wrist, "__iter__"):
            raise TypeError(f"{robot.name}: wrist must be a sequence of joint numbers (1-based), "
                            f"got {wrist!r}")
        wrist = tuple(k for k in (checks.count(k, robot.name, "each joint of wrist", 1)
                                  for k in wrist) if k <= robot.n)
        if wrist and len(wrist) == robot.n:
            raise ValueError(f"{robot.name}: the wrist axis needs joints left for the arm's "
                             f"axis, got wrist = {wrist}")
        return wrist

    def joint_positions(self) -> np.ndarray:
        """``q`` as the joint sliders set it, in radians (a revolute joint's slider holds
        degrees) or metres.

        >>> board = dashboard("planar_2r", variant="fu", render=False)
        >>> board.sliders["q1"].value, board.sliders["q1"].description
        (60.0, 'q1')
        >>> bool(board.joint_positions()[0] == math.pi / 3)
        True
        """
        q = []
        for k, (widget, scale) in enumerate(zip(self.q_sliders, self.q_scale)):
            value = float(widget.value)
            shown, exact = self._exact_q.get(k, (None, None))
            # a slider still at the angle it was set to shows it rounded to 0.1 deg: the
            # angle itself, not its rounding, is the state
            q.append(exact if value == shown else value * scale)
        return np.array(q)

    def _make_sliders(self, q, qd, qdd, prismatic_ranges) -> None:
        """The joint sliders (q, qd, qdd per joint) and the parameter sliders.  A revolute
        joint's position slider holds degrees (``q_scale``: radians per slider unit)."""
        from dynlab.model.drawing import reach_of  # matplotlib: loaded when drawn
        robot = self.base
        ranges = dict(prismatic_ranges or {})
        reach = reach_of(self.robot, q)

        self.sliders = {}
        self.q_sliders, self.qd_sliders, self.qdd_sliders = [], [], []
        self.q_scale = []
        self._exact_q = {}                             # joint -> (degrees shown, radians)
        for k, link in enumerate(robot.links, start=1):
            revolute = link.is_revolute
            low, high = ranges.get(k, (-math.pi, math.pi) if revolute else (-reach, reach))
            unit, rate = ("deg", "rad/s") if revolute else ("m", "m/s")
            if revolute:                               # the slider in degrees, q in radians
                scale = math.pi / 180.0
                value = degrees(q[k - 1])
                self._exact_q[k - 1] = (value, float(q[k - 1]))
                low, high, step = math.degrees(low), math.degrees(high), 1.0
            else:
                scale, value, step = 1.0, q[k - 1], 0.01
                low = round_significant(low, 2, "down")
                high = round_significant(high, 2, "up")
            self.q_scale.append(scale)
            self.q_sliders.append(slider(f"q{k}", value, low, high, step,
                                         ("dynlab-q", f"dynlab-q{k}"),
                                         f"joint {k} position ({unit})"))
            span = 3.0 if revolute else 0.5
            self.qd_sliders.append(slider(f"qd{k}", qd[k - 1], -span, span, 0.01,
                                          ("dynlab-qd", f"dynlab-qd{k}"),
                                          f"joint {k} velocity ({rate})"))
            span = 10.0 if revolute else 2.0
            self.qdd_sliders.append(slider(f"qdd{k}", qdd[k - 1], -span, span, 0.05,
                                           ("dynlab-qdd", f"dynlab-qdd{k}"),
                                           f"joint {k} acceleration ({rate}^2)"))
        self.parameter_sliders = {}
        for parameter in self.parameters:
            widget = slider(parameter.name, parameter.value, parameter.minimum,
                            parameter.maximum, parameter.step,
                            ("dynlab-parameter", f"dynlab-param-{parameter.name}"),
                            parameter.help)
            self.parameter_sliders[parameter.name] = widget
        for widget in (*self.q_sliders, *self.qd_sliders, *self.qdd_sliders,
                       *self.parameter_sliders.values()):
            if widget.description in self.sliders:
                raise ValueError(f"two sliders are called {widget.description!r}")
            self.sliders[widget.description] = widget


    def _make_figure(self, q, labels, figsize, dpi, blit, interactive) -> bool:
        """The figure: the arm drawn with its frames, and the torque bars; True for a 3-D arm."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator, NullFormatter

        # matplotlib: loaded when drawn
        from dynlab.model.drawing import draw_arm, plane_of, reach_of, workspace_box
        robot, n = self.base, self.n
        three = plane_of(self.robot) is None
        self.figure = Figure(figsize=figsize, dpi=dpi)
        FigureCanvasAgg(self.figure)
        top = 0.78                                     # above it: the legends
        arm_axes = self.figure.add_axes((0.0, 0.07, 0.45, top - 0.07),
                                        projection="3d" if three else None)
        if not three:
            arm_axes.set_position((0.07, 0.1, 0.36, top - 0.12))
        # the view of the longest arm the sliders allow, so it never has to move
        longest = self.base
        for parameter in self.parameters:
            longest = parameter.apply(longest, parameter.maximum if parameter.unit == "m"
                                      else parameter.value)
        self.drawing = draw_arm(self.robot, q, ax=arm_axes, labels=labels, title="",
                                reach=reach_of(longest, q),
                                box=workspace_box(longest, q) if three else None)
        for axis in (arm_axes.xaxis, arm_axes.yaxis, *((arm_axes.zaxis,) if three else ())):
            axis.set_label_text(f"{axis.get_label_text()} (m)", fontsize=9)
        if three:
            # positions are read off the sliders: no tick labels (a third of a full redraw)
            for axis in (arm_axes.xaxis, arm_axes.yaxis, arm_axes.zaxis):
                axis.set_major_formatter(NullFormatter())
        self.parts_shown = [p for p in PARTS if p != "tip" or robot.has_tip_wrench]
        self._make_bar_axes(top)
        self._make_legends()
        self._limits = {axes: None for axes, _ in self.bar_groups}
        # blitting: the static background (axes, ticks, panes) is rendered once and kept; an
        # update restores it and draws only the artists that move
        # (gravity's arrow too, though it stays: drawn among the arm's artists in zorder, it is
        # layered as in a full draw from any view)
        self._dynamic = sorted(self.drawing.artists() + list(self.drawing.gravity_artists)
                               + [patch for part in self.parts_shown
                                  for patch in self.bars[part]],
                               key=lambda artist: artist.get_zorder())   # as a full draw does
        self._background = None
        self.blit = blit
        # a 3-D arm turns with the mouse: the figure is shown by an ipympl canvas widget
        self.interactive = self._use_interactive(interactive, three)

        return three

    def _make_bar_axes(self, top: float) -> None:
        """The bar charts: one axis for the arm's joints and, for an arm with a wrist, a
        shaded axis of its own for the wrist's joints, with its own scale (a PUMA 560's wrist
        torques are a hundredth of its shoulder's: on one scale their bars would not show).
        ``bar_groups``: ``[(axes, joints)]``, joints 0-based; ``bar_axes``: the first axis,
        ``wrist_axes``: the wrist's (``None`` without one)."""
        from matplotlib.ticker import MaxNLocator
        robot, n = self.base, self.n
        wrist = [k - 1 for k in self.wrist]
        arm = [k for k in range(n) if k not in wrist]
        groups = [arm] + ([wrist] if wrist else [])
        left, right, gap = 0.57, (0.925 if wrist else 0.985), 0.015
        usable = right - left - gap * (len(groups) - 1)
        width = 0.8 / len(self.parts_shown)
        self.bars = {part: [None] * n for part in self.parts_shown}
        self.bar_groups = []
        x = left
        for g, joints in enumerate(groups):
            w = usable * len(joints) / n
            axes = self.figure.add_axes((x, 0.12, w, top - 0.18))
            x += w + gap
            axes.yaxis.set_major_locator(MaxNLocator(6, symmetric=True))
            numbers = np.array(joints) + 1
            for k, part in enumerate(self.parts_shown):
                container = axes.bar(
                    numbers + (k - (len(self.parts_shown) - 1) / 2) * width,
                    np.zeros(len(joints)), width,
                    color=PART_COLOURS[part] if part != "total" else "none",
                    edgecolor=PART_COLOURS[part], linewidth=1.5 if part == "total" else 0,
                    hatch="//" if part == "total" else None)
                for joint, patch in zip(joints, container.patches):
                    self.bars[part][joint] = patch
            # grid and zero line under the bars in a full draw too, as the blitted bars are
            axes.set_axisbelow(True)
            axes.axhline(0.0, color="0.3", lw=0.8, zorder=0.8)
            axes.set_xticks(numbers)
            axes.set_xticklabels([f"{k + 1}" + ("" if robot.links[k].is_revolute else " (N)")
                                  for k in joints])
            axes.set_xlim(numbers[0] - 0.5, numbers[-1] + 0.5)
            axes.tick_params(labelsize=8)
            axes.grid(True, axis="y", lw=0.3, alpha=0.6)
            kinds = {robot.links[k].is_revolute for k in joints}
            quantity = ("torque (N m)" if kinds == {True} else "force (N)" if kinds == {False}
                        else "torque (N m) or force (N)")
            if g == 0:
                axes.set_xlabel("joint" if not wrist else "arm joints", fontsize=9)
                axes.set_ylabel(quantity, fontsize=9)
            else:                                      # the wrist: shaded, scale on the right
                axes.set_facecolor("#f4efe1")
                axes.yaxis.tick_right()
                axes.yaxis.set_label_position("right")
                axes.set_xlabel("wrist joints", fontsize=9)
                axes.set_ylabel(f"wrist {quantity}: own scale", fontsize=9)
            self.bar_groups.append((axes, joints))
        self.bar_axes = self.bar_groups[0][0]
        self.wrist_axes = self.bar_groups[1][0] if wrist else None

    def _make_legends(self) -> None:
        """What every mark of the figure is, on the figure: the arm's (joints, centres of
        mass, frame axes, gravity) above the drawing, the bars' parts above the bars, in the
        notation of the engine's source."""
        from matplotlib.legend_handler import HandlerTuple
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        from dynlab.model.drawing import AXIS_COLOURS, COM_COLOUR  # matplotlib: loaded when drawn
        frames = tuple(Line2D([], [], color=c, lw=1.5) for c in AXIS_COLOURS)
        arm = [(Line2D([], [], ls="none", marker="o", color="black", mfc="white", ms=7,
                       mew=1.5), "joint (origin of its frame)"),
               (Line2D([], [], ls="none", marker="o", color=COM_COLOUR, ms=6),
                "centre of mass of a link"),
               (frames, "frame axes x, y, z"),
               (Line2D([], [], color="tab:purple", lw=2, marker=">", ms=5,
                       markevery=[1]), "gravity g")]
        self.arm_legend = self.figure.legend(
            [h for h, _ in arm], [t for _, t in arm], loc="upper left",
            bbox_to_anchor=(0.005, 0.995), ncol=2, fontsize=8, frameon=False,
            handler_map={tuple: HandlerTuple(ndivide=None)}, title="the arm (lengths in m)",
            title_fontsize=8, alignment="left")
        labels = part_labels(self.formulation)
        handles = [Patch(facecolor=PART_COLOURS[p] if p != "total" else "none",
                         edgecolor=PART_COLOURS[p], linewidth=1.5 if p == "total" else 0,
                         hatch="//" if p == "total" else None) for p in self.parts_shown]
        self.bar_legend = self.figure.legend(
            handles, [labels[p] for p in self.parts_shown], loc="upper left",
            bbox_to_anchor=(0.5, 0.995), ncol=3, fontsize=8, frameon=False,
            title="bars: each joint's torque and its parts (sum = total)", title_fontsize=8,
            alignment="left", columnspacing=1.2, handlelength=1.6)

    def legend_texts(self) -> list:
        """Every text of the figure's legends (titles first), as drawn."""
        return [text.get_text() for legend in (self.arm_legend, self.bar_legend)
                for text in (legend.get_title(), *legend.get_texts())]

    def _make_page(self, three: bool) -> None:
        """The widgets around the figure: slider columns, the play row, readout and status."""
        import ipywidgets as widgets
        robot = self.base
        self.image = widgets.Image(format="png", layout=widgets.Layout(width="100%",
                                                                        max_width="900px"))
        self.image.add_class("dynlab-figure")
        self.readout = widgets.HTML()
        self.readout.add_class("dynlab-torques")
        self.status = widgets.HTML()
        self.status.add_class("dynlab-status")
        kinds = {link.is_revolute for link in robot.links}

        def units(angle, length):
            return " / ".join(u for revolute, u in ((True, angle), (False, length))
                              if revolute in kinds)
        columns = [self._column(f"joint positions q ({units('deg', 'm')})", self.q_sliders),
                   self._column(f"velocities qd ({units('rad/s', 'm/s')})", self.qd_sliders),
                   self._column(f"accelerations qdd ({units('rad/s²', 'm/s²')})",
                                self.qdd_sliders)]
        if self.parameter_sliders:
            named = ", ".join(sorted({p.unit for p in self.parameters if p.unit}))
            columns.append(self._column(f"parameters ({named}; friction N m s/rad)"
                                        if named else "parameters",
                                        list(self.parameter_sliders.values())))
        self.view_slider = None
        self.view_angle = None
        self.figure_widget = self.image               # (an interactive one: until refreshed)
        if self.interactive:
            self.view_angle = widgets.HTML()
            self.view_angle.add_class("dynlab-view-angle")
            columns[0].children += (self.view_angle,)
        if three and not self.interactive:
            self.view_slider = slider("view", -60.0, -180.0, 180.0, 5.0, ("dynlab-view",),
                                      "azimuth of the 3-D view (degrees)")
            self.view_slider.observe(self._on_view, names="value")
            columns[0].children += (self.view_slider,)
        # the slider columns wrap in a narrow notebook rather than overflow it
        sliders = widgets.HBox(columns, layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox([widgets.HTML(f"<b>{html.escape(robot.name)}</b>"),
                                    self.figure_widget, self._player_row(), sliders,
                                    self.readout, self.status])
        self.widget.add_class("dynlab-dashboard")

    # -- widgets --------------------------------------------------------------------------------
    @staticmethod
    def _column(title, children):
        import ipywidgets as widgets
        return widgets.VBox([widgets.HTML(f"<b>{html.escape(title)}</b>"), *children])

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, with a picture of its figure and a one-line text as fallbacks: a
        notebook stored without widget state (and a code host) shows the picture."""
        import base64
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        if self.render:
            if not self.interactive:
                picture = bytes(self.image.value)
            elif getattr(self.figure.canvas, "renderer", None) is None:
                picture = self._first_png              # the canvas has not rendered yet
            else:
                picture = self._png()
            bundle["image/png"] = base64.b64encode(picture).decode("ascii")
        return bundle

    def __repr__(self) -> str:
        return (f"Dashboard({self.robot.name!r}: {len(self.sliders)} sliders, engine "
                f"{self.engine!r}, tau = {np.round(self.tau, 6).tolist()})")

    # -- callbacks: never raise into the notebook -----------------------------------------------
    def _on_state(self, change=None):
        self._request("state")

    def _on_parameter(self, change=None):
        self._request("parameters")

    def _on_view(self, change=None):
        self._request("view")

    def _request(self, what: str):
        if self._holding:
            self._pending.add(what)
            return
        self.refresh({what})

    @contextlib.contextmanager
    def hold(self):
        """Change several sliders and update once, at the end of the ``with`` block."""
        self._holding += 1
        try:
            yield self
        finally:
            self._holding -= 1
            if not self._holding and self._pending:
                pending, self._pending = self._pending, set()
                self.refresh(pending)

    def set_state(self, q=None, qd=None, qdd=None) -> "Dashboard":
        """Set joint sliders (any of ``q``, ``qd``, ``qdd``), then update once.  ``q`` is in
        radians (metres for a prismatic joint), as everywhere in dynlab: a revolute joint's
        slider shows it in degrees, on the slider's grid (1 degree; the state keeps ``q``
        itself until the slider is moved).  A wrong length or a value outside a
        slider's range is reported in the status line, not raised, and changes nothing."""
        try:
            plan = []
            for name, values, sliders in (("q", q, self.q_sliders), ("qd", qd, self.qd_sliders),
                                          ("qdd", qdd, self.qdd_sliders)):
                if values is None:
                    continue
                values = _joint_values(self.robot, values, name)
                for k, (widget, value) in enumerate(zip(sliders, values)):
                    unit = self._unit(name, k)
                    exact = value
                    if name == "q" and self.q_scale[k] != 1.0:
                        value = _on_grid(widget, degrees(value))
                    if not widget.min <= value <= widget.max:
                        raise ValueError(f"{widget.description} = {plain(value)} {unit} is "
                                         f"outside the slider's range [{plain(widget.min)}, "
                                         f"{plain(widget.max)}] {unit}")
                    plan.append((widget, value, (name, k, value, exact)))
        except Exception as error:                      # noqa: BLE001 - reported, not raised
            self._report(error)
            return self
        with self.hold():
            for widget, value, (name, k, shown, exact) in plan:
                if name == "q" and self.q_scale[k] != 1.0:
                    self._exact_q[k] = (shown, exact)
                if widget.value != value:
                    widget.value = value
                else:                                  # no change event: update anyway
                    self._request("state")
        return self

    def slide(self, **values) -> dict:
        """Move the named sliders to ``values`` as a reader would (a revolute joint's angle
        in degrees, rates in rad/s, a parameter in its slider's unit), update once, and return
        the parts of the torque shown (:attr:`parts`).  Sliders not named keep their values.

        >>> board = dashboard("pendulum", render=False)
        >>> parts = board.slide(q1=90.0, qd1=0.0, qdd1=0.0)     # straight up: no gravity torque
        >>> abs(float(parts["gravity"][0])) < 1e-12
        True
        >>> board.slide(elbow=1.0)
        Traceback (most recent call last):
        ...
        ValueError: no slider 'elbow': the sliders are q1, qd1, qdd1, m1, a1, payload, viscous
        """
        unknown = [name for name in values if name not in self.sliders]
        if unknown:
            raise ValueError(f"no slider {unknown[0]!r}: the sliders are "
                             f"{', '.join(self.sliders)}")
        with self.hold():
            for name, value in values.items():
                self.sliders[name].value = value
        return self.parts

    def _unit(self, name: str, k: int) -> str:
        """The unit of joint ``k``'s (0-based) slider ``name`` (``q``, ``qd``, ``qdd``)."""
        revolute = self.base.links[k].is_revolute
        return {"q": "deg" if revolute else "m", "qd": "rad/s" if revolute else "m/s",
                "qdd": "rad/s^2" if revolute else "m/s^2"}[name]

    def refresh(self, what=("parameters", "state")) -> None:
        """Recompute and redraw; any error goes to the status line."""
        try:
            if "parameters" in what or "state" in what:
                self.forget_motion()                   # the sliders are a new start
            if "parameters" in what:
                self._rebuild()
            if "parameters" in what or "state" in what:
                self._recompute()
            if "view" in what and self.view_slider is not None:
                self.drawing.ax.view_init(elev=self.drawing.ax.elev,
                                          azim=self.view_slider.value)
                self._background = None
            self._redraw()
        except Exception as error:                      # noqa: BLE001 - reported, not raised
            self._report(error)
            return
        message = (f"ok: computed in {1e3 * self.seconds['compute']:.2f} ms "
                   f"({self.formulation.label}), "
                   f"drawn in {1e3 * self.seconds['draw']:.1f} ms")
        if self.parameter_error:
            message = f"error: {self.parameter_error} (showing the last valid arm)"
        self.status.value = self._status_html(message)

    def _report(self, error: Exception) -> None:
        text = f"error: {type(error).__name__}: {error}"
        if self.parameter_error and not str(error) in self.parameter_error:
            text += f"; also {self.parameter_error}"
        self.status.value = self._status_html(text)

    def _status_html(self, message: str) -> str:
        self.message = message
        colour = "#a00" if message.startswith("error") else "#060"
        return f'<span style="color:{colour}">{html.escape(message)}</span>'

    # -- the work -------------------------------------------------------------------------------
    def _rebuild(self) -> None:
        robot = self.base
        try:
            for parameter in self.parameters:
                value = float(self.parameter_sliders[parameter.name].value)
                robot = parameter.apply(robot, value)
        except Exception as error:                      # noqa: BLE001 - kept for the status
            self.parameter_error = f"{parameter.name} = {plain(value)} {parameter.unit}: {error}"
            return
        self.parameter_error = ""
        self.robot = robot

    def _recompute(self) -> None:
        start = time.perf_counter()
        q = list(self.joint_positions())
        qd = [float(w.value) for w in self.qd_sliders]
        qdd = [float(w.value) for w in self.qdd_sliders]
        for name, values in (("q", q), ("qd", qd), ("qdd", qdd)):
            for k, value in enumerate(values, start=1):
                if not math.isfinite(value):
                    raise ValueError(f"{name}{k} must be a finite number, got {plain(value)}")
        parts = self.parts_at(q, qd, qdd)
        self.state = (np.array(q), np.array(qd), np.array(qdd))
        self.parts = parts
        self.tau = self.parts["total"]
        self.seconds["compute"] = time.perf_counter() - start

    def parts_at(self, q, qd, qdd, robot: Robot | None = None) -> dict:
        """Part -> the joints' torques at the state ``(q, qd, qdd)`` of ``robot`` (default:
        the arm shown), by the dashboard's engine (numbers only)."""
        from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics
        from dynlab.model.friction import joint_friction
        robot = self.robot if robot is None else robot
        if self.formulation.can("terms"):
            eom = equations_of_motion(robot, q, qd, method=self.engine)
            parts = {"inertial": eom.D @ np.asarray(qdd), "coriolis": np.asarray(eom.h),
                     "gravity": np.asarray(eom.c), "friction": np.asarray(eom.friction),
                     "tip": np.asarray(eom.tip)}
        else:
            zero = [0.0] * self.n
            off = dict(friction=False, tip_wrench=False)
            method = dict(method=self.engine)
            gravity = inverse_dynamics(robot, q, zero, zero, **off, **method)
            parts = {"inertial": inverse_dynamics(robot, q, zero, qdd, gravity=False, **off,
                                                  **method),
                     "coriolis": inverse_dynamics(robot, q, qd, zero, gravity=False, **off,
                                                  **method),
                     "gravity": gravity,
                     "friction": joint_friction(robot, qd),
                     "tip": (inverse_dynamics(robot, q, zero, zero, gravity=False,
                                              friction=False, **method) if robot.has_tip_wrench
                             else np.zeros(self.n))}
        parts["total"] = (parts["inertial"] + parts["coriolis"] + parts["gravity"]
                          + parts["friction"] + parts["tip"])
        return {key: np.asarray(value, dtype=float) for key, value in parts.items()}

    def _redraw(self) -> None:
        start = time.perf_counter()
        self.drawing.update(self.state[0], self.robot)
        for part in self.parts_shown:
            for patch, value in zip(self.bars[part], self.parts[part]):
                patch.set_height(value)
        # change a scale only when its bars near its edge or shrink far below it
        if self.frames is None:
            for axes, joints in self.bar_groups:
                biggest = max(abs(float(self.parts[part][k])) for part in self.parts_shown
                              for k in joints)
                limit = self._limits[axes]
                if limit is None or biggest > 0.9 * limit or biggest < 0.25 * limit:
                    self._set_limit(axes, _nice_limit(1.2 * biggest))
        self.readout.value = self._table()
        if self.render:
            self.draw()
            if not self.interactive:
                self.image.value = self._png()
        self.seconds["draw"] = time.perf_counter() - start

    @property
    def blit(self) -> bool:
        """Redraw by blitting (``True``, the default) or by a full ``canvas.draw()``."""
        return self._blit

    @blit.setter
    def blit(self, value: bool) -> None:
        self._blit = bool(value)
        for artist in self._dynamic:
            artist.set_animated(self._blit)   # a full draw leaves animated artists out
        self._background = None

    def draw(self) -> None:
        """Render the figure with Agg: all of it (``blit=False``, or when the background is
        stale: first time, new bar scale, new 3-D view), else the background kept from the
        last full render plus the moving artists."""
        canvas = self.figure.canvas
        if hasattr(canvas, "hold_sync"):               # ipympl: the page gets the completed URL
            with canvas.hold_sync():
                self._draw(canvas)
        else:
            self._draw(canvas)

    def _draw(self, canvas) -> None:
        if not self.blit:
            canvas.draw()
            self._complete_data_url()
            return
        if self._background is None:
            canvas.draw()                              # animated artists are left out ...
            # ... and drawn here (on the ipympl canvas _on_full_draw does it; before the
            # figure is on it, the first picture, the one a notebook stores, is drawn here)
            if not self.interactive or self.figure_widget is self.image:
                self._draw_on_background()
            self._complete_data_url()
        else:
            canvas.restore_region(self._background)
            for artist in self._dynamic:
                if artist.get_visible():
                    artist.axes.draw_artist(artist)
            canvas.blit(self.figure.bbox)              # ipympl: send the changed pixels
        self._complete_data_url()

    def _complete_data_url(self) -> None:
        """Until the page shows the ipympl canvas, the canvas keeps its picture as a URL for
        the page's first paint, but ipympl stores it without its ``data:image/png;base64,``
        head (the page then fails to draw it and the canvas stays 0 x 0): add the head."""
        canvas = self.figure.canvas
        url = getattr(canvas, "_data_url", None)
        if self.interactive and getattr(canvas, "syncing_data_url", False) and url \
                and not url.startswith("data:"):
            canvas._data_url = "data:image/png;base64," + url

    def _draw_on_background(self) -> None:
        """Keep the just rendered figure as the background, then draw the moving artists."""
        self._background = self.figure.canvas.copy_from_bbox(self.figure.bbox)
        for artist in self._dynamic:                   # ... and drawn on top
            if artist.get_visible():
                artist.axes.draw_artist(artist)

    def _png(self) -> bytes:
        from PIL import Image as PILImage
        buffer = io.BytesIO()
        canvas = self.figure.canvas
        image = PILImage.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(),
                                    "raw", "RGBA", 0, 1).convert("RGB")
        image.save(buffer, format="png", compress_level=1)
        return buffer.getvalue()

    def _table(self) -> str:
        from matplotlib.colors import to_hex
        swatch = ('<span style="display:inline-block;width:0.8em;height:0.8em;'
                  'background:{};border:1px solid {};margin-right:0.3em"></span>')
        labels = part_labels(self.formulation, table=True)  # the legend's notation
        head = "".join(f"<th>{swatch.format(to_hex(PART_COLOURS[p]) if p != 'total' else 'white', to_hex(PART_COLOURS[p]))}"
                       f"{html.escape(labels[p])}</th>" for p in self.parts_shown)
        rows = []
        for k, link in enumerate(self.robot.links, start=1):
            unit = "N m" if link.is_revolute else "N"
            cells = "".join(
                f'<td class="dynlab-value" data-joint="{k}" data-part="{p}" '
                f'data-value="{float(self.parts[p][k - 1])!r}" style="text-align:right">'
                f"{format_value(self.parts[p][k - 1])}</td>" for p in self.parts_shown)
            rows.append(f"<tr><td>joint {k} ({unit})</td>{cells}</tr>")
        pose = ", ".join(
            f"q{k} = {math.degrees(q):.1f} deg" if link.is_revolute else f"q{k} = {q:.3f} m"
            for k, (link, q) in enumerate(zip(self.robot.links, self.state[0]), start=1))
        return (f'<div class="dynlab-pose">{html.escape(pose)}</div>'
                f'<table class="dynlab-torque-table"><thead><tr><th></th>{head}</tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table>")

    # -- a 3-D view that turns with the mouse (ipympl) ---------------------------------------------
    def _use_interactive(self, interactive, three: bool) -> bool:
        """Whether the figure is shown by an ipympl canvas: by default for a 3-D arm when
        ipympl is installed and the figure is rendered."""
        if interactive is None:
            if not (three and self.render):
                return False
            try:
                import ipympl.backend_nbagg  # noqa: F401
            except ImportError:
                return False
            return True
        if not isinstance(interactive, bool):
            raise TypeError(f"interactive must be True, False or None (choose), got "
                            f"{interactive!r}")
        if interactive:
            if not three:
                raise ValueError(f"{self.robot.name}: is drawn in 2-D; only a 3-D drawing "
                                 f"turns with the mouse (interactive=True)")
            if not self.render:
                raise ValueError("interactive=True needs render=True: the canvas shows the "
                                 "rendered figure")
            try:
                import ipympl.backend_nbagg  # noqa: F401
            except ImportError as error:
                raise ImportError("interactive=True needs the package ipympl (Matplotlib's "
                                  "widget backend): pip install ipympl") from error
        return interactive

    def _show_interactive_canvas(self) -> None:
        """Put the figure on an ipympl canvas (an ipywidget) in place of the picture: the
        browser sends mouse events to Matplotlib, whose 3-D axes turn (left button) and zoom
        (right button) the view."""
        import base64

        from ipympl.backend_nbagg import Canvas, FigureManager
        from traitlets import default
        # The page's canvas starts from the picture in the widget's first state, as when
        # ipympl displays a figure itself (a picture sent later would not be drawn; the page
        # then logs "drawImage ... broken" and the canvas stays 0 x 0 pixels).
        self._first_png = self._png()
        first = "data:image/png;base64," + base64.b64encode(self._first_png).decode("ascii")
        width, height = self.figure.bbox.size

        class ArmCanvas(Canvas):
            @default("_data_url")
            def _first_picture(self):
                return first

            @default("_size")
            def _first_size(self):
                return (float(width), float(height))

        canvas = ArmCanvas(self.figure)               # the figure's canvas from now on
        with warnings.catch_warnings():
            # ipympl's toolbar passes the canvas on to traitlets, which warns about it
            warnings.filterwarnings("ignore", "Passing unrecognized arguments",
                                    DeprecationWarning)
            FigureManager(canvas, 1)                  # sends the rendered pixels to the page
        canvas.header_visible = False
        canvas.footer_visible = False
        canvas.resizable = False                      # a fixed size keeps the blit background
        canvas.toolbar_position = "right"
        canvas.add_class("dynlab-figure")
        canvas.mpl_connect("draw_event", self._on_full_draw)
        self._background = None                       # a new canvas: render it anew
        self.figure_widget = canvas
        self.widget.children = tuple(canvas if child is self.image else child
                                     for child in self.widget.children)
        self._show_view_angle()

    def _on_full_draw(self, event) -> None:
        """After every full render (also one the mouse asks for): keep the background and
        draw the moving artists on it; show the view's angles."""
        if self.blit and event.renderer is getattr(self.figure.canvas, "renderer", None):
            self._draw_on_background()
        self._show_view_angle()

    def _show_view_angle(self) -> None:
        if self.view_angle is None:
            return
        azim, elev = self.view()
        self.view_angle.value = (f'<span data-azim="{azim!r}" data-elev="{elev!r}">'
                                 f"view: azimuth {azim:.1f}&deg;, elevation {elev:.1f}&deg; "
                                 f"(drag to turn, right-drag to zoom)</span>")

    def view(self) -> tuple:
        """``(azimuth, elevation)`` of a 3-D drawing's view, in degrees (``None`` in 2-D)."""
        ax = self.drawing.ax
        if self.drawing.view != "3d":
            return None
        return float(ax.azim), float(ax.elev)

    # -- motion: a play control -------------------------------------------------------------------
    def _player_row(self):
        """Play, a time slider (the frame), the motion's menu and the clock."""
        import ipywidgets as widgets

        from dynlab.teaching.animation import MOTIONS
        self.frames = None
        self.duration, self.fps = 5.0, 20.0
        count = int(round(self.duration * self.fps))
        self.play = widgets.Play(value=0, min=0, max=count, step=1,
                                 interval=int(round(1000 / self.fps)), description="play",
                                 show_repeat=False)
        self.play.add_class("dynlab-play")
        self.time_slider = widgets.IntSlider(value=0, min=0, max=count, step=1,
                                             description="frame", continuous_update=True,
                                             layout=widgets.Layout(width="300px"),
                                             style={"description_width": "50px"})
        self.time_slider.add_class("dynlab-time")
        widgets.jslink((self.play, "value"), (self.time_slider, "value"))
        revolute = all(link.is_revolute for link in self.robot.links)
        self.motion_menu = widgets.Dropdown(
            options=[(label, name) for name, label in MOTIONS.items()],
            value="free" if revolute else "home", description="motion",
            layout=widgets.Layout(width="330px"), style={"description_width": "55px"})
        self.motion_menu.add_class("dynlab-motion")
        self.clock = widgets.HTML()
        self.clock.add_class("dynlab-clock")
        self._show_clock(None)
        self.play.observe(self._on_frame, names="value")
        self.time_slider.observe(self._on_frame, names="value")
        self.play.observe(self._on_playing, names="playing")
        self.motion_menu.observe(self._on_motion, names="value")
        self.frame = None
        return widgets.HBox([self.play, self.time_slider, self.motion_menu, self.clock])

    def _show_clock(self, k) -> None:
        if k is None:
            text, t = "t = 0 s: the sliders' state (press play)", 0.0
        else:
            t = float(self.frames.t[k])
            text = f"t = {t:.2f} s"
        self.clock.value = (f'<span data-frame="{-1 if k is None else k}" data-t="{t!r}">'
                            f"{html.escape(text)}</span>")

    def _on_playing(self, change) -> None:
        if change["new"] and self.frames is None:       # a new motion: show where it starts
            self._guarded(lambda: self.show_frame(int(self.play.value)))

    def _on_frame(self, change) -> None:
        self._guarded(lambda: self.show_frame(int(change["new"])))

    def _on_motion(self, change=None) -> None:
        self.refresh()                                 # forgets the motion, shows the start

    def _guarded(self, call) -> None:
        try:
            call()
        except Exception as error:                      # noqa: BLE001 - reported, not raised
            self._report(error)

    def compute_motion(self):
        """Simulate the chosen motion from the sliders' state (once: every frame is computed
        here, :meth:`show_frame` then only redraws).  Returns the
        :class:`dynlab.teaching.animation.MotionFrames`."""
        from dynlab.teaching.animation import motion_frames
        if self.parameter_error:
            raise ValueError(f"no motion of an invalid arm: {self.parameter_error}")
        q = list(self.joint_positions())
        qd = [float(w.value) for w in self.qd_sliders]
        start = time.perf_counter()
        self.frames = motion_frames(self.robot, q, qd, motion=self.motion_menu.value,
                                    duration=self.duration, fps=self.fps,
                                    parts_at=lambda *state: self.parts_at(*state))
        self.seconds["simulate"] = time.perf_counter() - start
        # one bar scale for the whole motion: the bars do not jump between frames
        for axes, joints in self.bar_groups:
            biggest = max(float(np.max(np.abs(self.frames.parts[part][:, joints])))
                          for part in self.parts_shown)
            self._set_limit(axes, _nice_limit(1.2 * biggest))
        return self.frames

    def _set_limit(self, axes, limit: float) -> None:
        """Bar axis ``axes`` from ``-limit`` to ``limit`` (its ticks change: the background
        is rendered anew)."""
        if self._limits[axes] != limit:
            self._limits[axes] = limit
            axes.set_ylim(-limit, limit)
            self._background = None

    def show_frame(self, k: int) -> None:
        """Show frame ``k`` of the motion (computed first if it is not): the arm at ``q(t_k)``,
        the bars and the table at the torque split there; the sliders keep the start."""
        if self.frames is None:
            self.compute_motion()
        if k == self.frame:
            return
        q, qd, qdd = self.frames.state(k)
        self.state = (q.copy(), qd.copy(), qdd.copy())
        self.parts = {part: values.copy() for part, values in self.frames.parts_at(k).items()}
        self.tau = self.parts["total"]
        self.frame = k
        self._redraw()
        self._show_clock(k)
        self.status.value = self._status_html(
            f"ok: {self.motion_menu.label}, t = {self.frames.t[k]:.2f} s of "
            f"{self.frames.t[-1]:g} s (simulated in {self.seconds['simulate']:.2f} s), "
            f"drawn in {1e3 * self.seconds['draw']:.1f} ms")

    def forget_motion(self) -> None:
        """Drop the computed motion (a slider moved: the next play starts from the new
        state), stop playing and go back to frame 0."""
        if getattr(self, "play", None) is None:
            return
        had = self.frames is not None
        self.frames, self.frame = None, None
        self.play.playing = False
        for widget in (self.play, self.time_slider):
            widget.unobserve(self._on_frame, names="value")
            widget.value = 0
            widget.observe(self._on_frame, names="value")
        self._show_clock(None)
        if had:                                        # the sliders' scales again
            self._limits = {axes: None for axes, _ in self.bar_groups}

    # -- what is shown, for tests ------------------------------------------------------------------
    def bar_heights(self) -> dict:
        """Part -> the drawn bar heights (one per joint), read back from the patches."""
        return {part: np.array([patch.get_height() for patch in patches])
                for part, patches in self.bars.items()}


def _nice_limit(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``x`` (>= 1e-3)."""
    x = max(float(x), 1e-3)
    power = 10.0 ** math.floor(math.log10(x))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if factor * power >= x * (1 - 1e-12):
            return factor * power
    return 10.0 * power


def dashboard(robot_or_name, *, variant: str | None = None, q=None, qd=None, qdd=None,
              parameters: Sequence[Parameter] | None = None, engine: str = "dalembert",
              render: bool = True, interactive: bool | None = None,
              **builder_options) -> Dashboard:
    """A slider dashboard for an arm registered in :data:`dynlab.model.robots.ARM_SPECS`
    (``"pendulum"``, ``"planar_2r"`` with ``variant``, ``"scara"``, ``"puma560"``, ...;
    ``builder_options`` go to its builder, e.g. ``viscous=0.1``) or for any numeric
    :class:`~dynlab.Robot`.

    ``q``, ``qd``, ``qdd``: the starting state (each registered arm has one, its
    :class:`~dynlab.model.robots.DashboardSpec`'s: Schilling's home position for the pendulum and the
    two-link arm, the nominal pose ``qn`` for the PUMA).  ``parameters``: the parameter sliders
    (default: the arm's masses, lengths, payload and viscous friction, as its spec says).
    ``engine``: the formulation that computes the parts, any name of
    :data:`dynlab.formulations.registry.FORMULATIONS` (see the module).  ``render=False``
    skips the PNG (tests that only read numbers).

    >>> board = dashboard("puma560")
    >>> sorted(board.sliders)[:4], len(board.q_sliders)
    (['a2', 'd4', 'm2', 'm3'], 6)
    >>> dashboard("pendulm")
    Traceback (most recent call last):
    ...
    ValueError: unknown arm 'pendulm'; choose one of pendulum, planar_2r, scara, puma560..., or pass a dynlab Robot
    """
    labels = "axes"
    ranges = {}
    wrist = None
    if isinstance(robot_or_name, Robot):
        if variant is not None or builder_options:
            raise TypeError("variant= and builder options apply to a named arm, not a Robot")
        robot = robot_or_name
        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: has symbolic parameters; the dashboard needs "
                            f"numbers")
        defaults = default_parameters(robot)
        start = (None, None, None)
        if robot.n > 3:
            labels = "frames"
    elif isinstance(robot_or_name, str):
        spec = ARM_SPECS.get(robot_or_name)
        if variant is not None and (spec is None or spec.option != "variant"):
            owners = [repr(n) for n, s in ARM_SPECS.items() if s.option == "variant"]
            raise TypeError(f"variant= belongs to {' or '.join(owners)}, not {robot_or_name!r}")
        robot, defaults, *start, ranges, labels, wrist = _arm(robot_or_name, variant,
                                                             builder_options)
    else:
        raise TypeError(f"dashboard needs a dynlab Robot or an arm's name, got "
                        f"{type(robot_or_name).__name__}")
    q = start[0] if q is None else q
    qd = start[1] if qd is None else qd
    qdd = start[2] if qdd is None else qdd
    return Dashboard(robot, parameters=defaults if parameters is None else parameters, q=q,
                     qd=qd, qdd=qdd, prismatic_ranges=ranges, engine=engine, labels=labels,
                     render=render, interactive=interactive, wrist=wrist)
