"""The official VitaBench reward of the same stored judge answers (meituan-longcat/vitabench
96f3b85: ``evaluator/evaluator.py``, ``evaluator/evaluator_traj.py``, ``utils.evaluator_extracter``,
``metrics/agent_metrics.py``), rebuilt in our own words, and why it differs from lifebench's.

What the official rubric judge does with its answers (sliding windows, or one window for the
full-trajectory variant), and so what this module replays from the first answer lifebench
stored for each window:

* **Reading an answer**: ``json_repair`` mends the text and ``json.loads`` reads it; a result
  that is empty (``[]``, ``""``, ``{}``) changes nothing — every rubric keeps its status, so
  ``[]`` for N rubrics leaves them all unmet. Each element names its rubric by ``rubric_idx``
  (lifebench's prompt asks for ``rubric_key``, which stands in for it); an unknown or missing
  id is ignored; ``meetExpectation`` replaces the status (a missing one keeps it), whatever its
  type. An answer that is an object instead of a list, an element that is not an object, or
  text ``json.loads`` cannot read after the repair makes the official judge crash: the
  simulation is run again up to four times and then left out.
* **What it retries**: nothing — one call per window, and the next window starts from the
  statuses the answer left. lifebench's re-asks (a malformed or incomplete answer) are answers
  the official judge never gets: the replay reads each window's *first* answer.
* **The reward**: every status is read as a boolean by the results model (``"true"``,
  ``"false"``, ``1``, ``0``, … — anything else is a crash); reward 1 when every rubric is met.
* **Before judging**: a simulation that ended with too many errors, at the step limit or with
  an invalid agent message scores 0; a task without evaluation criteria scores 1 (with
  expected states but no rubric text the judge divides by zero: left out).
* **The step limit** (``orchestrator.py``): the limit is checked after every step, after the
  step's own stop, so a user or agent message that stops the conversation *and* reaches the
  limit ends it with ``max_steps`` (scored 0). lifebench keeps ``user_stop`` / ``agent_stop``
  there and grades it; the replay reads the stored step count against the run's
  ``max_steps`` and scores such an episode 0. Officially a message that says ``###STOP###``
  ends the episode before its tool calls run; lifebench runs them (one step more), which the
  replay takes off the count.
* **The number**: the mean reward over the simulations that have one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import json_repair
from pydantic import BaseModel, ValidationError

from lifebench.evaluation import GRADING_ERROR
from lifebench.messages import AssistantMessage
from lifebench.metrics import OfficialComparison, ScorePair, tally_classes, unavailable
from lifebench.simulation import Simulation, TerminationReason
from lifebench.simulation._stop import agent_stopped
from lifebench.suites import RunOptions

REFERENCE = (
    "meituan-longcat/vitabench 96f3b85 (evaluator/evaluator.py, evaluator/evaluator_traj.py, "
    "utils/utils.py evaluator_extracter, metrics/agent_metrics.py)"
)
OFFICIAL_ID = ("rubric_idx",)
"""The key the official judge reads a rubric's id from."""
OUR_IDS = ("rubric_idx", "rubric_key")
"""The keys official mode reads: lifebench's prompt asks for ``rubric_key``."""


class _Check(BaseModel):
    """The official results model's view of one rubric (its field types decide what passes)."""

    met: bool
    justification: str


class OfficialCrash(Exception):
    """The official judge would raise here (the simulation is re-run, then left out)."""


def read_answer(text: str) -> Any:
    """What the official judge reads from an answer: ``json_repair`` then ``json.loads``."""
    try:
        return json.loads(json_repair.repair_json(text))
    except Exception as exc:
        raise OfficialCrash(f"unreadable answer: {exc}") from None


def apply_answer(
    states: dict[str, dict[str, Any]], text: str, id_keys: Sequence[str] = OFFICIAL_ID
) -> None:
    """Update ``states`` (id → {"met", "justification"}) from one answer, as officially."""
    data = read_answer(text)
    if not data:
        return
    if not isinstance(data, Iterable) or isinstance(data, Mapping | str):
        raise OfficialCrash(f"the answer is a {type(data).__name__}, not a list of objects")
    for item in data:
        if not isinstance(item, Mapping):
            raise OfficialCrash(f"an element is a {type(item).__name__}, not an object")
        rubric = next((item[k] for k in id_keys if k in item), None)
        try:
            known = bool(rubric) and rubric in states
        except TypeError:  # an id that cannot be looked up (a list, an object)
            raise OfficialCrash(f"a rubric id of type {type(rubric).__name__}") from None
        if not known:
            continue
        state = states[str(rubric)]  # a key of ``states``, so a string
        state["justification"] = item.get("justification", "No justification provided")
        state["met"] = item.get("meetExpectation", state["met"])


