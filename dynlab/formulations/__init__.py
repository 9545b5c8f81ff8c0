"""The formulations floor: each formulation of the dynamics (Newton-Euler, Lagrange-Euler,
Lee's generalized d'Alembert, twist-wrench with Featherstone's algorithms) and their registry
(:mod:`dynlab.formulations.registry`)."""
