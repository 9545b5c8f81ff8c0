"""The terminal entry point: ``python -m dynlab`` (and the ``dynlab`` console script).

Subcommands::

    dynlab list                                   the arms
    dynlab equations planar_2r:fu                 D, h, c (Fu, Gonzalez & Lee, Sec. 3.2.6)
    dynlab compare scara                          every formulation, side by side
    dynlab torque puma560 --q qr --qd 0.1,0,0,0,0,0
    dynlab code planar_2r:macsyma --language fortran --symbolic
    dynlab check                                  the formulations agree on every arm
    dynlab grade submitted/ --out grades.csv      grade students' notebooks (instructors)

An arm takes options after a colon (``puma560:3``, ``pendulum:m1=2,viscous=0.1``,
:func:`build_arm`); joint vectors are numbers or multiples of ``pi`` (:func:`parse_vector`).

>>> main(["torque", "pendulum", "--q", "0", "--qdd", "1"])
tau1 =   2.5349 N m
0
>>> main(["torque", "robot_x", "--q", "0"])     # prints the error on stderr
2
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import math
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

USAGE_ERROR = 2


class CommandError(Exception):
    """A mistake on the command line: printed as ``dynlab: error: ...``, exit status 2."""


# -- reading the command line ----------------------------------------------------------------------
def _robots() -> dict:
    """The registered arms, name -> :class:`dynlab.model.robots.ArmSpec`."""
    from dynlab.model.robots.registry import ARM_SPECS
    return ARM_SPECS


def _option_value(text: str, key: str, spec: str, parameter):
    """An arm option's value: text where the default is text, else a whole number or
    :func:`parse_number`'s."""
    if parameter is not None and isinstance(parameter.default, str):
        return text
    if re.fullmatch(r"[+-]?\d+", text.strip()):       # int() would also read 1_0 as 10
        return int(text)
    try:
        return parse_number(text, key)
    except CommandError as error:
        what = "is too large (not a finite number)" if "too large" in str(error) else \
            "is not a number (write e.g. 0.5, 1e-3, pi/2)"
        raise CommandError(f"arm {spec!r}: {key}'s value {text!r} {what}") from None


def build_arm(spec: str, symbolic: bool = False):
    """The robot named by ``spec`` (``name``, ``name:value`` or ``name:key=value,...``).

    >>> build_arm("puma560:3").n
    3
    >>> build_arm("planar_2r:macsyma", symbolic=True).name
    'two-link arm with payload (the thesis appendix, App. B)'
    """
    if ".urdf" in spec.lower():
        return _urdf_arm(spec)
    name, _, options = spec.partition(":")
    robots = _robots()
    if name not in robots:
        raise CommandError(f"unknown arm {name!r}; choose one of {', '.join(robots)}")
    arm = robots[name]
    builder = arm.builder
    parameters = [p for p in inspect.signature(builder).parameters.values()
                  if p.name != "symbolic" and p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                         p.KEYWORD_ONLY)]
    # only the arm's registered option (planar_2r's variant, puma560's joints) may be given
    # by its value alone; pendulum:3 would otherwise set the mass m1 without saying so
    kwargs = {}
    for item in filter(None, options.split(",")):
        key, equals, value = item.partition("=")
        if not equals:
            if arm.option is None:
                named = ", ".join(p.name for p in parameters)
                raise CommandError(f"arm {name!r} takes its options as key=value ({named}), "
                                   f"got {item!r}")
            key, value = arm.option, item
        if not key or not value:
            raise CommandError(f"arm {spec!r}: cannot read option {item!r} (write key=value)")
        if key in kwargs:
            raise CommandError(f"arm {spec!r}: option {key!r} given twice")
        kwargs[key] = _option_value(value, key, spec,
                                    next((p for p in parameters if p.name == key), None))
    try:
        return builder(symbolic=symbolic, **kwargs)
    except TypeError as error:
        raise CommandError(f"arm {spec!r}: {error}") from None


