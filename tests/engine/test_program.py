"""The tape (engine.tracing), the program (engine.program), its emitters and the optimizer:
records are tuples of names and floats read through public names, and every rewrite computes
what the tape does."""

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from dynlab import inverse_dynamics
from dynlab.dynamics.codegen import record
from dynlab.engine.emitters import (
    INLINE_DEPTH,
    c_source,
    fortran_source,
    python_run_source,
    python_source,
)
from dynlab.engine.opcount import count_operations
from dynlab.engine.optimizer import optimize
from dynlab.engine.program import FUNCTIONS, MATH_FUNCTIONS, NUMPY_FUNCTIONS, OPERATIONS, Program
from dynlab.engine.tracing import Tape
from dynlab.model.robots import puma560, scara
from tests.support.strategies import chain_and_state

DYNLAB = Path(__file__).resolve().parents[2] / "dynlab"


def test_the_puma_tape_is_records_of_names_and_floats_in_dependency_order():
    tape, _ = record(puma560())
    known = {f"{stem}{k}" for stem in ("q", "qd", "qdd") for k in range(6)}
    assert len(tape.lines) > 300
    for target, op, args in tape.lines:
        assert op in OPERATIONS + FUNCTIONS
        assert len(args) == (2 if op in ("+", "-", "*", "/") else 1)
        for argument in args:
            assert (isinstance(argument, str) and argument in known) or type(argument) is float
        known.add(target)
    program = tape.program()
    assert set(program.lines) <= set(tape.lines)            # the live records, unchanged
    assert program.inputs == [("q", 6), ("qd", 6), ("qdd", 6)]
    # one sin and one cos for q2..q6: q1 shows in no torque (test_fast_path's unshown inputs);
    # shared operations never cost more than Luh's recursion counted as written
    as_written = count_operations(puma560(), "newton_euler", "link")
    assert program.counts() == tape.counts() and tape.counts()["call"] == 2 * 5
    assert all(tape.counts()[kind] <= as_written[kind] for kind in ("mul", "add"))


def test_a_tape_folds_constants_shares_operations_and_keeps_floats_as_floats():
    tape = Tape()
    x, y = tape.inputs("x", 2)
    a = x * y
    b = y * x                                  # the same product: recorded once
    c = tape.call("cos", 0.0) * (-(a / 2) + -2.5 * b)   # cos 0 = 1 folds
    tape.outputs([c, 3, tape.call("sign", y - x)])
    assert a is b
    assert tape.program().lines == [("t0", "*", ("x0", "x1")), ("t1", "/", ("t0", 2.0)),
                                    ("t2", "neg", ("t1",)), ("t3", "*", (-2.5, "t0")),
                                    ("t4", "+", ("t2", "t3")), ("t5", "-", ("x1", "x0")),
                                    ("t6", "sign", ("t5",))]
    assert tape.program().outputs == ["t4", 3.0, "t6"]
    assert tape.compile("f", ("x",))((2.0, 3.0)) == (-3.0 - 15.0, 3.0, 1)


def test_one_program_in_three_languages():
    program = Program([("q", 2)], [("t0", "abs", ("q1",)), ("t1", "*", ("t0", -1.5e-07)),
                                   ("t2", "sign", ("q0",)), ("t3", "-", ("t1", "t2"))],
                      ["t3", -2.0])
    assert python_source(program, "f") == program.python_source("f")
    assert "    t1 = t0 * (-1.5e-07)" in python_source(program, "f")
    c = c_source(program, "f")
    assert "    const double t0 = fabs(q1);" in c and "    out[1] = (-2.0);" in c
    assert "static double sign(double x)" in c
    fortran = fortran_source(program, "f")
    assert "  t0 = abs(q(2))" in fortran and "  t1 = t0 * (-1.5d-7)" in fortran
    assert "  t2 = merge(1d0, 0d0, q(1) > 0d0) - merge(1d0, 0d0, q(1) < 0d0)" in fortran
    scalar = program.compile("f")
    vector = program.compile("f", functions=NUMPY_FUNCTIONS)
    assert scalar((2.0, -4.0)) == pytest.approx((-4.0 * 1.5e-07 - 1.0, -2.0))
    values = vector(np.array([[2.0, -1.0], [-4.0, 3.0]]))
    assert np.allclose(values[0], [-4.0 * 1.5e-07 - 1.0, -3.0 * 1.5e-07 + 1.0])


