"""In a graded run the library calls that answer a question refuse (issue 40, item 6).

Each key names its calls (``"refuses"``, from ``tools/library_answers.py``) as dotted paths,
optionally with :data:`SYMBOLIC`.  For marks the grader hands a kernel its notebook's calls
(:func:`environment`) and ``PYTHONSTARTUP`` runs ``own_work_startup.py``, which
:func:`install`-s them before any of the student's code.  Each refused function is replaced
wherever a dict holds it; an audit hook refuses running a dynlab module again, and starting
another program from outside dynlab (a ``python -c`` child would run without the refusals: the
kernel's startup file is all that installs them).  What that cannot
stop is flagged in the notes (:data:`TRICKS`), and so is a table of answers typed in
(:data:`NUMBER`), computed where nothing refuses.

>>> print(refusal("dynlab.inverse_dynamics", ["3.16c", "3.17d"]))  # doctest: +NORMALIZE_WHITESPACE
3.16c, 3.17d ask for your own derivation; dynlab.inverse_dynamics is not available in the graded
run
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import re
import sys
import sysconfig
import types
from pathlib import Path

#: The environment variable in which a grader hands a kernel the refused calls:
#: JSON ``{call: [questions]}``.
REFUSED_VARIABLE = "DYNLAB_REFUSED"
#: The file IPython runs before the first cell (``PYTHONSTARTUP``): it calls :func:`install`.
STARTUP = Path(__file__).resolve().with_name("own_work_startup.py")
#: The dynlab package (a caller inside it is the library itself).
PACKAGE = Path(__file__).resolve().parents[1]
#: The condition a call may carry: refused only when an argument is symbolic.
SYMBOLIC = " on a symbolic arm"
#: Code in an answer cell that can get round the refusals (the grader names it in the notes).
TRICKS = re.compile(r"\breload\b|__code__|__closure__|__globals__|__wrapped__|_getframe"
                    r"|\bcompile\(|\bexec\(|\beval\(|sys\.modules|\bgc\.|importlib|runpy"
                    r"|addaudithook|spec_from_file_location|FunctionType|\bctypes\b")
#: A number typed in; :data:`TABLE` or more of :data:`LONG` significant digits or more in a cell
#: are a table of answers computed where nothing refuses (practice), one a value of a given's
#: grid (the grids are small and public): the grader names the cell too
NUMBER = re.compile(r"(?<![\w.])(?:\d+\.?\d*|\.\d+)")
LONG, TABLE = 6, 3


class OwnWorkAsked(RuntimeError):
    """A call refused in a graded run: the question asks for the student's own work."""


#: The audit events that start another program (PEP 578's table), refused from outside dynlab
#: with a PermissionError, which a library that tries a program (fontconfig's) takes in stride
PROGRAMS = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"})
#: Python's own modules (subprocess, os), between the code that starts a program and the event
STANDARD_LIBRARY = sysconfig.get_paths()["stdlib"] + os.sep


def refusal(call: str, questions) -> str:
    """What a refused call says (short: the grader keeps 200 characters of an error)."""
    verb = "asks" if len(questions) == 1 else "ask"
    return (f"{', '.join(questions)} {verb} for your own derivation; {call.replace(SYMBOLIC, '')}"
            f" is not available in the graded run" + (SYMBOLIC if call.endswith(SYMBOLIC)
                                                      else ""))


def refused_calls(questions) -> dict:
    """``{call: [questions]}``: the calls the keys in use declare for ``questions``."""
    from dynlab.grading.keys import keys
    refused: dict = {}
    for question in questions:
        for call in keys().get(question, {}).get("refuses", []):
            refused.setdefault(call, []).append(question)
    return refused


def environment(questions, graded: bool) -> dict:
    """The variables a grader sets for the kernel of a notebook asking ``questions``: in a
    ``graded`` run (marks), the calls to refuse and the startup file that refuses them;
    nothing otherwise (practice keeps every call)."""
    refused = refused_calls(questions) if graded else {}
    if not refused:
        return {}
    return {REFUSED_VARIABLE: json.dumps(refused), "PYTHONSTARTUP": str(STARTUP)}


def flagged(source: str) -> list:
    """The tricks of :data:`TRICKS` in a cell's code, each once, in order, and its long numbers
    typed in when they are a table (:data:`NUMBER`).

    >>> flagged("import importlib; importlib.reload(dynlab)")
    ['importlib', 'reload']
    >>> flagged("kappa = {4.5: 18.57867296, 5.5: 20.654997245, 6.5: 22.7403171}[given['T']]")
    ['3 numbers of 6 or more digits typed in']
    """
    found = list(dict.fromkeys(match.group(0).rstrip("(") for match in TRICKS.finditer(source)))
    typed = sum(len(match.group(0).replace(".", "").lstrip("0")) >= LONG
                for match in NUMBER.finditer(source))
    return found + ([f"{typed} numbers of {LONG} or more digits typed in"] if typed >= TABLE
                    else [])


