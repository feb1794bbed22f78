"""VitaBench's rubric-based sliding-window LLM judge, and the paper's Table 4 variants.

* ``sliding`` (basis ``rubric``, the paper's method): the trajectory is cut into windows of
  ``window`` messages overlapping by ``overlap``; each window is judged with the full current
  rubric state, which carries over to the next window (status replaced, each window's
  justification appended to the rubric's record, as the official template asks the judge to do);
* ``full`` (basis ``rubric_full``): one call over the whole trajectory with the rubric list;
* ``sliding-norubric`` (basis ``judge_sliding``): windows, a single pass/fail verdict and a
  free-text memory carried between windows;
* ``full-norubric`` (basis ``judge_full``): one call, a single pass/fail verdict.

Reward = 1 only if every rubric holds; the fraction met is the dense score. A task without any
rubric (after de-duplication) is not sent to the rubric variants' judge and is *ungradable*:
reward 0, ``gradable=False``, counted and excluded from the metrics, never a pass (the official
harness scores it 1; the linter flags such tasks). The no-rubric variants judge the instruction
itself and grade every task. Judge replies are parsed tolerantly with bounded re-asks (:func:`ask_json`); a judge that
still fails raises :class:`~lifebench.evaluation.JudgeError`, which the runner records as an
evaluation error (the rollout is never re-run because of it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from lifebench._util.text import Language
from lifebench.evaluation import BasisResult, CriterionVerdict, JudgeError
from lifebench.evaluation._judge import ShapeError, ask_json, render_transcript
from lifebench.evaluation._windows import sliding_windows
from lifebench.messages import Usage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import Simulation
from lifebench.vita.grading.judge_prompts import judge_system_prompt
from lifebench.vita.grading.rubrics import DedupMode, task_rubrics
from lifebench.vita.prompts import format_time
from lifebench.vita.task import VitaTask

GRADER_VERSION = 2
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

JudgeVariant = Literal["sliding", "full", "sliding-norubric", "full-norubric"]
JUDGE_VARIANTS: tuple[JudgeVariant, ...] = ("sliding", "full", "sliding-norubric", "full-norubric")
BASIS_OF_VARIANT: Mapping[str, str] = {
    "sliding": "rubric",
    "full": "rubric_full",
    "sliding-norubric": "judge_sliding",
    "full-norubric": "judge_full",
}

NO_RUBRICS = "ungradable: the task has no rubrics, so the judge has nothing to check"


def _as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ShapeError(f"meetExpectation must be true or false, got {value!r}")


def _rubric_updates(keys: frozenset[str]) -> Any:
    """A shape check: a list of rubric verdicts whose keys are among ``keys``."""

    def check(parsed: Any) -> dict[str, tuple[bool, str]]:
        items = parsed
        if isinstance(parsed, dict):
            inner = next((v for v in parsed.values() if isinstance(v, list)), None)
            items = inner if inner is not None else [parsed]
        if not isinstance(items, list):
            raise ShapeError("expected a JSON list of rubric objects")
        updates: dict[str, tuple[bool, str]] = {}
        unknown: list[str] = []
        for item in items:
            if not isinstance(item, dict):
                raise ShapeError("every list element must be an object")
            key = str(item.get("rubric_key", item.get("rubric_idx", item.get("key", ""))))
            if key not in keys:
                unknown.append(key)
                continue
            if "meetExpectation" not in item:
                raise ShapeError(f"{key} has no meetExpectation")
            updates[key] = (_as_bool(item["meetExpectation"]), str(item.get("justification", "")))
        if items and not updates:
            raise ShapeError(
                f"no known rubric_key in the answer (got {unknown[:3]}); use the keys of the rubrics"
            )
        missing = sorted(keys - updates.keys(), key=_key_order)
        if missing:  # an answer that skips rubrics is not "unmet": it is no answer for them
            shown = ", ".join(missing[:8]) + (" …" if len(missing) > 8 else "")
            raise ShapeError(
                f"the answer does not address every rubric: {len(missing)} of {len(keys)} "
                f"missing ({shown}); give one object for each rubric key, keeping the current "
                "status of those this window does not change"
            )
        return updates

    return check


def _key_order(key: str) -> tuple[int, str]:
    number = key.rpartition("_")[2]
    return (int(number), key) if number.isdigit() else (1 << 30, key)


def _verdict_object(with_memory: bool) -> Any:
    def check(parsed: Any) -> tuple[bool, str, str]:
        item = parsed[0] if isinstance(parsed, list) and parsed else parsed
        if not isinstance(item, dict) or "meetExpectation" not in item:
            raise ShapeError("expected a JSON object with meetExpectation")
        memory = str(item.get("memory", "")) if with_memory else ""
        return _as_bool(item["meetExpectation"]), str(item.get("justification", "")), memory

    return check


NOT_EVALUATED = "Not evaluated yet"


@dataclass
class _RubricState:
    """One rubric's verdict and its record: the justifications of the windows that judged it,
    in order (the judge is told that its note is appended, and sees the record so far)."""

    rubric: str
    met: bool = False
    justification: str = NOT_EVALUATED

    def update(self, met: bool, note: str) -> None:
        """Apply one window's verdict: the status is replaced and ``note`` appended to the
        record. A note that starts with the whole record (a judge that copied it before adding
        its own) adds only what follows; a note equal to the last entry adds nothing."""
        self.met = met
        record = "" if self.justification == NOT_EVALUATED else self.justification
        added = note.strip()
        if record and added.startswith(record):
            added = added[len(record) :].strip()
        if not record:
            self.justification = added
        elif added and added != record[record.rfind("\n") + 1 :]:
            self.justification = f"{record}\n{added}"


def _state_json(state: Mapping[str, _RubricState]) -> str:
    """The rubric state as the judge reads it: exactly ``json.dumps({key: {"rubric": …,
    "justification": …, "meetExpectation": …}}, ensure_ascii=False, indent=1)``, written line
    by line with json's C string encoder (with ``indent`` json falls back to its pure-Python
    encoder: several times slower)."""
    if not state:
        return "{}"
    quote = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) quotes with
    entries = [
        f" {quote(key)}: {{\n"
        f'  "rubric": {quote(s.rubric)},\n'
        f'  "justification": {quote(s.justification)},\n'
        f'  "meetExpectation": {_json_bool(s.met)}\n'
        " }"
        for key, s in state.items()
    ]
    return "{\n" + ",\n".join(entries) + "\n}"


def _json_bool(value: bool) -> str:
    if type(value) is bool:
        return "true" if value else "false"
    return json.dumps(value)  # not a bool after all: as json.dumps writes it


class RubricJudge:
    """An :class:`~lifebench.evaluation.Evaluator` over VitaBench rubrics with an LLM judge."""

    def __init__(
        self,
        model: ChatModel,
        *,
        variant: JudgeVariant = "sliding",
        window: int = 10,
        overlap: int = 2,
        dedup: DedupMode = "paraphrase",
        language: Language = "en",
        max_reasks: int = 2,
    ) -> None:
        sliding_windows(window, window, overlap)  # validates the arithmetic early
        self._model = model
        self.variant = variant
        self.window = window
        self.overlap = overlap
        self.dedup = dedup
        self.language = language
        self.max_reasks = max_reasks

    @property
    def basis(self) -> str:
        """``rubric``, ``rubric_full``, ``judge_sliding`` or ``judge_full``."""
        return BASIS_OF_VARIANT[self.variant]

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Judge ``simulation`` of ``task``."""
        rubrics = task_rubrics(task, self.dedup) if self.variant in ("sliding", "full") else []
        if self.variant in ("sliding", "full") and not rubrics:
            criteria = task.evaluation_criteria
            empty = criteria is None or not (criteria.expected_states or criteria.overall_rubrics)
            return BasisResult(
                basis=self.basis,
                reward=0.0,
                score=0.0,
                gradable=False,
                note=NO_RUBRICS,
                # officially 1.0 without criteria; with expected states but no rubric text the
                # official judge divides by zero and the task is dropped
                info={"variant": self.variant, "official": "score_1" if empty else "dropped"},
            )
        if not simulation.termination.is_normal:
            return BasisResult(
                basis=self.basis,
                reward=0.0,
                score=0.0,
                note=f"episode ended with {simulation.termination.value}; not judged",
                info={"variant": self.variant, "gated": simulation.termination.value},
            )
        config = GenerateConfig(temperature=0.0, seed=simulation.seed)
        if rubrics:
            return await self._rubrics(task, rubrics, simulation, config)
        return await self._verdict(task, simulation, config)

    def _fields(self, task: VitaTask) -> dict[str, object]:
        return {
            "time": format_time(str(task.environment.get("time", "")), self.language),
            "instruction": task.instructions,
            "size": self.window,
            "overlap": self.overlap,
        }

    def _windows(self, n: int) -> list[range]:
        if self.variant.startswith("full"):
            return [range(n)]
        return sliding_windows(n, self.window, self.overlap)

    async def _rubrics(
        self, task: VitaTask, rubrics: list[str], simulation: Simulation, config: GenerateConfig
    ) -> BasisResult:
        state = {f"rubric_{i}": _RubricState(r) for i, r in enumerate(rubrics)}
        check = _rubric_updates(frozenset(state))
        usage = Usage.zero()
        windows = self._windows(len(simulation.messages))
        log: list[dict[str, Any]] = []
        for k, win in enumerate(windows, 1):
            system = judge_system_prompt(
                self.variant, self.language, index=k, total=len(windows), **self._fields(task)
            )
            body = render_transcript(simulation.messages, list(win))
            tag = "window_content" if self.variant == "sliding" else "conversation"
            rubric_tag = "current_rubrics" if self.variant == "sliding" else "rubrics"
            prompt = (
                f"<{tag}>\n{body}\n</{tag}>\n<{rubric_tag}>\n{_state_json(state)}\n</{rubric_tag}>"
            )
            span = [win.start, win.stop - 1] if len(win) else []
            try:
                answer = await ask_json(
                    self._model,
                    system,
                    prompt,
                    check,
                    config=config,
                    max_reasks=self.max_reasks,
                    label=f"window {k}/{len(windows)}",
                )
            except JudgeError as exc:  # what was judged so far stays with the failed result
                failed = {"window": k, "messages": span, "replies": list(exc.replies)}
                raise exc.with_info(
                    **self._info(task, len(windows)),
                    windows=[*log, failed],
                    rubric_keys=list(state),
                ) from None
            usage = usage + answer.usage
            for key, (met, why) in answer.value.items():
                state[key].update(met, why)
            log.append(
                {
                    "window": k,
                    "messages": span,
                    "attempts": answer.attempts,
                    "replies": list(answer.replies),
                }
            )
        verdicts = [
            CriterionVerdict(id=key, description=s.rubric, met=s.met, evidence=s.justification)
            for key, s in state.items()
        ]
        met = sum(v.met for v in verdicts)
        return BasisResult(
            basis=self.basis,
            reward=1.0 if met == len(verdicts) else 0.0,
            score=met / len(verdicts),
            criteria=verdicts,
            usage=usage,
            info={**self._info(task, len(windows)), "windows": log, "rubric_keys": list(state)},
        )

    def _info(self, task: VitaTask, total: int) -> dict[str, Any]:
        """What a rubric result records about its judging (the official reading replays the
        stored answers over ``official_rubrics``, the number of rubrics the official exact
        de-duplication would judge)."""
        return {
            "variant": self.variant,
            "window_size": self.window,
            "overlap": self.overlap,
            "dedup": self.dedup,
            "total_windows": total,
            "official_rubrics": len(task_rubrics(task, "exact")),
        }

    async def _verdict(
        self, task: VitaTask, simulation: Simulation, config: GenerateConfig
    ) -> BasisResult:
        windows = self._windows(len(simulation.messages))
        sliding = self.variant == "sliding-norubric"
        check = _verdict_object(with_memory=sliding)
        met, why, memory = False, NOT_EVALUATED, ""
        usage = Usage.zero()
        for k, win in enumerate(windows, 1):
            system = judge_system_prompt(
                self.variant, self.language, index=k, total=len(windows), **self._fields(task)
            )
            body = render_transcript(simulation.messages, list(win))
            if sliding:
                verdict = json.dumps({"justification": why, "meetExpectation": met})
                prompt = (
                    f"<window_content>\n{body}\n</window_content>\n<memory>\n{memory}\n</memory>\n"
                    f"<current_verdict>\n{verdict}\n</current_verdict>"
                )
            else:
                prompt = f"<conversation>\n{body}\n</conversation>"
            answer = await ask_json(
                self._model,
                system,
                prompt,
                check,
                config=config,
                max_reasks=self.max_reasks,
                label=f"window {k}/{len(windows)}",
            )
            usage = usage + answer.usage
            met, why, memory = answer.value
        verdicts = [
            CriterionVerdict(
                id="task", description="The whole instruction is carried out", met=met, evidence=why
            )
        ]
        return BasisResult(
            basis=self.basis,
            reward=1.0 if met else 0.0,
            score=1.0 if met else 0.0,
            criteria=verdicts,
            usage=usage,
            info={"variant": self.variant, "windows": len(windows), "memory": memory},
        )
