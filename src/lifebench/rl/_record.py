"""Storing episodes played outside ``lifebench run`` (the MCP server's) as the units of a run
directory, so that ``lifebench report``, ``show``, ``view`` and ``eval`` work on them."""

from __future__ import annotations

from pathlib import Path

from lifebench.rl._env import StepEnvironment, StepSession
from lifebench.runner._experiment import grading_description
from lifebench.runner._provenance import collect
from lifebench.runner._store import RunStore
from lifebench.runner._units import WorkUnit
from lifebench.suites._options import config_hash_of


class RunRecorder:
    """The run directory of a step environment's episodes, held open as its writer.

    The configuration stored is the environment's options (with the agent's model named as
    the one who played it), so ``lifebench eval RUN_DIR`` grades the stored trajectories with
    the same evaluators; re-opening the directory with the same options resumes it. With the
    options' ``record_requests`` (the default), the environment's sessions record their model
    calls and briefing, stored with each unit as ``lifebench run`` stores them.
    """

    def __init__(self, env: StepEnvironment, run_dir: Path, command: str) -> None:
        options = env.options
        exp = env.experiment
        self.run_dir = run_dir
        env.record_calls = options.record_requests
        hashes = {i: t.content_hash() for i, t in exp.tasks.items()}
        provenance = collect(options, hashes, exp.evaluators, exp.models.resolve)
        self._store = RunStore.open(
            run_dir,
            {**options.semantic_dict(), "bases": exp.bases},
            options.config_hash(),
            hashes,
            {i: t.model_dump_json() for i, t in exp.tasks.items()},
            rehash=config_hash_of,
            command=command,
            provenance=provenance,
        )
        self._grading = self._store.begin_grading(
            "run", grading_description(options, exp.bases), 0, provenance
        )
        self.recorded = 0
        self.errors = 0

    def next_trial(self, task_id: str) -> int:
        """The first trial of ``task_id`` after every one the directory holds."""
        trials = [r.trial for r in self._store.results() if r.task_id == task_id]
        return max(trials, default=-1) + 1

    def record(self, session: StepSession) -> None:
        """Store the ended episode of ``session`` as unit (task, trial), with its grading."""
        simulation = session.simulation
        if simulation is None:
            raise ValueError("the episode has not ended")
        unit = WorkUnit(session.task_id, session.trial, session.seed)
        self._store.pending_units([unit])
        rejected = bool(simulation.info.get("content_rejected"))
        self._store.record(
            unit,
            simulation,
            session.evaluation,
            simulation.error,
            rejected=rejected,
            calls=session.calls,
        )
        self.recorded += 1
        self.errors += int(session.evaluation is not None and session.evaluation.error is not None)

    def close(self) -> None:
        """Log the grading as finished and release the directory."""
        try:
            self._store.finish_grading(self._grading, self.recorded, self.errors)
        finally:
            self._store.close()