def tricks(notebook: bytes) -> list:
    """Notes naming each code cell of a submitted notebook (its bytes) that uses a trick of
    :data:`TRICKS`, for the person who reads the gradebook.

    >>> import nbformat
    >>> cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("exec(s)")]
    >>> tricks(nbformat.writes(nbformat.v4.new_notebook(cells=cells)).encode())
    ['cell 2 uses exec, which can get round the refusals of a graded run: read it']
    """
    import nbformat
    try:
        cells = nbformat.reads(notebook.decode("utf-8"), as_version=4).cells
    except Exception:                                 # noqa: BLE001 - the run says why
        return []
    return [f"cell {index + 1} uses {', '.join(found)}, which can get round the refusals of a "
            f"graded run: read it" for index, cell in enumerate(cells)
            if cell.cell_type == "code" and (found := flagged(str(cell.source)))]


# -- inside the graded kernel ---------------------------------------------------------------------
_LOADED: set = set()            # the files of the dynlab modules imported (each runs once)


def install(refused: dict) -> None:
    """Refuse each call of ``refused`` (``{call: [questions]}``) from outside dynlab, and any
    second run of a dynlab module (see the module docstring).  Raises ValueError naming a call
    that names no function of dynlab."""
    for call, questions in refused.items():
        path = call[:-len(SYMBOLIC)] if call.endswith(SYMBOLIC) else call
        _replace(_resolve(path), _refusing(_resolve(path), refusal(call, questions),
                                           call.endswith(SYMBOLIC)))
    _LOADED.update(_module_files())
    _refuse_fork_exec()
    sys.addaudithook(_audit)


def install_from_environment() -> None:
    """:func:`install` the calls the grader handed (:data:`REFUSED_VARIABLE`), if any."""
    text = os.environ.get(REFUSED_VARIABLE, "")
    if text:
        install(json.loads(text))


def _resolve(path: str):
    """The function a dotted path names: a module's attribute, or a class's."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            target = getattr(target, name, None)
        if isinstance(target, types.FunctionType):
            return target
        break
    raise ValueError(f"refuses: {path} names no function of dynlab")


def _refusing(original, message: str, only_symbolic: bool):
    def refused(*args, **kwargs):
        if not _from_library(sys._getframe(1)) and (
                not only_symbolic or any(map(_symbolic, [*args, *kwargs.values()]))):
            raise OwnWorkAsked(message)
        return original(*args, **kwargs)
    for attribute in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(refused, attribute, getattr(original, attribute))
    return refused


def _replace(original, replacement) -> None:
    """Put ``replacement`` wherever a dict holds ``original`` (modules, classes, registries)."""
    for holder in gc.get_referrers(original):
        if not isinstance(holder, dict):
            continue
        owners = [o for o in gc.get_referrers(holder) if isinstance(o, type)]
        for name in [name for name, value in holder.items() if value is original]:
            if owners:
                setattr(owners[0], name, replacement)
            else:
                holder[name] = replacement


def _from_library(frame) -> bool:
    """Whether ``frame`` runs code of a dynlab module, in that module."""
    name = frame.f_globals.get("__name__")
    module = sys.modules.get(name) if isinstance(name, str) else None
    return (module is not None and name.split(".")[0] == "dynlab"
            and vars(module) is frame.f_globals
            and frame.f_code.co_filename == getattr(module, "__file__", None)
            and frame.f_code.co_filename in _LOADED)


def _symbolic(value) -> bool:
    """Whether a call's argument is symbolic: a robot with symbolic parameters, or SymPy
    symbols (alone, or in a vector)."""
    if getattr(value, "is_symbolic", False) is True:
        return True
    import sympy
    if isinstance(value, (sympy.Basic, sympy.MatrixBase)):
        return bool(value.free_symbols)
    if isinstance(value, (list, tuple)):
        return any(map(_symbolic, value))
    return False


def _module_files() -> set:
    return {module.__file__ for name, module in list(sys.modules.items())
            if name.split(".")[0] == "dynlab" and getattr(module, "__file__", None)}


def _program_from_library(what: str, frame) -> None:
    """Raise PermissionError unless the code nearest ``frame`` outside Python's own modules
    (subprocess, multiprocessing, os) is dynlab's."""
    while frame is not None and frame.f_code.co_filename.startswith(STANDARD_LIBRARY):
        frame = frame.f_back
    if frame is None or not _from_library(frame):
        raise PermissionError(f"starting another program ({what}) is not available in the "
                              f"graded run")


def _refuse_fork_exec() -> None:
    """Put a refusal before ``_posixsubprocess.fork_exec`` wherever a dict holds it (subprocess
    keeps its own name for it): it starts a program with no audit event (multiprocessing's spawn
    and forkserver: a child that unpickles a refused function by its name gets the original)."""
    import _posixsubprocess
    original = _posixsubprocess.fork_exec

    def fork_exec(*args, **kwargs):
        _program_from_library("fork_exec", sys._getframe(1))
        return original(*args, **kwargs)
    _replace(original, fork_exec)


def _audit(event: str, args: tuple) -> None:
    if event in PROGRAMS:
        _program_from_library(event, sys._getframe(1))
    if event == "exec" and isinstance(args[0], types.CodeType):
        filename = args[0].co_filename
        if filename in _LOADED:
            raise OwnWorkAsked(f"running dynlab's module {Path(filename).name} again is not "
                               f"available in the graded run")
        if filename.startswith(str(PACKAGE) + os.sep):     # a module imported for the first time
            _LOADED.add(filename)
