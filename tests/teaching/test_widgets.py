"""The slider dashboards, driven without a browser: set ``slider.value`` and check the plotted
bars and the shown numbers against ``dynlab.inverse_dynamics`` at that state, the split
``D qdd + h + c + b`` against the total, parameter sliders against a rebuilt arm, and that bad
values are reported in the status line instead of raised."""

import html.parser
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings

from dynlab import equations_of_motion, inverse_dynamics
from dynlab.model.edits import stretch_link, with_length, with_mass, with_payload, with_viscous
from dynlab.model.robots import pendulum, planar_2r, puma560, scara
from dynlab.teaching.dashboards.arm import Dashboard, dashboard
from dynlab.teaching.dashboards.labels import PART_COLOURS, format_value
from tests.support.strategies import chains

TOLERANCE = dict(rtol=1e-9, atol=1e-9)


class Readout(html.parser.HTMLParser):
    """The value cells of the torque table: (joint, part) -> (data-value, shown text)."""

    def __init__(self, text):
        super().__init__()
        self.cells, self._open = {}, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "td" and attrs.get("class") == "dynlab-value":
            self._open = (int(attrs["data-joint"]), attrs["data-part"], float(attrs["data-value"]))

    def handle_data(self, data):
        if self._open is not None:
            joint, part, value = self._open
            self.cells[joint, part] = (value, data)
            self._open = None


def shown(board):
    """part -> (the full values in the table, the texts shown), one entry per joint."""
    cells = Readout(board.readout.value).cells
    parts = sorted({part for _, part in cells})
    return {part: (np.array([cells[j, part][0] for j in range(1, board.n + 1)]),
                   [cells[j, part][1] for j in range(1, board.n + 1)]) for part in parts}


def check_against_inverse_dynamics(board):
    """Bars, table and attributes equal inverse dynamics at the sliders' state."""
    qd, qdd = ([w.value for w in sliders] for sliders in (board.qd_sliders, board.qdd_sliders))
    # a revolute joint's slider holds degrees (on its grid: a state set in radians stays
    # exact), a prismatic joint's metres
    q = [math.radians(w.value) if link.is_revolute else w.value
         for w, link in zip(board.q_sliders, board.robot.links)]
    half_steps = [math.radians(w.step / 2) if link.is_revolute else 0.0
                  for w, link in zip(board.q_sliders, board.robot.links)]
    assert np.all(np.abs(np.array(q) - board.state[0]) <= np.array(half_steps) + 1e-15)
    q = board.state[0]
    tau = inverse_dynamics(board.robot, q, qd, qdd)
    np.testing.assert_allclose(board.tau, tau, **TOLERANCE)
    # the split: D qdd (gravity and velocities off), h (qdd off), c (qd, qdd off), friction
    zero = [0.0] * board.n
    off = dict(friction=False, tip_wrench=False)
    expected = {"inertial": inverse_dynamics(board.robot, q, zero, qdd, gravity=False, **off),
                "coriolis": inverse_dynamics(board.robot, q, qd, zero, gravity=False, **off),
                "gravity": inverse_dynamics(board.robot, q, zero, zero, **off),
                "total": tau}
    expected["friction"] = tau - expected["inertial"] - expected["coriolis"] - expected["gravity"]
    heights = board.bar_heights()
    table = shown(board)
    for part, values in expected.items():
        np.testing.assert_allclose(board.parts[part], values, **TOLERANCE)
        np.testing.assert_allclose(heights[part], values, **TOLERANCE)
        np.testing.assert_allclose(table[part][0], values, **TOLERANCE)
        assert table[part][1] == [format_value(v) for v in board.parts[part]]
    total = sum(board.parts[p] for p in ("inertial", "coriolis", "gravity", "friction"))
    np.testing.assert_allclose(total, board.parts["total"], rtol=1e-12, atol=1e-12)
    assert board.message.startswith("ok:"), board.message


