"""The thesis appendix 'Dynamics of Two Link Manipulators' (1990), App. B.9 as printed: the
two-link arm with a payload, derived in Macsyma, with its crunched constants
(:func:`records_thesis`).
"""

from __future__ import annotations

import functools

from sympy import cos, sin

from dynlab.teaching.textbook.letters import (
    MACSYMA,
    gravity,
    i_1,
    i_2,
    l1,
    l2,
    mm1,
    mm2,
    mp,
    t1,
    t1d,
    t1dd,
    t2,
    t2d,
    t2dd,
)
from dynlab.teaching.textbook.records import make_record

#: App. B.9, (d52): the crunched constants
r1 = 4 * gravity * l1 * mp + 4 * gravity * l1 * mm2 + 2 * gravity * l1 * mm1
r2 = ((4 * l2**2 + 4 * l1**2) * mp + (l2**2 + 4 * l1**2) * mm2 + l1**2 * mm1 + 4 * i_2
      + 4 * i_1)
r3 = 4 * gravity * l2 * mp + 2 * gravity * l2 * mm2
r4 = 8 * l1 * l2 * mp + 4 * l1 * l2 * mm2
r5 = 4 * l1 * l2 * mp + 2 * l1 * l2 * mm2
r6 = 4 * l2**2 * mp + l2**2 * mm2 + 4 * i_2
_s = sin(t1)**2 + cos(t1)**2          # Macsyma never reduced it to 1
#: App. B.9, (d47)
TT1 = (((r5 * _s) * cos(t2) + r6) * t2dd - r5 * _s * sin(t2) * t2d**2
       - r4 * _s * t1d * sin(t2) * t2d - r3 * sin(t1) * sin(t2)
       + (r4 * _s * t1dd + r3 * cos(t1)) * cos(t2) + r2 * t1dd + r1 * cos(t1)) / 4
#: App. B.9, (d51)
TT2 = (r6 * t2dd + (r5 * _s * t1d**2 - r3 * sin(t1)) * sin(t2)
       + (r5 * _s * t1dd + r3 * cos(t1)) * cos(t2) + r6 * t1dd) / 4


def records_thesis() -> list:
    arm, R = "planar_2r/macsyma", functools.partial(make_record, "thesis")
    return [
        R("App. B.9, (d47) with (d52)", arm, "tau", (1,), TT1, MACSYMA,
          "tt1"),
        R("App. B.9, (d51) with (d52)", arm, "tau", (2,), TT2, MACSYMA,
          "tt2"),
    ]
