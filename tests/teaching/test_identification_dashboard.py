"""Chapter 12's dashboard (:class:`IdentificationDashboard`) against a regressor derived by hand:
the condition number of the stacked base regressor, the estimates without noise (the base
parameters of Fu, Gonzalez & Lee's arm by hand) and the standard deviations Gauss-Markov gives
for the noise put in; its controls refused by name."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from dynlab.dynamics.estimation import FourierTrajectory
from dynlab.model.link import G
from dynlab.model.robots import planar_2r
from dynlab.teaching.dashboards.identification import IdentificationDashboard

#: Fourier coefficients of a trajectory (Swevers et al. (1997)): q0, a, b of two joints, 2 terms
Q0, A, B = [0.2, -0.3], [[0.5, 0.3], [0.4, -0.6]], [[-0.2, 0.4], [0.3, 0.5]]


@pytest.fixture(scope="module")
def board():
    path = FourierTrajectory(2 * math.pi / 10, Q0, A, B)
    return IdentificationDashboard(trajectory=path, render=False)


def fourier_states(t, period, amplitude):
    """q, qd, qdd of the series by hand: q = q0 + sum a/(w l) sin(w l t) - b/(w l) cos(w l t)."""
    w = 2 * math.pi / period
    q, qd, qdd = (np.tile(np.array(Q0, float), (t.size, 1)) if k == 0 else np.zeros((t.size, 2))
                  for k in range(3))
    for i in range(2):
        for l in (1, 2):
            a, b, wl = amplitude * A[i][l - 1], amplitude * B[i][l - 1], w * l
            s, c = np.sin(wl * t), np.cos(wl * t)
            q[:, i] += a / wl * s - b / wl * c
            qd[:, i] += a * c + b * s
            qdd[:, i] += wl * (b * c - a * s)
    return q, qd, qdd


def hand_base_regressor(q, qd, qdd, l1=1.0, l2=1.0, g=G):
    """Y_b of the planar two-link arm (frames at the links' far ends, y0 up), stacked sample by
    sample.  By Lagrange in the parameters about the joints (chapter 06, section 10, with the
    first moments across the links: a centre turned by 90 degrees turns C2 -> -S2, S2 -> C2,
    C12 -> -S12), pi_joint = (ZZ1 + 2 l1 MX1 + l1^2 (M1 + M2), MX1 + l1 (M1 + M2), MY1,
    ZZ2 + 2 l2 MX2 + l2^2 M2, MX2 + l2 M2, MY2) = T pi_b with pi_b = (ZZ1R, MX1R, MY1R, ZZ2R,
    MX2R, MY2R) (ZZ1R = ZZ1 - l1^2 (M1 + M2), MX1R = MX1 + l1 (M1 + M2), ...): Y_b = Y T."""
    rows = []
    for (q1, q2), (v1, v2), (a1, a2) in zip(q, qd, qdd):
        C1, S1, C2, S2 = math.cos(q1), math.sin(q1), math.cos(q2), math.sin(q2)
        C12, S12 = math.cos(q1 + q2), math.sin(q1 + q2)
        rows.append([a1, g * C1, -g * S1, a1 + a2,
                     l1 * (C2 * (2 * a1 + a2) - S2 * (2 * v1 * v2 + v2**2)) + g * C12,
                     l1 * (-S2 * (2 * a1 + a2) - C2 * (2 * v1 * v2 + v2**2)) - g * S12])
        rows.append([0, 0, 0, a1 + a2, l1 * (C2 * a1 + S2 * v1**2) + g * C12,
                     l1 * (-S2 * a1 + C2 * v1**2) - g * S12])
    T = np.eye(6)
    T[0, 1], T[3, 4] = 2 * l1, 2 * l2
    return np.array(rows) @ T


@pytest.mark.parametrize("amplitude, period", [(1.0, 10.0), (0.3, 6.0), (1.5, 17.5)])
def test_the_condition_number_is_that_of_the_base_regressor_derived_by_hand(board, amplitude,
                                                                             period):
    board.set(amplitude=amplitude, period=period)
    t = np.arange(50) * period / 50                        # 50 samples of a period
    expected = np.linalg.cond(hand_base_regressor(*fourier_states(t, period, amplitude)))
    assert board.condition == pytest.approx(expected, rel=1e-9)


def test_without_noise_the_estimates_are_the_base_parameters_by_hand(board):
    # Fu, Gonzalez & Lee's arm: rods of 1 m, m1 = 2 kg, m2 = 1 kg, frame i at rod i's far end:
    # ZZ1 = m1 l^2/3, MX1 = -m1 l/2, ZZ1R = ZZ1 - (m1 + m2) l^2, MX1R = MX1 + (m1 + m2) l, ...
    board.set(amplitude=1.0, period=10.0, noise=0.0, encoder_bits=20)
    by_hand = [2 / 3 - 3, -1 + 3, 0.0, 1 / 3 - 1, -0.5 + 1, 0.0]
    assert board.estimate.names == ("ZZ1R", "MX1R", "MY1R", "ZZ2R", "MX2R", "MY2R")
    assert np.allclose(board.estimate.values, by_hand, atol=2e-4)
    assert np.allclose(board.truth, by_hand, atol=1e-12)


@pytest.mark.parametrize("noise", [0.5, 2.0])
def test_the_standard_deviations_are_gauss_markovs_for_the_noise_put_in(board, noise):
    # sigma^2 (Y_b^T Y_b)^-1 over the 400 exact states; the residual's sigma is estimated from
    # 800 rows (a few per cent) and the filtered states differ a little from the exact ones
    board.set(amplitude=1.0, period=10.0, noise=noise, encoder_bits=20)
    t = np.arange(board.samples) * 10.0 / board.samples
    Y = hand_base_regressor(*fourier_states(t, 10.0, 1.0))
    expected = noise * np.sqrt(np.diag(np.linalg.inv(Y.T @ Y)))
    assert np.allclose(board.estimate.std, expected, rtol=0.1)
    assert np.all(np.abs(board.estimate.values - board.truth) < 5 * expected)


def test_the_readout_shows_the_estimates_and_a_move_changes_the_picture():
    path = FourierTrajectory(2 * math.pi / 10, Q0, A, B)
    board = IdentificationDashboard(trajectory=path)
    before = bytes(board.image.value)
    board.controls["noise"].value = 1.0                    # as a reader moves it
    assert board.status.value.startswith("<span>ok:") and bytes(board.image.value) != before
    for name, value in zip(board.estimate.names, board.estimate.values):
        assert f'data-part="{name}" data-value="{value!r}"' in board.readout.value


@pytest.mark.parametrize("values, kind, words", [
    (dict(noise=-0.1), ValueError, "noise must be from 0 to 2 (the slider's range), got -0.1"),
    (dict(amplitude=math.nan), ValueError, "amplitude must be from 0.1 to 1.5"),
    (dict(encoder_bits=True), TypeError, "encoder_bits must be a number from 8 to 20, got bool"),
    (dict(period=25.0), ValueError, "period must be from 4 to 20"),
    (dict(speed=1.0), ValueError, "no control 'speed'")])
def test_a_value_its_slider_cannot_show_is_refused_by_name_and_changes_nothing(board, values,
                                                                                kind, words):
    before = board.values()
    with pytest.raises(kind, match=re.escape(words)):
        board.set(**values)
    assert board.values() == before


def test_a_wrong_arm_or_trajectory_is_refused_by_name():
    with pytest.raises(TypeError, match="trajectory must be a FourierTrajectory of 2 joints"):
        IdentificationDashboard(trajectory=FourierTrajectory(1.0, [0.0], [[1.0]], [[0.0]]))
    with pytest.raises(TypeError, match="robot must be a numeric dynlab Robot"):
        IdentificationDashboard(planar_2r(symbolic=True))
