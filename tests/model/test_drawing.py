"""The drawing of an arm shows what the kinematics computes: the drawn frame origins are
``dynlab.model.kinematics.frame_origins``, the drawn axes are the columns of ``R_0i``, the centres
of mass are ``centres_of_mass``; a planar arm is drawn in its plane, a spatial one in 3-D; moving
the arm changes the data of the same artists."""

import math

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab.model.drawing import arm_geometry, draw_arm, plane_of, workspace_box
from dynlab.model.kinematics import centres_of_mass, frame_origins, rotations
from dynlab.model.robots import pendulum, planar_2r, puma560, scara
from tests.support.strategies import chains

ARMS = {
    "pendulum": (pendulum, [math.pi / 3]),
    "fu": (lambda: planar_2r("fu"), [0.4, -1.1]),
    "macsyma": (lambda: planar_2r("macsyma"), [-0.3, 2.0]),
    "scara": (scara, [0.5, -0.7, 0.12]),
    "puma560": (puma560, [0.1, 0.7, -2.9, 0.4, 0.8, -0.5]),
}


def page(drawing, points):
    """Base-frame points as the drawing puts them on the page."""
    points = np.asarray(points, dtype=float)
    if drawing.view == "3d":
        return points
    _, e1, e2 = drawing.plane
    return np.column_stack([points @ e1, points @ e2])


@pytest.mark.parametrize("name", ARMS)
def test_drawn_origins_axes_and_centres_are_the_kinematics(name):
    build, q = ARMS[name]
    robot = build()
    drawing = draw_arm(robot, q)
    assert drawing.view == ("3d" if name in ("scara", "puma560") else "2d")
    origins = np.array(frame_origins(robot, q))
    np.testing.assert_allclose(drawing.plotted("origins"), page(drawing, origins),
                               rtol=0, atol=1e-12)
    massive = [link.mass > 0 for link in robot.links]
    centres = np.array(centres_of_mass(robot, q))[massive]
    np.testing.assert_allclose(drawing.plotted("centres"), page(drawing, centres),
                               rtol=0, atol=1e-12)
    # every drawn axis of every frame starts at the origin along a column of R_0i
    for i, R in enumerate(rotations(robot, q)):
        for k, letter in enumerate("xyz"):
            segment = drawing.plotted(f"{letter}{i}")
            np.testing.assert_allclose(segment[0], page(drawing, [origins[i]])[0], atol=1e-12)
            if len(segment) == 2:
                np.testing.assert_allclose(segment[1] - segment[0],
                                           page(drawing, [drawing.length * R[:, k]])[0],
                                           atol=1e-12)
    # the links run through the origins, each by d along z_{i-1} then a along x_i
    polyline = drawing.plotted("links")
    np.testing.assert_allclose(polyline[0::2], page(drawing, origins), atol=1e-12)


def test_the_planar_arms_are_drawn_in_the_x0_y0_plane_with_z_axes_towards_the_reader():
    robot = planar_2r("schilling")
    q = [0.3, 0.9]
    drawing = draw_arm(robot, q)
    normal, e1, e2 = drawing.plane
    assert normal.tolist() == [0, 0, 1] and e1.tolist() == [1, 0, 0] and e2.tolist() == [0, 1, 0]
    origins = np.array(frame_origins(robot, q))
    # every z_i is z_0: drawn as circled dots at the origins, no z segment
    dots, crosses = drawing.axis_markers[2]
    np.testing.assert_allclose(np.column_stack(dots.get_data()), origins[:, :2], atol=1e-12)
    assert len(crosses.get_data()[0]) == 0
    assert all(len(drawing.plotted(f"z{i}")) == 1 for i in range(3))
    labels = [text.get_text() for row in drawing.axis_labels for text in row]
    assert labels == ["x0", "y0", "z0", "x1", "y1", "z1", "x2", "y2", "z2"]


def test_the_scara_is_not_planar_and_a_2d_view_is_refused():
    assert plane_of(scara()) is None and plane_of(puma560()) is None
    with pytest.raises(ValueError, match="not planar"):
        draw_arm(scara(), [0.0, 0.0, 0.1], view="2d")


def test_update_moves_the_same_artists():
    robot = puma560()
    drawing = draw_arm(robot, [0.0] * 6, labels="frames")
    before = [id(artist) for artist in drawing.artists()]
    q = [0.5, -0.3, 0.2, 1.0, -0.7, 0.4]
    drawing.update(q)
    assert [id(artist) for artist in drawing.artists()] == before
    np.testing.assert_allclose(drawing.plotted("origins"), np.array(frame_origins(robot, q)),
                               atol=1e-12)
    assert [row[0].get_text() for row in drawing.axis_labels] == [str(i) for i in range(7)]
    # a changed arm (longer upper arm) is drawn by the same artists
    longer = robot.replace_link(2, a=0.6)
    drawing.update(q, longer)
    np.testing.assert_allclose(drawing.plotted("origins"), np.array(frame_origins(longer, q)),
                               atol=1e-12)


def test_the_drawing_renders_headless():
    drawing = draw_arm(planar_2r("fu"), [0.2, 0.4])
    drawing.figure.canvas.draw()
    width, height = drawing.figure.canvas.get_width_height()
    pixels = np.asarray(drawing.figure.canvas.buffer_rgba())
    assert pixels.shape == (height, width, 4) and (pixels[..., :3] < 128).any()


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="needs numbers"):
        draw_arm(pendulum(symbolic=True), [0.0])
    with pytest.raises(ValueError, match="q must have 2 entries"):
        draw_arm(planar_2r("fu"), [0.0])
    with pytest.raises(ValueError, match="labels must be"):
        draw_arm(pendulum(), [0.0], labels="all")
    with pytest.raises(ValueError, match="view must be"):
        draw_arm(pendulum(), [0.0], view="side")
    with pytest.raises(TypeError, match="needs a dynlab Robot"):
        draw_arm("pendulum", [0.0])
    with pytest.raises(ValueError, match="needs a 3-D axes"):
        from matplotlib.figure import Figure
        draw_arm(puma560(), [0.0] * 6, ax=Figure().add_subplot())
    with pytest.raises(TypeError):
        arm_geometry(planar_2r("fu"), [sympy.Symbol("q1"), 0.0])


@settings(max_examples=12, deadline=None)
@given(chains(max_joints=6), st.data())
def test_any_chain_is_drawn_at_its_frame_origins_inside_its_box(robot, data):
    q = data.draw(st.lists(st.floats(-2.0, 2.0, allow_nan=False), min_size=robot.n,
                           max_size=robot.n))
    drawing = draw_arm(robot, q, labels=False)
    origins = np.array(frame_origins(robot, q))
    np.testing.assert_allclose(drawing.plotted("origins"), page(drawing, origins), rtol=0,
                               atol=1e-9)
    if drawing.view == "3d":
        centre, half = workspace_box(robot, q)
        assert (np.abs(origins - centre) <= half + 1e-9).all()
    else:
        # a planar chain: every revolute axis is the page's normal
        normal = drawing.plane[0]
        for link, R in zip(robot.links, rotations(robot, q)):
            if link.is_revolute:
                assert abs(abs(float(R[:, 2] @ normal)) - 1) < 1e-9
