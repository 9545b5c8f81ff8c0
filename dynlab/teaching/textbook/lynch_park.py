"""Lynch & Park (2017) Sec. 8.1.1 as printed: the planar 2R arm with point masses
(:func:`records_lynch_park`).
"""

from __future__ import annotations

import functools

from sympy import cos, sin

from dynlab.teaching.textbook.letters import (
    L1,
    L2,
    THETA,
    g,
    half,
    m1,
    m2,
    th1,
    th2,
    thd1,
    thd2,
    thdd1,
    thdd2,
)
from dynlab.teaching.textbook.records import col, make_record

c1_, c2_, s1_, s2_, c12_, s12_ = (cos(th1), cos(th2), sin(th1), sin(th2), cos(th1 + th2),
                                  sin(th1 + th2))
_K2_bracket = ((L1**2 + 2 * L1 * L2 * c2_ + L2**2) * thd1**2,
               2 * (L2**2 + L1 * L2 * c2_) * thd1 * thd2, L2**2 * thd2**2)
#: K_1 + K_2 of the 2R example (draft: below Eq. (9.7)) as printed (m2 multiplies the first term
#: only) and corrected
K_8_1_1 = m1 * L1**2 * thd1**2 / 2 + half * (m2 * _K2_bracket[0] + _K2_bracket[1] + _K2_bracket[2])
K_8_1_1_corrected = m1 * L1**2 * thd1**2 / 2 + half * m2 * sum(_K2_bracket)
P_8_1_1 = m1 * g * L1 * s1_ + m2 * g * (L1 * s1_ + L2 * s12_)


def torques_lynch_park_8_1_1(p1: bool = False, p2: bool = False, p3: bool = False):
    """Lynch & Park's tau of the 2R example (draft: after Eq. (9.8)) as printed (book letters), with
    the corrections P1 (tau_1's ``cos th1`` -> ``cos th2``), P2 (tau_2's velocity term) and P3
    (tau_2's gravity sign) applied when asked.

    >>> [torques_lynch_park_8_1_1(p2=p2)[1].has(thd1 * thd2) for p2 in (False, True)]
    [True, False]
    """
    tau1 = (((m1 + m2) * L1**2 + m2 * (2 * L1 * L2 * c2_ + L2**2)) * thdd1
            + m2 * (L1 * L2 * (c2_ if p1 else c1_) + L2**2) * thdd2
            - 2 * m2 * L1 * L2 * thd1 * thd2 * s2_ - m2 * L1 * L2 * thd2**2 * s2_
            + (m1 + m2) * L1 * g * c1_ + m2 * g * L2 * c12_)
    tau2 = (m2 * (L1 * L2 * c2_ + L2**2) * thdd1 + m2 * L2**2 * thdd2
            + (m2 * L1 * L2 * thd1**2 * s2_ if p2 else -m2 * L1 * L2 * thd1 * thd2 * s2_)
            + (1 if p3 else -1) * m2 * g * L2 * c12_)
    return col(tau1, tau2)


def records_lynch_park() -> list:
    arm, R, S = "planar_2r/lynch_park", functools.partial(make_record, "lynch_park"), THETA
    return [
        R("Sec. 8.1.1, (x_1, y_1)", arm, "r_bar", (1, slice(0, 2)),
          col(L1 * c1_, L1 * s1_), S, "(x_1, y_1)"),
        R("Sec. 8.1.1, (x_2, y_2)", arm, "r_bar", (2, slice(0, 2)),
          col(L1 * c1_ + L2 * c12_, L1 * s1_ + L2 * s12_), S, "(x_2, y_2)"),
        R("Sec. 8.1.1, K_1 + K_2", arm, "K", None, K_8_1_1, S, "K_1 + K_2",
          errata=("Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))",),
          corrections=(K_8_1_1_corrected,)),
        R("Sec. 8.1.1, P_1 + P_2", arm, "P", None, P_8_1_1, S, "P_1 + P_2"),
        R("Sec. 8.1.1, the torques of the 2R example", arm, "tau", None,
          torques_lynch_park_8_1_1(), S, "tau",
          errata=("Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 "
                  "(draft: after Eq. (9.8))",
                  "Sec. 8.1.1, tau_2 of the 2R example, velocity term (draft: after Eq. (9.8))",
                  "Sec. 8.1.1, tau_2 of the 2R example, gravity term (draft: after Eq. (9.8))"),
          corrections=(torques_lynch_park_8_1_1(p1=True), torques_lynch_park_8_1_1(p2=True),
                       torques_lynch_park_8_1_1(p3=True))),
    ]
