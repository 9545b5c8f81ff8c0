"""A committed answer key is the same whatever processor builds it.

NumPy picks its vectorised loops by processor (``numpy.show_config()``'s SIMD extensions): the
last bits of a long computation differ between them.  A key must carry no such bit: what the
physics fixes is derived exactly, and a number computed by integration is rounded far above the
round-off (``numeric_key`` of ``tools/answer_keys/06_dalembert_newton_euler_and_simulation.py``).
Here the key of question S.2 (Euler's energy gain, from simulations) is rebuilt in a process whose
NumPy has its widest loops taken away
(``NPY_DISABLE_CPU_FEATURES``) and must equal the committed one, value for value: the
instructor's (as built, ``solutions/answer_keys/``), from which the shipped one is sealed at the
practice values.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from dynlab.grading import KEY_DIRECTORY

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "06_dalembert_newton_euler_and_simulation"
#: The instructor's keys as built (tools/make_answer_keys.py)
INSTRUCTOR_KEYS = ROOT / "solutions" / "answer_keys"


def narrower_dispatch() -> str:
    """``NPY_DISABLE_CPU_FEATURES`` that takes this machine's widest loops away: AVX-512's on a
    machine that has them (``X86_V4``), else AVX2's (``X86_V3``); nothing on a machine with
    neither (its one dispatch is then the only one there is)."""
    found = np.show_config(mode="dicts")["SIMD Extensions"]["found"]
    if "X86_V4" in found:
        return "X86_V4 AVX512_ICL AVX512_SPR"
    return "X86_V3" if "X86_V3" in found else ""


BUILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import make_answer_keys
print(json.dumps({"found": np.show_config(mode="dicts")["SIMD Extensions"]["found"],
                  "key": make_answer_keys.key_file(sys.argv[2]).euler_key()}))
"""


def test_euler_s_energy_key_is_the_committed_one_on_a_narrower_dispatch():
    narrower = narrower_dispatch()
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=narrower, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", BUILD, str(ROOT / "tools"), NOTEBOOK],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    built = json.loads(done.stdout.strip().splitlines()[-1])
    assert not set(narrower.split()) & set(built["found"]), built["found"]
    committed = next(key for key in json.loads(
        (INSTRUCTOR_KEYS / f"{NOTEBOOK}.json").read_text())["questions"] if key["id"] == "S.2")
    assert [p["reference"] for p in built["key"]["parts"]] == \
        [p["reference"] for p in committed["parts"]]
    assert [m["value"] for m in built["key"]["mistakes"]] == \
        [m["value"] for m in committed["mistakes"]]


def test_the_exact_motion_s_energy_change_is_sealed_as_zero():
    from dynlab.grading.keys import reference
    committed = next(key for key in json.loads(
        (KEY_DIRECTORY / f"{NOTEBOOK}.json").read_text())["questions"] if key["id"] == "S.2")
    exact = reference(committed)[("mistake", 0)]
    assert exact == [0], exact
