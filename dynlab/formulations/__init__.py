"""The formulations floor: each formulation of the dynamics (Newton-Euler, Lagrange-Euler,
Lee's generalized d'Alembert, twist-wrench with Featherstone's algorithms) and their registry
(:mod:`dynlab.formulations.registry`).

``dynlab.formulations`` was the registry's module before the package was laid out by floors;
its public names stay importable from here.

>>> from dynlab.formulations import FORMULATIONS
>>> from dynlab.formulations import registry
>>> FORMULATIONS is registry.FORMULATIONS
True
"""

from dynlab.formulations.registry import (CAPABILITIES, FORMULATIONS, KINDS, Formulation,
                                          TermsFunction, TorqueRecursion, capability_text,
                                          columns_by_probing, every_variant, friction_and_tip,
                                          inertia_and_bias_function, inertia_function, lookup,
                                          methods, register, require, torque_recursion,
                                          torques_from_terms, unregister)

__all__ = ["CAPABILITIES", "FORMULATIONS", "KINDS", "Formulation", "TermsFunction",
           "TorqueRecursion", "capability_text", "columns_by_probing", "every_variant",
           "friction_and_tip", "inertia_and_bias_function", "inertia_function", "lookup",
           "methods", "register", "require", "torque_recursion", "torques_from_terms",
           "unregister"]
