"""The dynamics floor: inverse dynamics (:mod:`dynlab.dynamics.inverse`), the equations of
motion, forward dynamics, simulation, control, trajectories, the structure of the model
(:mod:`dynlab.dynamics.structure`: Tourassis & Neuman's coefficients, Lynch & Park's
passivity), and code generation (its closed forms are made from the equations of motion)."""
