"""The dashboards' motion (teaching.animation, dashboards.arm_motion): frames from one simulate
run, frame k the state and torque split at t_k, a paused slider move restarts; the 3-D view
turns under mouse drags sent as the browser sends them."""

import math

import numpy as np
import pytest
from hypothesis import given, settings

import dynlab
from dynlab import inverse_dynamics, simulate
from dynlab.model.robots import pendulum
from dynlab.teaching.animation import MOTIONS, motion_frames, motion_torque
from dynlab.teaching.dashboards.arm import dashboard
from tests.support.strategies import chains


@pytest.fixture
def simulate_calls(monkeypatch):
    """Counts the calls of dynlab.simulate by the animations (dynlab.teaching.animation's name for
    it)."""
    calls = []
    real = dynlab.simulate

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)
    monkeypatch.setattr(dynlab.teaching.animation, "simulate", counted)
    return calls


def test_frame_k_shows_the_trajectory_at_t_k(simulate_calls):
    board = dashboard("planar_2r", variant="fu", render=False)
    q0, qd0 = board.state[0].copy(), board.state[1].copy()
    board.play.playing = True                                 # the user presses play
    assert len(simulate_calls) == 1
    frames = board.frames
    assert board.frame == 0 and 'data-frame="0"' in board.clock.value
    np.testing.assert_array_equal(frames.t, np.arange(101) / 20.0)
    expected = simulate(board.robot, q0, qd0, t_span=(0.0, 5.0), t_eval=frames.t, rtol=1e-8,
                        atol=1e-9)
    for k in (1, 2, 17, 60, 100):
        board.play.value = k
        np.testing.assert_allclose(board.state[0], expected.q[k], rtol=0, atol=1e-12)
        np.testing.assert_allclose(board.state[1], expected.qd[k], rtol=0, atol=1e-12)
        np.testing.assert_allclose(board.state[2], expected.qdd[k], rtol=0, atol=1e-12)
        np.testing.assert_allclose(board.drawing.q, expected.q[k], rtol=0, atol=1e-12)
        # the bars and the table: the split at that state; no torque acts, so the total is 0
        split = inverse_dynamics(board.robot, expected.q[k], expected.qd[k], expected.qdd[k])
        np.testing.assert_allclose(board.tau, split, rtol=0, atol=1e-9)
        np.testing.assert_allclose(board.tau, 0.0, atol=1e-9)
        heights = board.bar_heights()
        for part in board.parts_shown:
            np.testing.assert_allclose(heights[part], frames.parts[part][k], rtol=0, atol=0)
        assert f'data-frame="{k}"' in board.clock.value
        assert board.message.startswith(f"ok: {MOTIONS['free']}, t = {k / 20:.2f} s")
    board.time_slider.value = 40                              # scrubbing: the same frames
    np.testing.assert_allclose(board.drawing.q, expected.q[40], rtol=0, atol=1e-12)
    assert len(simulate_calls) == 1                           # simulated once per play


def test_the_bars_follow_the_controllers_torque():
    board = dashboard("scara", render=False)
    assert board.motion_menu.value == "home"                  # a prismatic joint: not free
    board.play.playing = True
    frames = board.frames
    for k in (0, 10, 45, 100):
        board.play.value = k
        # D qdd + h + c + b at frame k is the torque the controller applied there
        np.testing.assert_allclose(board.tau, frames.trajectory.tau[k], rtol=1e-9, atol=1e-9)
    # computed torque along a quintic to q = 0 in 3 s: the arm is there at the end
    np.testing.assert_allclose(frames.q[-1], 0.0, atol=1e-5)


def test_a_slider_moved_while_paused_starts_the_motion_anew(simulate_calls):
    board = dashboard("pendulum", render=False)
    board.play.playing = True
    board.play.value = 30
    board.play.playing = False                                # paused at t = 1.5 s
    shown = board.state[0].copy()
    board.play.value = 30                                     # no change: nothing moves
    np.testing.assert_array_equal(board.state[0], shown)
    board.sliders["q1"].value = 30.0                          # degrees
    assert board.frames is None and board.play.value == 0 and board.time_slider.value == 0
    assert board.state[0].tolist() == [math.pi / 6] and 'data-frame="-1"' in board.clock.value
    np.testing.assert_allclose(board.tau, inverse_dynamics(board.robot, *board.state),
                               rtol=1e-12)
    board.play.playing = True                                 # play again: from q1 = 0.5
    assert len(simulate_calls) == 2
    assert board.frames.q[0].tolist() == [math.pi / 6]
    assert board.frames.qd[0].tolist() == [board.sliders["qd1"].value]
    board.play.value = 20
    board.sliders["m1"].value = 2.0                           # a parameter: anew as well
    assert board.frames is None and board.play.value == 0
    board.play.playing = False
    board.motion_menu.value = "hold"                          # another motion: anew
    board.play.value = 10
    assert board.frames.motion == "hold" and len(simulate_calls) == 3


