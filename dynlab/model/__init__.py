"""The model floor: scalar types and checks, :class:`~dynlab.model.link.Link` and
:class:`~dynlab.model.robot.Robot` with their data, kinematics, spatial algebra, the arm registry
and the arms (:mod:`dynlab.model.robots`), and how a model prints and draws."""
