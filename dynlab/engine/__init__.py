"""The engine floor: the tape a formulation is traced on (:mod:`~dynlab.engine.tracing`), the
straight-line programs it yields (:mod:`~dynlab.engine.program`), their optimizer and emitters,
and operation counts."""
