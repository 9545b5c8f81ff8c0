"""The run's seed reaches the generators that tests draw from (the root ``conftest.py``), so
that ``DYNLAB_TEST_SEED`` replays a run: here SymPy's own generator, which its multivariate
factoring (reached through ``trigsimp``) and ``Expr.equals`` draw from."""

from __future__ import annotations

import hashlib
import os
import random

import numpy as np
from sympy.core import random as sympy_random


def _seeded_draw(nodeid: str) -> float:
    """The first draw of a generator seeded as conftest seeds SymPy's for test ``nodeid``."""
    test = int.from_bytes(hashlib.sha256((nodeid + "|sympy").encode()).digest()[:8], "little")
    state = np.random.SeedSequence([int(os.environ["DYNLAB_TEST_SEED"]), test]).generate_state(1)
    return random.Random(int(state[0])).random()


def test_sympys_generator_is_seeded_by_the_run_and_the_test(request):
    assert sympy_random.random() == _seeded_draw(request.node.nodeid)
    assert _seeded_draw(request.node.nodeid) != _seeded_draw(request.node.nodeid + "x")
