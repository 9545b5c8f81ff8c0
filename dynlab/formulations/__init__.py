"""The formulations floor: Newton-Euler, Lagrange-Euler, generalized d'Alembert, twist-wrench
with Featherstone's algorithms, and their registry."""