def _urdf_arm(spec: str):
    """The arm of ``path.urdf`` or ``path.urdf:tip=LINK`` (numeric parameters only)."""
    from dynlab.model.robots.urdf import from_urdf
    cut = spec.lower().rindex(".urdf") + len(".urdf")
    path, options = spec[:cut], spec[cut:]
    kwargs = {}
    if options:
        if not options.startswith(":"):
            raise CommandError(f"arm {spec!r}: write a URDF file as path.urdf or "
                               f"path.urdf:tip=LINK")
        for item in filter(None, options[1:].split(",")):
            key, equals, value = item.partition("=")
            if key != "tip" or not equals or not value:
                raise CommandError(f"arm {spec!r}: a URDF file takes the option tip=LINK, "
                                   f"got {item!r}")
            kwargs["tip"] = value
    try:
        return from_urdf(path, **kwargs)
    except (ValueError, OSError) as error:
        raise CommandError(str(error)) from None


_NUMBER = re.compile(r"^([+-]?)(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)?"
                     r"(\*?pi)?(?:/(\d+(?:\.\d*)?))?$")


def parse_number(text: str, where: str) -> float:
    """A finite number, or a multiple or fraction of ``pi``.

    >>> parse_number("-pi/2", "q"), parse_number("0.5*pi", "q"), parse_number("1e-3", "q")
    (-1.5707963267948966, 1.5707963267948966, 0.001)
    >>> parse_number("pi/0", "q[1]")
    Traceback (most recent call last):
    ...
    dynlab.cli.CommandError: q[1]: cannot read 'pi/0' as a number (division by zero)
    """
    match = _NUMBER.match(text.strip())
    if not text.strip() or match is None or not (match.group(2) or match.group(3)):
        raise CommandError(f"{where}: cannot read {text!r} as a number (write e.g. 0.5, "
                           f"-1e-3, pi/2, 0.25*pi)")
    sign, number, pi, divisor = match.groups()
    value = float(number) if number else 1.0
    if pi:
        value *= math.pi
    if divisor:
        if float(divisor) == 0:
            raise CommandError(f"{where}: cannot read {text!r} as a number (division by zero)")
        value /= float(divisor)
    if not math.isfinite(value):
        raise CommandError(f"{where}: {text!r} is too large (not a finite number)")
    return -value if sign == "-" else value


def parse_vector(text: str | None, n: int, name: str, poses=None) -> tuple:
    """``n`` joint values from ``text`` (zeros when None), or the first ``n`` of a named pose."""
    if text is None:
        return (0.0,) * n
    if poses and text.strip() in poses:
        return tuple(float(v) for v in poses[text.strip()][:n])
    entries = re.split(r"\s*,\s*|\s+", text.strip()) if text.strip() else []
    if "" in entries:                                 # 1,,2 is not (1, 2)
        raise CommandError(f"{name}: an empty entry in {text!r}; write the {n} values "
                           f"separated by commas or spaces")
    values = tuple(parse_number(e, f"{name}[{k + 1}]") for k, e in enumerate(entries))
    if len(values) != n:
        raise CommandError(f"{name} needs {n} values (one per joint), got {len(values)}: "
                           f"{text!r}")
    return values


def _poses(spec: str) -> dict:
    """The named poses of the arm named in ``spec``."""
    spec = _robots().get(spec.partition(":")[0])
    return spec.poses if spec is not None else {}


def _formulations(method: str | None, variant: str | None, every_variant=False,
                  capability: str = "numeric") -> list:
    """``[(method, variant), ...]`` that have ``capability``: the named one (each of its
    variants with ``every_variant``), or every pair when ``method`` is None."""
    from dynlab.formulations import registry as formulations
    if method is None:
        if variant is not None:
            raise CommandError("--variant needs --method")
        return list(formulations.every_variant(capability))
    try:
        _, variant_found = formulations.require(method, variant, capability)
    except ValueError as error:
        raise CommandError(str(error)) from None
    if every_variant and variant is None:
        return [(method, v) for v in formulations.FORMULATIONS[method].variants
                if formulations.FORMULATIONS[method].can(capability, v)]
    return [(method, variant_found)]


def _left_out(capability: str) -> str:
    """A note naming the registered methods without ``capability`` ("" when there is none)."""
    from dynlab.formulations import registry as formulations
    names = [name for name in formulations.FORMULATIONS
             if name not in formulations.methods(capability)]
    return (f"(left out, not {capability}: {', '.join(names)})" if names else "")


