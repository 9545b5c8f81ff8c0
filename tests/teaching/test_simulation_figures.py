"""dynlab.teaching.simulation_figures: the hand formulas of chapter 07 against simulation, the
figures' legends, the explorer's defaults."""

import inspect
import math

import numpy as np
import pytest

from dynlab import G
from dynlab.dynamics.simulation import simulate
from dynlab.model.robots import pendulum
from dynlab.teaching.simulation_figures import (
    TwoLinkExplorer,
    energies_figure,
    euler_energy_factor,
    exact_period,
    period_figure,
    run_two_link,
    small_angle_period,
)

HANGING = -math.pi / 2


def test_small_angle_period_is_the_hand_formula_and_refuses_bad_input():
    assert small_angle_period(0.5, G) == 2 * math.pi * math.sqrt(2 * 0.5 / (3 * G))
    assert exact_period(1e-6, 0.5, G) == pytest.approx(small_angle_period(0.5, G), rel=1e-12)
    with pytest.raises(ValueError, match="must be positive"):
        small_angle_period(-1.0, G)


def test_euler_gains_the_energy_the_hand_count_predicts():
    robot = pendulum()
    a = robot.links[0].a
    rest = simulate(robot, [HANGING], [0.0], t_span=1e-3, integrator="euler", dt=1e-3).total[0]
    motion = simulate(robot, [HANGING + math.radians(1)], [0.0], t_span=5.0,
                      integrator="euler", dt=1e-3)
    gained = (motion.total[-1] - rest) / (motion.total[0] - rest)
    predicted = euler_energy_factor(1e-3, math.sqrt(3 * G / (2 * a)), 5.0)
    assert gained == pytest.approx(predicted, rel=1e-3) and predicted > 1.1


def test_figures_carry_their_legends():
    fig = period_figure([1, 90], [1.0, 1.18], 1.0)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels[1:] == ["simulated", "small-angle formula"]
    motion = run_two_link(seconds=0.5)
    fig = energies_figure(motion)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["kinetic",
                                                                           "potential", "total"]
    assert np.all(np.diff(motion.total) < 1e-9)


def test_explorer_starts_at_the_defaults_of_the_run_it_drives():
    # the sliders' start against run_two_link's own defaults, not the slider table read back
    defaults = {name: p.default for name, p in inspect.signature(run_two_link).parameters.items()}
    explorer = TwoLinkExplorer()
    assert explorer.settings() == defaults
    assert repr(explorer).startswith("TwoLinkExplorer(q1 = -30, q2 = 60, qd1 = 0,")
    explorer.controls["seconds"].value = 0.5
    motion = explorer.simulate()
    # sampled 200 times (run_two_link's docstring) after the start, every 0.5 / 200 s
    assert len(motion) == 200 + 1 and motion.t[-1] == 0.5
    assert np.allclose(np.diff(motion.t), 0.5 / 200, rtol=0, atol=1e-12)
