"""The terminal entry point: ``python -m dynlab`` and the ``dynlab`` console script.

Most tests call :func:`dynlab.cli.main` in this process (fast); the entry points themselves are
run as the programs a user types.  Numbers printed are compared with the library's own.
"""

from __future__ import annotations

import io
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import dynlab
from dynlab.cli import build_arm, main
from dynlab.dynamics.equations import equations_text
from dynlab.formulations.registry import FORMULATIONS, every_variant
from dynlab.model.robots import PLANAR_2R_PARAMETERS, PUMA560_POSES, ROBOTS, puma560

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("list", "equations", "compare", "torque", "code", "check")
USAGE = 2


def run(capsys, *argv):
    """``(exit status, stdout, stderr)`` of ``dynlab ARGV...`` run in this process."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def program(*argv, executable=None):
    """``dynlab ARGV...`` as a separate program (``python -m dynlab`` by default)."""
    command = [executable] if executable else [sys.executable, "-m", "dynlab"]
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONWARNINGS="error::DeprecationWarning:dynlab")
    return subprocess.run([*command, *argv], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)


def printed_torques(out: str) -> tuple:
    """``(values, units)`` from the lines ``tau1 =   2.5349 N m``."""
    rows = re.findall(r"^tau(\d+) = +(\S+) (N m|N)$", out, flags=re.M)
    assert [int(k) for k, _, _ in rows] == list(range(1, len(rows) + 1)), out
    return np.array([float(v) for _, v, _ in rows]), [unit for _, _, unit in rows]


# -- the entry points ------------------------------------------------------------------------------
def test_python_m_dynlab_help_names_every_command_and_arm():
    done = program("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: dynlab")
    for command in COMMANDS:
        assert re.search(rf"^ +{command}\b", done.stdout, flags=re.M), command
    # the arms the program itself knows (this process may have registered more of its own)
    listed = re.findall(r"^(\w+) ", program("list").stdout, flags=re.M)
    assert listed and set(listed) <= set(ROBOTS)
    for arm in listed:
        assert arm in done.stdout
    assert done.stderr == ""


def test_console_script_is_installed_and_computes_torques():
    script = Path(sys.executable).parent / ("dynlab.exe" if os.name == "nt" else "dynlab")
    assert script.exists(), f"no console script at {script}: pip install -e . makes it"
    done = program("torque", "pendulum", "--q", "0", "--qdd", "1", executable=str(script))
    assert done.returncode == 0, done.stderr
    # m a^2/3 qdd + m g a/2 = 1 * 0.25/3 + 9.8062 * 0.25 (Schilling, Eq. (6-9-2))
    assert done.stdout == "tau1 =   2.5349 N m\n"
    assert program("--help", executable=str(script)).stdout.startswith("usage: dynlab")


def test_python_m_dynlab_reports_an_unknown_arm_on_stderr_with_status_2():
    done = program("torque", "robot_x", "--q", "0")
    assert done.returncode == USAGE
    assert done.stdout == ""
    assert done.stderr.strip() == ("dynlab: error: unknown arm 'robot_x'; choose one of "
                                   "pendulum, planar_2r, scara, puma560, ur20")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(capsys, command):
    status, out, err = run(capsys, command, "--help")
    assert status == 0
    assert out.startswith(f"usage: dynlab {command}")
    assert err == ""


def test_no_command_prints_help_and_says_what_is_missing(capsys):
    status, out, err = run(capsys)
    assert status == USAGE
    assert out.startswith("usage: dynlab")
    assert "name a COMMAND" in err


# -- list ------------------------------------------------------------------------------------------
def test_list_names_every_arm_with_its_joints(capsys):
    status, out, err = run(capsys, "list")
    assert status == 0 and err == ""
    for name, builder in ROBOTS.items():
        arm = builder()
        types = "".join(t[0].upper() for t in arm.joint_types)
        joints = "1 joint" if arm.n == 1 else f"{arm.n} joints"
        assert re.search(rf"^{name} +{joints} \({types}\)  {re.escape(arm.name)}", out,
                         flags=re.M), (name, out)
    assert "pendulum    1 joint (R)" in out
    assert "scara       3 joints (RRP)" in out
    assert f"variants {', '.join(PLANAR_2R_PARAMETERS)}" in out


# -- torque ----------------------------------------------------------------------------------------
STATES = [
    ("pendulum", "0.5", "1", "-2"),
    ("planar_2r", "pi/3,-pi/3", "1,0.5", "1,-1"),
    ("planar_2r:macsyma", "0.1,0.2", "-0.3,0.4", "0.5,-0.6"),
    ("planar_2r:variant=schilling", "0.25*pi 1", "0 0", "0 0"),
    ("scara", "0.1,-0.2,0.15", "1,0.5,0.1", "1,-1,0.5"),
    ("puma560", "0.1,0.2,0.3,0.4,0.5,0.6", "0.2,0.2,0.2,0.2,0.2,0.2", "0.3,0.3,0.3,0.3,0.3,0.3"),
    ("puma560:3", "0,pi/2,-pi/2", "0.5,0,0", "0,1,0"),
]


def _vector(text: str) -> list:
    return [eval(v, {"pi": math.pi}) for v in re.split(r"[,\s]+", text)]  # noqa: S307


@pytest.mark.parametrize("arm, q, qd, qdd", STATES)
def test_torque_prints_inverse_dynamics_at_the_state(capsys, arm, q, qd, qdd):
    status, out, err = run(capsys, "torque", arm, "--q", q, "--qd", qd, "--qdd", qdd,
                           "--digits", "12")
    assert status == 0 and err == ""
    values, units = printed_torques(out)
    robot = build_arm(arm)
    expected = dynlab.inverse_dynamics(robot, _vector(q), _vector(qd), _vector(qdd))
    assert values.shape == (robot.n,)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)
    assert units == ["N m" if t == "revolute" else "N" for t in robot.joint_types]


@pytest.mark.parametrize("method", list(FORMULATIONS))
def test_torque_by_every_method_and_variant_is_the_same(capsys, method):
    expected = dynlab.inverse_dynamics(puma560(), [0.3] * 6, [-0.2] * 6, [0.1] * 6)
    for variant in FORMULATIONS[method].variants:
        status, out, err = run(capsys, "torque", "puma560", "--q", "0.3,0.3,0.3,0.3,0.3,0.3",
                               "--qd", "-0.2," * 5 + "-0.2", "--qdd", "0.1 " * 6,
                               "--method", method, "--variant", variant, "--digits", "10")
        assert status == 0, err
        np.testing.assert_allclose(printed_torques(out)[0], expected, rtol=0, atol=1e-10)


def test_torque_reads_a_named_puma_pose_and_prints_four_decimals(capsys):
    status, out, err = run(capsys, "torque", "puma560", "--q", "qz")
    assert status == 0 and err == ""
    expected = dynlab.inverse_dynamics(puma560(), [float(v) for v in PUMA560_POSES["qz"]],
                                       [0.0] * 6, [0.0] * 6)
    assert out.splitlines()[1] == f"tau2 = {expected[1]:8.4f} N m"     # gravity at the shoulder
    assert "-0.0000" not in out                                        # no signed round-off
    np.testing.assert_allclose(printed_torques(out)[0], expected, atol=5e-5)


def test_torque_takes_negative_vectors_after_a_space(capsys):
    # argparse alone reads "--qd -0.2,0.1" as an unknown option "-0.2,0.1"
    status, out, err = run(capsys, "torque", "planar_2r", "--q", "-pi/3,pi/4", "--qd",
                           "-0.2,0.1", "--qdd", "-1 2", "--digits", "12")
    assert status == 0, err
    expected = dynlab.inverse_dynamics(build_arm("planar_2r"), [-math.pi / 3, math.pi / 4],
                                       [-0.2, 0.1], [-1.0, 2.0])
    np.testing.assert_allclose(printed_torques(out)[0], expected, rtol=0, atol=1e-12)


def test_torque_units_and_arm_options(capsys):
    status, out, _ = run(capsys, "torque", "scara", "--q", "0,0,0.1")
    assert status == 0
    assert out.splitlines()[2].endswith(" N") and out.splitlines()[0].endswith(" N m")
    status, out, _ = run(capsys, "torque", "pendulum:m1=2,viscous=0.5", "--q", "pi/2",
                         "--qd", "1", "--digits", "12")
    assert status == 0
    # at q = pi/2 gravity has no arm; only the viscous friction b qd = 0.5 remains
    np.testing.assert_allclose(printed_torques(out)[0], [0.5], atol=1e-12)


# -- equations, compare, code, check ---------------------------------------------------------------
def test_equations_print_fus_two_link_arm_in_book_form(capsys):
    status, out, err = run(capsys, "equations", "planar_2r:fu")
    assert status == 0 and err == ""
    arm = dynlab.model.robots.planar_2r("fu", symbolic=True)
    expected = equations_text(dynlab.equations_of_motion(arm, method="lagrange_euler"))
    body, footer = out.rstrip("\n").rsplit("\n", 1)
    assert body == expected.rstrip("\n")
    assert re.fullmatch(r"\(lagrange_euler, uicker; derived in \d+\.\d\d s\)", footer)
    # Fu, Gonzalez & Lee, Sec. 3.2.6 with the corrected D (see the errata)
    assert "  D11 = l**2*(C2*m2 + m1/3 + 4*m2/3)" in out.splitlines()
    assert "  D22 = l**2*m2/3" in out.splitlines()


def test_equations_by_newton_euler_have_the_same_terms(capsys):
    _, lagrange, _ = run(capsys, "equations", "planar_2r:schilling")
    status, newton, err = run(capsys, "equations", "planar_2r:schilling", "--method",
                              "newton_euler", "--variant", "base")
    assert status == 0 and err == ""

    def terms(out):
        return [line for line in out.splitlines() if line.startswith("  ")]
    assert terms(newton) == terms(lagrange) and len(terms(newton)) >= 7


def test_equations_numeric_parameters(capsys):
    status, out, err = run(capsys, "equations", "pendulum", "--numeric")
    assert status == 0 and err == ""
    # m a^2/3 = 0.25/3 and m g a/2 = 9.8062/4, as numbers, with the joint symbols kept
    assert re.search(r"D11 = 0\.08333", out), out
    assert re.search(r"c1 = 2\.45155\d*\*C1", out), out


def test_equations_of_a_long_chain_are_derived_by_newton_euler(capsys, tmp_path, monkeypatch):
    """Lagrange-Euler grows as n^4 (a 200-link chain: hours); past 12 joints the command takes
    Newton-Euler, as equations_of_motion does (issue 39), unless --method names one."""
    import dynlab.dynamics.inverse as inverse
    links = "".join(f'<link name="l{k}"><inertial><mass value="1"/><inertia ixx="0.01" '
                    f'iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>'
                    for k in range(14))
    joints = "".join(f'<joint name="j{k}" type="revolute"><parent link="l{k - 1}"/>'
                     f'<child link="l{k}"/><origin xyz="0.1 0 0"/><axis xyz="0 0 1"/>'
                     f'<limit effort="1" velocity="1" lower="-1" upper="1"/></joint>'
                     for k in range(1, 14))
    path = tmp_path / "long.urdf"
    path.write_text(f'<robot name="long">{links}{joints}</robot>')
    asked = []

    def derivation(arm, **options):
        asked.append((arm.n, options["method"]))
        raise KeyboardInterrupt                       # the choice is what is tested
    monkeypatch.setattr(inverse, "equations_of_motion", derivation)
    for extra, method in (([], "newton_euler"), (["--method", "lagrange_euler"],
                                                 "lagrange_euler")):
        with pytest.raises(KeyboardInterrupt):
            main(["equations", str(path), "--numeric", *extra])
        assert asked[-1] == (13, method)


def test_compare_finds_the_formulations_equal(capsys):
    status, out, err = run(capsys, "compare", "planar_2r")
    assert status == 0 and err == ""
    rows = [line for line in out.splitlines()[2:] if line.strip()]
    pairs = list(every_variant())
    assert [row.split(")")[0] + ")" for row in rows] == [f"{m} ({v})" for m, v in pairs]
    assert rows[0].endswith("(reference)")
    assert all(row.endswith("agree") for row in rows[1:]), out


def test_compare_numeric_at_a_given_state(capsys):
    status, out, err = run(capsys, "compare", "puma560", "--q", "qr", "--qd", "0.1,0,0,0,0,0",
                           "--method", "lagrange_euler")
    assert status == 0 and err == ""
    # --method alone: every variant of it (uicker, jacobian, christoffel)
    assert out.splitlines()[0] == ("PUMA 560: D, h, c by 3 formulation(s) at q = (0, 1.571, "
                                   "-1.571, 0, 0, 0), qd = (0.1, 0, 0, 0, 0, 0)")
    assert [line.split(")")[0] + ")" for line in out.splitlines()[2:]] == [
        f"lagrange_euler ({v})" for v in FORMULATIONS["lagrange_euler"].variants]
    assert [line.endswith("  agree") for line in out.splitlines()[2:]] == [False, True, True]


@pytest.mark.parametrize("language", ["numpy", "python"])
def test_code_in_python_computes_the_torques(capsys, language):
    status, out, err = run(capsys, "code", "planar_2r:schilling", "--language", language)
    assert status == 0 and err == ""
    assert re.match(r"# \d+ multiplications, \d+ additions, \d+ divisions?, \d+ calls?\n", out)
    namespace = {}
    exec(out, namespace)                    # noqa: S102 - runnable as printed, imports and all
    function, = [f for name, f in namespace.items() if name.endswith("_inverse_dynamics")]
    q, qd, qdd = (0.3, -0.7), (1.1, 0.4), (-0.5, 2.0)
    expected = dynlab.inverse_dynamics(build_arm("planar_2r:schilling"), q, qd, qdd)
    np.testing.assert_allclose(function(q, qd, qdd), expected, rtol=1e-13, atol=1e-13)


def test_code_in_c_and_fortran(capsys):
    status, c_code, _ = run(capsys, "code", "pendulum", "--language", "c")
    assert status == 0
    assert c_code.startswith("/* 2 multiplications, 1 addition, 0 divisions, 1 call */")
    assert re.search(r"void one_axis_arm_pendulum_inverse_dynamics\(const double \*q", c_code)
    assert "out[0] = " in c_code
    status, fortran, _ = run(capsys, "code", "pendulum", "--language", "fortran")
    assert status == 0
    assert re.search(r"^subroutine one_axis_arm_pendulum_inverse_dynamics\(q, qd, qdd, out\)",
                     fortran, flags=re.M)
    assert re.search(r"^end subroutine", fortran, flags=re.M)


def test_code_symbolic_closed_form_names_its_constants(capsys):
    status, out, err = run(capsys, "code", "planar_2r:macsyma", "--language", "fortran",
                           "--symbolic")
    assert status == 0 and err == ""
    first = out.splitlines()[0]
    assert first.startswith("! ") and "(constants, once:" in first
    assert "parameters in order" in first


@pytest.mark.parametrize("language", ["numpy", "python"])
def test_code_symbolic_closed_form_runs_with_its_constants(capsys, language):
    # the thesis appendix, App. B: the constants are computed once from the parameters, then the
    # torques
    status, out, err = run(capsys, "code", "planar_2r:macsyma", "--language", language,
                           "--symbolic")
    assert status == 0 and err == ""
    names = re.search(r"parameters in order ([\w, ]+)\)", out.splitlines()[0]).group(1)
    parameters = [PLANAR_2R_PARAMETERS["macsyma"][name] for name in names.split(", ")]
    namespace = {}
    exec(out, namespace)                                           # noqa: S102 - our code
    constants, = [f for name, f in namespace.items() if name.endswith("_constants")]
    torques, = [f for name, f in namespace.items() if name.endswith("_closed_form")]
    q, qd, qdd = (0.3, -0.7), (1.1, 0.4), (-0.5, 2.0)
    expected = dynlab.inverse_dynamics(dynlab.model.robots.planar_2r("macsyma"), q, qd, qdd)
    np.testing.assert_allclose(torques(q, qd, qdd, constants(parameters)), expected,
                               rtol=1e-12, atol=1e-12)


def test_check_passes_on_every_arm(capsys):
    status, out, err = run(capsys, "check", "--states", "1")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == len(ROBOTS) + 1 and lines[-1] == "all formulations agree"
    for line in lines[:-1]:
        match = re.fullmatch(r"ok   (.+): (\d+) results at 1 random states, largest relative "
                             r"difference (\S+)", line)
        assert match, line
        assert int(match.group(2)) > 10 and float(match.group(3)) < 1e-9


# -- errors: a clear message on stderr, status 2, no traceback -------------------------------------
ERRORS = [
    (["torque", "robot_x", "--q", "0"], "unknown arm 'robot_x'; choose one of pendulum"),
    (["equations", "robot_x"], "unknown arm 'robot_x'"),
    (["compare", "pendulm"], "unknown arm 'pendulm'"),
    (["code", "robot_x"], "unknown arm 'robot_x'"),
    (["check", "pendulum", "robot_x"], "unknown arm 'robot_x'"),
    (["torque", "pendulum", "--q", "0", "--method", "lagrange"],
     "argument --method: invalid choice: 'lagrange'"),
    (["equations", "pendulum", "--method", "hamilton"], "argument --method: invalid choice"),
    (["torque", "pendulum", "--q", "0", "--method", "lagrange_euler", "--variant", "foo"],
     "unknown variant 'foo' of lagrange_euler; choose one of uicker, jacobian, christoffel"),
    (["compare", "pendulum", "--variant", "link"], "--variant needs --method"),
    (["torque", "pendulum", "--q", "abc"],
     "q[1]: cannot read 'abc' as a number (write e.g. 0.5, -1e-3, pi/2, 0.25*pi)"),
    (["torque", "planar_2r", "--q", "0.1,x"], "q[2]: cannot read 'x' as a number"),
    (["torque", "planar_2r", "--q", "0,0", "--qd", "-1,2,3"],
     "qd needs 2 values (one per joint), got 3: '-1,2,3'"),
    (["torque", "pendulum", "--q", ""], "q needs 1 values (one per joint), got 0"),
    (["torque", "pendulum", "--q", "0", "--qdd", "pi/0"], "qdd[1]: cannot read 'pi/0' as a "
                                                         "number (division by zero)"),
    (["torque", "pendulum", "--q", "1e999"], "q[1]: '1e999' is too large"),
    (["torque", "pendulum", "--q", "nan"], "q[1]: cannot read 'nan' as a number"),
    (["torque", "puma560", "--q", "qx"], "q[1]: cannot read 'qx' as a number"),
    (["torque", "pendulum"], "the following arguments are required: --q"),
    (["torque", "pendulum:3", "--q", "0"], "arm 'pendulum' takes its options as key=value (m1,"),
    (["torque", "planar_2r:foo", "--q", "0,0"], "unknown variant 'foo'; choose one of fu, "
                                                "schilling, lynch_park, macsyma"),
    (["torque", "planar_2r:mass=1", "--q", "0,0"], "unknown parameter(s) ['mass']"),
    (["torque", "puma560:7", "--q", "0"],
     "puma560: joints must be a whole number from 1 to 6, got 7"),
    (["torque", "pendulum:m1=1,m1=2", "--q", "0"], "option 'm1' given twice"),
    (["torque", "pendulum:viscous=-1", "--q", "0"], "viscous must be non-negative"),
    (["torque", "pendulum", "--q", "0", "--digits", "40"], "argument --digits: must be a whole "
                                                           "number from 0 to 17"),
    (["check", "--states", "0"], "argument --states: must be a whole number >= 1, got '0'"),
    (["code", "pendulum", "--language", "cobol"], "argument --language: invalid choice"),
    (["frobnicate"], "argument COMMAND: invalid choice: 'frobnicate'"),
    (["torque", "planar_2r", "--q", "0,0", "--qd", "1e200,1e200"],
     "tau1 of two-link arm (Fu, Gonzalez & Lee, Fig. 3.2) is not finite (overflow) at q = (0, 0), "
     "qd = (1e+200, 1e+200)"),
    (["torque", "pendulum:m1=abc", "--q", "0"],
     "arm 'pendulum:m1=abc': m1's value 'abc' is not a number"),
    (["torque", "pendulum:a1=1e999", "--q", "0"], "a1's value '1e999' is too large"),
    (["torque", "pendulum:viscous=1e10", "--q", "0", "--qd", "1e300"],
     "tau1 of one-axis arm (pendulum) is not finite (overflow)"),
    (["torque", "puma560:joints=3.0", "--q", "0,0,0"],
     "puma560: joints must be a whole number from 1 to 6, got float 3.0"),
    (["torque", "puma560:true", "--q", "0"], "joints's value 'true' is not a number"),
    (["compare", "pendulum", "--numeric", "--seed", "-1"],
     "argument --seed: must be a whole number >= 0, got '-1'"),
    (["check", "pendulum", "--seed", "x"], "argument --seed: must be a whole number >= 0"),
]


@pytest.mark.parametrize("argv, message", ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_mistakes_are_named_with_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == USAGE
    assert message in err, err
    assert "Traceback" not in err
    assert re.match(r"dynlab( \w+)?: error: ", err.splitlines()[-1]), err
    assert out == ""


def test_python_m_dynlab_reports_an_overflow_and_exits_non_zero():
    done = program("torque", "planar_2r", "--q", "0,0", "--qd", "1e200,1e200")
    assert done.returncode == USAGE
    assert done.stdout == ""
    assert ("tau1 of two-link arm (Fu, Gonzalez & Lee, Fig. 3.2) is not finite (overflow)"
            in done.stderr)
    assert "Traceback" not in done.stderr


def test_an_arm_option_may_be_a_multiple_of_pi(capsys):
    status, out, _ = run(capsys, "torque", "pendulum:m1=pi/2", "--q", "0", "--qdd", "1")
    expected = dynlab.inverse_dynamics(dynlab.model.robots.pendulum(m1=math.pi / 2), [0.0], [0.0],
                                       [1.0])
    assert status == 0
    assert printed_torques(out)[0] == pytest.approx(expected, abs=5e-5)


class _Terminal(io.StringIO):
    """Standard error as a terminal shows it."""

    def isatty(self):
        return True


def test_equations_show_their_progress_on_a_terminal_and_keep_standard_output_clean(
        capsys, monkeypatch):
    """The PUMA 560's elements take minutes to write, and the command used to print nothing
    until the end.  Progress goes to standard error (a terminal's), the equations alone to
    standard output."""
    status, plain, _ = run(capsys, "equations", "planar_2r:fu")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["equations", "planar_2r:fu"]) == 0
    out = capsys.readouterr().out
    shown = terminal.getvalue()
    assert out.rsplit("\n", 2)[0] == plain.rsplit("\n", 2)[0]           # the same equations
    assert "lagrange_euler (uicker) for two-link arm" in shown and "derived D, h, c" in shown
    lines = shown.split("\r")[1:]
    counts = [re.match(r"two-link arm .*: writing the elements in book form: (\d+)/(\d+) "
                       r"\((\d+) %\)\x1b\[K", line).groups() for line in lines]
    done = [int(c[0]) for c in counts]
    assert done == list(range(1, len(done) + 1)) and done[-1] == int(counts[-1][1]) >= 7
    assert counts[-1][2] == "100" and shown.endswith("\n")


@pytest.mark.parametrize("arguments, message", [
    (["torque", "planar_2r", "--q", "1,,2"], "q: an empty entry in '1,,2'"),
    (["torque", "planar_2r", "--q", "1,2,"], "q: an empty entry in '1,2,'"),
    (["torque", "pendulum:viscous=1_0", "--q", "0"],
     "arm 'pendulum:viscous=1_0': viscous's value '1_0' is not a number"),
    (["torque", "puma560:joints=1_0", "--q", "0"],
     "arm 'puma560:joints=1_0': joints's value '1_0' is not a number")])
def test_an_empty_entry_or_an_underscore_in_a_number_is_an_error(capsys, arguments, message):
    """--q 1,,2 used to be read as (1, 2), viscous=1_0 as 10 (Python's int reads 1_0)."""
    status, out, err = run(capsys, *arguments)
    assert status == 2 and out == ""
    assert err.startswith(f"dynlab: error: {message}"), err


def test_joint_values_may_be_separated_by_commas_spaces_or_both(capsys):
    outputs = {run(capsys, "torque", "planar_2r", "--q", text)[1]
               for text in ("1,2", "1 2", " 1 , 2 ", "1,\t2")}
    assert len(outputs) == 1 and "tau1 =   5.7426 N m" in outputs.pop()
