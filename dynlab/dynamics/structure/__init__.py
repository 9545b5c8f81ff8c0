"""The structure of the dynamic model: Tourassis & Neuman (1985) (``d_ij``, Table 1, Eq. (22);
coupling ``k_ij = LF x KF``, Eqs. (32)-(35); ``c_jm(i)``, Eqs. (12), (36)-(39); gravity, Eqs.
(40), (B-3); the counts of Tables 2, 3) and Lynch & Park (2017), Prop. 8.1 (passivity) and
Sec. 8.6 (task space, draft Eqs. (9.97)-(9.99)).  ``c_jm(i) = Gamma[i-1][j-1][m-1]`` of the
Christoffel variant; ``G_i = +dV/dq_i`` (the paper's sign is wrong).  The paper's slips are in
:mod:`dynlab.teaching.errata`.

>>> from dynlab.model.robots import cylindrical
>>> from dynlab.dynamics.structure.exact import model_structure
>>> structure = model_structure(cylindrical(inertia="axial"))
>>> structure.row()
{'d_ii': (3, 2), 'd_ij': (0, 0), 'c_jj(i)': (1, 0), 'c_jm(i)': (0, 0), 'G_i': (1, 1), 'total': 5}
>>> round(structure.sparsity, 3)                 # Tourassis & Neuman, Table 3: 5 of 17, 0.294
0.294
"""
