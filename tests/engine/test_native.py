"""Long chains run their traced program as compiled C (dynlab.engine.native), forward dynamics by
Featherstone's ABA: the Python code's numbers to the bit.  CI has gcc: the tests assert that C
runs (``_runs_c``) rather than skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from dynlab import forward_dynamics, inverse_dynamics
from dynlab.dynamics.forward import ARTICULATED_FROM, compiled_accelerations
from dynlab.engine import code_cache, native
from dynlab.engine.short_cut import OPTIMIZE_AFTER
from dynlab.engine.tracing import short_cut_function
from dynlab.model.robot_data import ShortCut
from tests.support.strategies import chains


def _long_chain(n=14, seed=14, **options):
    """A chain of ``n`` links in general position (seeded), with friction and a tip wrench when
    asked."""
    from dynlab import Link, Robot
    rng = np.random.default_rng(seed)
    links = []
    for k in range(1, n + 1):
        moments = rng.uniform(0.001, 0.02, 3)
        mass = float(rng.uniform(0.5, 3.0))
        extra = dict(viscous=0.3, coulomb=0.2) if options.get("friction") else {}
        values = dict(a=float(rng.uniform(-0.3, 0.3)), alpha=float(rng.uniform(-3, 3)),
                      mass=mass, com=tuple(rng.uniform(-0.1, 0.1, 3).tolist()),
                      inertia=np.diag(mass * np.array([moments[1] + moments[2],
                                                       moments[0] + moments[2],
                                                       moments[0] + moments[1]])).tolist(),
                      name=f"link {k}", **extra)
        if k % 3 == 0:
            links.append(Link("P", theta=float(rng.uniform(-3, 3)), **values))
        else:
            links.append(Link("R", d=float(rng.uniform(-0.2, 0.2)), **values))
    tip = dict(tip_force=(1.0, -2.0, 0.5), tip_moment=(0.1, 0.2, -0.3)) \
        if options.get("tip") else {}
    return Robot(links, gravity=(0.3, -0.2, -9.81), name=f"chain of {n}", **tip)


def _states(n, count, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, (3, n)) for _ in range(count)]


def _program(robot):
    """The traced Newton-Euler torques of ``robot`` (a short cut's program)."""
    for _ in range(2):      # checked, then the short cut, which traces
        inverse_dynamics(robot, *_states(robot.n, 1, 0)[0])
    return robot.data.default_inverse.tape.program()


def _runs_c(entry: ShortCut) -> bool:
    return entry.function.__module__ == "dynlab.engine.native"


def test_the_c_short_cut_gives_the_python_short_cut_numbers_to_the_bit():
    program = _program(_long_chain(friction=True, tip=True))
    assert native.worth_compiling(program)
    c, python = native.short_cut_function(program), short_cut_function(program)
    assert c is not None
    for q, qd, qdd in _states(14, 5, 1):
        expected = python(q, qd, qdd)
        for arguments in ((q, qd, qdd), (q.tolist(), qd.tolist(), tuple(qdd.tolist()))):
            result = c(*arguments)
            assert type(result) is np.ndarray and result.dtype == np.float64
            assert result.tolist() == expected.tolist()


def test_the_c_short_cut_declines_what_the_checked_way_must_name():
    program = _program(_long_chain())
    c = native.short_cut_function(program)
    q, qd, qdd = _states(14, 1, 2)[0]
    assert c(q, qd, qdd) is not None
    bad_q = q.copy()
    bad_q[4] = np.inf
    integers = [1] * 14
    for arguments in ((bad_q, qd, qdd), (q, qd * np.nan, qdd), (q, qd, qdd[:13]),
                      (q, qd, integers), (q.astype(np.float32), qd, qdd),
                      (q, [True] * 14, qdd), (q, qd, qdd * 1e308)):      # an overflow
        assert c(*arguments) is None


def test_the_public_calls_switch_to_c_and_say_what_is_wrong_as_before():
    arm = _long_chain(friction=True, tip=True)
    q, qd, qdd = _states(arm.n, 1, 3)[0]
    first = inverse_dynamics(arm, q, qd, qdd)                 # checked, traced Python
    second = inverse_dynamics(arm, q, qd, qdd)                # the short cut, now C
    assert second.tolist() == first.tolist()
    assert _runs_c(arm.data.default_inverse)
    accelerations = forward_dynamics(arm, q, qd, first)
    again = forward_dynamics(arm, q, qd, first)
    assert again.tolist() == accelerations.tolist()
    assert _runs_c(arm.data.forward_short_cut("newton_euler", None, True, True, True))
    np.testing.assert_allclose(accelerations, qdd, rtol=0, atol=1e-9)
    bad = q.copy()
    bad[2] = np.nan
    with pytest.raises(ValueError, match="q"):
        inverse_dynamics(arm, bad, qd, qdd)
    with pytest.raises(ValueError, match="tau"):
        forward_dynamics(arm, q, qd, [np.inf] * arm.n)


def test_a_long_program_is_not_optimised_and_keeps_its_c_function():
    arm = _long_chain(n=ARTICULATED_FROM)
    q, qd, tau = _states(arm.n, 1, 4)[0]
    for call, entry in ((forward_dynamics, lambda: arm.data.forward_short_cut(
            "newton_euler", None, True, True, True)), (inverse_dynamics,
                                                      lambda: arm.data.default_inverse)):
        first = call(arm, q, qd, tau)
        call(arm, q, qd, tau)
        compiled = entry().function
        assert _runs_c(entry())
        for _ in range(OPTIMIZE_AFTER + 2):
            assert call(arm, q, qd, tau).tolist() == first.tolist()
        assert entry().function is compiled and entry().calls > OPTIMIZE_AFTER


def test_without_a_compiler_the_python_code_gives_the_same_numbers(monkeypatch):
    states = _states(14, 3, 5)
    with_c = _long_chain()
    expected = [(inverse_dynamics(with_c, *s), inverse_dynamics(with_c, *s),
                 forward_dynamics(with_c, *s), forward_dynamics(with_c, *s)) for s in states]
    monkeypatch.setattr(native, "COMPILERS", ())
    assert native.compiler() is None
    without = _long_chain()
    for state, values in zip(states, expected):
        got = (inverse_dynamics(without, *state), inverse_dynamics(without, *state),
               forward_dynamics(without, *state), forward_dynamics(without, *state))
        assert [v.tolist() for v in got] == [v.tolist() for v in values]
    assert not _runs_c(without.data.default_inverse)
    assert not _runs_c(without.data.forward_short_cut("newton_euler", None, True, True, True))


def test_a_compiler_that_fails_leaves_the_python_code(monkeypatch, tmp_path):
    broken = tmp_path / "cc"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("DYNLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(native, "COMPILERS", ("cc",))
    monkeypatch.setattr(native, "_failed", set())
    program = _program(_long_chain(seed=99))
    assert native.short_cut_function(program) is None
    assert native.compiler() is None                      # not tried again in this process


def test_the_compiled_library_is_kept_and_found_again(monkeypatch, tmp_path):
    monkeypatch.setenv("DYNLAB_CACHE", str(tmp_path))
    monkeypatch.setattr(native, "_loaded", {})
    program = _program(_long_chain(seed=7))
    assert native.short_cut_function(program) is not None
    kept = list((tmp_path / "native").glob("*.so"))
    assert len(kept) == 1
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(native.subprocess, "run", None)   # loaded, not compiled again
    q, qd, qdd = _states(14, 1, 8)[0]
    assert native.short_cut_function(program)(q, qd, qdd).tolist() == \
        short_cut_function(program)(q, qd, qdd).tolist()


def test_a_directory_others_can_write_to_is_not_loaded_from(monkeypatch, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("DYNLAB_CACHE", str(shared))
    directory = native._directory()
    assert shared not in directory.parents and directory.stat().st_mode & 0o077 == 0


def test_a_long_chain_takes_the_articulated_body_algorithm():
    short, long = _long_chain(n=ARTICULATED_FROM - 1), _long_chain(n=ARTICULATED_FROM)
    for arm, divisions in ((short, ARTICULATED_FROM - 1), (long, None)):
        _, tape = compiled_accelerations(arm, with_tape=True)
        counts = tape.program().counts()
        if divisions is not None:        # L D L^T: one division a pivot
            assert counts["div"] == divisions
        else:                            # the ABA divides by each pivot twice over
            assert counts["div"] > arm.n


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(chains(min_joints=ARTICULATED_FROM, max_joints=ARTICULATED_FROM + 2))
def test_long_chains_agree_with_the_step_by_step_algorithms(robot):
    for q, qd, qdd in _states(robot.n, 2, robot.n):
        tau = [inverse_dynamics(robot, q, qd, qdd) for _ in range(2)]
        reference = inverse_dynamics(robot, q, qd, qdd, compiled=False)
        scale = max(1.0, np.abs(reference).max())
        for value in tau:
            np.testing.assert_allclose(value, reference, rtol=0, atol=1e-9 * scale)
        # Lynch & Park's GetJointAccel with Cholesky (Sec. 8.5) against the ABA's C
        qdd_reference = forward_dynamics(robot, q, qd, reference, compiled=False)
        for _ in range(2):
            np.testing.assert_allclose(forward_dynamics(robot, q, qd, reference),
                                       qdd_reference, rtol=1e-7, atol=1e-7)
        np.testing.assert_allclose(qdd_reference, qdd, rtol=1e-6, atol=1e-6)


def test_the_c_text_is_the_same_in_every_process():
    """The library is kept under a hash of its C text: no order from a set of names (hashed with
    a seed per process) may change it."""
    script = ("import hashlib, sys; sys.path.insert(0, sys.argv[1])\n"
              "from tests.engine.test_native import _long_chain, _program\n"
              "from dynlab.engine.native import c_run_source\n"
              "text = c_run_source(_program(_long_chain(n=8, friction=True)), 'f')\n"
              "print(hashlib.sha256(text.encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", script, str(Path(__file__).parents[2])],
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
               for seed in (1, 2, 3)}
    assert len(digests) == 1, digests


def test_compiled_programs_are_kept_in_the_directory_of_generated_code(monkeypatch, tmp_path):
    monkeypatch.delenv("DYNLAB_CACHE", raising=False)
    monkeypatch.setattr(code_cache, "_PACKAGE", tmp_path / "site" / "dynlab")
    beside = tmp_path / "site" / ".dynlab_cache"
    beside.mkdir(parents=True, mode=0o700)
    assert native._directory() == beside / "native"
    monkeypatch.setenv("DYNLAB_CACHE", str(tmp_path / "chosen"))
    (tmp_path / "chosen").mkdir(mode=0o700)
    assert native._directory() == tmp_path / "chosen" / "native"


@pytest.mark.parametrize("compiler_present", [True, False])
def test_the_puma_public_calls_run_as_c_past_the_swap_when_a_compiler_is_present(
        compiler_present, monkeypatch, tmp_path):
    from dynlab.engine.optimizer import optimize
    from dynlab.model.robots import puma560
    if not compiler_present:
        monkeypatch.setenv("PATH", str(tmp_path))          # no cc, gcc or clang to be found
        assert native.compiler() is None
    arm = puma560()
    states = _states(6, 3, 41)
    q, qd, qdd = states[0]
    tau = inverse_dynamics(arm, q, qd, qdd)
    for _ in range(OPTIMIZE_AFTER + 1):
        inverse_dynamics(arm, q, qd, qdd)
        forward_dynamics(arm, q, qd, tau)
    inverse = arm.data.default_inverse
    forward = arm.data.forward_short_cut("newton_euler", None, True, True, True)
    for entry in (inverse, forward):
        assert _runs_c(entry) is compiler_present
        python = short_cut_function(optimize(entry.tape.program()))
        assert entry.function(q, qd, qdd).tolist() == python(q, qd, qdd).tolist()
    for q, qd, qdd in states:
        torques = inverse_dynamics(arm, q, qd, qdd)
        np.testing.assert_allclose(torques, inverse_dynamics(arm, q, qd, qdd, compiled=False),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(forward_dynamics(arm, q, qd, torques), qdd,
                                   rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(forward_dynamics(arm, q, qd, torques),
                                   forward_dynamics(arm, q, qd, torques, compiled=False),
                                   rtol=1e-10, atol=1e-10)
    assert inverse.calls > OPTIMIZE_AFTER and forward.calls > OPTIMIZE_AFTER
