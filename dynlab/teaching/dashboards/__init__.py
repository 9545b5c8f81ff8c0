"""The chapters' slider dashboards, a module per idea.

* :mod:`~dynlab.teaching.dashboards.arm`: an arm's dashboard (:func:`~.arm.dashboard`,
  :class:`~.arm.Dashboard`): joint and parameter sliders, the arm and its torques split into
  parts; its figure (:mod:`~.arm_figure`) and its play row (:mod:`~.arm_motion`);
* :mod:`~dynlab.teaching.dashboards.structure`: Tourassis & Neuman's coupling and sparsity on
  sliders (:func:`~.structure.structure_dashboard`);
* what they are made of: the parts' names and colours (:mod:`~.labels`), a slider
  (:mod:`~.sliders`), the parameter sliders (:mod:`~.parameters`) and the pages' common parts
  (:mod:`~.common`).

The edits of an arm that the parameter sliders make live on the model floor,
:mod:`dynlab.model.edits`.
"""
