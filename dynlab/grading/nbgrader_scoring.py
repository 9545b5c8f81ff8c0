"""nbgrader's route to the points of ``dynlab grade``, switched on in ``nbgrader_config.py``::

    from dynlab.grading.nbgrader_scoring import configure
    configure(c)

The autograde pipeline gets: :class:`RunAsSubmittingStudent` (the kernel's student, givens and
refusals), :class:`HandOutAnswers` (each check cell hands out its instructor's answer
expression), the sandboxed ``Execute``, and :class:`ScoreExportedAnswers`, which scores each
exported answer outside the kernel and writes the points as the cell's one ``execute_result``
(nbgrader's partial credit; no or several exports: 0).  :class:`KeepFirstOfEachId` keeps the
first cell of each ``grade_id``; :class:`CollectHandedIn` collects what ``dynlab grade`` reads.

>>> names = [step.__name__ for step in autograde_preprocessors()]
>>> names[names.index("SandboxedExecute") - 2:names.index("SandboxedExecute") + 2]
['RunAsSubmittingStudent', 'HandOutAnswers', 'SandboxedExecute', 'ScoreExportedAnswers']
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from nbformat.v4 import new_output
from nbgrader import utils
from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Unicode

from dynlab.grading import own_work
from dynlab.grading.autograde import MIME
from dynlab.grading.limits import CHECK_TIME_LIMIT
from dynlab.grading.scoring import points_of_data

#: The first line of a check cell (restored from the source by nbgrader before it runs; in a
#: cell nbgrader puts back, after a comment; :class:`HandOutAnswers` keeps it as a comment).
CHECK_LINE = re.compile(r'check\("([^"]+)", (.+)\)')


def check_line(cell):
    """The match of the instructor's check line of a check cell (None: none)."""
    for line in cell.source.split("\n"):
        match = CHECK_LINE.fullmatch(line.strip().removeprefix("#").strip())
        if match:
            return match
    return None