@dataclass(frozen=True)
class OfficialRubrics:
    """The official outcome of a rubric judgement."""

    reward: float
    met: int
    total: int


def official_rubrics(
    keys: Sequence[str], answers: Sequence[str], id_keys: Sequence[str] = OFFICIAL_ID
) -> OfficialRubrics:
    """Replay the first answer of every window over rubrics ``keys`` (all unmet at first);
    raises :class:`OfficialCrash` where the official judge would crash."""
    states = {k: {"met": False, "justification": "Not evaluated yet"} for k in keys}
    for text in answers:
        apply_answer(states, text, id_keys)
    try:
        mets = [_Check(met=s["met"], justification=s["justification"]).met for s in states.values()]
    except ValidationError as exc:
        raise OfficialCrash(f"a status or justification the results model refuses: {exc}") from None
    if not mets:
        raise OfficialCrash("no rubric: the rubric score divides by zero")
    reward = 1.0 if all(mets) else 0.0
    return OfficialRubrics(reward=reward, met=sum(mets), total=len(mets))


@dataclass
class UnitReading:
    """One unit's reward both ways (None: not counted that way) and why they differ."""

    ours: float | None = None
    theirs: float | None = None
    classes: list[str] = field(default_factory=list)
    replayed: bool = True


def _first_answers(windows: Sequence[Mapping[str, Any]]) -> list[str] | None:
    answers = []
    for w in windows:
        replies = w.get("replies")
        if not isinstance(replies, list) or not replies:
            return None
        answers.append(str(replies[0]))
    return answers


def rubric_reading(info: Mapping[str, Any], failed: bool) -> UnitReading:
    """The official reward of one stored rubric result (``info`` of the basis)."""
    unit = UnitReading()
    if "gated" in info:
        unit.theirs = 0.0
        return unit
    if info.get("official") == "score_1":
        unit.theirs = 1.0
        unit.classes.append("no_rubrics_scored_one")
        return unit
    if info.get("official") == "dropped":
        return unit
    windows = info.get("windows")
    keys = info.get("rubric_keys")
    answers = _first_answers(windows) if isinstance(windows, list) else None
    if answers is None:
        unit.replayed = False
        return unit
    if failed:
        if len(answers) != info.get("total_windows"):
            unit.classes.append("official_replay_incomplete")
            return unit
        unit.classes.append("lifebench_grading_error_scored_officially")
    if not isinstance(keys, list):
        unit.replayed = False
        return unit
    try:
        unit.theirs = official_rubrics([str(k) for k in keys], answers, OUR_IDS).reward
    except OfficialCrash:
        unit.classes.append("official_judge_crashes_dropped")
        return unit
    if any(int(w.get("attempts", 1)) > 1 for w in windows or ()):
        unit.classes.append("official_takes_first_answer")
    if info.get("official_rubrics") not in (None, len(keys)):
        unit.classes.append("rubric_set_deduplicated")
    return unit


DEFAULT_MAX_STEPS: int = RunOptions.model_fields["max_steps"].default
"""The step limit of a run whose configuration does not state one (lifebench's default)."""


def official_steps(simulation: Simulation) -> int:
    """The official step count of a stored episode: lifebench's, less the tool batch it ran
    after the agent's last message when that message also said ``###STOP###`` (officially
    the episode ends at that message and its calls never run)."""
    steps = simulation.steps
    if simulation.termination == TerminationReason.AGENT_STOP:
        replies = [m for m in simulation.messages if isinstance(m, AssistantMessage)]
        if replies and replies[-1].tool_calls and agent_stopped(replies[-1].content):
            steps -= 1
    return steps


def official_termination(simulation: Simulation, max_steps: int) -> str:
    """How the official orchestrator records the end of a stored episode: a user or agent stop
    on the step that reaches ``max_steps`` is ``max_steps`` there (the limit is checked after
    the stop); every other ending as lifebench recorded it."""
    termination = simulation.termination
    stops = (TerminationReason.AGENT_STOP, TerminationReason.USER_STOP)
    if termination in stops and official_steps(simulation) >= max_steps:
        return TerminationReason.MAX_STEPS.value
    return termination.value


