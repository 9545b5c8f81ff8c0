"""The inertia matrix by composite bodies (dynlab.formulations.composite_bodies) equals the
Newton-Euler probing it replaces in compiled forward dynamics: symbolically on the small arms, to
round-off on random chains; and the default forward dynamics built on it gives what the step-by-step
path (probing and Cholesky) gives, friction and the tool wrench included."""

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings

from dynlab import forward_dynamics, inverse_dynamics, joint_symbols
from dynlab.dynamics.forward import compiled_accelerations
from dynlab.engine.tracing import Tape, backend_for
from dynlab.formulations import registry as formulations
from dynlab.formulations.composite_bodies import composite_inertia
from dynlab.formulations.featherstone import articulated_body_accelerations
from dynlab.model import vectors as V
from dynlab.model.robots import pendulum, planar_2r, puma560, scara
from dynlab.model.robots.tourassis_neuman import articulated, cylindrical
from tests.support.strategies import chain_and_state

PROBED = formulations.inertia_function("newton_euler", "link")


@pytest.mark.parametrize("build", [
    lambda: pendulum(symbolic=True), lambda: planar_2r("fu", symbolic=True),
    lambda: planar_2r("macsyma", symbolic=True), lambda: scara(symbolic=True),
    lambda: cylindrical(), lambda: articulated()], ids=[
    "pendulum", "2r_fu", "2r_macsyma", "scara", "cylindrical", "articulated"])
def test_composite_bodies_give_the_probed_inertia_matrix_symbolically(build):
    robot = build()
    links, gravity, *_ = robot.symbolic()
    q, _, _ = joint_symbols(robot.n)
    composite = sympy.Matrix(composite_inertia(links, q, V.SYMBOLIC))
    probed = sympy.Matrix(PROBED(links, q, gravity, V.SYMBOLIC))
    difference = (composite - probed).applyfunc(lambda e: sympy.simplify(sympy.expand(e)))
    assert difference == sympy.zeros(robot.n, robot.n)


#: Every ``D`` algorithm the registry offers in place of probing (Formulation.forward_inertia).
OWN_INERTIAS = [(method, variant, function)
                for method, formulation in formulations.FORMULATIONS.items()
                for variant, function in formulation.forward_inertia.items()]


def test_the_registry_offers_composite_bodies_for_newton_euler_in_the_link_frame():
    assert ("newton_euler", "link", composite_inertia) in OWN_INERTIAS
    with pytest.raises(ValueError, match="forward_inertia of 'lnk'"):
        formulations.Formulation("toy", "toy", "torques", {"link": PROBED}, "link", "none",
                                 forward_inertia={"lnk": composite_inertia})


@pytest.mark.parametrize("method, variant, inertia", OWN_INERTIAS,
                         ids=[f"{m}:{v}" for m, v, _ in OWN_INERTIAS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=chain_and_state(max_joints=7))
def test_each_own_inertia_gives_the_probed_inertia_matrix_on_random_chains(method, variant,
                                                                           inertia, case):
    robot, q, _, _ = case
    links, gravity, *_ = robot.numeric()
    own = np.array(inertia(links, q, V.NUMERIC))
    probed = np.array(formulations.inertia_function(method, variant)(links, q, gravity))
    assert np.allclose(own, probed, rtol=1e-9, atol=1e-9 * np.abs(probed).max())
    assert np.array_equal(own, own.T)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_and_state(max_joints=7))
def test_default_forward_dynamics_agrees_with_the_step_by_step_path_on_random_chains(case):
    robot, q, qd, tau = case
    robot = robot.replace_link(1, viscous=0.3, coulomb=0.2, static=0.25)
    try:
        checked = forward_dynamics(robot, q, qd, tau, compiled=False)
    except ValueError:                       # a D the step-by-step path finds singular
        return
    fast = forward_dynamics(robot, q, qd, tau)
    scale = 1.0 + np.abs(checked).max()
    assert np.allclose(fast, checked, rtol=1e-9, atol=1e-9 * scale)
    again = inverse_dynamics(robot, q, qd, fast)
    assert np.allclose(again, tau, rtol=1e-7, atol=1e-7 * (1 + np.abs(tau).max()))


def test_default_forward_dynamics_of_the_puma_with_friction_and_a_tool_wrench():
    arm = puma560().replace(tip_force=(5.0, -3.0, 2.0), tip_moment=(0.4, 0.1, -0.2))
    for k in range(1, 7):
        arm = arm.replace_link(k, viscous=0.1 * k, coulomb=0.05 * k, static=0.08 * k)
    rng = np.random.default_rng(11)
    for _ in range(50):
        q, qd, tau = (rng.uniform(-2, 2, 6) for _ in range(3))
        for gravity in (True, False):
            for tip_wrench in (True, False):
                switches = dict(gravity=gravity, tip_wrench=tip_wrench)
                checked = forward_dynamics(arm, q, qd, tau, compiled=False, **switches)
                assert np.allclose(forward_dynamics(arm, q, qd, tau, **switches), checked,
                                   rtol=1e-9, atol=1e-9)
                assert np.allclose(articulated_body_accelerations(arm, q, qd, tau, **switches),
                                   checked, rtol=1e-9, atol=1e-9)


def test_the_composite_program_is_the_cheaper_one_and_builds_no_sympy(sympy_objects_created):
    arm = puma560()
    links, *_ = arm.numeric()
    counts = {}
    for name, inertia in (("composite", composite_inertia),
                          ("probed", lambda links, q, backend: PROBED(links, q, (0, 0, 0),
                                                                     backend))):
        tape = Tape()
        q = tape.inputs("q", 6)
        D = inertia(links, q, backend_for(tape))
        tape.outputs([D[i][j] for i in range(6) for j in range(i + 1)])
        counts[name] = sum(tape.counts().values())
    assert counts["composite"] < 0.7 * counts["probed"]           # 333 against 511
    sympy_objects_created.clear()
    q, qd, tau = np.full(6, 0.3), np.full(6, 0.1), np.full(6, 2.0)
    from dynlab.engine.short_cut import OPTIMIZE_AFTER
    for _ in range(OPTIMIZE_AFTER + 2):                  # the trace, then the optimised program
        forward_dynamics(arm, q, qd, tau)
    compiled_accelerations(arm)((0.3,) * 6, (0.1,) * 6, (2.0,) * 6)
    assert sympy_objects_created == []