def _questions(nb) -> list:
    """The questions of the check cells of ``nb``."""
    return [match.group(1) for cell in nb.cells if cell.cell_type == "code"
            and utils.is_grade(cell) for match in [check_line(cell)] if match]


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
    """Load the keys of ``c.ScoreExportedAnswers.key_directory`` (one setting for both steps),
    else the shipped ones (with ``warn``, saying so in the log)."""
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
    their practice values when no instructor's keys are named, of this notebook's questions only.
    For marks, the kernel refuses the library calls that answer them
    (:func:`dynlab.grading.own_work.environment`), and the log names each cell that uses a
    means round the refusals (:func:`dynlab.grading.own_work.tricks`).

    >>> from unittest import mock
    >>> from nbformat.v4 import new_notebook
    >>> with mock.patch.dict(os.environ):
    ...     step = RunAsSubmittingStudent()
    ...     _ = step.preprocess(new_notebook(), {"nbgrader": {"student": "bob"}})
    ...     handed = json.loads(os.environ["DYNLAB_GIVENS"])
    ...     os.environ["DYNLAB_STUDENT"], handed["student"], handed["questions"]
    ('bob', 'bob', {})
    """

    def preprocess(self, nb, resources):
        from dynlab.grading.keys import course_secret
        from dynlab.grading.variants import GIVENS_VARIABLE, STUDENT_VARIABLE, givens
        _use_instructor_keys(self)
        student = resources.get("nbgrader", {}).get("student")
        for name in (own_work.REFUSED_VARIABLE, "PYTHONSTARTUP"):   # none from the last one
            os.environ.pop(name, None)
        if isinstance(student, str) and student:
            os.environ[STUDENT_VARIABLE] = student
            questions = _questions(nb)
            os.environ[GIVENS_VARIABLE] = givens(student, course_secret(), questions)
            os.environ.update(own_work.environment(questions, course_secret() is not None))
            if course_secret() is not None:
                import nbformat
                for note in own_work.tricks(nbformat.writes(nb).encode()):
                    self.log.warning("dynlab: %s: %s", student, note)
        else:
            os.environ.pop(GIVENS_VARIABLE, None)
        return nb, resources


class HandOutAnswers(NbGraderPreprocessor):
    """Before ``Execute``: each of dynlab's check cells becomes the hand-out of the answer its
    instructor's check line names (``check("3.16c", (D, h, c))``: the value of ``(D, h, c)``,
    :func:`dynlab.grading.autograde.export`, read in the question's symbols), as ``dynlab
    grade`` runs it; the check line stays as a comment.  What the student's kernel calls
    ``check`` is never called."""

    def preprocess_cell(self, cell, resources, cell_index):
        match = check_line(cell) if cell.cell_type == "code" and utils.is_grade(cell) else None
        if match:
            from dynlab.grading.grader import text_symbols
            question, answer = match.groups()
            cell.source = (f"# {match.group(0)}\nimport dynlab.grading.autograde\n"
                           f"dynlab.grading.autograde.export({question!r}, ({answer}), "
                           f"symbols={text_symbols(question)!r})")
        return cell, resources


class KeepFirstOfEachId(NbGraderPreprocessor):
    """Before nbgrader's ``DeduplicateIds``: of the cells sharing a ``grade_id`` the first
    keeps it, as under ``dynlab grade``; a later check cell (a pasted copy) is dropped, any
    other later cell runs as plain code; so does a cell whose nbgrader metadata nbgrader would
    refuse (which stops nbgrader's whole run).  Each is logged."""

    def preprocess(self, nb, resources):
        from nbgrader.nbgraderformat import MetadataValidator
        validator, seen, kept = MetadataValidator(), set(), []
        for index, cell in enumerate(nb.cells):
            meta = cell.metadata.get("nbgrader")
            if meta is None:
                kept.append(cell)
                continue
            grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
            try:
                validator.validate_cell(cell)
            except Exception as error:                # noqa: BLE001 - plain code, and why
                self.log.warning("dynlab: cell %d: nbgrader metadata not valid (%s): run as "
                                 "plain code", index + 1, str(error)[:200])
                del cell.metadata["nbgrader"]
            else:
                if grade_id in seen and utils.is_grade(cell):
                    self.log.warning("dynlab: cell %d: a copy of %s, dropped (the first "
                                     "counts)", index + 1, grade_id)
                    continue
                if grade_id in seen:
                    self.log.warning("dynlab: cell %d: a copy of %s, run as plain code (the "
                                     "first counts)", index + 1, grade_id)
                    del cell.metadata["nbgrader"]
                seen.add(grade_id)
            kept.append(cell)
        nb.cells = kept
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
        match = check_line(cell)
        if not match:
            return cell, resources                    # not one of dynlab's check cells
        question = match.group(1)
        maximum = float(cell.metadata["nbgrader"]["points"])
        data = exported_answer(cell, question)
        try:
            graded = points_of_data(question, data, student=self.student,
                                    time_limit=CHECK_TIME_LIMIT)
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


class CollectHandedIn(ExchangeCollect):
    """nbgrader's ``collect`` copying only folders and regular files
    (:func:`dynlab.grading.submissions.copy_handed_in`; nbgrader's own copy follows links);
    what is left out, or a submission not collected, is logged."""

    def do_copy(self, src, dest, log=None):
        from dynlab.grading import submissions
        course = self.coursedir
        try:
            notes = submissions.copy_handed_in(
                Path(src).parent, Path(src).name, Path(dest),
                limit=min(submissions.MAX_NOTEBOOK_SIZE, 1000 * course.max_file_size),
                total=1000 * course.max_dir_size,
                ignore=utils.ignore_patterns(exclude=course.ignore, include=course.include,
                                             log=self.log),
                mode=(0o2775, 0o664) if course.groupshared else (0o755, 0o644))
        except (submissions.Refused, OSError) as why:
            self.log.error("dynlab: %s is not collected: %s", src, why)
            return
        for note in notes:
            self.log.warning("dynlab: left out of %s: %s", src, note)


def autograde_preprocessors() -> list:
    """nbgrader's autograde pipeline with dynlab's steps around a sandboxed ``Execute``."""
    from nbgrader.converters.autograde import Autograde
    from nbgrader.preprocessors import Execute

    from dynlab.grading.sandboxed_kernel import SandboxedExecute
    steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
    at = steps.index(Execute)
    return steps[:at] + [RunAsSubmittingStudent, HandOutAnswers, SandboxedExecute,
                         ScoreExportedAnswers] + steps[at + 1:]


def sanitize_preprocessors() -> list:
    """nbgrader's sanitizing steps with :class:`KeepFirstOfEachId` first."""
    from nbgrader.converters.autograde import Autograde
    return [KeepFirstOfEachId] + list(
        Autograde.class_traits()["sanitize_preprocessors"].default())


def configure(c, cell_time_limit: float | None = None) -> None:
    """Set nbgrader's configuration ``c`` to give the points of ``dynlab grade``;
    ``cell_time_limit``: its ``--cell-time-limit``, whose clock backstop nbgrader gets."""
    from dynlab.grading.limits import CELL_TIME_LIMIT, wall_seconds
    c.Autograde.sanitize_preprocessors = sanitize_preprocessors()
    c.Autograde.autograde_preprocessors = autograde_preprocessors()
    c.OverwriteCells.add_missing_cells = True
    c.ExchangeFactory.collect = CollectHandedIn
    c.Execute.timeout = int(wall_seconds(cell_time_limit or CELL_TIME_LIMIT))