# -- the subcommands -------------------------------------------------------------------------------
def command_list(args) -> int:
    """Print the arms with their joints and sources."""
    for name, spec in _robots().items():
        arm = spec.builder()
        extra = ""
        if spec.option:
            extra = (f"  ({spec.option_help or spec.option}: {name}:<{spec.option}>, "
                     f"default {spec.option_default})")
        types = "".join(t[0].upper() for t in arm.joint_types)
        print(f"{name:<12}{_count(arm.n, 'joint')} ({types})  {arm.name}{extra}")
        print(f"{'':<12}source: {spec.source}")
        if spec.poses:
            print(f"{'':<12}poses: {', '.join(spec.poses)}")
    return 0


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


def command_equations(args) -> int:
    """Print D, h, c (and friction) of an arm in book style."""
    from dynlab.dynamics.equations import equations_text
    from dynlab.dynamics.inverse import LAGRANGE_EULER_UP_TO, equations_of_motion
    arm = build_arm(args.arm, symbolic=not args.numeric)
    default = "lagrange_euler" if arm.n <= LAGRANGE_EULER_UP_TO else "newton_euler"
    (method, variant), = _formulations(args.method or default, args.variant,
                                       capability="symbolic")
    start = time.perf_counter()
    # progress on a terminal's standard error (the PUMA 560's elements take minutes to write);
    # standard output is the equations alone
    shown = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    with contextlib.redirect_stdout(sys.stderr):    # the stages of the derivation, as it goes
        eom = equations_of_motion(arm, method=method, variant=variant, progress=shown)
    bar = ProgressLine(sys.stderr, f"{arm.name}: writing the elements in book form")
    text = equations_text(eom, progress=bar.update if shown else None)
    bar.close()
    print(text)
    print(f"({method}, {variant}; derived in {time.perf_counter() - start:.2f} s)")
    return 0


