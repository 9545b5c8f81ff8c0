"""Drawings of an arm with Matplotlib (:func:`draw_arm`, :class:`ArmDrawing`): links as the DH
polyline ``p_{i-1} -> p_{i-1} + d_i z_{i-1} -> p_i``, frames, centres of mass
(Fu, Gonzalez & Lee, Eq. (3.2-3)) and gravity; a planar arm in 2-D, others in 3-D.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from dynlab.model.robots import planar_2r
>>> drawing = draw_arm(planar_2r("fu"), [0.0, 1.5707963267948966])
>>> drawing.view, drawing.plotted("origins").round(12).tolist()
('2d', [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
>>> drawing.update([1.5707963267948966, 0.0]).plotted("origins").round(12).tolist()
[[0.0, 0.0], [0.0, 1.0], [0.0, 2.0]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from matplotlib.ticker import MaxNLocator

from dynlab.model.kinematics import chain, resolve
from dynlab.model.robot import Robot

#: Colours of the frame axes x, y, z (the usual red, green, blue).
AXIS_COLOURS = ("tab:red", "tab:green", "tab:blue")
LINK_COLOUR = "0.25"
COM_COLOUR = "tab:orange"
# Below this fraction of its length an axis counts as perpendicular to the page (2-D view).
_OUT_OF_PLANE = 0.2
_PARALLEL_TOLERANCE = 1e-9


# -- geometry (numbers only: no SymPy object is built) -----------------------------------------
def arm_geometry(robot: Robot, q: Sequence) -> dict:
    """What :func:`draw_arm` draws, in base coordinates: ``origins`` ``p_0 .. p_n``, ``rotations``,
    ``polyline`` (through ``p_{i-1} + d_i z_{i-1}``), ``centres`` of mass and ``massive``.

    >>> from dynlab.model.robots import pendulum
    >>> g = arm_geometry(pendulum(), [0.0])
    >>> g["origins"].tolist(), g["centres"].tolist()
    ([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0]], [[0.25, 0.0, 0.0]])
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    if symbolic:
        raise TypeError(f"{robot.name}: a drawing needs numbers: numeric parameters and joint "
                        f"positions (substitute symbols with robot.subs(...) first)")
    rotations, origins = chain(links, vec["q"], backend)
    R = np.array(rotations, dtype=float)
    p = np.array(origins, dtype=float)
    polyline = [p[0]]
    for i, (link, qi) in enumerate(zip(links, vec["q"])):
        d = link.d if link.revolute else qi + link.offset
        polyline.append(p[i] + d * R[i][:, 2])          # along z_{i-1} by d_i
        polyline.append(p[i + 1])                         # then along x_i by a_i
    centres = np.array([p[i + 1] + R[i + 1] @ np.array(link.com, dtype=float)
                        for i, link in enumerate(links)])
    return {"origins": p, "rotations": R, "polyline": np.array(polyline),
            "centres": centres, "massive": np.array([link.mass > 0 for link in links])}


def plane_of(robot: Robot):
    """``(n, e1, e2)`` if ``robot`` is planar (revolute axes along ``n``, prismatic ones across it,
    checked at two poses; ``e1``, ``e2`` the page's right and up), else ``None``.

    >>> from dynlab.model.robots import planar_2r, scara
    >>> [v.tolist() for v in plane_of(planar_2r("schilling"))]
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    >>> plane_of(scara()) is None
    True
    """
    links = robot.numeric()[0]
    axes = [(link.revolute, np.array(R, dtype=float)[:, 2])       # z_{i-1} of every joint
            for q in ((0.0,) * robot.n, tuple(0.3 + 0.7 * k for k in range(robot.n)))
            for link, R in zip(links, chain(links, q)[0][:-1])]
    turning = [axis for revolute, axis in axes if revolute]
    if not turning:
        return None                          # no revolute joint: nothing fixes a plane
    normal = turning[0] / np.linalg.norm(turning[0])
    if any(np.linalg.norm(np.cross(normal, axis)) > _PARALLEL_TOLERANCE for axis in turning) \
            or any(abs(axis @ normal) > _PARALLEL_TOLERANCE for revolute, axis in axes
                   if not revolute):
        return None
    if next(v for v in normal[::-1] if v != 0) < 0:
        normal = -normal                     # look at the plane from the positive side
    # the page's "right": the base axis most perpendicular to n, projected into the plane
    base = np.eye(3)[int(np.argmin(np.abs(normal)))] if abs(normal[2]) < 1 - 1e-12 \
        else np.array([1.0, 0.0, 0.0])
    e1 = base - normal * (base @ normal)
    e1 = e1 / np.linalg.norm(e1)
    e2 = np.cross(normal, e1)
    clean = [np.where(np.abs(v) < 1e-15, 0.0, v) + 0.0 for v in (normal, e1, e2)]
    return tuple(clean)


