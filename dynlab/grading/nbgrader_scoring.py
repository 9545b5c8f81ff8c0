"""nbgrader's points from answers scored outside the student's kernel.

Under ``nbgrader autograde`` the hidden check of each check cell only hands the answer out as
data (:func:`dynlab.grading.autograde.export`).  :class:`ScoreExportedAnswers`, a step of the
course's autograde pipeline placed right after nbgrader's ``Execute``, reads that data from each
grade cell's outputs, scores it with :func:`dynlab.grading.scoring.score` (the comparison of
``dynlab grade``) in the nbgrader process, and replaces the cell's outputs by the feedback and one
``execute_result``: the points, which nbgrader's ``SaveAutoGrades`` reads as the cell's partial
credit (``nbgrader.utils.determine_grade``).  A grade cell with no readable export, or with more
than one, gets 0.

Switch it on in the course's ``nbgrader_config.py``::

    from dynlab.grading.nbgrader_scoring import autograde_preprocessors
    c.Autograde.autograde_preprocessors = autograde_preprocessors()

>>> names = [step.__name__ for step in autograde_preprocessors()]
>>> names[names.index("Execute") - 1:names.index("Execute") + 2]
['RunAsSubmittingStudent', 'Execute', 'ScoreExportedAnswers']
"""

from __future__ import annotations

import json
import os
import re

from nbformat.v4 import new_output
from traitlets import Unicode
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

from dynlab.grading import own_work
from dynlab.grading.autograde import MIME
from dynlab.grading.scoring import CHECK_TIME_LIMIT, score

#: The first line of a check cell (restored from the source by nbgrader before it runs).
CHECK_LINE = re.compile(r'check\("([^"]+)", (.+)\)')
#: The largest export read (characters of JSON).
MAX_EXPORT_SIZE = 5_000_000


def exported_answer(cell, question: str):
    """The answer data the cell handed out for ``question`` (None: none, or more than one)."""
    found = []
    for output in cell.get("outputs", []):
        text = output.get("data", {}).get(MIME) if output.get("output_type") in (
            "display_data", "execute_result") else None
        if text is None:
            continue
        try:
            data = json.loads(text) if isinstance(text, str) and len(text) <= MAX_EXPORT_SIZE \
                else None
        except ValueError:
            data = None
        found.append(data if isinstance(data, dict) and data.get("question") == question
                     else None)
    if len(found) != 1 or found[0] is None:
        return None
    return found[0].get("answer")


def _use_instructor_keys(step, warn: bool = False) -> None:
    """Load the instructor's keys named by ``c.ScoreExportedAnswers.key_directory`` (both dynlab
    steps read that one setting, so the kernel's givens and the scoring agree); without it,
    the shipped keys (and, with ``warn``, a warning in the log that the grades are not marks)."""
    from pathlib import Path
    from dynlab.grading.keys import instructor_directory, use_keys
    directory = getattr(step, "key_directory", "") or \
        step.config.get("ScoreExportedAnswers", {}).get("key_directory", "")
    if directory:
        if instructor_directory() != Path(directory):       # loaded once per folder
            use_keys(directory)
        return
    use_keys(None)
    if warn:
        step.log.warning("dynlab: no c.ScoreExportedAnswers.key_directory: grading with the "
                         "formative keys shipped with dynlab, which every student has, and "
                         "the practice values; these grades are not marks")


class RunAsSubmittingStudent(NbGraderPreprocessor):
    """Before ``Execute``: the kernel about to start computes with the submitting student's givens
    (:mod:`dynlab.grading.variants` reads ``DYNLAB_STUDENT`` and ``DYNLAB_GIVENS``), not those of
    whoever autogrades.  The student is nbgrader's, the name of the submission's folder, never
    what the notebook says; the givens are that student's graded values, drawn here from the
    course secret of the instructor's keys (the secret itself is not handed to the kernel), or
    their practice values when no instructor's keys are named.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ):
    ...     _ = RunAsSubmittingStudent().preprocess({"cells": []}, {"nbgrader": {"student": "bob"}})
    ...     os.environ["DYNLAB_STUDENT"], json.loads(os.environ["DYNLAB_GIVENS"])["student"]
    ('bob', 'bob')
    """

    def preprocess(self, nb, resources):
        from dynlab.grading.keys import course_secret
        from dynlab.grading.variants import GIVENS_VARIABLE, STUDENT_VARIABLE, givens
        _use_instructor_keys(self)
        student = resources.get("nbgrader", {}).get("student")
        for name in own_work.environment(["3.16c"], True):        # none from the last notebook
            os.environ.pop(name, None)
        if isinstance(student, str) and student:
            os.environ[STUDENT_VARIABLE] = student
            os.environ[GIVENS_VARIABLE] = givens(student, course_secret())
            asked = [match.group(1) for cell in nb.cells if utils.is_grade(cell)
                     for match in [CHECK_LINE.fullmatch(cell.source.strip().split("\n")[0])]
                     if match]
            os.environ.update(own_work.environment(asked, course_secret() is not None))
        else:
            os.environ.pop(GIVENS_VARIABLE, None)
        return nb, resources


class ScoreExportedAnswers(NbGraderPreprocessor):
    """Score each check cell's exported answer outside the kernel and write its points where
    nbgrader's ``SaveAutoGrades`` reads them: marks from the instructor's keys of
    :attr:`key_directory`, formative grades (with a warning in the log) without them."""

    key_directory = Unicode("", help="The instructor's answer keys (the folder "
                                     "tools/make_answer_keys.py --out writes: summative keys and "
                                     "the course secret, kept outside the installed dynlab and "
                                     "the students' reach); empty: dynlab's own keys, which "
                                     "every student has (formative)").tag(config=True)

    def preprocess(self, nb, resources):
        self.student = resources.get("nbgrader", {}).get("student")
        _use_instructor_keys(self, warn=True)
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code" or not utils.is_grade(cell):
            return cell, resources
        match = CHECK_LINE.fullmatch(cell.source.strip().split("\n")[0].strip())
        if not match:
            return cell, resources                    # not one of dynlab's check cells
        question = match.group(1)
        maximum = float(cell.metadata["nbgrader"]["points"])
        data = exported_answer(cell, question)
        try:
            graded = score(question, data, student=self.student, time_limit=CHECK_TIME_LIMIT)
            points = min(graded.total, maximum)
            shown = str(graded.feedback) if graded.feedback is not None else \
                f"{question}: no answer was handed in (0 points)"
        except Exception as error:                    # noqa: BLE001 - 0, and why, in the log
            self.log.warning("dynlab could not score %s: %s", question, error)
            points, shown = 0.0, f"{question}: could not be scored (0 points)"
        self.log.info("dynlab scored %s: %g/%g", question, points, maximum)
        cell.outputs = [
            new_output("display_data", data={"text/plain": shown}),
            new_output("execute_result", data={"text/plain": repr(float(points))},
                       execution_count=cell.get("execution_count") or 1)]
        return cell, resources


def autograde_preprocessors() -> list:
    """nbgrader's autograde pipeline with :class:`RunAsSubmittingStudent` right before ``Execute``
    and :class:`ScoreExportedAnswers` right after it."""
    from nbgrader.converters.autograde import Autograde
    from nbgrader.preprocessors import Execute
    steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
    at = steps.index(Execute)
    return steps[:at] + [RunAsSubmittingStudent, Execute, ScoreExportedAnswers] + steps[at + 1:]