class ProgressLine:
    r"""How far a long command has come: one line on ``stream``, rewritten at each per cent.

    >>> import io
    >>> stream = io.StringIO()
    >>> line = ProgressLine(stream, "writing")
    >>> for done in range(1, 4):
    ...     line.update(done, 3)
    >>> line.close()
    >>> stream.getvalue().split("\r")[-1]
    'writing: 3/3 (100 %)\x1b[K\n'
    """

    def __init__(self, stream, label: str):
        self.stream, self.label = stream, label
        self.shown = -1                                 # the per cent last shown

    def update(self, done: int, total: int) -> None:
        percent = 100 * done // total
        if percent != self.shown:
            self.shown = percent
            # carriage return: back to the line's start; ESC [K: clear what is left of it
            self.stream.write(f"\r{self.label}: {done}/{total} ({percent} %)\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()


def command_compare(args) -> int:
    """Derive an arm by every formulation and compare the results element by element."""
    from dynlab.dynamics.codegen import generate
    from dynlab.dynamics.inverse import equations_of_motion
    from dynlab.formulations import registry as formulations
    numeric_arm = build_arm(args.arm)
    symbolic = not args.numeric and numeric_arm.n <= 3
    arm = build_arm(args.arm, symbolic=True) if symbolic else numeric_arm
    capability = "symbolic" if symbolic else "numeric"
    pairs = _formulations(args.method, args.variant, every_variant=True, capability=capability)
    if symbolic:
        state = {}
        where = "symbolic parameters and joint variables"
    else:
        rng = np.random.default_rng(args.seed)
        q = parse_vector(args.q, arm.n, "q", _poses(args.arm)) if args.q else \
            tuple(rng.uniform(-1, 1, arm.n))
        qd = parse_vector(args.qd, arm.n, "qd") if args.qd else tuple(rng.uniform(-1, 1, arm.n))
        state = {"q": q, "qd": qd}
        where = "q = " + _vector_text(q) + ", qd = " + _vector_text(qd)
    print(f"{numeric_arm.name}: D, h, c by {len(pairs)} formulation(s) at {where}")
    print(f"{'formulation':<30}{'seconds':>9}  {'generated tau: mul':>18}{'add':>6}{'call':>6}"
          f"  agreement with the first")
    first, failures = None, 0
    for method, variant in pairs:
        start = time.perf_counter()
        eom = equations_of_motion(arm, method=method, variant=variant, **state)
        seconds = time.perf_counter() - start
        counts = (generate(numeric_arm, method=method, variant=variant).counts
                  if formulations.FORMULATIONS[method].can("numeric", variant)
                  else dict.fromkeys(("mul", "add", "call"), "-"))   # no code: symbolic only
        if first is None:
            first, verdict = eom, "(reference)"
        else:
            comparison = first.compare(eom)
            verdict = "agree" if comparison else f"DIFFER in {len(comparison.differences)} " \
                                                  f"element(s)"
            failures += not comparison
        print(f"{method + ' (' + variant + ')':<30}{seconds:>9.2f}  {counts['mul']:>18}"
              f"{counts['add']:>6}{counts['call']:>6}  {verdict}")
    if args.method is None and _left_out(capability):
        print(_left_out(capability))
    return 1 if failures else 0


def _vector_text(values) -> str:
    return "(" + ", ".join(f"{v:.4g}" for v in values) + ")"


def command_torque(args) -> int:
    """Evaluate tau(q, qd, qdd) at one state."""
    from dynlab.dynamics.inverse import inverse_dynamics
    (method, variant), = _formulations(args.method or "newton_euler", args.variant)
    arm = build_arm(args.arm)
    q = parse_vector(args.q, arm.n, "q", _poses(args.arm))
    qd = parse_vector(args.qd, arm.n, "qd")
    qdd = parse_vector(args.qdd, arm.n, "qdd")
    tau = inverse_dynamics(arm, q, qd, qdd, method=method, variant=variant)
    width = args.digits + 4
    for k, (value, joint) in enumerate(zip(tau, arm.joint_types), start=1):
        text = f"{float(value):{width}.{args.digits}f}"
        if float(text) == 0:                      # no "-0.0000" from round-off
            text = f"{0.0:{width}.{args.digits}f}"
        print(f"tau{k} = {text} {'N m' if joint == 'revolute' else 'N'}")
    return 0


def command_code(args) -> int:
    """Print generated code: C, Fortran, NumPy or Python."""
    from dynlab.dynamics.closed_forms import closed_form
    from dynlab.dynamics.codegen import generate
    closed = args.symbolic or args.closed_form
    (method, variant), = _formulations(args.method, args.variant,
                                       capability="symbolic" if closed else "numeric") \
        if args.method else [("lagrange_euler" if closed else "newton_euler", None)]
    if closed:
        arm = build_arm(args.arm, symbolic=args.symbolic)
        code = closed_form(arm, args.what, method=method, variant=variant)
    else:
        code = generate(build_arm(args.arm), args.what, method=method, variant=variant)
    text = code.source(args.language)
    if args.language == "python":              # runnable as printed: the functions it calls
        text = PYTHON_PRELUDE + text
    counts = code.counts
    note = ", ".join(_count(counts[key], word) for key, word in (
        ("mul", "multiplication"), ("add", "addition"), ("div", "division"), ("call", "call")))
    if code.constants is not None:
        c = code.constants.counts()
        note += (f" (constants, once: {_count(c['mul'], 'multiplication')}, "
                 f"{_count(c['add'], 'addition')}; "
                 f"parameters in order {', '.join(code.parameters)})")
    comment = {"c": "/* {} */", "fortran": "! {}", "numpy": "# {}", "python": "# {}"}
    print(comment[args.language].format(note))
    print(text.rstrip())
    return 0


PYTHON_PRELUDE = '''from math import cos, exp, sin, sqrt


def sign(x):
    return (x > 0) - (x < 0)


'''


def command_check(args) -> int:
    """Quick agreement check: every formulation (step by step and compiled) and the generated
    code against N-E on every arm, and forward dynamics undoing inverse dynamics."""
    from dynlab.dynamics.codegen import generate
    from dynlab.dynamics.inverse import inverse_dynamics
    specs = args.arms or list(_robots())
    arms = [build_arm(spec) for spec in specs]       # every name is checked before any work
    rng = np.random.default_rng(args.seed)
    failures = 0
    for arm in arms:
        worst, compared = 0.0, 0
        for _ in range(args.states):
            q, qd, qdd = (rng.uniform(-1.5, 1.5, arm.n) for _ in range(3))
            reference = inverse_dynamics(arm, q, qd, qdd)
            scale = 1.0 + np.abs(reference).max()
            candidates = []
            for method, variant in _formulations(None, None):
                candidates.append(inverse_dynamics(arm, q, qd, qdd, method=method,
                                                   variant=variant))
                candidates.append(inverse_dynamics(arm, q, qd, qdd, method=method,
                                                   variant=variant, compiled=False))
            code = generate(arm)
            candidates.append(code(q, qd, qdd))
            forward = generate(arm, "forward_dynamics")
            candidates.append(inverse_dynamics(arm, q, qd, forward(q, qd, reference)))
            for value in candidates:
                worst = max(worst, float(np.abs(value - reference).max()) / scale)
                compared += 1
        ok = worst < 1e-9
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {arm.name}: {compared} results at {args.states} "
              f"random states, largest relative difference {worst:.1e}")
    if _left_out("numeric"):
        print(_left_out("numeric"))
    print("all formulations agree" if not failures else f"{failures} arm(s) FAILED")
    return 1 if failures else 0