def reach_of(robot: Robot, q: Sequence | None = None) -> float:
    """A radius that holds the drawn arm: the sum of its ``|a_i|`` and ``|d_i|`` (for a
    prismatic joint, of ``|q_i + offset_i|`` at ``q`` or its offset), and 1 if that is 0.

    >>> from dynlab.model.robots import puma560
    >>> round(reach_of(puma560()), 4)        # 0.6718 + 0.4318 + 0.15005 + 0.0203 + 0.4318
    1.7057
    """
    total = sum(abs(link.a) + abs(link.d if link.revolute else link.offset
                                  + (float(q[k]) if q is not None else 0.0))
                for k, link in enumerate(robot.numeric()[0]))
    return total if total > 0 else 1.0


def workspace_box(robot: Robot, q: Sequence, reach: float | None = None) -> tuple:
    """``(centre, half_width)`` of a cube holding the arm in any pose: the drawn points over 64
    seeded poses (prismatic ``d`` in ``[0, reach]``), with a margin.

    >>> from dynlab.model.robots import puma560
    >>> centre, half = workspace_box(puma560(), [0.0] * 6)
    >>> round(float(half), 2), bool(centre[2] > 0.5)      # above the base: the column d1
    (0.87, True)
    """
    links = robot.numeric()[0]
    reach = reach_of(robot, q) if reach is None else reach
    rng = np.random.default_rng(0)
    points = []
    for sample in range(64):
        pose = []
        for k, link in enumerate(links):
            if link.revolute:
                pose.append(float(rng.uniform(-math.pi, math.pi)))
            else:                                      # the slide between 0 and the reach
                now = float(q[k]) + link.offset
                low, high = min(0.0, now), max(reach, now)
                pose.append(float(rng.uniform(low, high)) - link.offset)
        points.append(arm_geometry(robot, pose)["polyline"])
    points.append(arm_geometry(robot, q)["polyline"])
    cloud = np.concatenate(points)
    low, high = cloud.min(axis=0), cloud.max(axis=0)
    half = 0.55 * float(max((high - low).max(), 1e-3))
    return (low + high) / 2, half