ARMS = [("pendulum", {}), ("planar_2r", {"variant": "fu"}),
        ("planar_2r", {"variant": "macsyma", "viscous": 0.3}), ("scara", {"coulomb": 0.5}),
        ("puma560", {})]


@pytest.mark.parametrize("name, options", ARMS, ids=lambda v: str(v))
def test_sliders_drive_bars_and_numbers_equal_inverse_dynamics(name, options):
    board = dashboard(name, render=False, **options)
    check_against_inverse_dynamics(board)              # the starting state
    rng = np.random.default_rng(4)
    for sliders in (board.q_sliders, board.qd_sliders, board.qdd_sliders):
        for widget in sliders:
            widget.value = float(rng.uniform(widget.min, widget.max))
            check_against_inverse_dynamics(board)


@pytest.mark.parametrize("engine", ["dalembert", "newton_euler"])
def test_both_engines_show_the_same_numbers(engine):
    board = dashboard("scara", engine=engine, render=False, viscous=0.2)
    board.set_state(q=[0.3, -1.2, 0.2], qd=[1.5, -0.5, 0.3], qdd=[2.0, 1.0, -1.0])
    # q in radians (metres for the SCARA's rod); the angles' sliders show degrees on their
    # grid of 1 degree (the page would move a value off it)
    assert [w.value for w in board.q_sliders] == [17.0, -69.0, 0.2]
    assert board.state[0].tolist() == [0.3, -1.2, 0.2]             # the state keeps them
    board.sliders["q1"].value = 16.0                                  # moved: 16 deg
    assert board.state[0].tolist() == [math.radians(16.0), -1.2, 0.2]
    check_against_inverse_dynamics(board)


