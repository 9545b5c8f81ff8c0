"""The sources' worked examples as printed (:class:`~.records.PrintedEquation`: the expression as
printed, mistakes included, in the book's letters, mapped onto dynlab's symbols, with its
errata of :data:`dynlab.teaching.errata.ERRATA`), set against dynlab's derivations
(:func:`~.comparison.compare_with_derivation`): Fu, Gonzalez & Lee Secs. 3.2.6, 3.3.7, 3.4.2,
Tables 3.2-3.3; Schilling Secs. 6-5, 6-6, 6-9; Lynch & Park Sec. 8.1.1; the thesis appendix,
App. B.9.  Derivations use the symbolic arms, gravity along ``-y0`` (``-z0`` for the SCARA).

>>> from dynlab.teaching.textbook.comparison import compare_with_derivation
>>> result = compare_with_derivation("pendulum")
>>> len(result.checked), len(result.agreeing), len(result)
(17, 16, 1)
>>> d = result[0]                 # the terms that differ (the rod's m1 a1^2 qdd1/12 included)
>>> d.place, d.element, d.printed, d.derived
('Eq. (6-9-21), fifth line', 'n_1[3]', 7*a1**2*m1*qdd1/12, a1**2*m1*qdd1/3)
"""