# -- the parser ------------------------------------------------------------------------------------
def _whole_number(low: int, high: int | None = None):
    """The ``type`` of an option that takes a whole number from ``low`` (to ``high``).

    >>> _whole_number(0, 17)("4"), _whole_number(1)("12")
    (4, 12)
    >>> _whole_number(1)("0.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number >= 1, got '0.5'
    """
    wanted = f"from {low} to {high}" if high is not None else f">= {low}"

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {wanted}, got {text!r}")
        return value
    return whole_number


_positive, _seed, _digits = _whole_number(1), _whole_number(0), _whole_number(0, 17)


def build_parser() -> argparse.ArgumentParser:
    from dynlab.engine.generated import WHAT
    from dynlab.formulations.registry import FORMULATIONS
    specs = _robots()
    arms = ", ".join(specs)
    examples = ", ".join(f"{name}:{spec.option_example}" for name, spec in specs.items()
                         if spec.option_example)
    poses = "; ".join(f"{name}: {', '.join(spec.poses)}" for name, spec in specs.items()
                      if spec.poses)
    methods = list(FORMULATIONS)
    labels = ", ".join(formulation.label for formulation in FORMULATIONS.values())
    variants = "; ".join(", ".join(formulation.variants) for formulation in FORMULATIONS.values())
    parser = argparse.ArgumentParser(
        prog="dynlab",
        description=f"Robot-arm dynamics derived {len(methods)} ways ({labels}): equations, "
                    f"torques, generated code.",
        epilog=f"Arms: {arms}.  Name an arm's option after a colon: {examples} ('dynlab "
               f"list' shows them).  Run 'dynlab COMMAND --help' for details.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def arm_argument(sub):
        sub.add_argument("arm", help=f"one of {arms} (with :option, e.g. {examples}), or a "
                                     f"URDF file (path.urdf, or path.urdf:tip=LINK)")

    def method_arguments(sub, default):
        sub.add_argument("--method", choices=methods, default=None,
                         help=f"formulation (default {default})")
        sub.add_argument("--variant", help=f"variant of the formulation ({variants})")

    sub = commands.add_parser("list", help="list the arms", description=command_list.__doc__)
    sub.set_defaults(run=command_list)

    sub = commands.add_parser("equations", help="print an arm's equations of motion in book "
                              "style", description=command_equations.__doc__ +
                              "  Symbolic parameters by default (the PUMA 560 is big: try "
                              "puma560:3 or --numeric).")
    arm_argument(sub)
    method_arguments(sub, "lagrange_euler, newton_euler beyond 12 joints")
    sub.add_argument("--numeric", action="store_true",
                     help="numeric parameters (symbolic joint variables only)")
    sub.set_defaults(run=command_equations)

    sub = commands.add_parser("compare", help="compare the formulations on one arm",
                              description=command_compare.__doc__ + "  Symbolic for arms of up "
                              "to three joints, else at a (random or given) state.")
    arm_argument(sub)
    method_arguments(sub, "all of them")
    sub.add_argument("--numeric", action="store_true", help="compare at a numeric state")
    sub.add_argument("--q", help="joint positions (default random)")
    sub.add_argument("--qd", help="joint velocities (default random)")
    sub.add_argument("--seed", type=_seed, default=0, help="seed of the random state")
    sub.set_defaults(run=command_compare)

    sub = commands.add_parser("torque", help="evaluate torques at a state",
                              description=command_torque.__doc__)
    arm_argument(sub)
    sub.add_argument("--q", required=True, help="joint positions, e.g. 0.1,pi/4" +
                     (f" (or a named pose, {poses})" if poses else ""))
    sub.add_argument("--qd", help="joint velocities (default 0)")
    sub.add_argument("--qdd", help="joint accelerations (default 0)")
    sub.add_argument("--digits", type=_digits, default=4,
                     help="decimals printed (default 4, at most 17)")
    method_arguments(sub, "newton_euler")
    sub.set_defaults(run=command_torque)

    sub = commands.add_parser("code", help="emit generated C, Fortran or NumPy code",
                              description=command_code.__doc__ + "  Traced from a numeric "
                              "formulation by default; --symbolic crunches the parameters into "
                              "constants as the thesis appendix, App. B does.")
    arm_argument(sub)
    sub.add_argument("--language", choices=("c", "fortran", "numpy", "python"), default="c")
    sub.add_argument("--what", choices=list(WHAT), default="inverse_dynamics",
                     help="what the code computes (default inverse_dynamics)")
    method_arguments(sub, "newton_euler, or lagrange_euler for closed forms")
    sub.add_argument("--closed-form", action="store_true",
                     help="from the symbolic closed form (sympy.cse) instead of a trace")
    sub.add_argument("--symbolic", action="store_true",
                     help="closed form with symbolic parameters and precomputed constants")
    sub.set_defaults(run=command_code)

    sub = commands.add_parser("check", help="self-check: all formulations agree on each arm",
                              description=command_check.__doc__)
    sub.add_argument("arms", nargs="*", help=f"arms to check (default all: {arms})")
    sub.add_argument("--states", type=_positive, default=3,
                     help="random states per arm (default 3)")
    sub.add_argument("--seed", type=_seed, default=0)
    sub.set_defaults(run=command_check)

    sub = commands.add_parser("grade", help="grade submitted exercise notebooks (instructors)",
                              description=command_grade.__doc__)
    sub.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                     help="submitted notebooks, or folders holding them")
    sub.add_argument("--out", default="grades.csv", help="the gradebook (CSV; default "
                                                         "grades.csv)")
    sub.add_argument("--solutions", default=None,
                     help="folder of the solution notebooks (default: the workbook's solutions/)")
    sub.add_argument("--workers", type=_positive, default=2,
                     help="notebooks graded at a time (default 2)")
    sub.add_argument("--exercises", default=None, metavar="NOTEBOOK,...",
                     help="the solution notebooks graded, by name without .ipynb (default: "
                          "those that more than half of the students hand in; another "
                          "notebook is noted and not graded)")
    sub.add_argument("--notebook-time-limit", type=float, default=None, metavar="SECONDS",
                     help="CPU seconds one notebook may compute (default 300)")
    sub.add_argument("--cell-time-limit", type=float, default=None, metavar="SECONDS",
                     help="CPU seconds one cell may compute (default 60)")
    sub.add_argument("--check-time-limit", type=float, default=None, metavar="SECONDS",
                     help="CPU seconds one check may compute (default 10)")
    sub.add_argument("--keys", default=None, metavar="FOLDER",
                     help="the instructor's answer keys and course secret "
                          "(tools/make_answer_keys.py --out FOLDER), kept outside the installed "
                          "dynlab: the grades are then marks; without it they are formative "
                          "(the keys every student has; a warning says so)")
    sub.add_argument("--memory", type=float, default=None, metavar="GB",
                     help="memory of a submission's sandbox: the address space of each of "
                          "its processes, and what all of them hold together (default 2)")
    sub.add_argument("--no-sandbox", action="store_true",
                     help="run the submissions without a sandbox, with your own rights (warns "
                          "on every run; not for marks)")
    sub.set_defaults(run=command_grade)
    return parser