@pytest.mark.parametrize("engine", ["dalembert", "newton_euler"])
def test_a_slider_move_makes_one_engine_call(engine, monkeypatch):
    """Issue 41: one slider move asks the dynamics floor once for every part of the torque
    (the Newton-Euler engine made four ``inverse_dynamics`` calls, each checking the arm
    again).  Calls made inside a counted call are not counted again."""
    import dynlab.dynamics.inverse
    import dynlab.teaching.dashboards.arm
    board = dashboard("puma560", engine=engine, render=False)
    calls, depth = [], [0]

    def spy(function):
        def counted(*args, **kwargs):
            if depth[0] == 0:
                calls.append(function.__name__)
            depth[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1
        return counted

    for module in (dynlab.dynamics.inverse, dynlab.teaching.dashboards.arm):
        for name in ("inverse_dynamics", "equations_of_motion", "torque_parts"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, spy(getattr(module, name)))
    board.sliders["q2"].value = board.sliders["q2"].value + 1.0
    assert len(calls) == 1, calls
    q, qd, qdd = board.state
    np.testing.assert_allclose(board.parts["total"],
                               inverse_dynamics(puma560(), q, qd, qdd), **TOLERANCE)


def test_the_pendulum_dashboard_shows_002s_one_axis_arm():
    board = dashboard("pendulum", render=False)
    board.set_state(q=[math.pi / 3], qd=[2.0], qdd=[1.5])
    m1, a1, g = 1.0, 0.5, 9.8062                       # Schilling, Eq. (6-9-10)
    assert board.parts["inertial"][0] == pytest.approx(m1 * a1**2 / 3 * 1.5, abs=1e-12)
    assert board.parts["gravity"][0] == pytest.approx(g * m1 * a1 * 0.5 / 2, abs=1e-12)
    assert board.parts["coriolis"][0] == pytest.approx(0.0, abs=1e-12)
    board.sliders["viscous"].value = 0.25
    assert board.parts["friction"][0] == pytest.approx(0.5, abs=1e-12)


def test_mass_slider_changes_the_mass_and_the_torques():
    board = dashboard("planar_2r", variant="fu", render=False)
    before = board.tau.copy()
    board.sliders["m2"].value = 2.5
    assert board.robot.links[1].mass == 2.5
    # the link keeps its shape: a uniform rod of the new mass (Fu, Gonzalez & Lee, Sec. 3.2.6)
    assert board.robot.links[1].inertia[2][2] == pytest.approx(2.5 / 12, abs=1e-12)
    assert not np.allclose(board.tau, before)
    book = planar_2r("fu", m2=2.5)
    q, qd, qdd = board.state
    np.testing.assert_allclose(board.tau, inverse_dynamics(book, q, qd, qdd), **TOLERANCE)
    check_against_inverse_dynamics(board)
    # the length slider of Fu, Gonzalez & Lee's arm sets both links to l
    board.sliders["l"].value = 1.3
    np.testing.assert_allclose(board.tau, inverse_dynamics(planar_2r("fu", m2=2.5, l=1.3),
                                                           q, qd, qdd), **TOLERANCE)


def test_payload_slider_is_001s_payload():
    board = dashboard("planar_2r", variant="macsyma", render=False)
    q, qd, qdd = board.state
    np.testing.assert_allclose(board.tau, inverse_dynamics(planar_2r("macsyma"), q, qd, qdd),
                               **TOLERANCE)
    board.sliders["payload"].value = 1.5
    np.testing.assert_allclose(
        board.tau, inverse_dynamics(planar_2r("macsyma", payload=1.5), q, qd, qdd), **TOLERANCE)
    board.sliders["payload"].value = 0.0
    np.testing.assert_allclose(
        board.tau, inverse_dynamics(planar_2r("macsyma", payload=0.0), q, qd, qdd), **TOLERANCE)


def test_scara_and_puma_lengths_rebuild_the_source_arms():
    board = dashboard("scara", render=False)
    board.sliders["l3"].value = 0.4
    q, qd, qdd = board.state
    np.testing.assert_allclose(board.tau, inverse_dynamics(scara(l3=0.4), q, qd, qdd),
                               **TOLERANCE)
    board.sliders["a2"].value = 0.5
    np.testing.assert_allclose(board.tau, inverse_dynamics(scara(l3=0.4, a2=0.5), q, qd, qdd),
                               **TOLERANCE)
    puma = dashboard("puma560", render=False)
    puma.sliders["d4"].value = 0.5
    assert puma.robot.links[3].d == 0.5
    assert puma.robot.links[2].com[2] == pytest.approx(0.070 * 0.5 / 0.4318, abs=1e-15)
    check_against_inverse_dynamics(puma)


def test_bad_values_are_reported_not_raised():
    board = dashboard("puma560", render=False)
    good = board.tau.copy()
    board.sliders["q3"].value = float("nan")
    assert board.message == "error: ValueError: q3 must be a finite number, got nan"
    np.testing.assert_array_equal(board.tau, good)        # the last valid numbers stay
    board.sliders["q3"].value = -2.0
    assert board.message.startswith("ok:")
    # a parameter that makes a link invalid: the lumped link 3 stretched past physics
    board.parameter_sliders["d4"].min = 0.01
    board.sliders["d4"].value = 0.05
    assert "d4 = 0.05" in board.message and "not positive semi-definite" in board.message
    assert board.robot.links[3].d == pytest.approx(0.4318)  # the last valid arm stays
    board.sliders["q1"].value = 0.3                          # still reported while it lasts
    assert board.message.startswith("error: d4 = 0.05")
    check_numbers = inverse_dynamics(board.robot, *board.state)
    np.testing.assert_allclose(board.tau, check_numbers, **TOLERANCE)
    board.sliders["d4"].value = 0.4
    assert board.message.startswith("ok:") and board.robot.links[3].d == 0.4
    # the programmatic path reports too
    board.set_state(q=[0.0] * 5)
    assert board.message == ("error: ValueError: PUMA 560: q must have 6 entries (one per "
                             "joint), got 5")
    board.set_state(qd=[9.0] * 6)
    assert "outside the slider's range" in board.message
    assert [w.value for w in board.qd_sliders] != [9.0] * 6


def test_slider_update_builds_no_sympy_objects(sympy_objects_created):
    board = dashboard("puma560", render=True)
    board.sliders["m3"].value = 5.0                          # compile/caches warmed up
    sympy_objects_created.clear()
    board.sliders["q2"].value = 0.3
    board.sliders["qd4"].value = -1.0
    board.sliders["m3"].value = 6.0
    board.sliders["payload"].value = 1.0
    assert sympy_objects_created == []
    check_against_inverse_dynamics(board)


def test_the_figure_is_updated_in_place_and_shown_as_png():
    board = dashboard("puma560", interactive=False)
    assert board.figure_widget is board.image and board.view_slider is not None
    artists = [id(a) for a in board.drawing.artists()]
    first = bytes(board.image.value)
    assert first.startswith(b"\x89PNG")
    board.sliders["q2"].value = -0.5
    assert bytes(board.image.value) != first and bytes(board.image.value).startswith(b"\x89PNG")
    assert [id(a) for a in board.drawing.artists()] == artists
    np.testing.assert_allclose(board.drawing.q, board.state[0])
    # the blitted picture is the picture a full redraw gives (on the ipympl canvas too)
    for name, interactive in (("planar_2r", False), ("puma560", False), ("puma560", True)):
        board = dashboard(name, interactive=interactive)
        board.sliders["q1"].value = 0.25
        blitted = np.asarray(board.figure.canvas.buffer_rgba()).copy()
        board.blit = False
        board.draw()
        full = np.asarray(board.figure.canvas.buffer_rgba())
        assert np.array_equal(blitted, full)


def test_widgets_have_stable_descriptions_and_css_classes():
    board = dashboard("scara", render=False)
    assert "dynlab-dashboard" in board.widget._dom_classes
    assert "dynlab-torques" in board.readout._dom_classes
    assert "dynlab-status" in board.status._dom_classes
    assert "dynlab-figure" in board.image._dom_classes
    assert sorted(board.sliders) == sorted(
        ["q1", "q2", "q3", "qd1", "qd2", "qd3", "qdd1", "qdd2", "qdd3", "m1", "m2", "m3",
         "a1", "a2", "l3", "payload", "viscous"])
    for name, widget in board.sliders.items():
        assert widget.description == name
        kind = "dynlab-parameter" if name in board.parameter_sliders else \
            f"dynlab-{name.rstrip('0123456789')}"
        assert {"dynlab-slider", kind} <= set(widget._dom_classes)
        assert (f"dynlab-param-{name}" if name in board.parameter_sliders else
                f"dynlab-{name}") in widget._dom_classes
    assert "dynlab-view" in board.view_slider._dom_classes


def test_parameter_helpers_keep_links_physical():
    arm = pendulum()
    assert with_mass(arm, 1, 2.0).links[0].inertia[1][1] == pytest.approx(2.0 * 0.25 / 12)
    rod = stretch_link(arm, 1, "x", 3.0).links[0]          # a rod 1.5 m long
    assert rod.com == (-0.75, 0.0, 0.0) and rod.inertia[1][1] == pytest.approx(1.5**2 / 12)
    assert with_length(arm, 1, 1.5).links[0].inertia == rod.inertia
    assert with_viscous(planar_2r("fu"), 0.4).links[1].viscous == 0.4
    heavy = with_payload(puma560(), 2.0)
    # payload at the flange: total mass and first moment about frame 6's origin add up
    link = heavy.links[5]
    assert link.mass == pytest.approx(2.09)
    assert link.mass * link.com[2] == pytest.approx(0.09 * 0.032)
    with pytest.raises(ValueError, match="payload mass must be non-negative"):
        with_payload(arm, -1.0)
    with pytest.raises(ValueError, match="stretch factor must be positive"):
        stretch_link(arm, 1, "x", 0.0)
    with pytest.raises(ValueError, match="link index must be 1..1"):
        with_mass(arm, 2, 1.0)
    with pytest.raises(TypeError, match="symbolic"):
        with_mass(pendulum(symbolic=True), 1, 1.0)


def test_bad_arguments_of_the_factory_are_named():
    with pytest.raises(ValueError, match="unknown arm 'scarra'"):
        dashboard("scarra")
    with pytest.raises(TypeError, match="variant= belongs to 'planar_2r'"):
        dashboard("scara", variant="fu")
    with pytest.raises(TypeError, match="symbolic"):
        dashboard(puma560(symbolic=True, joints=2))
    with pytest.raises(ValueError, match="engine must be one of"):
        dashboard("pendulum", engine="fast")
    with pytest.raises(ValueError, match="q must have 2 entries"):
        dashboard("planar_2r", q=[0.0])


@settings(max_examples=6, deadline=None)
@given(chains(max_joints=4))
def test_any_chain_gets_a_working_dashboard(robot):
    board = dashboard(robot, render=False)
    check_against_inverse_dynamics(board)
    # the G-D split is the generalized d'Alembert result at that state (Fu, Gonzalez & Lee, Eq.
    # (3.4-24))
    q, qd, qdd = board.state
    eom = equations_of_motion(board.robot, q, qd, method="dalembert")
    np.testing.assert_allclose(board.parts["inertial"], eom.D @ qdd, **TOLERANCE)
    name = board.q_sliders[-1].description
    board.sliders[name].value = board.sliders[name].min
    check_against_inverse_dynamics(board)
    board.sliders["m1"].value = board.sliders["m1"].max
    assert board.robot.links[0].mass == board.sliders["m1"].max
    check_against_inverse_dynamics(board)


# -- dashboards that explain themselves ------------------------------------------------------------
BOARDS = [("pendulum", {}), ("planar_2r", {"variant": "fu"}), ("planar_2r", {"variant": "macsyma"}),
          ("planar_2r", {"variant": "lynch_park", "engine": "twist_wrench"}), ("scara", {}),
          ("puma560", {"interactive": False})]


def inside(inner, outer) -> bool:
    return (inner.x0 >= outer.x0 - 0.5 and inner.y0 >= outer.y0 - 0.5
            and inner.x1 <= outer.x1 + 0.5 and inner.y1 <= outer.y1 + 0.5)


@pytest.mark.parametrize("name, options", BOARDS, ids=lambda v: str(v))
def test_the_figure_names_every_bar_and_mark_with_units(name, options):
    board = dashboard(name, **options)
    texts = board.legend_texts()
    joined = " | ".join(texts)
    for term in ("inertial", "Coriolis/centrifugal", "gravity", "friction", "total"):
        entries = [text.get_text() for text in board.bar_legend.get_texts()]
        assert sum(term in entry for entry in entries) == 1, (term, entries)
    for mark in ("joint", "centre of mass", "frame axes x, y, z", "gravity g"):
        assert mark in joined, (mark, texts)
    # the symbols of the engine's source: Fu, Gonzalez & Lee's D, h, c or Lynch & Park's M, c, g
    if options.get("engine") == "twist_wrench":
        assert r"$M(\theta)\,\ddot\theta$" in joined and r"$g(\theta)$" in joined
    else:
        assert r"$D(q)\,\ddot q$" in joined and r"$h(q,\dot q)$" in joined
    # units on the axes: torques in N m (a prismatic joint's force in N), lengths in m
    labels = [axes.get_ylabel() for axes, _ in board.bar_groups]
    assert all("(N m)" in label or "(N)" in label for label in labels), labels
    assert board.drawing.ax.get_xlabel().endswith("(m)")
    # the legends are inside the picture a notebook stores
    board.figure.canvas.draw()
    renderer = board.figure.canvas.get_renderer()
    for legend in (board.arm_legend, board.bar_legend):
        assert inside(legend.get_window_extent(renderer), board.figure.bbox)
    for axes, _ in board.bar_groups:
        assert not legend_overlaps(board, axes, renderer)


_LETTER = re.compile(r"\b([A-Za-z])\s*\(")          # the function letter of "gravity g(θ)"


@pytest.mark.parametrize("name, options", BOARDS, ids=lambda v: str(v))
def test_one_letter_keeps_one_meaning_on_one_screen(name, options):
    """The table under the figure names each part with the letter of the figure's legend (on
    the twist-wrench dashboard Lynch & Park's c(θ, θ̇) is the Coriolis/centrifugal torque in
    both, never gravity), and no letter names two parts."""
    board = dashboard(name, render=False, **options)
    legend = {text.get_text().split(" $")[0]: text.get_text()
              for text in board.bar_legend.get_texts()}
    header = re.findall(r"</span>([^<]*)</th>", board.readout.value)
    letters = {}
    for label in header:
        words = label.split(" ")[0]
        mine = _LETTER.findall(label.replace("$", ""))
        theirs = _LETTER.findall(legend[next(k for k in legend if k.startswith(words))]
                                 .replace("\\", " ").replace("$", ""))
        assert mine[:1] == theirs[:1], (label, legend)
        for letter in mine[:1]:
            assert letters.setdefault(letter, label) == label, (letter, letters[letter], label)
    if options.get("engine") == "twist_wrench":
        assert "Coriolis/centrifugal c(θ, θ̇)" in header and "gravity g(θ)" in header


def legend_overlaps(board, axes, renderer) -> bool:
    box = axes.get_window_extent(renderer)
    return any(legend.get_window_extent(renderer).overlaps(box)
               for legend in (board.arm_legend, board.bar_legend))


def test_the_wrist_has_its_own_shaded_axis_and_scale():
    board = dashboard("puma560", interactive=False)
    assert board.wrist == (4, 5, 6) and board.wrist_axes is not None
    assert [joints for _, joints in board.bar_groups] == [[0, 1, 2], [3, 4, 5]]
    arm_top = board.bar_axes.get_ylim()[1]
    wrist_top = board.wrist_axes.get_ylim()[1]
    assert wrist_top <= 0.01 * arm_top, (wrist_top, arm_top)
    # the wrist's bars are visible on their scale: the biggest fills more than a third of it
    biggest = max(abs(board.parts[p][k]) for p in board.parts_shown for k in (3, 4, 5))
    assert biggest > wrist_top / 3
    assert board.wrist_axes.get_facecolor() != board.bar_axes.get_facecolor()
    assert "wrist" in board.wrist_axes.get_ylabel() and "own scale" in board.wrist_axes.get_ylabel()
    assert [t.get_text() for t in board.wrist_axes.get_xticklabels()] == ["4", "5", "6"]
    for part, patches in board.bars.items():             # each bar on its joint's axis
        assert [p.axes for p in patches] == [board.bar_axes] * 3 + [board.wrist_axes] * 3
    np.testing.assert_allclose(board.bar_heights()["gravity"], board.parts["gravity"])
    # the wrist's scale follows the wrist alone: a payload (at the flange, the wrist's centre:
    # it loads the arm) leaves it, friction on every joint (b_v qd = 0.5 N m) widens it
    board.sliders["payload"].value = 2.5
    assert board.wrist_axes.get_ylim()[1] == wrist_top and board.bar_axes.get_ylim()[1] > arm_top
    board.sliders["viscous"].value = 1.0
    assert board.wrist_axes.get_ylim()[1] >= 0.5
    assert dashboard("planar_2r", render=False).wrist_axes is None
    assert dashboard("puma560", joints=3, render=False).wrist_axes is None


def all_registered_boards():
    from dynlab.model.robots import ARM_SPECS
    from dynlab.teaching.dashboards.specs import DASHBOARD_SPECS
    for name, spec in ARM_SPECS.items():
        options = [None] if spec.option is None else [
            spec.option_default, *(option for arm, option in DASHBOARD_SPECS
                                   if arm == name and option is not None)]
        for option in dict.fromkeys(options):
            kwargs = {} if option is None else {spec.option: option}
            yield f"{name}:{option}", dashboard(name, render=False, **kwargs)


def test_every_registered_arm_has_clean_slider_ends_and_room_to_double_its_parameters():
    seen = 0
    for label, board in all_registered_boards():
        for name, widget in board.sliders.items():
            for end in (widget.min, widget.max):
                assert end == float(f"{end:.3g}"), (label, name, end)
            assert widget.min <= widget.value <= widget.max
            k = (widget.value - widget.min) / widget.step   # the start is on the page's grid
            assert abs(k - round(k)) < 1e-6, (label, name, widget.value, widget.step)
        for parameter in board.parameters:
            widget = board.sliders[parameter.name]
            if parameter.unit in ("kg", "m") and parameter.name != "payload":
                assert widget.max >= 2 * parameter.value, (label, parameter.name)
                assert widget.min <= 0.5 * parameter.value, (label, parameter.name)
                seen += 1
        for widget, link in zip(board.q_sliders, board.robot.links):
            if link.is_revolute:                           # degrees, the whole turn
                assert (widget.min, widget.max) == (-180.0, 180.0), label
    assert seen >= 20


def test_doubling_a1_as_chapter_01_suggests():
    board = dashboard("pendulum", render=False)
    board.set_state(qd=[0.0])
    inertial, gravity = board.parts["inertial"][0], board.parts["gravity"][0]
    board.sliders["a1"].value = 2 * board.sliders["a1"].value
    assert board.parts["inertial"][0] == pytest.approx(4 * inertial, rel=1e-12)
    assert board.parts["gravity"][0] == pytest.approx(2 * gravity, rel=1e-12)


def test_a_degree_slider_at_90_is_pi_over_2():
    board = dashboard("planar_2r", variant="fu", render=False)
    board.sliders["q1"].value = 90.0
    board.sliders["q2"].value = -45.0
    q, qd, qdd = board.state
    assert q.tolist() == [math.pi / 2, -math.pi / 4]
    expected = inverse_dynamics(board.robot, [math.pi / 2, -math.pi / 4], qd, qdd)
    np.testing.assert_allclose(board.tau, expected, rtol=1e-12, atol=1e-12)
    assert "q1 = 90.0 deg, q2 = -45.0 deg" in board.readout.value
    # the API stays in radians: set_state, the starting q and parts_at
    board.set_state(q=[math.pi / 3, 0.25])
    assert board.sliders["q1"].value == 60.0 and board.sliders["q2"].value == 14.0
    assert board.state[0].tolist() == [math.pi / 3, 0.25]
    start = dashboard("planar_2r", variant="fu", q=[0.5, -0.5], render=False)
    assert start.state[0].tolist() == [0.5, -0.5] and start.sliders["q1"].value == 28.6
    # the prismatic joint stays in metres
    assert dashboard("scara", render=False).q_sliders[2].tooltip.endswith("(m)")


def test_messages_show_plain_numbers():
    board = dashboard("puma560", render=False)
    messages = []

    def record():
        messages.extend([board.message, board.status.value, board.readout.value, repr(board)])
    board.set_state(qd=np.full(6, 9.0))
    assert board.message == ("error: ValueError: qd1 = 9.0 rad/s is outside the slider's "
                             "range [-3.0, 3.0] rad/s")
    record()
    board.set_state(q=np.array([0.0, 0.0, 0.0, 0.0, 0.0, 10.0]))
    assert "q6 = 573.0 deg is outside the slider's range [-180.0, 180.0] deg" in board.message
    record()
    board.sliders["q2"].value = np.float64("nan")
    assert board.message == "error: ValueError: q2 must be a finite number, got nan"
    record()
    board.sliders["q2"].value = np.float64(30.0)
    board.parameter_sliders["d4"].min = 0.01
    board.sliders["d4"].value = np.float64(0.05)
    assert board.message.startswith("error: d4 = 0.05 m: ")
    record()
    board.sliders["d4"].value = 0.4318
    board.sliders["m3"].value = np.float64(10.0)
    record()
    with pytest.raises(ValueError) as error:
        with_mass(puma560(), 3, np.float64(-1.0))
    messages.append(str(error.value))
    assert messages and not [m for m in messages if "np." in m or "float64" in m]


@pytest.mark.parametrize("name, interactive", [("puma560", True), ("puma560", False),
                                               ("planar_2r", False)])
def test_the_stored_picture_shows_the_arm_the_bars_and_the_legends(name, interactive):
    """The PNG a notebook stores (the display's fallback) is the whole figure as a full render
    draws it, the moving artists included (a 3-D arm on the ipympl canvas too)."""
    import base64
    import io

    from PIL import Image
    board = dashboard(name, interactive=interactive)
    stored = np.asarray(Image.open(io.BytesIO(base64.b64decode(
        board._repr_mimebundle_()["image/png"]))).convert("RGB"))
    board.blit = False
    board.draw()
    full = np.asarray(board.figure.canvas.buffer_rgba())[..., :3]
    assert np.array_equal(stored, full)
    # and the bars are in it: the gravity colour of joint 2's bar is on the picture
    from matplotlib.colors import to_rgb
    green = (np.array(to_rgb(PART_COLOURS["gravity"])) * 255).round()
    assert (np.abs(stored.astype(float) - green).sum(axis=2) < 3).sum() > 50


# -- bad input: named, never read as something else ------------------------------------------------
@pytest.mark.parametrize("name", ["q", "qd", "qdd"])
@pytest.mark.parametrize("value, kind, message", [
    ([math.nan, 0.0], ValueError, r"\[0\] must be finite, got nan"),
    ([0.0, math.inf], ValueError, r"\[1\] must be finite, got inf"),
    (["1", 0.0], TypeError, r"\[0\] must be a real number .* got str '1'"),
    ([True, 0.0], TypeError, r"\[0\] must be a real number .* got the boolean True"),
    ([0.0, 0.0, 0.0], ValueError, r" must have 2 entries \(one per joint\), got 3")])
def test_a_dashboards_joint_values_are_finite_numbers(name, value, kind, message):
    """Dashboard(q=[nan, 0]) used to fail deep in the sliders, q=["1", 0] and q=[True, 0] were
    read as 1."""
    arm = planar_2r("fu")
    with pytest.raises(kind, match=rf"^two-link arm .*: {name}{message}$"):
        Dashboard(arm, render=False, **{name: value})
    board = Dashboard(arm, render=False, q=[0.1, 0.2])
    before = [w.value for w in board.sliders.values()], board.tau.copy()
    board.set_state(**{name: value})                  # reported, and nothing changes
    assert re.fullmatch(rf"error: {kind.__name__}: two-link arm .*: {name}{message}",
                        board.message), board.message
    assert [w.value for w in board.sliders.values()] == before[0]
    assert np.array_equal(board.tau, before[1])


@pytest.mark.parametrize("wrist, kind, message", [
    (["a"], TypeError, r"each joint of wrist must be a whole number >= 1, got str 'a'"),
    ([2.0], TypeError, r"each joint of wrist must be a whole number >= 1, got float 2.0"),
    ([0], ValueError, r"each joint of wrist must be a whole number >= 1, got 0"),
    ("3", TypeError, r"wrist must be a sequence of joint numbers \(1-based\), got '3'")])
def test_a_dashboards_wrist_names_its_joints_by_number(wrist, kind, message):
    """wrist=['a'] used to raise "'<=' not supported between instances of 'str' and 'int'"."""
    with pytest.raises(kind, match=rf"^PUMA 560: {message}$"):
        Dashboard(puma560(), render=False, wrist=wrist)
    assert Dashboard(puma560(), render=False, wrist=[4, 5, 6, 7]).wrist == (4, 5, 6)
