"""Generated code (dynlab.dynamics.codegen): the torques of ``inverse_dynamics`` (itself checked
against the other formulations and Pinocchio) in every language to 1e-10, counts by hand, the
thesis appendix's two-link figures, and the disk cache."""

import json
import math
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dynlab import inverse_dynamics
from dynlab.dynamics import codegen
from dynlab.dynamics.closed_forms import closed_form, crunch, from_sympy
from dynlab.dynamics.codegen import generate, optimize_tape
from dynlab.dynamics.forward import forward_dynamics, ldl_solve
from dynlab.dynamics.inverse import equations_of_motion
from dynlab.engine import code_cache
from dynlab.engine.generated import VECTOR_CHUNK
from dynlab.engine.native import compile_c
from dynlab.engine.optimizer import Optimizer
from dynlab.engine.program import Program
from dynlab.engine.tracing import Tape
from dynlab.model.link import Link
from dynlab.model.robot import Robot
from dynlab.model.robots import pendulum, planar_2r, puma560, scara
from tests.support.strategies import chain_and_state

TOLERANCE = 1e-10


def arms():
    """The workbook's arms with numeric parameters, friction switched on where a builder has
    it (Coulomb friction makes the generated code call ``sign``)."""
    return {"pendulum": pendulum(viscous=0.3, coulomb=0.2),
            "2R fu": planar_2r("fu"),
            "2R schilling": planar_2r("schilling", viscous=0.1),
            "2R lynch_park": planar_2r("lynch_park"),
            "2R macsyma": planar_2r("macsyma"),
            "SCARA": scara(viscous=0.2, coulomb=0.5),
            "PUMA 560": puma560()}


ARMS = arms()


def states(n, count, seed):
    rng = np.random.default_rng(seed)
    return [tuple(rng.uniform(-2.0, 2.0, n) for _ in range(3)) for _ in range(count)]