def command_grade(args) -> int:
    """Grade submitted notebooks, each in a bubblewrap sandbox and a fresh kernel, against the
    instructor's solutions and keys; write the gradebook (a row per student, a column per part),
    a feedback page per student and a report of alike answer cells (for the instructor only)."""
    from dynlab.grading import grader
    from dynlab.grading.similarity import report_paths
    options = {}
    for name in ("notebook_time_limit", "cell_time_limit", "check_time_limit"):
        value = getattr(args, name)
        if value is not None:
            if not value > 0:
                raise CommandError(f"--{name.replace('_', '-')} must be a positive number of "
                                   f"seconds, got {value:g}")
            options[name] = value
    if args.solutions is not None:
        options["solutions"] = Path(args.solutions)
    if args.keys is not None:
        options["keys"] = Path(args.keys)
    if args.exercises is not None:
        options["exercises"] = [name.strip().removesuffix(".ipynb")
                                for name in args.exercises.split(",") if name.strip()]
    if args.memory is not None:
        if not args.memory > 0:
            raise CommandError(f"--memory must be a positive number of GB, got {args.memory:g}")
        from dynlab.grading.sandbox import Limits
        options["limits"] = Limits(memory=int(args.memory * 1024 ** 3),
                                   total_memory=int(args.memory * 1024 ** 3))
    try:
        book = grader.grade_submissions(args.submissions, out=args.out, workers=args.workers,
                                        sandbox=not args.no_sandbox, **options)
    except (OSError, RuntimeError, ValueError) as error:
        raise CommandError(str(error)) from None
    top = sum(book.maximum.values())
    for student in book.rows:
        print(f"{student}: {book.total(student):g}/{top:g} points")
    kind = "marks, from the instructor's keys" if book.summative else \
        "formative grades, from the keys every student has"
    print(f"wrote {args.out} ({len(book.rows)} students; {kind})")
    table, page = report_paths(args.out)
    if table.is_file() and page.is_file():
        print(f"wrote {table} and {page}: the pairs of alike answer cells, for you only")
    return 0


