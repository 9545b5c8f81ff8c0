"""The chapters' slider dashboards, a module per idea.

* :mod:`~dynlab.teaching.dashboards.arm`: an arm's dashboard (:func:`~.arm.dashboard`,
  :class:`~.arm.Dashboard`): joint and parameter sliders, the arm and its torques split into
  parts; its figure (:mod:`~.arm_figure`) and its play row (:mod:`~.arm_motion`);
* :mod:`~dynlab.teaching.dashboards.structure`: Tourassis & Neuman's coupling and sparsity on
  sliders (:func:`~.structure.structure_dashboard`);
* :mod:`~dynlab.teaching.dashboards.tracking`: chapter 08's tracking error of one move under a
  chosen controller (:class:`~.tracking.TrackingDashboard`; the controllers are
  :mod:`dynlab.dynamics.control`'s);
* :mod:`~dynlab.teaching.dashboards.motor_sizing`: chapter 11's shoulder motor of the PUMA 560
  and its figures (:class:`~.motor_sizing.MotorSizingDashboard`; the numbers are
  :mod:`dynlab.dynamics.motor_sizing`'s);
* what they are made of: the parts' names and colours (:mod:`~.labels`), a slider
  (:mod:`~.sliders`), the parameter sliders (:mod:`~.parameters`), what an arm's dashboard
  shows, by arm (:mod:`~.specs`: ``register_dashboard``) and the pages' common parts
  (:mod:`~.common`: among them :class:`~.common.NamedControls`, the named controls set together
  and rolled back on error).

The edits of an arm that the parameter sliders make live on the model floor,
:mod:`dynlab.model.edits`.
"""