# -- the drawing -----------------------------------------------------------------------------------
class ArmDrawing:
    """A drawn arm: the figure, its axes and artists (made once; :meth:`update` moves them,
    :meth:`plotted` reads them back), and ``geometry``, the last :func:`arm_geometry`."""

    def __init__(self, robot, q, ax, view, plane, frames, labels, centres, gravity, reach, box,
                 title):
        self.robot = robot
        self.ax = ax
        self.figure = ax.figure
        self.view = view
        self.plane = plane
        self.frames, self.labels, self.show_centres = frames, labels, centres
        self.reach = reach
        self.box = box
        self.length = 0.18 * (reach if view == "2d" else self.box[1])   # a frame axis, drawn
        self.geometry = arm_geometry(robot, q)
        self.q = tuple(float(v) for v in resolve(robot, q=q)[3]["q"])
        n = robot.n
        three = view == "3d"
        plot = ax.plot
        empty = ([], [], []) if three else ([], [])
        (self.links_line,) = plot(*empty, "-", color=LINK_COLOUR, lw=4, solid_capstyle="round",
                                  zorder=2, label="links (DH: d along z, then a along x)")
        (self.origins_line,) = plot(*empty, "o", color="black", mfc="white", ms=7, mew=1.5,
                                    zorder=4, label="frame origins p0..pn (joints, tool)")
        (self.centres_line,) = plot(*empty, "o", color=COM_COLOUR, ms=6, zorder=5,
                                    label="centres of mass")
        self.centres_line.set_visible(centres)
        # one line per axis colour: frame i's segment is points 3i, 3i+1 (a NaN gap follows)
        self.axis_lines = [plot(*empty, "-", color=colour, lw=1.5, zorder=3)[0]
                           for colour in AXIS_COLOURS]
        for line in self.axis_lines:
            line.set_visible(frames)
        self.axis_labels = []
        if frames and labels:
            for i in range(n + 1):
                # "x1", "y1", "z1" at the axes' tips, or the frame's number "1" by its origin
                names = ([(f"{letter}{i}", AXIS_COLOURS[k]) for k, letter in enumerate("xyz")]
                         if labels == "axes" else [(str(i), "black")])
                self.axis_labels.append([
                    ax.text(0.0, 0.0, 0.0, name, color=colour, fontsize=8, ha="center",
                            va="center") if three else
                    ax.text(0.0, 0.0, name, color=colour, fontsize=8, ha="center",
                            va="center") for name, colour in names])
        # 2-D: axes perpendicular to the page, as circled dots (towards us) and crosses (away)
        self.axis_markers = []
        if not three:
            for colour in AXIS_COLOURS:
                pair = tuple(plot([], [], linestyle="none", marker=marker, ms=14, color=colour,
                                  zorder=3)[0] for marker in ("$\\odot$", "$\\otimes$"))
                for mark in pair:
                    mark.set_visible(frames)
                self.axis_markers.append(pair)
        self.gravity_artists = self._draw_gravity() if gravity else []
        self._set_limits()
        if title:
            ax.set_title(title, fontsize=10)
        self._place()

    # -- projection ------------------------------------------------------------------------
    def _project(self, points):
        """Page coordinates of base-frame points: 2-D ``(e1, e2)`` components, or 3-D as is."""
        points = np.asarray(points, dtype=float)
        if self.view == "3d":
            return points
        _, e1, e2 = self.plane
        return np.stack([points @ e1, points @ e2], axis=-1)

    def _set(self, artist, points):
        page = self._project(points)
        if self.view == "3d":
            artist.set_data_3d(page[:, 0], page[:, 1], page[:, 2])
        else:
            artist.set_data(page[:, 0], page[:, 1])

    def _set_limits(self):
        ax = self.ax
        if self.view == "3d":
            centre, half = self.box
            for k, c in enumerate("xyz"):
                ax.set(**{f"{c}lim": (centre[k] - half, centre[k] + half), f"{c}label": f"{c}0"})
                getattr(ax, f"{c}axis").set_major_locator(MaxNLocator(4))
            ax.set_box_aspect((1, 1, 1))
        else:
            r = 1.1 * self.reach
            ax.set(xlim=(-r, r), ylim=(-r, r))
            ax.set_aspect("equal", adjustable="box")
            names = {(1, 0, 0): "x0", (0, 1, 0): "y0", (0, 0, 1): "z0"}
            _, e1, e2 = self.plane
            ax.set_xlabel(names.get(tuple(e1.tolist()), "e1"))
            ax.set_ylabel(names.get(tuple(e2.tolist()), "e2"))
            ax.grid(True, lw=0.3, alpha=0.5)

    def _draw_gravity(self):
        gravity = np.array(self.robot.numeric()[1], dtype=float)
        norm = np.linalg.norm(gravity)
        if norm == 0:
            return []
        direction = gravity / norm
        if self.view == "3d":
            centre, half = self.box
            start = centre + np.array([-0.8, -0.8, 0.0]) * half - direction * 0.2 * half
            end = start + direction * 0.4 * half
            (line,) = self.ax.plot(*zip(start, end), "-", color="tab:purple", lw=2)
            (head,) = self.ax.plot(*zip(end), "v" if direction[2] < -0.9 else "o",
                                   color="tab:purple", ms=6)
            text = self.ax.text(*(start - direction * 0.1 * half), "g", color="tab:purple")
            return [line, head, text]
        r = 1.1 * self.reach
        page = self._project([direction])[0]
        if np.linalg.norm(page) < _OUT_OF_PLANE:
            text = self.ax.text(-0.9 * r, 0.9 * r, "g: normal to the page", color="tab:purple",
                                fontsize=8)
            return [text]
        page = page / np.linalg.norm(page)
        start = np.array([0.8 * r, 0.8 * r]) - page * 0.1 * r
        arrow = self.ax.annotate("", xy=start + page * 0.25 * r, xytext=start,
                                 arrowprops=dict(arrowstyle="->", color="tab:purple", lw=2))
        text = self.ax.text(*(start - page * 0.06 * r), "g", color="tab:purple", ha="center",
                            va="center")
        return [arrow, text]

    # -- moving the arm -------------------------------------------------------------------
    def _place(self):
        geometry = self.geometry
        self._set(self.links_line, geometry["polyline"])
        self._set(self.origins_line, geometry["origins"])
        massive = geometry["massive"]
        centres = geometry["centres"][massive] if massive.any() else np.zeros((0, 3))
        self._set(self.centres_line, centres)
        L = self.length
        three = self.view == "3d"
        origins, rotations = geometry["origins"], geometry["rotations"]
        count = len(origins)
        for k in range(3):
            axes = rotations[:, :, k]                            # axis k of every frame
            segments = np.full((3 * count, 3), np.nan)
            segments[0::3] = origins
            segments[1::3] = origins + L * axes
            labels = self.axis_labels if self.labels == "axes" else []
            if three:
                self._set(self.axis_lines[k], segments)
                for i, row in enumerate(labels):
                    row[k].set_position_3d(origins[i] + 1.12 * L * axes[i])
                continue
            page = self._project(axes)
            flat = np.hypot(page[:, 0], page[:, 1]) < _OUT_OF_PLANE   # perpendicular to page
            segments[1::3][flat] = np.nan
            self._set(self.axis_lines[k], segments)
            towards = axes @ self.plane[0] > 0
            centres = self._project(origins)
            dots, crosses = self.axis_markers[k]
            dots.set_data(centres[flat & towards, 0], centres[flat & towards, 1])
            crosses.set_data(centres[flat & ~towards, 0], centres[flat & ~towards, 1])
            tips = self._project(origins + 1.2 * L * axes)
            for i, row in enumerate(labels):
                row[k].set_position(centres[i] + np.array([0.35, -0.35]) * L if flat[i]
                                    else tips[i])
        if self.labels == "frames":
            # the frame's number, a little away from its origin (between -x and -y)
            for i, row in enumerate(self.axis_labels):
                spot = origins[i] - 0.3 * L * (rotations[i][:, 0] + rotations[i][:, 1])
                if three:
                    row[0].set_position_3d(spot)
                else:
                    row[0].set_position(self._project([spot])[0])

    def update(self, q: Sequence, robot: Robot | None = None) -> ArmDrawing:
        """Move the drawing to ``q`` (and to a changed ``robot``, e.g. new link lengths) by
        setting the data of the existing artists; call ``figure.canvas.draw()`` (or display the
        figure) to see it.  Returns ``self``."""
        if robot is not None:
            if robot.n != self.robot.n:
                raise ValueError(f"{robot.name}: has {robot.n} joints, the drawing "
                                 f"{self.robot.n}")
            self.robot = robot
        self.geometry = arm_geometry(self.robot, q)
        self.q = tuple(float(v) for v in resolve(self.robot, q=q)[3]["q"])
        self._place()
        return self

    # -- what is on the page ----------------------------------------------------------------
    def plotted(self, what: str = "origins") -> np.ndarray:
        """The data of an artist as drawn (page coordinates: 2 columns in 2-D, 3 in 3-D):
        ``"origins"``, ``"links"``, ``"centres"``, or ``"x3"``/``"z0"``... (an axis segment:
        its start and end point)."""
        if what in ("origins", "links", "centres"):
            artist = {"origins": self.origins_line, "links": self.links_line,
                      "centres": self.centres_line}[what]
        elif len(what) >= 2 and what[0] in "xyz" and what[1:].isdigit() \
                and int(what[1:]) <= self.robot.n:
            frame, k = int(what[1:]), "xyz".index(what[0])
            data = self._data(self.axis_lines[k])[3 * frame:3 * frame + 2]
            return data[:1] if np.isnan(data[1]).any() else data
        else:
            raise ValueError(f"unknown drawn item {what!r}; use 'origins', 'links', 'centres' "
                             f"or an axis like 'x1', 'z0' (frames 0..{self.robot.n})")
        return self._data(artist)

    def _data(self, artist) -> np.ndarray:
        data = artist.get_data_3d() if self.view == "3d" else artist.get_data()
        return np.column_stack([np.asarray(a, dtype=float) for a in data])

    def artists(self) -> list:
        """Every artist that :meth:`update` changes."""
        found = [self.links_line, self.origins_line, self.centres_line, *self.axis_lines]
        for row in (*self.axis_labels, *self.axis_markers):
            found.extend(row)
        return found


