"""The structure of the dynamic model (Tourassis & Neuman (1985); Lynch & Park (2017), Prop. 8.1
and Sec. 8.6), by the path the chapters import it from: the computations live in
:mod:`dynlab.dynamics.structure` (a module per idea), the slider dashboard in
:mod:`dynlab.teaching.dashboards.structure`; every public name is re-exported here.

>>> from dynlab.dynamics import structure
>>> model_structure is structure.model_structure
True
"""

from __future__ import annotations

from dynlab.dynamics.structure import (COLUMNS, TABLE3_PRINTED, TOLERANCE, Coefficient, Coupling,
                                       InertialIngredients, InertiaMatrixCheck, ModelStructure,
                                       Table3Row, TaskSpaceDynamics, check_inertia_matrix,
                                       coefficient_expression, coriolis_coefficient, coupling,
                                       coupling_coefficients, gravity_coefficients,
                                       gravity_coefficients_dh, independent_coefficients,
                                       inertia_matrix_22, inertia_matrix_in_joint_frames,
                                       inertial_ingredients, kinematic_factors, loading_factors,
                                       model_structure, non_interacting_residual,
                                       passivity_matrix, passivity_residual,
                                       reflective_coupling_residual,
                                       simplified_christoffel_symbols, sparsity_formula,
                                       table1_dependence, table2_counts, task_space_dynamics)
from dynlab.teaching.dashboards.structure import StructureDashboard, structure_dashboard

__all__ = ["COLUMNS", "Coefficient", "Coupling", "InertiaMatrixCheck", "InertialIngredients",
           "ModelStructure", "StructureDashboard", "TABLE3_PRINTED", "TOLERANCE", "Table3Row",
           "TaskSpaceDynamics", "check_inertia_matrix", "coefficient_expression",
           "coriolis_coefficient", "coupling", "coupling_coefficients", "gravity_coefficients",
           "gravity_coefficients_dh", "independent_coefficients", "inertia_matrix_22",
           "inertia_matrix_in_joint_frames", "inertial_ingredients", "kinematic_factors",
           "loading_factors", "model_structure", "non_interacting_residual", "passivity_matrix",
           "passivity_residual", "reflective_coupling_residual", "simplified_christoffel_symbols",
           "sparsity_formula", "structure_dashboard", "table1_dependence", "table2_counts",
           "task_space_dynamics"]
