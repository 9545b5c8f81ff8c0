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

>>> from dynlab.teaching.textbook.catalogue import printed
>>> from dynlab.teaching.textbook.comparison import compare_with_derivation
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
and the comparison (:mod:`~.comparison`).
"""