def test_the_hold_motion_comes_back_to_the_start_pose():
    robot = pendulum()
    frames = motion_frames(robot, [0.3], [1.0], motion="hold", duration=5.0, fps=10)
    # critically damped at 4 rad/s: after 5 s the error is e^-20 (1 + 20) of the start's
    np.testing.assert_allclose(frames.q[-1], [0.3], atol=1e-5)
    assert abs(frames.q[:, 0] - 0.3).max() > 0.05                # it did move
    law = motion_torque(robot, "hold", [0.3], 5.0)
    np.testing.assert_allclose(frames.parts["total"][7], law(frames.t[7], frames.q[7],
                                                             frames.qd[7]), rtol=1e-9)


@settings(max_examples=4, deadline=None)
@given(chains(max_joints=3))
def test_a_free_motion_of_any_arm_has_parts_that_cancel(robot):
    frames = motion_frames(robot, [0.1] * robot.n, [0.0] * robot.n, duration=0.5, fps=4)
    assert frames.t.tolist() == [0.0, 0.25, 0.5]
    scale = 1.0 + max(float(np.abs(values).max()) for values in frames.parts.values())
    np.testing.assert_allclose(frames.parts["total"], 0.0, atol=1e-8 * scale)


def test_bad_motion_arguments_are_named():
    with pytest.raises(ValueError, match="unknown motion 'dance'"):
        motion_frames(pendulum(), [0.0], [0.0], motion="dance")
    with pytest.raises(ValueError, match="fps must be a positive number, got 0"):
        motion_frames(pendulum(), [0.0], [0.0], fps=0)
    with pytest.raises(ValueError, match="at least one frame after the first"):
        motion_frames(pendulum(), [0.0], [0.0], duration=0.01, fps=10)
    frames = motion_frames(pendulum(), [0.0], [0.0], duration=0.5, fps=4)
    with pytest.raises(IndexError, match=r"frame must be 0..2, got 3"):
        frames.state(3)
    with pytest.raises(ValueError, match="only a 3-D drawing turns with the mouse"):
        dashboard("pendulum", interactive=True)
    with pytest.raises(ValueError, match="interactive=True needs render=True"):
        dashboard("scara", interactive=True, render=False)


def _mouse(canvas, kind, x, y, buttons):
    """A mouse event as ipympl's page sends it (pixels from the top left)."""
    canvas._handle_message(canvas, {"type": kind, "x": x, "y": y, "button": 0,
                                    "buttons": buttons, "modifiers": [], "guiEvent": None}, [])


def test_dragging_on_the_3d_view_turns_it():
    board = dashboard("puma560", interactive=True)
    canvas = board.figure_widget
    assert board.interactive and canvas is board.figure.canvas
    assert "dynlab-figure" in canvas._dom_classes and board.view_slider is None
    assert board.view() == (-60.0, 30.0)
    assert 'data-azim="-60.0" data-elev="30.0"' in board.view_angle.value
    width, height = canvas.get_width_height()
    x, y = 0.22 * width, 0.5 * height                        # the middle of the arm's axes
    _mouse(canvas, "button_press", x, y, 1)
    for step in range(1, 6):
        _mouse(canvas, "motion_notify", x + 12 * step, y + 4 * step, 1)
    _mouse(canvas, "button_release", x + 60, y + 20, 0)
    azim, elev = board.view()
    assert azim < -60.0 - 10 and elev < 30.0 - 3             # dragged right and down
    canvas._handle_message(canvas, {"type": "draw"}, [])       # the page asks for the picture
    assert f'data-azim="{azim!r}" data-elev="{elev!r}"' in board.view_angle.value
    # the arm is drawn on the turned view: blitting gives a full redraw's picture
    board.sliders["q2"].value = 25.0                         # degrees
    blitted = np.asarray(canvas.buffer_rgba()).copy()
    board.blit = False
    board.draw()
    assert np.array_equal(blitted, np.asarray(canvas.buffer_rgba()))
    assert board.view() == (azim, elev)
