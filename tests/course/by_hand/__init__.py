"""Each question's right answer and typical mistakes at given values, written by hand from the
printed formulas (or, for numbers, by a route of dynlab's own other than the key), never read
from a key: one module per group of questions, each with ``right(question, given)`` (the answer
as the notebook's check cell hands it in), ``mistakes(question, given)`` (``[(answer, words of
the feedback)]``) and ``AT``, a point of the question's symbols.  Each module cites its sources."""

from __future__ import annotations

import numpy as np
import sympy


def entries(answer, at: dict) -> np.ndarray:
    """An answer's entries, every part's, as numbers at the point ``at`` of its symbols (a letter:
    its code)."""
    if isinstance(answer, str):
        return np.array([float(ord(letter)) for letter in answer])
    if isinstance(answer, (tuple, list)):
        return np.concatenate([entries(part, at) for part in answer] or [np.zeros(0)])
    if isinstance(answer, (sympy.Basic, sympy.MatrixBase)):
        return np.array(sympy.Matrix([answer]).xreplace(at).evalf(), dtype=float).ravel()
    return np.ravel(np.asarray(answer, dtype=float))