def test_the_function_tables_agree_with_each_other():
    assert set(MATH_FUNCTIONS) == set(NUMPY_FUNCTIONS) == set(FUNCTIONS)
    for name in FUNCTIONS:
        for x in (-0.7, 0.0, 1.3):
            if name == "sqrt" and x < 0:
                continue
            assert MATH_FUNCTIONS[name](x) == pytest.approx(float(NUMPY_FUNCTIONS[name](x)))


def test_a_program_with_an_unknown_operation_is_refused():
    with pytest.raises(ValueError, match=re.escape("line t0: unknown operation 'x0 + x1'")):
        Program([("x", 2)], [("t0", "x0 + x1", ())], ["t0"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_and_state(max_joints=4))
def test_the_program_of_any_chain_survives_json_and_the_optimizer(case):
    robot, q, qd, qdd = case
    tape, _ = record(robot)
    program = tape.program()
    again = Program.from_json(json.loads(json.dumps(program.to_json())))
    assert again.lines == program.lines and again.outputs == program.outputs
    expected = program.compile("f")(tuple(q), tuple(qd), tuple(qdd))
    optimized = optimize(program)
    values = optimized.compile("g")(tuple(q), tuple(qd), tuple(qdd))
    assert np.allclose(values, expected, rtol=1e-10, atol=1e-10)
    assert sum(optimized.counts().values()) <= sum(program.counts().values())


def _run(source: str, name: str, functions=MATH_FUNCTIONS):
    namespace = dict(functions, inf=float("inf"), nan=float("nan"))
    exec(source, namespace)  # noqa: S102 - running the generated program is what is tested
    return namespace[name]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_and_state(max_joints=5))
def test_the_run_text_gives_the_very_floats_of_the_one_line_per_operation_text(case):
    robot, q, qd, qdd = case
    state = tuple(tuple(float(v) for v in x) for x in (q, qd, qdd))
    for program in (record(robot)[0].program(), optimize(record(robot)[0].program())):
        readable = _run(python_source(program, "f", ("q", "qd", "qdd")), "f")
        running = _run(python_run_source(program, "g", ("q", "qd", "qdd")), "g")
        assert running(*state) == readable(*state)         # exactly: the same operations
        assert program.compile("h", ("q", "qd", "qdd"))(*state) == readable(*state)


def test_the_run_text_keeps_few_variables_and_bounds_its_nesting():
    lines, previous = [], "x0"
    for k in range(1000):                                   # a chain of 1000 single uses
        lines.append((f"t{k}", "+", (previous, "x1") if k % 2 else ("x1", previous)))
        previous = f"t{k}"
    program = Program([("x", 2)], lines + [("t1000", "*", (previous, previous))],
                      [previous, "t1000", 0.5])
    text = python_run_source(program, "f")
    assert max(len(re.findall(r"\(", line)) for line in text.splitlines()) <= INLINE_DEPTH + 1
    assert len(set(re.findall(r"\bv\d+\b", text))) <= 3
    assert program.compile("f")((0.25, 1.5)) == _run(python_source(program, "f"), "f")((0.25, 1.5))
    assert program.compile("f")((0.25, 1.5))[0] == 0.25 + 1500.0
    vector = program.compile("f", functions=NUMPY_FUNCTIONS)(np.array([[0.0, 1.0], [1.0, 2.0]]))
    assert np.array_equal(vector[0], [1000.0, 2001.0])
    # an input group whose stem starts like the variables keeps its names
    clash = Program([("v", 1)], [("t0", "*", ("v0", "v0")), ("t1", "sin", ("t0",))], ["t1"])
    assert clash.compile("f")((0.5,)) == (np.sin(0.25),)


def test_the_slider_path_and_the_code_generator_run_the_same_program():
    robot = scara(viscous=0.2, coulomb=0.5)
    n = robot.n
    state = tuple(tuple((np.linspace(-0.5, 0.7, n) * k).tolist()) for k in (1.0, -2.0, 0.5))
    slider = inverse_dynamics(robot, *state)                         # compiled tape
    step_by_step = inverse_dynamics(robot, *state, compiled=False)
    generated = optimize(record(robot)[0].program()).compile("f")(*state)
    assert np.allclose(slider, step_by_step, rtol=1e-12, atol=1e-12)
    assert np.allclose(generated, step_by_step, rtol=1e-10, atol=1e-10)