def draw_arm(robot: Robot, q: Sequence, ax=None, *, view: str | None = None,
             frames: bool = True, labels="axes", centres: bool = True,
             gravity: bool = True, reach: float | None = None, box: tuple | None = None,
             title: str | None = None, figsize=(5, 5)) -> ArmDrawing:
    """Draw ``robot`` at ``q`` (links, frames, centres of mass, gravity) on ``ax`` or a new
    :class:`matplotlib.figure.Figure`.  ``labels``: ``"axes"``, ``"frames"`` or ``False``; ``view``:
    ``"2d"``, ``"3d"`` or ``None`` (2-D when :func:`plane_of` finds a plane); ``reach`` and ``box``
    bound the plot.

    >>> from dynlab.model.robots import scara
    >>> drawing = draw_arm(scara(), [0.0, 0.0, 0.15])
    >>> drawing.view, drawing.plotted("origins")[-1].round(12).tolist()   # the tool, 3-D
    ('3d', [0.8, 0.0, 0.75])
    >>> draw_arm(scara(), [0.0, 0.0, 0.15], view="2d")
    Traceback (most recent call last):
    ...
    ValueError: three-axis SCARA (Schilling, Sec. 6-6): is not planar (its joint axes are not all
    parallel or perpendicular to one direction); draw it with view='3d'
    """
    if not isinstance(robot, Robot):
        raise TypeError(f"draw_arm needs a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: a drawing needs numbers, but the arm has symbolic "
                        f"parameters ({', '.join(sorted(map(str, robot.free_symbols)))}); "
                        f"build it with numbers or substitute them with robot.subs(...)")
    if labels is True:
        labels = "axes"
    if labels not in ("axes", "frames", False, None):
        raise ValueError(f"labels must be 'axes', 'frames' or False, got {labels!r}")
    if view not in (None, "2d", "3d"):
        raise ValueError(f"view must be '2d', '3d' or None (choose), got {view!r}")
    plane = plane_of(robot)
    if view is None:
        view = "2d" if plane is not None else "3d"
    if view == "2d" and plane is None:
        raise ValueError(f"{robot.name}: is not planar (its joint axes are not all parallel or "
                         f"perpendicular to one direction); draw it with view='3d'")
    if reach is None:
        reach = reach_of(robot, q)
    elif not (isinstance(reach, (int, float)) and math.isfinite(reach) and reach > 0):
        raise ValueError(f"reach must be a positive number, got {reach!r}")
    if ax is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        figure = Figure(figsize=figsize)
        FigureCanvasAgg(figure)            # renders headless; notebooks display it as PNG
        ax = figure.add_subplot(projection="3d" if view == "3d" else None)
    elif (view == "3d") != (getattr(ax, "name", "") == "3d"):
        raise ValueError(f"{robot.name}: a {view} drawing needs a "
                         f"{'3-D' if view == '3d' else '2-D'} axes, got a {ax.name!r} one")
    if title is None:
        title = robot.name
    if view == "3d":
        box = workspace_box(robot, q, reach) if box is None else box
        centre, half = box
        box = (np.asarray(centre, dtype=float).reshape(3), float(half))
    return ArmDrawing(robot, q, ax, view, plane, frames, labels, centres, gravity,
                      float(reach), box, title)