VECTOR_OPTIONS = ("--q", "--qd", "--qdd")
_NEGATIVE_VALUE = re.compile(r"^-(\d|\.\d|pi\b|\*)")


def _attach_negative_vectors(argv: list) -> list:
    """``--qd -0.2,0.1`` as ``--qd=-0.2,0.1``: argparse would take ``-0.2,0.1`` for an option.

    >>> _attach_negative_vectors(["torque", "pendulum", "--q", "-pi/2", "--qd", "1"])
    ['torque', 'pendulum', '--q=-pi/2', '--qd', '1']
    """
    joined, k = [], 0
    while k < len(argv):
        if argv[k] in VECTOR_OPTIONS and k + 1 < len(argv) and \
                _NEGATIVE_VALUE.match(argv[k + 1].lstrip()):
            joined.append(f"{argv[k]}={argv[k + 1]}")
            k += 2
        else:
            joined.append(argv[k])
            k += 1
    return joined


def main(argv=None) -> int:
    """Run the command line; returns the exit status (0 success, 1 check failed, 2 usage)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser.parse_args(_attach_negative_vectors(argv))
    except SystemExit as stop:                 # --help, or argparse's own usage errors
        return int(stop.code or 0)
    if args.command is None:
        parser.print_help()
        print("dynlab: error: name a COMMAND (list, equations, compare, torque, code, check, "
              "grade)", file=sys.stderr)
        return USAGE_ERROR
    try:
        return args.run(args)
    except BrokenPipeError:                    # dynlab code ... | head: the reader has gone
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that Python's exit flush stays quiet
        return 0
    except (CommandError, ValueError, TypeError) as error:   # each names what is wrong
        print(f"dynlab: error: {error}", file=sys.stderr)
        return USAGE_ERROR
