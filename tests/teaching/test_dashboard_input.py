"""A dashboard computes what it was asked, or refuses: a value its slider cannot show is refused
with an error naming the slider (never clamped to the slider's end, never read as another
number), and the state it computes from is what its sliders show, or what ``set_state`` was
given while the slider shows it."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import inverse_dynamics
from dynlab.dynamics.trajectory import quintic
from dynlab.model.robots import planar_2r
from dynlab.teaching.dashboards.arm import dashboard
from dynlab.teaching.dashboards.structure import structure_dashboard
from dynlab.teaching.dashboards.tracking import TrackingDashboard


def board_values(board) -> dict:
    """Every slider's value and the state computed from them."""
    return {"sliders": {name: w.value for name, w in board.sliders.items()},
            "state": [a.tolist() for a in board.state], "tau": board.tau.tolist()}


@pytest.mark.parametrize("values, kind, words", [
    # the review's cases: each was clamped (or read as 1) and reported "ok"
    (dict(q1=1000.0, qd1=1e6), ValueError, "q1 must be from -180 to 180 (the slider's range)"),
    (dict(m1=-5.0), ValueError, "m1 must be from 0 to 6 (the slider's range), got -5.0"),
    (dict(m1=1e9), ValueError, "m1 must be from 0 to 6 (the slider's range)"),
    (dict(q1=math.inf), ValueError, "q1 must be from -180 to 180 (the slider's range), got inf"),
    (dict(q1=math.nan), ValueError, "q1 must be from -180 to 180 (the slider's range), got nan"),
    (dict(q1=True), TypeError, "q1 must be a number from -180 to 180, got bool True"),
    (dict(q1="a"), TypeError, "q1 must be a number from -180 to 180, got str 'a'"),
    (dict(q2=10.0, qdd2=np.bool_(True)), TypeError, "qdd2 must be a number from -10 to 10")])
def test_slide_refuses_what_its_slider_cannot_show_and_changes_nothing(values, kind, words):
    board = dashboard("planar_2r", variant="fu", render=False)
    before = board_values(board)
    with pytest.raises(kind, match="^" + re.escape(f"Dashboard: {words}")):
        board.slide(**values)
    assert board_values(board) == before
    assert board.message.startswith("ok:")


def test_after_set_state_the_state_is_what_the_slider_shows_once_it_moves():
    """``set_state(q=[0.5, 0])``: the slider shows 29 deg (its 1-degree grid) and the state is
    0.5 rad; moved away and back to 29 deg, the state is 29 deg, as the slider shows."""
    board = dashboard("planar_2r", variant="fu", render=False)
    board.set_state(q=[0.5, 0.0])
    assert board.sliders["q1"].value == 29.0 and board.state[0][0] == 0.5
    board.sliders["q1"].value = 40.0
    assert board.state[0][0] == math.radians(40.0)
    board.sliders["q1"].value = 29.0
    assert board.state[0][0] == math.radians(29.0)
    # the numbers are those of the arm at 29 deg, by Newton-Euler (the dashboard's engine is
    # the generalized d'Alembert formulation)
    q, qd, qdd = ([math.radians(29.0), 0.0], [w.value for w in board.qd_sliders],
                  [w.value for w in board.qdd_sliders])
    np.testing.assert_allclose(board.tau, inverse_dynamics(board.robot, q, qd, qdd),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("start", ["dashboard", "set_state"])
def test_slide_to_the_angle_a_slider_shows_computes_that_angle(start):
    """The slider at the angle it shows for the exact 0.5 rad it was given (28.6 deg on the
    grid a start makes, 29 deg on the 1-degree grid of ``set_state``): ``slide`` to that angle
    asks for it, and gets it."""
    if start == "dashboard":
        board = dashboard("planar_2r", variant="fu", q=[0.5, 0.0], render=False)
    else:
        board = dashboard("planar_2r", variant="fu", render=False).set_state(q=[0.5, 0.0])
    shown = board.sliders["q1"].value
    assert shown == {"dashboard": 28.6, "set_state": 29.0}[start]
    assert board.state[0][0] == 0.5
    board.slide(q1=shown)
    assert board.state[0][0] == math.radians(shown)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["q1", "q2", "qd1", "qdd2", "m1", "l", "payload", "viscous"]),
       data=st.data())
def test_slide_shows_and_computes_exactly_what_it_was_asked_or_refuses(name, data):
    """For every value: either the slider shows that very value and the state is computed from
    it (an angle in degrees: the state is that angle in radians), or the value is refused with
    the slider's name and nothing changes."""
    board = dashboard("planar_2r", variant="fu", render=False)
    before = board_values(board)
    widget = board.sliders[name]
    value = data.draw(st.one_of(st.floats(widget.min, widget.max),
                                st.floats(allow_nan=True, allow_infinity=True),
                                st.integers(-400, 400), st.booleans(), st.text(max_size=3)))
    in_range = (not isinstance(value, (bool, str)) and widget.min <= value <= widget.max)
    if not in_range:
        with pytest.raises((TypeError, ValueError), match=f"^Dashboard: {name} must be "):
            board.slide(**{name: value})
        assert board_values(board) == before
        return
    board.slide(**{name: value})
    assert widget.value == value
    q, qd, qdd = board.state
    if name.startswith("q"):
        vector = {"q": q, "qd": qd, "qdd": qdd}[name[:-1]]
        expected = math.radians(value) if name[:-1] == "q" else value
        assert vector[int(name[-1]) - 1] == expected


@pytest.mark.parametrize("q, kind, words", [
    ([0.0, True, 0.0], TypeError, r"q\[1\] must be a real number .* got the boolean True"),
    ([0.0, math.inf, 0.0], ValueError, r"q\[1\] must be finite, got inf"),
    ([0.0, math.nan, 0.0], ValueError, r"q\[1\] must be finite, got nan"),
    ([0.0, "a", 0.0], TypeError, r"q\[1\] must be a real number .* got str 'a'"),
    ([0.0, 0.5], ValueError, r"q must have 3 entries")])
def test_the_structure_dashboard_refuses_a_q_that_is_no_joint_value(q, kind, words):
    """``True`` was read as 1 rad; inf and NaN raised NumPy's and Python's own errors."""
    with pytest.raises(kind, match=words):
        structure_dashboard("articulated", q=q)


@pytest.mark.parametrize("start", [[True, 0.4], [-1.2, "0.4"], np.array([True, False])])
def test_the_tracking_dashboard_refuses_a_start_that_is_no_joint_value(start):
    """``True`` was read as 1 rad and ``"0.4"`` as 0.4, by NumPy."""
    move = quintic([-1.2, 0.4], [0.6, 1.4], 1.5, t0=0.25)
    with pytest.raises(TypeError, match=r"^start must be numbers \(one per joint\)"):
        TrackingDashboard(planar_2r("fu"), move, start, render=False)
    with pytest.raises(TypeError, match=r"^q0 must be numbers \(one per joint\)"):
        quintic(start, [0.6, 1.4], 1.5)