# -- no module reads another module's private name ------------------------------------------------
#: The modules from a recording to code (ARCHITECTURE.md, "From a recording to code"), named
#: below ``dynlab`` as :data:`MODULES` names them: each is among the modules read.
PIPELINE = ("engine.tracing", "engine.program", "engine.optimizer", "engine.emitters",
            "engine.native", "dynamics.codegen")


def _module_name(path: Path, directory: Path = DYNLAB) -> str:
    """``"model.vectors"``, ``"model.robots.puma"``, ``"model.robots"`` (a package's
    ``__init__``): the module's name below ``dynlab``."""
    parts = list(path.relative_to(directory).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Every module of dynlab, those inside its sub-packages (robots, grading) included.
MODULES = tuple(sorted(_module_name(p) for p in DYNLAB.rglob("*.py")))

#: Packages whose modules may share underscored helpers among themselves: none.  The helpers the
# : modules of ``grading`` share are public names of the module that defines them
# (``sealing.unseal``,
#: ``compare.prepare``, ...), as are those of ``robots`` (:mod:`dynlab.model.robots.parameters`).
PACKAGE_INTERNAL = ()


def _source(module: str, directory: Path) -> Path:
    path = directory / (module.replace(".", "/") + ".py")
    return path if path.exists() else directory / module.replace(".", "/") / "__init__.py"


def private_reads(module: str, directory: Path = DYNLAB) -> set:
    """``(module, other, name)`` for every ``from dynlab.other import _name`` (or the relative
    ``from .other import _name``) and every ``other._name`` with ``other`` an imported dynlab
    module; ``other`` is named below ``dynlab`` (``"model.vectors"``,
    ``"model.robots.parameters"``)."""
    path = _source(module, directory)
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    aliases, found = {}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:                               # relative: from .parameters import _x
                anchor = package.split(".")[:max(len(package.split(".")) - node.level + 1, 0)]
                base = ".".join([p for p in anchor if p] + ([node.module] if node.module else []))
            elif (node.module or "") == "dynlab" or (node.module or "").startswith("dynlab."):
                base = node.module.partition(".")[2]
            else:
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                if full in MODULES or (directory / full.replace(".", "/")).exists() or \
                        (directory / (full.replace(".", "/") + ".py")).exists():
                    aliases[alias.asname or alias.name] = full           # a module
                elif alias.name.startswith("_") and base != module:
                    found.add((module, base, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dynlab.") and alias.asname:
                    aliases[alias.asname] = alias.name.partition(".")[2]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in aliases and node.attr.startswith("_") and \
                not node.attr.startswith("__") and aliases[node.value.id] != module:
            found.add((module, aliases[node.value.id], node.attr))
    return found


def _inside_one_package(read: tuple) -> bool:
    module, other, _ = read
    return any(module.split(".")[0] == other.split(".")[0] == package
               for package in PACKAGE_INTERNAL)


def test_no_module_reads_a_private_name_of_another_module():
    assert any("." in module for module in MODULES)            # the sub-packages are read
    assert set(PIPELINE) <= set(MODULES)
    found = set().union(*(private_reads(module) for module in MODULES))
    assert {read for read in found if not _inside_one_package(read)} == set()


def test_the_private_read_check_finds_both_kinds(tmp_path):
    (tmp_path / "probe.py").write_text("from dynlab.model.vectors import _sign\n"
                                       "from dynlab.model import kinematics as K\n"
                                       "K._tool_jacobian\n")
    assert private_reads("probe", tmp_path) == {("probe", "model.vectors", "_sign"),
                                                ("probe", "model.kinematics", "_tool_jacobian")}


def test_the_private_read_check_reads_inside_sub_packages(tmp_path):
    (tmp_path / "arms").mkdir()
    (tmp_path / "arms" / "__init__.py").write_text("from dynlab.arms.data import _table\n")
    (tmp_path / "arms" / "data.py").write_text("_table = {}\n")
    (tmp_path / "arms" / "build.py").write_text(
        "from .data import _table\nfrom dynlab.arms import data as D\nD._rows\n"
        "from dynlab.arms import build\nbuild._own\n")
    assert private_reads("arms", tmp_path) == {("arms", "arms.data", "_table")}
    assert private_reads("arms.build", tmp_path) == {("arms.build", "arms.data", "_table"),
                                                     ("arms.build", "arms.data", "_rows")}
    assert not _inside_one_package(("model.robots.puma", "model.robots.parameters", "_x"))
    assert not _inside_one_package(("grading.check", "grading.keys", "_x"))
    assert not _inside_one_package(("grading.check", "model.vectors", "_x"))
