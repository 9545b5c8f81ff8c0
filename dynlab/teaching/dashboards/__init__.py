"""The chapters' slider dashboards: an arm's (:mod:`~.arm`), Tourassis & Neuman's structure
(:mod:`~.structure`), tracking (:mod:`~.tracking`), motor sizing (:mod:`~.motor_sizing`), and
their parts (:mod:`~.labels`, :mod:`~.sliders`, :mod:`~.parameters`, :mod:`~.specs`,
:mod:`~.common`)."""
