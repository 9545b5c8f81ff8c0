"""The library calls that answer each graded question: the one declaration of issue 40, item 6.

``tools/make_answer_keys.py`` writes each question's calls into its key (``"refuses"``); in a
graded run (marks) they refuse, called from the student's code, with a message that the
question asks for the student's own work (:mod:`dynlab.grading.own_work`).  A call is a dotted
path to a function of dynlab; ``" on a symbolic arm"`` after it refuses it only when an
argument is symbolic (3.11 probes the PUMA's numeric routine, :func:`dynlab.inverse_dynamics`,
which on a symbolic arm answers 3.18 and 6-4-1).  Each call here was tried: with the student's
givens it gives the question's answer, or the answer in a line or two (``.D``, a column).

``WITH_THE_LIBRARY`` are the questions meant to be answered with dynlab, and what of it: their
text says so.  Each refuses nothing, but Y: it asks for the torques derived by hand
(``REFUSED``) and rewrites them with ``regressor`` on purpose.

Tried and found to answer nothing (so not declared): 3.2, 3.3, 3.5-3.8 and 3.14 (no function of
dynlab integrates a body's tensor, moves a frame's acceleration or reads a tensor off a
pseudo-inertia matrix; ``change_frame`` turns a tensor already found, one line by hand), 3.17a
and 3.17c (the recursion's initial values and vectors; ``link_offset_in_own_frame`` takes
dynlab's internal links only).
"""

EOM = "dynlab.equations_of_motion"
INVERSE = "dynlab.inverse_dynamics"
SYMBOLIC_INVERSE = INVERSE + " on a symbolic arm"
PROBE = "dynlab.dynamics.inverse.probe"
INERTIA = "dynlab.dynamics.forward.inertia_and_bias"
LINK = "dynlab.model.kinematics.link_transform"
TRANSFORMS = "dynlab.model.kinematics.transforms"
PSEUDO = "dynlab.formulations.lagrange_euler.pseudo_inertia"
CLOSED = "dynlab.formulations.twist_wrench.closed_form"
COUPLING = "dynlab.dynamics.structure.coupling."
#: chapter 12's identification: the base parameters and their values, the least squares, the
#: condition number (each takes the BaseParameters that base_parameters makes)
IDENTIFICATION = "dynlab.dynamics.identification."
ESTIMATION = "dynlab.dynamics.estimation."
#: chapter 12's routes to those from inside dynlab: ``explicit_model(arm).values`` is the base
#: parameters' values (I.2) and its ``.base`` the BaseParameters (I.3, I.4: ``.regressor``);
#: the dashboard's ``truth``, ``estimate`` and ``condition`` at the student's arm, data and period
CHAPTER_12 = ("dynlab.dynamics.explicit_model.explicit_model",
              "dynlab.teaching.dashboards.identification.IdentificationDashboard.__init__")
#: chapter 10's dashboard: ``slide(payload=..., q2=...)["gravity"][1:3]`` is U.2's answer
DASHBOARD = "dynlab.teaching.dashboards.arm.Dashboard."

#: ``{question: (call, ...)}``
REFUSED = {
    "3.16a": (LINK, TRANSFORMS),
    "3.16b": (PSEUDO,),
    "3.16c": (EOM, INVERSE, INERTIA, PROBE),
    "3.17b": ("dynlab.model.link.rod_inertia",),
    "3.17d": (INVERSE, EOM),
    "3.11": (PROBE, EOM, INERTIA),
    "3.12": ("dynlab.teaching.textbook.printed_counts.table_3_5",),
    "3.18": (EOM, SYMBOLIC_INVERSE, PROBE),
    "6-4-1": (EOM, SYMBOLIC_INVERSE, LINK, PSEUDO),
    "9.1": (EOM,),                                    # its Christoffel variant's C and D
    "9.98": ("dynlab.model.kinematics.tool_jacobian",
             "dynlab.dynamics.structure.passivity.task_space_dynamics"),
    "k12": (COUPLING + "loading_factors", COUPLING + "coupling"),      # LF
    "Mp": (EOM, INVERSE, INERTIA),                    # an arm of the payload point alone
    "Y": (EOM, INVERSE, INERTIA),                     # the torques; regressor on purpose
    "C.1": (EOM, INVERSE, INERTIA),
    "C.2": (INVERSE, EOM, INERTIA),
    "C.3": (EOM, INERTIA, INVERSE),
    "G.1": (EOM, INVERSE),
    "G.2": (EOM, INVERSE),
    "N.1": (INVERSE, EOM),
    "N.2": (INVERSE, EOM),
    "N.3": (INVERSE, EOM),
    "N.4": (INVERSE, EOM),
    "T.1": ("dynlab.model.spatial.change_frame",),
    "T.2": (INVERSE, EOM),
    "T.3": (INVERSE, EOM),
    "T.4": (CLOSED, EOM),
    "U.1": (TRANSFORMS, LINK, "dynlab.model.kinematics.tool_jacobian"),
    "U.2": ("dynlab.model.edits.with_payload", INVERSE, EOM, INERTIA, DASHBOARD + "slide",
            DASHBOARD + "parts_at"),
    "I.1": (IDENTIFICATION + "base_parameters",),
    "I.2": (IDENTIFICATION + "base_parameters", IDENTIFICATION + "standard_parameters",
            *CHAPTER_12),
    "I.3": (ESTIMATION + "estimate_base_parameters", IDENTIFICATION + "base_parameters",
            *CHAPTER_12),
    "I.4": (ESTIMATION + "condition_number", IDENTIFICATION + "base_parameters", *CHAPTER_12),
}

#: ``{question: what of dynlab answers it}``: meant to be answered with the library.
WITH_THE_LIBRARY = {
    "D.1": "chapter 02's dashboard", "D.2": "chapter 02's dashboard",
    "S.1": "simulate", "S.2": "simulate",
    "A.1": "the motor-sizing functions", "A.2": "the motor-sizing functions",
    "A.3": "the motor-sizing functions", "A.4": "the motor-sizing functions",
    "Y": "regressor, on torques derived by hand",
    "U.3": "from_urdf on the student's own file, then probe",
}


def with_refusals(keys: list) -> list:
    """The keys with each question's refused calls (``"refuses"``) written in."""
    for key in keys:
        key["refuses"] = list(REFUSED.get(key["id"], ()))
    return keys


def guide_table() -> str:
    """The table of ``solutions/README.md`` that lists, per question, what a graded run refuses
    (``tests/grading/test_own_work.py`` checks that the guide holds it as written here)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from dynlab.grading.keys import questions
    rows = ["| question | refused in a graded run |", "|---|---|"]
    for question in questions():
        said = ", ".join(f"`{call}`" for call in REFUSED.get(question, ())) or "nothing"
        if question in WITH_THE_LIBRARY:
            said += f": answered with dynlab on purpose ({WITH_THE_LIBRARY[question]})"
        rows.append(f"| {question} | {said} |")
    return "\n".join(rows)