def close(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and float(np.max(np.abs(a - b), initial=0.0)) <= \
        TOLERANCE * max(1.0, float(np.max(np.abs(b), initial=0.0)))


# -- the generated code gives the recursion's torques ----------------------------------------------
@pytest.mark.parametrize("name", list(ARMS))
def test_generated_scalar_and_vectorized_code_equal_inverse_dynamics(name):
    robot = ARMS[name]
    code = generate(robot, cache=False)
    points = states(robot.n, 20, seed=len(name))
    reference = np.array([inverse_dynamics(robot, *state) for state in points])
    scalar = np.array([code(*state) for state in points])
    assert close(scalar, reference)
    Q, QD, QDD = (np.array([state[k] for state in points]) for k in range(3))
    assert close(code.vectorized(Q, QD, QDD), reference)


def test_vectorized_code_over_several_blocks_of_points():
    robot = ARMS["2R schilling"]
    code = generate(robot, cache=False)
    count = 2 * VECTOR_CHUNK + 3
    rng = np.random.default_rng(7)
    Q, QD, QDD = (rng.uniform(-2, 2, (count, 2)) for _ in range(3))
    expected = np.array([code(Q[k], QD[k], QDD[k]) for k in range(count)])
    assert close(code.vectorized(Q, QD, QDD), expected)
    with pytest.raises(ValueError):
        code.vectorized(Q, QD, QDD[:5])


@pytest.mark.parametrize("method, variant", [("newton_euler", "base"),
                                             ("lagrange_euler", "uicker"),
                                             ("lagrange_euler", "jacobian"),
                                             ("lagrange_euler", "christoffel"),
                                             ("dalembert", "lee")])
@pytest.mark.parametrize("name", ["2R fu", "SCARA"])
def test_every_formulation_generates_the_same_torques(name, method, variant):
    robot = ARMS[name]
    code = generate(robot, method=method, variant=variant, cache=False)
    for state in states(robot.n, 5, seed=3):
        assert close(code(*state), inverse_dynamics(robot, *state))


def test_generated_terms_and_forward_dynamics_of_the_puma():
    robot = ARMS["PUMA 560"]
    terms = generate(robot, "terms", cache=False)
    forward = generate(robot, "forward_dynamics", cache=False)
    q, qd, qdd = states(6, 1, seed=11)[0]
    values = terms(q, qd)
    eom = equations_of_motion(robot, q, qd)
    assert close(values["D"], eom.D) and close(values["h"], eom.h) and close(values["c"], eom.c)
    tau = inverse_dynamics(robot, q, qd, qdd)
    assert close(forward(q, qd, tau), qdd)
    assert close(forward(q, qd, tau), forward_dynamics(robot, q, qd, tau))


@pytest.mark.parametrize("name", ["2R macsyma", "SCARA", "PUMA 560"])
def test_c_code_compiled_by_gcc_gives_the_same_torques(name, tmp_path):
    robot = ARMS[name]
    code = generate(robot, cache=False)
    function = compile_c(code, directory=tmp_path)
    points = states(robot.n, 30, seed=5)
    reference = np.array([inverse_dynamics(robot, *state) for state in points])
    assert close(function(*points[0]), reference[0])                       # one point
    Q, QD, QDD = (np.array([state[k] for state in points]) for k in range(3))
    assert close(function(Q, QD, QDD), reference)                           # the _batch loop


@pytest.mark.parametrize("arguments, message", [
    ((np.full(1, .1), np.full(6, .2), np.full(6, .3)), r"q must have shape \(6,\)"),
    ((np.full((200000, 1), .1), np.full((200000, 6), .2), np.full((200000, 6), .3)),
     r"q must have shape \(6,\) for one point or \(N, 6\).*\(200000, 1\)"),
    ((np.full(6, .1), np.full(7, .2), np.full(6, .3)), r"qd must have shape \(6,\)"),
    ((np.full((3, 6), .1), np.full((2, 6), .2), np.full((3, 6), .3)), "the same number N"),
    ((np.full((3, 6), .1), np.full(6, .2), np.full((3, 6), .3)), "the same number N"),
    ((np.full((2, 3, 6), .1), np.full(6, .2), np.full(6, .3)), r"q must have shape"),
    ((np.full((0, 6), .1), np.full((0, 6), .2), np.full((0, 6), .3)), r"q must have shape"),
    ((np.full(6, .1), np.full(6, .2)), "takes 3 arguments"),
])
def test_compiled_c_code_refuses_arguments_of_the_wrong_shape(arguments, message, tmp_path):
    """The C code reads exactly n numbers per point: a shorter or longer argument is refused
    before it runs (today: garbage from an out-of-bounds read, or a SIGSEGV)."""
    function = compile_c(generate(ARMS["PUMA 560"], cache=False), directory=tmp_path)
    with pytest.raises((ValueError, TypeError), match=message):
        function(*arguments)
    assert close(function(np.full(6, .1), np.full(6, .2), np.full(6, .3)),
                 inverse_dynamics(ARMS["PUMA 560"], [.1] * 6, [.2] * 6, [.3] * 6))


@pytest.mark.parametrize("bad", [np.full(6, 1 + 2j), np.array(["1"] * 6), np.full(6, True),
                                 np.array([None] * 6)])
def test_compiled_c_code_refuses_entries_that_are_not_real_numbers(bad, tmp_path):
    function = compile_c(generate(ARMS["PUMA 560"], cache=False), directory=tmp_path)
    with pytest.raises(TypeError, match="qd must be an array of real numbers"):
        function(np.full(6, .1), bad, np.full(6, .3))


@pytest.mark.parametrize("name", ["../escaped", "1abc", "a b", "", "class", "int", "double",
                                  "sin", "out", "q", "tau", "é", "x" * 101])
def test_generated_code_is_named_by_identifiers_only(name, tmp_path):
    """A name reaches Python's compile(), the C and Fortran texts and compile_c's file names:
    anything but an identifier (no keyword, no name the texts use) is a ValueError naming it."""
    work = tmp_path / "work"
    with pytest.raises(ValueError, match="name"):
        generate(ARMS["2R fu"], cache=work, name=name)
    code = generate(ARMS["2R fu"], cache=False)
    code.name = name                                 # as a caller could, before compile_c
    with pytest.raises(ValueError, match="name"):
        compile_c(code, directory=work)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []        # nothing written


def test_generated_code_names_are_strings(tmp_path):
    with pytest.raises(TypeError, match="name must be a string"):
        generate(ARMS["2R fu"], cache=False, name=12)


def test_an_arm_whose_name_starts_with_a_digit_gets_code_that_compiles():
    arm = planar_2r("fu").replace(name="2R arm")
    code = generate(arm, cache=False)
    assert re.fullmatch(r"[A-Za-z]\w*", code.name)
    assert close(code([0.1, 0.2], [0.3, 0.4], [0.5, 0.6]),
                 inverse_dynamics(planar_2r("fu"), [0.1, 0.2], [0.3, 0.4], [0.5, 0.6]))


@pytest.mark.parametrize("cache", [123, 1.5, ["dir"], object()])
def test_generate_refuses_a_cache_that_is_no_directory(cache):
    with pytest.raises(TypeError, match="cache must be True, False or a directory"):
        generate(ARMS["2R fu"], cache=cache)


@pytest.mark.parametrize("value", ["1.5", True, np.bool_(False), 1 + 0j, None, [1.5]])
def test_bind_refuses_values_that_are_not_real_numbers(value):
    code = closed_form(planar_2r("fu", symbolic=True))
    values = {"m1": 1.5, "m2": 0.8, "l": 0.7, "g": 9.8062}
    with pytest.raises(TypeError, match="parameter m2 must be a real number"):
        code.bind(dict(values, m2=value))
    with pytest.raises(TypeError, match="values must be a dict"):
        code.bind(list(values.items()))


@pytest.mark.parametrize("parameter", ["m1", "m2", "l", "g"])
def test_bind_refuses_a_negative_mass_or_length(parameter):
    code = closed_form(planar_2r("fu", symbolic=True))
    values = {"m1": 1.5, "m2": 0.8, "l": 0.7, "g": 9.8062}
    with pytest.raises(ValueError, match=f"parameter {parameter} must not be negative"):
        code.bind(dict(values, **{parameter: -0.5}))
    assert code.nonnegative == ("g", "l", "m1", "m2")
    bound = code.bind(dict(values, m2=0.0))                # no second mass: allowed
    assert close(bound([0.1, 0.2], [0.0, 0.0], [0.0, 0.0]),
                 inverse_dynamics(planar_2r("fu", m1=1.5, m2=0.0, l=0.7, g=9.8062),
                                  [0.1, 0.2], [0.0, 0.0], [0.0, 0.0]))


def run_fortran(text, inputs):
    """Evaluate generated Fortran text line by line (a tiny interpreter for the subset the
    emitter writes: assignments, ``x(k)`` indexing from 1, ``1.5d-3`` numbers, ``merge``)."""
    names = {"sin": math.sin, "cos": math.cos, "exp": math.exp, "abs": abs, "sqrt": math.sqrt,
             "merge": lambda a, b, condition: a if condition else b}
    names.update({stem: list(values) for stem, values in inputs.items()})
    subroutine = re.search(r"^subroutine (\w+)\(([\w, ]+)\)$", text, re.M)
    output = subroutine.group(2).split(", ")[-1]
    size = int(re.search(rf"intent\(out\) :: {output}\((\d+)\)", text).group(1))
    names[output] = [None] * size
    for line in text.splitlines():
        assignment = re.fullmatch(r"  (\w+(?:\(\d+\))?) = (.+)", line)
        if not assignment:
            continue
        target, expression = assignment.groups()
        expression = re.sub(r"\b(\d+(?:\.\d+)?)d(-?\d+)\b", r"\1e\2", expression)
        expression = re.sub(r"\b([a-z]+)\((\d+)\)", lambda m: f"{m.group(1)}[{int(m.group(2)) - 1}]"
                            if m.group(1) in inputs else m.group(0), expression)
        value = eval(expression, names)                                      # noqa: S307
        indexed = re.fullmatch(r"(\w+)\((\d+)\)", target)
        if indexed:
            names[indexed.group(1)][int(indexed.group(2)) - 1] = value
        else:
            names[target] = value
    return names[output]


@pytest.mark.parametrize("name", ["pendulum", "SCARA", "PUMA 560"])
def test_fortran_text_computes_the_same_torques(name):
    robot = ARMS[name]
    code = generate(robot, cache=False)
    text = code.fortran_source
    assert max(len(line) for line in text.splitlines()) <= 132           # free-form limit
    for state in states(robot.n, 3, seed=9):
        values = run_fortran(text, dict(zip(("q", "qd", "qdd"), state)))
        assert close(values, inverse_dynamics(robot, *state))


def test_closed_form_with_symbolic_parameters_binds_to_the_numeric_arm():
    values = {"m1": 1.5, "m2": 0.8, "l": 0.7, "g": 9.8062}
    symbolic = planar_2r("fu", symbolic=True)
    code = closed_form(symbolic)
    bound = code.bind(values)
    numeric = planar_2r("fu", m1=1.5, m2=0.8, l=0.7, g=9.8062)
    for state in states(2, 4, seed=2):
        assert close(bound(*state), inverse_dynamics(numeric, *state))
    # the constants program and the main program both compile from their C text
    assert code.c_source.count("void ") == 4


@pytest.mark.parametrize("what", ["inverse_dynamics", "forward_dynamics"])
def test_closed_form_of_the_scara_equals_the_numbers(what):
    robot = ARMS["SCARA"]
    code = closed_form(robot, what)
    for q, qd, qdd in states(3, 4, seed=8):
        tau = inverse_dynamics(robot, q, qd, qdd)
        assert close(code(q, qd, qdd) if what == "inverse_dynamics" else code(q, qd, tau),
                     tau if what == "inverse_dynamics" else qdd)


# -- counts that can be checked by hand ----------------------------------------------------------
def test_program_counts_each_line_once_by_kind():
    program = Program([("x", 2)], [("t0", "*", ("x0", "x1")), ("t1", "neg", ("t0",)),
                                   ("t2", "/", ("t1", "x1")), ("t3", "cos", ("t2",)),
                                   ("t4", "-", ("t3", 1.0))], ["t4"])
    assert program.counts() == {"mul": 1, "add": 2, "div": 1, "call": 1}
    assert program.compile("f")((2.0, 3.0)) == (math.cos(-2.0) - 1.0,)


def test_pendulum_generated_code_is_the_hand_minimum():
    # tau = (m a^2/3) qdd + (m g a/2) cos q (Schilling, Eq. (6-9-22)): 2 mul, 1 add, 1 cos beyond
    # the
    # constants; viscous friction b qd adds 1 mul and 1 add
    plain = generate(pendulum(), cache=False)
    assert plain.counts == {"mul": 2, "add": 1, "div": 0, "call": 1}
    viscous = generate(pendulum(viscous=0.3), cache=False)
    assert viscous.counts == {"mul": 3, "add": 2, "div": 0, "call": 1}


def test_optimizer_lets_factors_ride_and_shares_sums():
    tape = Tape()
    x, y = tape.inputs("x", 2)
    a = 0.6 * x + 0.6 * y                     # the tape: 2 mul, 1 add
    tape.outputs([a * x, 2.0 * (a * x) - y])  # 2 more mul, 1 mul by 2, 1 sub
    assert tape.counts() == {"mul": 4, "add": 2, "div": 0, "call": 0}
    program = optimize_tape(tape)
    # (x + y) once, its product with x once; 0.6 and 1.2 scale it: 3 mul, 2 add
    assert program.counts() == {"mul": 3, "add": 2, "div": 0, "call": 0}
    assert program.compile("f")((1.5, -0.5)) == pytest.approx((0.6 * 1.5, 1.2 * 1.5 + 0.5))


def test_optimizer_shares_a_pair_of_terms_used_by_several_sums():
    opt = Optimizer([("x", 4)])
    x = [opt.input(f"x{k}") for k in range(4)]
    s1 = opt.add(opt.add(x[0], x[1]), x[2])
    s2 = opt.add(opt.add(x[0], x[1]), x[3])
    s3 = opt.sub(opt.add(x[0], x[1]), x[3])
    program = opt.program([s1, s2, s3])
    # x0 + x1 once, then one addition each: 4 instead of 6
    assert program.counts() == {"mul": 0, "add": 4, "div": 0, "call": 0}
    assert program.compile("f")((1.0, 2.0, 3.0, 4.0)) == (6.0, 7.0, -1.0)


def test_from_sympy_counts_a_square_as_one_multiplication():
    q, qd = sympy.symbols("q1 qd1")
    code = from_sympy([qd**2 * sympy.sin(q) + qd**2], {"q": [q], "qd": [qd]})
    # qd^2 (sin q + 1): 2 mul, 1 add, 1 call
    assert code.counts == {"mul": 2, "add": 1, "div": 0, "call": 1}
    assert close(code([0.5], [3.0]), [9 * math.sin(0.5) + 9])


def test_ldl_solve_on_numbers_and_on_symbols():
    D = [[4.0, 2.0, 0.5], [2.0, 3.0, 1.0], [0.5, 1.0, 2.0]]
    b = [1.0, -2.0, 0.5]
    assert close(ldl_solve(D, b)[0], np.linalg.solve(D, b))
    a, c, d = sympy.symbols("a c d", positive=True)
    x = ldl_solve([[a, c], [c, d]], [1, 0])[0]
    assert sympy.simplify(x[0] - d / (a * d - c**2)) == 0


# -- the thesis appendix, App. B.7: the two-link arm with payload ----------------------------------
def test_two_link_generated_inverse_dynamics_meets_the_raibert_horn_minimum():
    # the thesis appendix, B.7: Macsyma 30 mul / 17 add; the Raibert-Horn minimum 20 / 14 (Brady
    # et al.); sin and cos of q1 and of q2
    counts = generate(planar_2r("macsyma"), cache=False).counts
    assert counts["mul"] <= 20 and counts["add"] <= 14 and counts["call"] == 4


def test_two_link_closed_form_with_crunched_constants_as_001_counts():
    code = closed_form(planar_2r("macsyma", symbolic=True))
    assert code.parameters == ("I1", "I2", "M1", "M2", "Mp", "g", "l1", "l2")
    # with its constants crunched: below the Raibert-Horn minimum of 20 / 14 (B.7), the same calls
    assert code.counts["mul"] < 20 and code.counts["add"] < 14 and code.counts["call"] == 4
    values = dict(I1=0.2, I2=0.1, M1=3.0, M2=2.0, Mp=0.5, g=9.81, l1=0.6, l2=0.4)
    numeric = planar_2r("macsyma", **values)
    bound = code.bind(values)
    for state in states(2, 4, seed=4):
        assert close(bound(*state), inverse_dynamics(numeric, *state))


def test_crunch_keeps_structure_when_asked_and_agrees_with_expansion():
    m, l, c, q, qdd = sympy.symbols("m l c q qdd")
    expression = m * (l * sympy.cos(q) + c * sympy.sin(q)) * (qdd + l) + m * l * qdd
    for expand in (True, False):
        reduced, names = crunch([expression], {q, qdd}, expand=expand)
        back = reduced[0].subs({symbol: value for symbol, value in names})
        assert sympy.expand(back - expression) == 0
    kept, names = crunch([expression], {q, qdd}, expand=False)
    r1, r2, r3, r4 = (symbol for symbol, _ in names)
    assert [value for _, value in names] == [l, c, l * m, m]
    # the product of the two sums is kept (one multiplication), not multiplied out
    assert kept[0] == qdd * r3 + r4 * (qdd + r1) * (r1 * sympy.cos(q) + r2 * sympy.sin(q))


# -- the disk cache --------------------------------------------------------------------------------
def test_cached_code_is_reused_and_regenerated_when_the_source_changes(tmp_path, monkeypatch):
    first = generate(planar_2r("fu"), cache=tmp_path)
    files = sorted(tmp_path.glob("*.json"))
    assert not first.from_cache and len(files) == 1
    again = generate(planar_2r("fu"), cache=tmp_path)            # a new robot object
    assert again.from_cache and again.program.to_json() == first.program.to_json()
    state = states(2, 1, seed=1)[0]
    assert close(again(*state), first(*state))

    monkeypatch.setitem(code_cache._fingerprint_cache, "value", "another dynlab source")
    changed = generate(planar_2r("fu"), cache=tmp_path)
    assert not changed.from_cache and changed.key != first.key
    assert sorted(tmp_path.glob("*.json")) != files and len(list(tmp_path.glob("*.json"))) == 1

    other_mass = generate(planar_2r("fu", m1=3.0), cache=tmp_path)   # other parameters
    assert not other_mass.from_cache and other_mass.key != changed.key


def test_a_stale_or_broken_cache_file_is_regenerated(tmp_path):
    generate(planar_2r("fu"), cache=tmp_path)
    path, = tmp_path.glob("*.json")
    path.write_text("{ not json")
    code = generate(planar_2r("fu"), cache=tmp_path)
    assert not code.from_cache
    assert generate(planar_2r("fu"), cache=tmp_path).from_cache


def test_a_cache_file_carrying_code_is_never_run(tmp_path):
    """A cached program becomes Python text that this process runs; a file planted in the
    cache (a name or an argument that is code) is refused as broken and regenerated, and the
    planted code never runs."""
    torques = generate(planar_2r("fu"), cache=tmp_path)([0.3, -0.7], [1, 2], [0.5, 0.1])
    path, = tmp_path.glob("*.json")
    marker = tmp_path / "planted"
    payload = f"__import__('pathlib').Path({str(marker)!r}).write_text('ran')"
    for where in ("argument", "target", "stem", "output"):
        data = json.loads(path.read_text())
        lines = data["program"]["lines"]
        if where == "argument":
            lines[0][2][0] = payload
        elif where == "target":
            lines[0][0] = f"t = {payload}; z"
        elif where == "stem":
            data["program"]["inputs"][0][0] = f"q = {payload}; q"
        else:
            data["program"]["outputs"][0] = payload
        path.write_text(json.dumps(data))
        code = generate(planar_2r("fu"), cache=tmp_path)
        assert not code.from_cache, where
        assert np.array_equal(code([0.3, -0.7], [1, 2], [0.5, 0.1]), torques)
        assert not marker.exists(), where


def test_the_default_cache_is_a_folder_of_this_user_alone(tmp_path, monkeypatch):
    """On a machine a class shares, the default cache is never a folder others can write:
    beside the package only when private, else dynlab_cache-<uid> in the temporary directory
    when private, else no disk cache."""
    monkeypatch.delenv("DYNLAB_CACHE", raising=False)
    monkeypatch.setattr(code_cache, "_PACKAGE", tmp_path / "site" / "dynlab")
    monkeypatch.setattr(code_cache.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    beside = tmp_path / "site" / ".dynlab_cache"
    beside.mkdir(parents=True)
    beside.chmod(0o700)
    assert code_cache.cache_directory() == beside
    beside.chmod(0o777)                                 # shared with everyone
    own = tmp_path / "tmp" / f"dynlab_cache-{os.getuid()}"
    assert code_cache.cache_directory() == own and own.stat().st_mode & 0o777 == 0o700
    own.chmod(0o777)                                    # made by someone else, or opened up
    assert code_cache.cache_directory() is None
    assert not generate(planar_2r("fu")).from_cache     # still works, without a disk cache


def test_a_title_cannot_end_the_c_comment_it_sits_in():
    program = Program([("x", 1)], [("t0", "*", ("x0", "x0"))], ["t0"])
    text = program.c_source("f", "an arm */ int planted; /* and\nmore")
    first = text.splitlines()[0]
    assert "int planted" in first and first.startswith("/*") and first.endswith("*/")
    assert first.count("*/") == 1                       # the comment ends where the line does


def test_source_fingerprint_follows_the_files(tmp_path):
    here = Path(codegen.__file__).parents[1]
    shutil.copytree(here, tmp_path / "dynlab", ignore=shutil.ignore_patterns("__pycache__"))
    assert code_cache.source_fingerprint(tmp_path / "dynlab") == code_cache.source_fingerprint()
    for module in ("formulations/newton_euler", "formulations/featherstone",
                   "formulations/twist_wrench", "model/spatial", "formulations/composite_bodies",
                   "dynamics/codegen", "engine/generated", "engine/code_names",
                   "dynamics/closed_forms", "engine/native", "engine/tracing"):
        copy = tmp_path / "dynlab" / f"{module}.py"
        original = copy.read_bytes()
        copy.write_bytes(original + b"\n# an edit\n")
        changed = code_cache.source_fingerprint(tmp_path / "dynlab")
        assert changed != code_cache.source_fingerprint(), module
        copy.write_bytes(original)


def test_the_cache_key_counts_every_module_a_registered_formulation_runs():
    """Every module whose functions the registry of formulations calls (and every module those
    import) is in the cache key: found from the source, not from a list kept by hand."""
    from dynlab.formulations import registry as formulations
    modules = set(code_cache.source_modules())
    assert {"formulations.featherstone", "formulations.twist_wrench", "model.spatial",
            "formulations.composite_bodies", "formulations.newton_euler",
            "formulations.lagrange_euler", "formulations.dalembert", "engine.tracing",
            "engine.optimizer", "engine.emitters", "engine.program", "dynamics.codegen",
            "engine.generated", "engine.code_names", "dynamics.closed_forms",
            "engine.native"} <= modules
    for formulation in formulations.FORMULATIONS.values():
        for value in vars(formulation).values():
            functions = value.values() if isinstance(value, Mapping) else [value]
            for function in functions:
                module = getattr(function, "__module__", None) or ""
                if callable(function) and module.startswith("dynlab."):
                    assert module[len("dynlab."):] in modules, (formulation.name, function)


#: In a copy of dynlab: generate the twist-wrench inertia matrix by Featherstone's composite
#: rigid body algorithm with the disk cache in argv[1], and print whether it came from the cache
#: and D at one point.
_GENERATE_IN_A_COPY = """
import json, sys
from dynlab.dynamics.codegen import generate
from dynlab.model.robots import planar_2r
code = generate(planar_2r("fu"), "inertia_matrix", method="twist_wrench",
                variant="featherstone", cache=sys.argv[1])
print(json.dumps([code.from_cache, code([0.3, -0.7]).tolist(), code.counts]))
"""


def test_a_changed_formulation_in_a_copy_of_dynlab_misses_the_cache(tmp_path):
    """The cache is keyed on featherstone.py too: after an edit of its arithmetic (the diagonal
    of Featherstone's H doubled), generate(cache=...) makes new code, with the new numbers."""
    import subprocess
    import sys
    here = Path(codegen.__file__).parents[1]
    shutil.copytree(here, tmp_path / "copy" / "dynlab",
                    ignore=shutil.ignore_patterns("__pycache__", ".dynlab_cache"))
    cache = tmp_path / "cache"

    def run():
        done = subprocess.run([sys.executable, "-c", _GENERATE_IN_A_COPY, str(cache)],
                              capture_output=True, text=True, timeout=600, cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=str(tmp_path / "copy")))
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first, again = run(), run()
    assert (first[0], again[0]) == (False, True) and again[1] == first[1]
    featherstone = tmp_path / "copy" / "dynlab" / "formulations" / "featherstone.py"
    text = featherstone.read_text()
    edited = text.replace("H[i][i] = F[k]", "H[i][i] = 2 * F[k]")
    assert edited != text
    featherstone.write_text(edited)
    changed_from_cache, changed, _ = run()
    assert not changed_from_cache
    D, D_changed = np.array(first[1]), np.array(changed)
    assert np.allclose(np.diag(D_changed), 2 * np.diag(D))
    assert np.allclose(D_changed - np.diag(np.diag(D_changed)), D - np.diag(np.diag(D)))


# -- properties of every arm -----------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_and_state(max_joints=4), st.sampled_from(["link", "base"]))
def test_generated_code_of_any_chain_equals_the_recursion(case, variant):
    robot, q, qd, qdd = case
    code = generate(robot, variant=variant, cache=False)
    assert close(code(q, qd, qdd), inverse_dynamics(robot, q, qd, qdd))
    # the optimizer keeps the best of its strategies: never worse than the tape it was given
    assert sum(code.counts.values()) <= sum(code.counts_before.values())
    assert len(code.program) == sum(code.counts.values())


def test_optimizer_introduces_no_constant_that_overflows_at_moderate_rates():
    """A centre of mass of 1.1e-308 (found by Hypothesis): pulling it out of a sum as a factor made
    a constant of 9e307 that overflowed at a joint rate of 2; the rewrite is now dropped."""
    tensor = np.diag([0.25] * 3)
    links = [Link("R", mass=1, com=(0, 0, 0), inertia=tensor, name="link 1"),
             Link("P", alpha=1, mass=1, com=(0, 0, 0), inertia=tensor, name="link 2"),
             Link("R", mass=1, com=(0, 0.5, 1.11254e-308), inertia=tensor, name="link 3"),
             Link("R", mass=1, com=(0, 0, 0), inertia=tensor, name="link 4")]
    robot = Robot(links, gravity=(0, 0, 0), name="subnormal")
    state = ((0.0,) * 4, (0.0, 0.0, 2.0, 0.0), (0.0,) * 4)
    code = generate(robot, variant="link", cache=False)
    assert close(code(*state), inverse_dynamics(robot, *state))
    assert np.allclose(code(*state), [0.0, -np.sin(1.0) * 2.0, 0.0, 0.0])