def _max_steps(record: Any, config: Mapping[str, Any]) -> int:
    """The step limit of the run ``record`` belongs to (a pooled record, ``<cell>/<id>``,
    reads its own run's configuration from ``config["pooled"]``; a cell's label may hold a
    ``/`` itself, ``parent/run``)."""
    pooled = config.get("pooled")
    if isinstance(pooled, Mapping):
        cells = [c for c in pooled if str(record.task_id).startswith(f"{c}/")]
        # every match is a prefix of the id, so the greatest is the longest: the record's cell
        own = pooled[max(cells)] if cells else None
        if isinstance(own, Mapping):
            config = own
    limit = config.get("max_steps")
    return limit if isinstance(limit, int) else DEFAULT_MAX_STEPS


def _stopped_at_limit(record: Any, config: Mapping[str, Any]) -> bool:
    """True when the official orchestrator would have recorded ``max_steps`` (reward 0) for
    an episode lifebench ended with a stop."""
    simulation = getattr(record, "simulation", None)
    if not isinstance(simulation, Simulation):
        return False
    return official_termination(simulation, _max_steps(record, config)) != simulation.termination


IMPORTED = "official"
"""The basis of verdicts imported from an official results file (``lifebench import``)."""
RUBRIC_BASES = ("rubric", "rubric_full")
"""The bases the official rubric judge's reward can be replayed on (sliding, full)."""


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def official_comparison(records: Sequence[Any], config: Mapping[str, Any]) -> OfficialComparison:
    """The official mean reward (the rubric judge, replayed) beside lifebench's mean reward."""

    done = [r for r in records if r.status == "done" and r.evaluation is not None]
    basis = next(
        (b for b in (IMPORTED, *RUBRIC_BASES) if any(b in r.evaluation.by_basis for r in done)),
        None,
    )
    if basis is None:
        return unavailable(
            REFERENCE,
            "the official harness scores with its rubric judge, and this run has no rubric "
            "judgement (grade it with `lifebench eval RUN --evaluator rubric` or `both`)",
        )
    ours: list[float] = []
    theirs: list[float] = []
    per_unit: list[list[str]] = []
    stale = 0
    for record in done:
        evaluation = record.evaluation
        if evaluation.error is None and evaluation.gradable:
            ours.append(evaluation.reward)
        result = evaluation.by_basis.get(basis)
        if result is None:
            per_unit.append([])
            continue
        if basis == IMPORTED:  # the official harness's own verdict, imported
            reading = UnitReading(theirs=result.reward)
        elif _stopped_at_limit(record, config):  # gated officially: no judge call
            reading = UnitReading(theirs=0.0, classes=["official_stop_at_step_limit"])
        else:
            reading = rubric_reading(result.info, GRADING_ERROR in result.info)
        if not reading.replayed:
            stale += 1
            reading.theirs = None if GRADING_ERROR in result.info else result.reward
        if reading.theirs is not None:
            theirs.append(reading.theirs)
        classes = list(reading.classes)
        mine = evaluation.reward if evaluation.error is None and evaluation.gradable else None
        if mine is not None and reading.theirs is not None and mine != reading.theirs:
            if basis == IMPORTED:
                classes.append("regraded_by_lifebench")
            elif result.reward != mine:
                classes.append("state_basis_in_lifebench_reward")
            elif not classes:
                classes.append("answer_read_differently")
        per_unit.append(classes)
    n, differing, counted = tally_classes(per_unit)
    notes = [
        "official: the verdicts imported from the official results file"
        if basis == IMPORTED
        else f"official: the {basis} judge's first answer of every window replayed with the "
        "official reading (json_repair, rubric_idx / rubric_key, statuses kept when unanswered)"
    ]
    if stale:
        notes.append(
            f"{stale} evaluation(s) were graded before lifebench stored the judge's answers: "
            "their official reward is taken to be lifebench's rubric reward (re-grade with "
            "`lifebench eval`)"
        )
    return OfficialComparison(
        reference=REFERENCE,
        pairs=[
            ScorePair(
                metric="avg_reward",
                label="mean reward (official: "
                + ("the imported verdicts)" if basis == IMPORTED else f"the {basis} judge alone)"),
                lifebench=_mean(ours),
                official=_mean(theirs),
            )
        ],
        units=n,
        differing_units=differing,
        classes=counted,
        notes=notes,
    )
