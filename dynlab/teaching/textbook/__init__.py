"""The sources' worked examples as printed, set against dynlab's derivations.

Every equation the worked examples print (Fu, Gonzalez & Lee (1987) Secs. 3.2.6, 3.3.7, 3.4.2
and its recursion Tables 3.2-3.3; Schilling (1990) Secs. 6-5, 6-6, 6-9; Lynch & Park Sec. 8.1.1;
the Macsyma results of the thesis appendix, App. B.9) is a
:class:`PrintedEquation`: the expression *as printed* -- mistakes included -- in the book's own
letters (Fu and Lynch & Park write theta, Schilling ``g_0`` and ``b_k(qd_k)``, the thesis
Macsyma's names), the mapping of those letters onto dynlab's symbols, the arm it belongs to (a
builder of :mod:`dynlab.model.robots`, symbolic) and the quantity it gives (``tau``, ``D``, ``h``,
``c``, ``C_i``, ``J``, the Newton-Euler trace, ...).  Where the print is wrong the record names the
erratum of :data:`dynlab.teaching.errata.ERRATA` and carries the corrected form.

:func:`compare_with_derivation` derives each quantity with dynlab and lists every element in
which print and derivation differ, with the printed terms, the derived terms and the erratum's
one-line reason.  A print that is right gives no entry.

Sources are keys of :data:`BIBLIOGRAPHY` (``"fu"``, ``"thesis"``, ``"schilling"``,
``"lynch_park"``) and places are as printed: section, equation, table, or the quantity a worked
example names (:attr:`PrintedEquation.citation` joins the two).  dynlab keeps Fu's letters for
the terms (``D`` inertia, ``h`` velocity terms, ``c`` gravity): Schilling's gravity ``h_i`` is
dynlab's ``c_i`` (the record's ``name``
keeps the book's).  Conventions of the derivation side: every arm is built with
``symbolic=True``; gravity along ``-y0`` (``-z0`` for the SCARA), which is Fu's L-E row ``(0, -g,
0, 0)``, its N-E base acceleration ``vdot_0 = (0, g, 0)`` and Schilling's ``g = [0, -g_0, 0]``.

>>> [record.place for record in printed("schilling", "pendulum")][:3]
['Table 6-3', 'Eq. (6-9-3)', 'Eq. (6-9-4)']
>>> result = compare_with_derivation("pendulum")
>>> len(result.checked), len(result.agreeing), len(result)
(17, 16, 1)
>>> d = result[0]                 # the terms that differ (the rod's m1 a1^2 qdd1/12 included)
>>> d.place, d.element, d.printed, d.derived
('Eq. (6-9-21), fifth line', 'n_1[3]', 7*a1**2*m1*qdd1/12, a1**2*m1*qdd1/3)

The records and the comparison live in the modules of this package: the letters and the worked
arms (:mod:`~dynlab.teaching.textbook.letters`), the record (:mod:`~.records`), one module per
source (:mod:`~.fu`, :mod:`~.schilling`, :mod:`~.lynch_park`, :mod:`~.thesis`), every record
found by source, arm or place (:mod:`~.catalogue`), the derivation side (:mod:`~.derivation`)
and the comparison (:mod:`~.comparison`); their public names are offered here.
"""

# the public names of the package's modules, as the module textbook.py offered them
from dynlab.teaching.bibliography import BIBLIOGRAPHY
from dynlab.teaching.textbook.letters import (a1, a2, add1, ARMS, b1, b2, b3, bd, bs, bv, bv1, bv2,
                                              bv3, d1, eps, FRICTION, friction_6_3_3, g, G0, g0,
                                              gravity, half, I1, I2, i_1, i_2, l, L1, l1, L2, l2,
                                              l3, M1, m1, M2, m2, m3, MACSYMA, mm1, mm2, Mp, mp, q1,
                                              q2, q3, qd1, qd2, qd3, qdd1, qdd2, qdd3, QUANTITIES,
                                              SCALARS, SOURCES, t1, t1d, t1dd, t2, t2d, t2dd, th1,
                                              th2, thd1, thd2, thdd1, thdd2, THETA, third,
                                              TOP_MATRICES, TOP_VECTORS, TRACE_QUANTITIES,
                                              validate_arm, WORKED_ARMS)
from dynlab.teaching.textbook.records import col, make_record, mat, PrintedEquation
from dynlab.teaching.textbook.derivation import derived, equations, robot, torques, trace
from dynlab.teaching.textbook.fu import (abar1_3_3_7, abar2_3_3_7, C1, C12, C2, c_3_2_6, c_3_4_2,
                                         D_3_2_6, f1_3_3_7, f2_3_3_7, h_3_2_6, n2_3_3_7,
                                         p2_star_3_3_7, R21_3_3_7, records_fu, run_table_3_2,
                                         run_table_3_3, S1, S12, S2, s2_bar_3_3_7, TAU1_3_3_7,
                                         TAU2_3_3_7, thdd, U11_3_2_6, U21_3_2_6, U22_3_2_6,
                                         vd1_3_3_7, vd2_3_3_7, w1_3_3_7, w2_3_3_7, wd1_3_3_7,
                                         wd2_3_3_7, z0)
from dynlab.teaching.textbook.schilling import (B3_6_6_20, B3_6_6_20_corrected, C12q, C1_6_5_15,
                                                C1_6_6_23, C1m2, C1q, C2_6_5_18, C2_6_6_26, C2q,
                                                C3_6_6_29, D11_s, D12_s, D22_s, D_6_5_14, D_6_6_14,
                                                D_6_6_22, f1_6_9_20, h_6_5, h_6_6, n1_6_9_21,
                                                n1z_6_9_21_fifth, n1z_6_9_21_fifth_corrected,
                                                n1z_6_9_21_sixth, records_schilling_pendulum,
                                                records_schilling_planar, records_schilling_scara,
                                                S12q, S1m2, S1q, S2q, TAU1_6_5_17, tau1_6_6_25,
                                                TAU2_6_5_20, tau2_6_6_28, TAU3_6_6_31, TAU_6_9_10,
                                                u1, u2)
from dynlab.teaching.textbook.lynch_park import (c12_, c1_, c2_, K_8_1_1, K_8_1_1_corrected,
                                                 P_8_1_1, records_lynch_park, s12_, s1_, s2_,
                                                 torques_lynch_park_8_1_1)
from dynlab.teaching.textbook.thesis import r1, r2, r3, r4, r5, r6, records_thesis, TT1, TT2
from dynlab.teaching.textbook.catalogue import lookup, printed, RECORDS
from dynlab.teaching.textbook.comparison import (compare_with_derivation, Discrepancy,
                                                 PrintedComparison)

__all__ = ["ARMS", "BIBLIOGRAPHY", "QUANTITIES", "PrintedComparison", "Discrepancy", "PrintedEquation",
           "compare_with_derivation", "derived", "equations", "lookup", "printed", "robot",
           "run_table_3_2", "run_table_3_3", "torques", "torques_lynch_park_8_1_1", "trace"]
