"""The disk cache of generated code, the one folder policy of all code dynlab writes and runs
(:func:`cache_directory`): generated programs as JSON text (never pickled functions), keyed by a
hash of the robot's parameters, the output, the formulation and dynlab's own source
(:func:`source_fingerprint` of :func:`source_modules`, every module that can reach generated
text), so that code is regenerated when any of them changes; compiled C in its ``native/``
(:mod:`dynlab.engine.native`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import tempfile
from pathlib import Path

from dynlab.engine.generated import FORMAT, Generated

#: Where the modules that can reach generated text start: the modules that make it (the trace
#: pipeline of codegen, with the tracing, the optimizer and the emitters; the closed forms; the
#: generated code, whose texts the emitters write; the C compiled from them) and the registry
#: of formulations (every formulation it enters); named below the dynlab package
#: (``"dynamics.codegen"`` is ``dynlab/dynamics/codegen.py``).
_SOURCE_ROOTS = ("dynamics.codegen", "dynamics.closed_forms", "engine.generated",
                 "engine.native", "formulations.registry")
_fingerprint_cache: dict = {}
#: The dynlab package's folder (this module is dynlab/engine/code_cache.py).
_PACKAGE = Path(__file__).resolve().parents[1]


def _module_file(directory: Path, module: str) -> Path | None:
    path = directory.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_modules(directory: Path, module: str) -> set:
    """The dynlab modules that ``module``'s source imports, at its top or inside functions."""
    found = set()
    tree = ast.parse(_module_file(directory, module).read_bytes())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("dynlab.") and _module_file(directory, name[7:]) is not None:
                found.add(name[7:])
    return found


def source_modules(directory=None) -> list:
    """The dynlab modules whose source can reach generated text: :data:`_SOURCE_ROOTS` and every
    dynlab module they import, directly or through others (read from the source, so a module
    that a formulation starts to use is counted without a list to keep).

    >>> {"formulations.featherstone", "formulations.twist_wrench", "model.spatial",
    ...  "formulations.composite_bodies"} <= set(source_modules())
    True
    """
    here = _PACKAGE if directory is None else Path(directory)
    found, waiting = set(), list(_SOURCE_ROOTS)
    while waiting:
        module = waiting.pop()
        if module not in found:
            found.add(module)
            waiting.extend(_imported_modules(here, module) - found)
    return sorted(found)


def source_fingerprint(directory=None) -> str:
    """A hash of the dynlab source files generated code depends on (:func:`source_modules`; in
    ``directory``, by default the installed package, read once per process): cached code made
    by different source is never reused."""
    here = _PACKAGE if directory is None else Path(directory)
    if directory is not None or "value" not in _fingerprint_cache:
        digest = hashlib.sha256()
        for module in source_modules(here):
            digest.update(module.encode())
            digest.update(_module_file(here, module).read_bytes())
        if directory is not None:
            return digest.hexdigest()
        _fingerprint_cache["value"] = digest.hexdigest()
    return _fingerprint_cache["value"]


def private(directory: Path) -> bool:
    """Whether ``directory`` is this user's and no one else can write to it (a folder whose
    files are loaded or run: cached programs here, compiled libraries in
    :mod:`dynlab.engine.native`)."""
    try:
        status = directory.stat()
    except OSError:
        return False
    return status.st_uid == os.getuid() and not status.st_mode & 0o022


def cache_directory(cache=True) -> Path | None:
    """Where generated code is kept: ``cache`` if a path, else ``$DYNLAB_CACHE``, else
    ``.dynlab_cache/`` beside the package, else ``dynlab_cache-<uid>`` in the temporary folder,
    the last two only when this user's alone (:func:`private`); ``None`` for no disk cache."""
    if cache is False or cache is None:
        return None
    if not isinstance(cache, (bool, str, os.PathLike)):
        raise TypeError(f"cache must be True, False or a directory (a str or a Path), got "
                        f"{type(cache).__name__} {cache!r}")
    if isinstance(cache, str) and not cache.strip():
        raise ValueError("cache must name a directory, got an empty string")
    if not isinstance(cache, bool):
        return Path(cache)
    if os.environ.get("DYNLAB_CACHE"):
        return Path(os.environ["DYNLAB_CACHE"])
    beside = _PACKAGE.parent / ".dynlab_cache"
    if os.access(beside.parent, os.W_OK) and (not beside.exists() or private(beside)):
        return beside
    own = Path(tempfile.gettempdir()) / f"dynlab_cache-{os.getuid()}"
    try:
        own.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return None
    return own if private(own) else None


def robot_fingerprint(robot) -> str:
    return repr((robot.joint_types, robot.numeric()))


def load_generated(path: Path, key: str):
    try:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT or data.get("key") != key:
            return None
        return Generated.from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None                      # unreadable or stale: regenerate


def store_generated(directory: Path, stem: str, generated: Generated) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.glob(f"{stem}-*.json"):      # made by other source or parameters
            old.unlink(missing_ok=True)
        path = directory / f"{stem}-{generated.key[:16]}.json"
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(generated.to_json(), indent=1))
        temporary.replace(path)
    except OSError:
        pass                             # a cache that cannot be written is no cache
