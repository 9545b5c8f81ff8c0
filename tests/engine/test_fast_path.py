"""The public numeric call's short cut: after a first, fully checked call, ``inverse_dynamics``
reuses the compiled function it found; it must still refuse what the checked call refuses and
give the very same numbers."""

import math

import numpy as np
import pytest

from dynlab import inverse_dynamics
from dynlab.model.checks import NotFiniteError
from dynlab.model.robots import planar_2r, puma560

Q, QD, QDD = [0.1, -0.4, 0.3, 0.2, 0.5, -0.6], [0.5, 1.0, -0.7, 0.3, 0.2, 0.1], [1.0] * 6


@pytest.fixture
def warm_puma():
    arm = puma560()
    inverse_dynamics(arm, Q, QD, QDD)                    # the checked call stores the short cut
    return arm


@pytest.mark.parametrize("kind", [list, tuple, np.array])
def test_the_short_cut_gives_the_checked_numbers(warm_puma, kind):
    fresh = inverse_dynamics(puma560(), Q, QD, QDD, compiled=False)
    fast = inverse_dynamics(warm_puma, kind(Q), kind(QD), kind(QDD))
    assert isinstance(fast, np.ndarray) and fast.dtype == float
    assert np.allclose(fast, fresh, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("arguments, error, words", [
    (dict(gravity=1), TypeError, ["gravity"]),
    (dict(friction="no"), TypeError, ["friction"]),
    (dict(method=["newton_euler"]), TypeError, ["method"]),
    (dict(method="kane"), ValueError, ["unknown method", "kane"]),
    (dict(compiled=1), TypeError, ["compiled"]),
])
def test_the_short_cut_refuses_what_the_checked_call_refuses(warm_puma, arguments, error, words):
    with pytest.raises(error) as raised:
        inverse_dynamics(warm_puma, Q, QD, QDD, **arguments)
    assert all(word in str(raised.value) for word in words)


@pytest.mark.parametrize("bad, words", [
    ([math.nan, 0, 0, 0, 0, 0], ["q[0]", "finite"]),
    ([math.inf] + [0.0] * 5, ["q[0]", "finite"]),
    ([0.0] * 5, ["q", "6 entries"]),
    ([True] + [0.0] * 5, ["q[0]"]),
])
def test_the_short_cut_names_a_bad_joint_vector(warm_puma, bad, words):
    with pytest.raises((TypeError, ValueError)) as raised:
        inverse_dynamics(warm_puma, bad, QD, QDD)
    assert all(word in str(raised.value) for word in words), str(raised.value)


def test_the_short_cut_reports_an_overflow():
    arm = planar_2r()
    inverse_dynamics(arm, [0.0, 0.0], [1.0, 1.0], [0.0, 0.0])
    with pytest.raises(NotFiniteError, match="tau"):
        inverse_dynamics(arm, [0.0, 0.0], [1e200, 1e200], [0.0, 0.0])


def test_the_optimised_program_takes_over_with_the_same_numbers(warm_puma):
    from dynlab.engine.short_cut import OPTIMIZE_AFTER
    rng = np.random.default_rng(3)
    states = [tuple(rng.uniform(-2, 2, 6).tolist()) for _ in range(3)]
    before = [inverse_dynamics(warm_puma, s, s, s) for s in states]
    for _ in range(OPTIMIZE_AFTER):
        inverse_dynamics(warm_puma, Q, QD, QDD)
    entry = warm_puma.data.default_inverse
    traced, _ = warm_puma.data.find_traced(("inverse_dynamics", "newton_euler", "link", True,
                                            True, True))
    assert entry.calls == OPTIMIZE_AFTER + len(states)
    assert entry.function is not traced                # swapped for the optimised program
    after = [inverse_dynamics(warm_puma, s, s, s) for s in states]
    assert np.allclose(after, before, rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("friction", [False, True])
def test_forward_dynamics_short_cut_gives_the_checked_numbers(friction):
    from dynlab import forward_dynamics
    arm = puma560()
    if friction:
        for k in range(1, 7):
            arm = arm.replace_link(k, viscous=0.1 * k, coulomb=0.05 * k, static=0.08 * k)
    tau = [3.0, -2.0, 1.0, 0.5, -0.3, 0.2]
    checked = forward_dynamics(arm, Q, QD, tau, compiled=False)
    first = forward_dynamics(arm, Q, QD, tau)              # stores the short cut
    assert arm.data.forward_short_cut("newton_euler", None, True, True, True) is not None
    for kind in (list, tuple, np.array):
        again = forward_dynamics(arm, kind(Q), kind(QD), kind(tau))
        assert np.allclose(again, checked, rtol=1e-9, atol=1e-9)
        assert np.array_equal(again, first)
    with pytest.raises(TypeError, match="gravity"):
        forward_dynamics(arm, Q, QD, tau, gravity=1)
    with pytest.raises(ValueError, match=r"qd\[1\]"):
        forward_dynamics(arm, Q, [0.0, math.nan, 0, 0, 0, 0], tau)


def test_forward_dynamics_swaps_in_the_optimised_program_with_the_same_numbers():
    from dynlab import forward_dynamics
    from dynlab.engine.short_cut import OPTIMIZE_AFTER
    arm = puma560()
    rng = np.random.default_rng(5)
    states = [[rng.uniform(-2, 2, 6).tolist() for _ in range(3)] for _ in range(4)]
    checked = [forward_dynamics(arm, *s, compiled=False) for s in states]
    before = [forward_dynamics(arm, *s) for s in states]
    entry = arm.data.forward_short_cut("newton_euler", None, True, True, True)
    traced = entry.function
    for _ in range(OPTIMIZE_AFTER):
        forward_dynamics(arm, Q, QD, QDD)
    assert entry.function is not traced                # swapped for the optimised program
    after = [forward_dynamics(arm, *s) for s in states]
    assert np.allclose(after, before, rtol=1e-10, atol=1e-10)
    assert np.allclose(after, checked, rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError, match=r"q\[2\]"):   # still the checked way for a NaN
        forward_dynamics(arm, [0.0, 0.0, math.nan, 0.0, 0.0, 0.0], QD, QDD)


def test_forward_dynamics_short_cut_falls_back_on_a_singular_pivot_and_an_overflow():
    from dynlab import Link, Robot, forward_dynamics
    from dynlab.model.robots import planar_2r
    # a point mass at the tip of a massless first link: D is singular stretched out (q2 = 0)
    arm = Robot([Link("R", a=1.0, name="l1"), Link("R", a=0.8, mass=0.5, name="l2")],
                gravity=(0, -9.8, 0), name="point mass at the tip")
    bent = forward_dynamics(arm, [0.3, 1.0], [0.1, 0.2], [1.0, 0.5])
    assert np.allclose(forward_dynamics(arm, [0.3, 1.0], [0.1, 0.2], [1.0, 0.5]), bent)
    with pytest.raises(ValueError, match=r"singular at q = \[0.3, 0.0\] \(pivot 2"):
        forward_dynamics(arm, [0.3, 0.0], [0.1, 0.2], [1.0, 0.5])
    two = planar_2r()
    forward_dynamics(two, [0.0, 0.0], [1.0, 1.0], [0.0, 0.0])
    with pytest.raises(NotFiniteError, match="qdd"):
        forward_dynamics(two, [0.0, 0.0], [1e200, 1e200], [0.0, 0.0])


@pytest.mark.parametrize("swapped", [False, True])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_the_short_cut_sends_every_non_finite_entry_the_checked_way(warm_puma, swapped, bad):
    """Only the entries whose inf or NaN might not show in tau are summed on the short cut (the
    PUMA 560's q1: no torque depends on it); any other shows in tau, or makes the float code
    raise, and the checked way then names the entry."""
    from dynlab.engine.short_cut import OPTIMIZE_AFTER
    entry = warm_puma.data.default_inverse
    inverse_dynamics(warm_puma, Q, QD, QDD)            # the short cut's first use compiles it
    first = entry.function
    if swapped:
        for _ in range(OPTIMIZE_AFTER):
            inverse_dynamics(warm_puma, Q, QD, QDD)
    assert (entry.function is not first) == swapped
    for name, position in (("q", 0), ("qd", 1), ("qdd", 2)):
        for k in range(6):
            vectors = [np.array(Q), np.array(QD), np.array(QDD)]
            vectors[position][k] = bad
            with pytest.raises(ValueError, match=rf"{name}\[{k}\].*finite"):
                inverse_dynamics(warm_puma, *vectors)
            lists = [list(Q), list(QD), list(QDD)]
            lists[position][k] = bad
            with pytest.raises(ValueError, match=rf"{name}\[{k}\].*finite"):
                inverse_dynamics(warm_puma, *lists)
    assert np.allclose(inverse_dynamics(warm_puma, Q, QD, QDD),
                       inverse_dynamics(puma560(), Q, QD, QDD, compiled=False),
                       rtol=1e-12, atol=1e-12)


def stored_tape(arm):
    """The tape of the short cut of ``arm``'s default call (recorded at its first short-cut
    call)."""
    inverse_dynamics(arm, *[[0.0] * arm.n] * 3)
    return arm.data.default_inverse.tape


def test_the_short_cut_function_computes_what_the_compiled_program_does(warm_puma):
    from dynlab.engine.optimizer import optimize
    from dynlab.engine.tracing import short_cut_function
    traced = stored_tape(warm_puma).program()
    rng = np.random.default_rng(7)
    for program in (traced, optimize(traced)):
        plain = program.compile("f", ("q", "qd", "qdd"))
        short = short_cut_function(program)
        for _ in range(5):
            state = [rng.uniform(-3, 3, 6) for _ in range(3)]
            tau = short(*state)
            assert type(tau) is np.ndarray and tau.dtype == float
            assert np.array_equal(tau, np.array(plain(*(v.tolist() for v in state))))
            assert np.array_equal(short(*(v.tolist() for v in state)), tau)
        assert short(np.array(Q), np.array(QD), np.array(QDD, dtype=np.float32)) is None
        assert short(np.array(Q), np.array(QD), np.array([QDD])) is None
        assert short(Q, QD, [1] * 6) is None


def test_the_inputs_that_torques_might_not_show_as_non_finite():
    from dynlab import Link, Robot
    from dynlab.engine.optimizer import optimize
    from dynlab.engine.tracing import unshown_inputs
    arm = puma560()
    inverse_dynamics(arm, Q, QD, QDD)
    program = stored_tape(arm).program()
    assert unshown_inputs(program) == [("q", 0)] == unshown_inputs(optimize(program))
    # a wheel turning about a vertical axis, Coulomb friction only: its angle and its rate
    # (through sign(qd1) alone) do not show in the torque
    wheel = Robot([Link("R", mass=2.0, inertia=(0.15, 0.15, 0.3), coulomb=0.5, name="wheel")],
                  gravity=(0, 0, -9.8), name="wheel")
    assert np.allclose(inverse_dynamics(wheel, [0.0], [1.0], [2.0]), [0.6 + 0.5])
    program = stored_tape(wheel).program()
    assert unshown_inputs(program) == [("q", 0), ("qd", 0)]
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError, match=r"qd\[0\].*finite"):
            inverse_dynamics(wheel, [0.0], [bad], [2.0])
        with pytest.raises(ValueError, match=r"q\[0\].*finite"):
            inverse_dynamics(wheel, np.array([bad]), np.array([1.0]), np.array([2.0]))


def test_a_program_of_constants_gets_a_short_cut():
    """Seeded run 33 (Hypothesis, on a dashboard of a random chain): the Coriolis part of one
    prismatic joint is a program whose only output is the constant 0, so its short cut had an
    empty ``try:`` block and did not compile (IndentationError from ``inverse_dynamics``)."""
    from dynlab import Link, Robot
    slider = Robot([Link("prismatic", mass=1.0, inertia=np.diag([0.25] * 3).tolist())],
                   gravity=(0.0, 0.0, 0.0), name="one slider")
    off = dict(gravity=False, friction=False, tip_wrench=False)
    for _ in range(2):                                # the checked call, then the short cut
        coriolis = inverse_dynamics(slider, [0.3], [0.7], [0.0], **off)
        assert coriolis.tolist() == [0.0]
    assert inverse_dynamics(slider, [0.3], [0.7], [2.0], **off).tolist() == [2.0]    # f = m qdd
