"""The names of generated code: a name given by the user is checked to name a function in
Python, C and Fortran and the files of :func:`~dynlab.engine.native.compile_c`
(:func:`code_name`), and an arm's code is named after the arm (:func:`default_name`).
"""

from __future__ import annotations

import keyword
import re

from dynlab.engine.program import FUNCTIONS, Program

#: C's keywords (C99 and C11), which no generated function may be named.
_C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed sizeof static struct
    switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex
    _Generic _Imaginary _Noreturn _Static_assert _Thread_local""".split())
#: The functions of C's <math.h> (C99; each also with the suffixes f and l), which the C text
#: includes: a generated function of one of these names would clash with it.
_C_MATH = frozenset(f"{base}{suffix}" for base in """acos asin atan atan2 cos sin tan acosh asinh
    atanh cosh sinh tanh exp exp2 expm1 frexp ilogb ldexp log log10 log1p log2 logb modf scalbn
    scalbln cbrt fabs hypot pow sqrt erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint
    round lround llround trunc fmod remainder remquo copysign nan nextafter nexttoward fdim fmax
    fmin fma""".split() for suffix in ("", "f", "l"))
#: Names the generated texts use themselves: the outputs, the batch loop's, Python's functions.
_TEXT_NAMES = frozenset(("out", "count", "i", "inf", "nan", "np", *FUNCTIONS))
#: The inputs' names in the texts (q, qd, qdd, tau of :data:`WHAT`; r, p of the constants).
_INPUT_STEMS = frozenset(("q", "qd", "qdd", "tau", "r", "p"))
#: Longest name of generated code (it names the files of :func:`compile_c`).
NAME_LIMIT = 100


def code_name(name, program: Program | None = None) -> str:
    """``name`` if it can name generated code (functions in Python, C, Fortran and the files of
    :func:`compile_c`): an ASCII identifier starting with a letter, no keyword or name the texts
    use, at most :data:`NAME_LIMIT` characters; else a ``TypeError``/``ValueError``.

    >>> code_name("../escaped")
    Traceback (most recent call last):
    ...
    ValueError: name must be an identifier (letters, digits and _, starting with a letter), ...
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__} {name!r}")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        raise ValueError(f"name must be an identifier (letters, digits and _, starting with a "
                         f"letter), got {name!r}")
    if len(name) > NAME_LIMIT:
        raise ValueError(f"name must have at most {NAME_LIMIT} characters, got {len(name)}")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in _C_KEYWORDS:
        raise ValueError(f"name must not be a keyword of Python or C, got {name!r}")
    taken = _TEXT_NAMES | _C_MATH | {stem for stem, _ in (program.inputs if program else ())}
    if name in taken or name in _INPUT_STEMS:
        raise ValueError(f"name {name!r} is used inside the generated code (an input, an "
                         f"output or a function of <math.h>): choose another")
    return name


def default_name(robot_name: str, what: str, suffix: str = "") -> str:
    """The name of generated code for an arm (its slug, after ``arm_`` if it starts with a
    digit)."""
    slug = text_slug(robot_name)
    return f"{'' if slug[0].isalpha() else 'arm_'}{slug}_{what}{suffix}"


def text_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "robot"
