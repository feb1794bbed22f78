"""Do the tests notice when a rule breaks? Apply hand-written breaking changes one at a time.

Each change below is a small, realistic mistake someone could make while editing the code: a
rule deleted, a comparison flipped, a bound dropped, a field left out. For each one, this script
copies the tree once into a scratch directory, applies the change there (exactly one occurrence
of the original text must exist, else the change is *stale* and the script fails), runs the
tests that cover the area (``pytest -x``), and restores the file. A change is *caught* when a
test fails; *not caught* when they all pass.

    python scripts/breaking_changes.py                 # every change
    python scripts/breaking_changes.py --list          # the changes, without running anything
    python scripts/breaking_changes.py secrets-        # the changes whose id starts so
    python scripts/breaking_changes.py --check         # only check every change still applies
    python scripts/breaking_changes.py --shard 2/3     # every third change from the second

Prints one line per change (``caught`` / ``NOT CAUGHT`` / ``stale``) and the total:

    breaking-changes caught=C not_caught=N stale=S total=T rate=P

Exit status 0 when every change applied and at least ``--target`` percent (95) were caught.
The tests run with ``-n 0`` (one process) under ``nice``; the whole set takes a while on a busy
machine. A change that makes a test hang is caught by the suite's watchdog (pytest-timeout, 600 s
per test), so it costs ten minutes, not the run. This is not part of CI; run it after changing the tests of an area.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("src", "tests", "examples", "docs", "pyproject.toml", "README.md")


@dataclass(frozen=True)
class Change:
    id: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    what: str


def change(id: str, path: str, old: str, new: str, tests: str, what: str) -> Change:
    return Change(id, "src/lifebench/" + path, old, new, tuple(tests.split()), what)


CHANGES: list[Change] = [
    # ---- secrets: what leaves the process -------------------------------------------------
    change(
        "secrets-empty-guard",
        "models/_secrets.py",
        'if secret and secret != "EMPTY":',
        "if secret:",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        'the placeholder key "EMPTY" is scrubbed from every message',
    ),
    change(
        "secrets-username-only",
        "models/_secrets.py",
        "    elif username:\n        found.append(username)\n",
        "",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        "a key given as the user name of a URL (http://KEY@host) is no longer a secret",
    ),
    change(
        "secrets-query-length",
        "models/_secrets.py",
        "found += [value for _, value in pairs if len(value) >= 8]",
        "found += [value for _, value in pairs if len(value) > 8]",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        "a query value of exactly 8 characters is no longer a secret",
    ),
    change(
        "secrets-percent-decoded",
        "models/_secrets.py",
        "for form in (secret, unquote(secret)):",
        "for form in (secret,):",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        "the percent-decoded form of a URL secret is not scrubbed",
    ),
    change(
        "secrets-longest-first",
        "models/_secrets.py",
        "return tuple(sorted(out, key=len, reverse=True))",
        "return tuple(sorted(out, key=len))",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        "shorter secrets are scrubbed first (a longer one containing it leaks its rest)",
    ),
    change(
        "secrets-redact-userinfo",
        "models/_secrets.py",
        "    if parts.username is not None or parts.password is not None:\n"
        '        netloc = f"{REDACTED}@{netloc}"\n',
        "",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        "a redacted URL drops the marker that credentials were there",
    ),
    change(
        "secrets-truncate-bound",
        "models/_secrets.py",
        "return text if len(text) <= limit else",
        "return text if len(text) < limit else",
        "tests/models/test_secret_forms.py tests/models/test_retry_and_secrets.py",
        "a body of exactly the limit gets a truncation marker",
    ),
    # ---- output escaping --------------------------------------------------------------------
    change(
        "escape-bidi",
        "reporting/_safe.py",
        "\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]",
        "\\x7f-\\x9f]",
        "tests/reporting/test_escaping.py",
        "bidirectional overrides are no longer made visible",
    ),
    change(
        "escape-c1",
        "reporting/_safe.py",
        "\\x7f-\\x9f\\u202a-\\u202e",
        "\\x7f\\u202a-\\u202e",
        "tests/reporting/test_escaping.py",
        "C1 control characters (e.g. CSI \\x9b) pass through to the terminal",
    ),
    change(
        "escape-format",
        "reporting/_safe.py",
        'return f"\\\\x{code:02x}" if code < 0x100 else f"\\\\u{code:04x}"',
        'return f"\\\\x{code:02x}"',
        "tests/reporting/test_escaping.py",
        "a character above 0xff is shown as a truncated \\x escape",
    ),
    # ---- retries ----------------------------------------------------------------------------
    change(
        "retry-5xx-range",
        "models/_retry.py",
        "return status in RETRYABLE_STATUS or 500 <= status <= 599",
        "return status in RETRYABLE_STATUS or 500 < status <= 599",
        "tests/models/test_retry_and_secrets.py tests/suites/test_option_bounds_guards.py tests/models/test_openai_model.py",
        "HTTP 500 is no longer retried",
    ),
    change(
        "retry-409",
        "models/_retry.py",
        "RETRYABLE_STATUS = frozenset({408, 409, 429})",
        "RETRYABLE_STATUS = frozenset({408, 429})",
        "tests/models/test_retry_and_secrets.py tests/suites/test_option_bounds_guards.py tests/models/test_openai_model.py",
        "HTTP 409 is no longer retried",
    ),
    change(
        "retry-after-cap",
        "models/_retry.py",
        "return min(max(retry_after, 0.0), self.max_delay_s)",
        "return max(retry_after, 0.0)",
        "tests/models/test_retry_and_secrets.py tests/suites/test_option_bounds_guards.py tests/models/test_openai_model.py",
        "a server's Retry-After is obeyed beyond max_delay_s",
    ),
    change(
        "retry-after-nan",
        "models/_retry.py",
        "return max(seconds, 0.0) if seconds == seconds else None  # NaN is unreadable",
        "return max(seconds, 0.0)",
        "tests/models/test_retry_and_secrets.py tests/suites/test_option_bounds_guards.py tests/models/test_openai_model.py",
        "Retry-After: nan becomes a wait of nan seconds",
    ),
    change(
        "retry-after-ms-unit",
        "models/_retry.py",
        "return max(ms, 0.0) / 1000.0 if ms == ms else None",
        "return max(ms, 0.0) if ms == ms else None",
        "tests/models/test_retry_and_secrets.py tests/suites/test_option_bounds_guards.py tests/models/test_openai_model.py",
        "retry-after-ms is read as seconds",
    ),
    change(
        "retry-attempts-bound",
        "models/_retry.py",
        "        6, ge=1, le=100, description=",
        "        6, ge=0, le=100, description=",
        "tests/models/test_retry_and_secrets.py tests/suites/test_option_bounds_guards.py tests/models/test_openai_model.py",
        "max_attempts = 0 is accepted (a call that is never made)",
    ),
    # ---- CLI / run options validation ---------------------------------------------------------
    change(
        "options-trials-bound",
        "suites/_options.py",
        "trials: int = Field(1, ge=1, le=MAX_TRIALS,",
        "trials: int = Field(1, le=MAX_TRIALS,",
        "tests/suites/test_option_bounds_guards.py tests/suites/test_suite_options.py tests/runner/test_seeds_and_selection.py tests/e2e/test_e2e_cli.py",
        "--trials 0 is accepted",
    ),
    change(
        "options-concurrency-bound",
        "suites/_options.py",
        "        8, ge=1, le=MAX_CONCURRENCY,",
        "        8, ge=0, le=MAX_CONCURRENCY,",
        "tests/suites/test_option_bounds_guards.py tests/suites/test_suite_options.py tests/runner/test_seeds_and_selection.py tests/e2e/test_e2e_cli.py",
        "--concurrency 0 is accepted (a run that never progresses)",
    ),
    change(
        "options-max-errors-bound",
        "suites/_options.py",
        "max_errors: int = Field(10, ge=1, le=MAX_STEPS,",
        "max_errors: int = Field(10, le=MAX_STEPS,",
        "tests/suites/test_option_bounds_guards.py tests/suites/test_suite_options.py tests/runner/test_seeds_and_selection.py tests/e2e/test_e2e_cli.py",
        "--max-errors 0 / negative is accepted",
    ),
    change(
        "options-needs-model",
        "suites/_options.py",
        "            if role in needed and not self.model_for(role):\n"
        '                raise ValueError(f"this {self.suite} run needs --{role}-model (for its {role})")\n',
        "",
        "tests/suites/test_option_bounds_guards.py tests/suites/test_suite_options.py tests/runner/test_seeds_and_selection.py tests/e2e/test_e2e_cli.py",
        "a run that needs a model for a role starts without one",
    ),
    change(
        "options-unknown-task-ids",
        "runner/_experiment.py",
        "        if missing:\n            raise InputError(\n"
        "                f\"unknown task id(s): {', '.join(missing)}\",",
        "        if missing and False:\n            raise InputError(\n"
        "                f\"unknown task id(s): {', '.join(missing)}\",",
        "tests/runner/test_seeds_and_selection.py",
        "an unknown --task-ids value is silently ignored",
    ),
    change(
        "options-num-tasks-after-ids",
        "runner/_experiment.py",
        "        chosen = chosen[: options.num_tasks]",
        "        chosen = list(tasks)[: options.num_tasks]",
        "tests/runner/test_seeds_and_selection.py",
        "--num-tasks overrides --task-ids instead of applying after it",
    ),
    change(
        "options-no-tasks",
        "runner/_experiment.py",
        '    if not chosen:\n        raise InputError("no tasks selected"',
        '    if not chosen and False:\n        raise InputError("no tasks selected"',
        "tests/runner/test_seeds_and_selection.py",
        "a selection of no task runs nothing and reports success",
    ),
    # ---- store / resume -----------------------------------------------------------------------
    change(
        "store-final-statuses",
        "runner/_store.py",
        "_FINAL = (UnitStatus.DONE, UnitStatus.REJECTED)",
        "_FINAL = (UnitStatus.DONE,)",
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "a rejected unit is run again on resume",
    ),
    change(
        "store-duplicate-units",
        "runner/_store.py",
        "        if len({(u.task_id, u.trial) for u in wanted}) != len(wanted):\n"
        '            raise ValueError("pending_units: duplicate (task_id, trial) units")\n',
        "",
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "duplicate units are registered silently (a unit could run twice)",
    ),
    change(
        "store-reseeded",
        "runner/_store.py",
        "        if reseeded:\n            raise ConfigChangedError(",
        "        if reseeded and False:\n            raise ConfigChangedError(",
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "a resume with other per-unit seeds continues the old run",
    ),
    change(
        "store-newer-schema",
        "runner/_store.py",
        "if stored.schema_version > SCHEMA_VERSION:",
        "if stored.schema_version > SCHEMA_VERSION + 1:",
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "a store written by a newer lifebench is opened anyway",
    ),
    change(
        "store-removed-tasks",
        "runner/_store.py",
        "        if removed:\n            problems.append(",
        "        if removed and False:\n            problems.append(",
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "a resume with tasks missing from the file continues silently",
    ),
    change(
        "store-changed-tasks",
        "runner/_store.py",
        "        if changed:\n            problems.append(",
        "        if changed and False:\n            problems.append(",
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "a resume with changed task content continues silently",
    ),
    change(
        "store-unknown-task-units",
        "runner/_store.py",
        '            if unknown:\n                raise ValueError(f"units refer to tasks',
        '            if unknown and False:\n                raise ValueError(f"units refer to tasks',
        "tests/runner/test_run_store.py tests/runner/test_run_store_columns.py tests/runner/test_run_resume_rules.py tests/runner/test_run_failures.py tests/runner/test_config_differences.py",
        "units of tasks the store does not know are registered",
    ),
    # ---- metrics / reported numbers ---------------------------------------------------------
    change(
        "metrics-passk-per-task",
        "metrics/_compute.py",
        "pass_hat_k={str(k): pass_hat_k(n, c, k) for k in range(1, n + 1)},",
        "pass_hat_k={str(k): pass_hat_k(n, c, k) for k in range(1, n)},",
        "tests/metrics",
        "a task's pass^n (all trials) is left out",
    ),
    change(
        "metrics-macro-mean",
        "metrics/_compute.py",
        "return math.fsum(values) / len(values)",
        "return math.fsum(values) / max(len(values), 1) if len(values) > 1 else 0.0",
        "tests/metrics",
        "a run of one task reports a macro average of 0",
    ),
    change(
        "metrics-pass-at-k",
        "metrics/_passk.py",
        "return 1.0 - comb(n - c, k) / comb(n, k)",
        "return 1.0 - comb(n - c, k) / comb(n, k - 1)",
        "tests/metrics",
        "pass@k divides by the wrong binomial",
    ),
    change(
        "metrics-passk-range",
        "metrics/_passk.py",
        "    if not 1 <= k <= n:\n",
        "    if not 0 <= k <= n:\n",
        "tests/metrics",
        "pass^0 is accepted",
    ),
    # ---- prices -----------------------------------------------------------------------------
    change(
        "price-private-suffix",
        "models/_price.py",
        'if host.endswith((".local", ".internal", ".lan")):',
        'if host.endswith((".local", ".lan")):',
        "tests/models/test_pricing.py",
        "a *.internal endpoint is priced as a public API",
    ),
    change(
        "price-private-address",
        "models/_price.py",
        "return address.is_private  # loopback and link-local addresses included",
        "return address.is_loopback",
        "tests/models/test_pricing.py",
        "a 10.x / 192.168.x endpoint is priced as a public API",
    ),
    change(
        "price-explicit-first",
        "models/_price.py",
        "    if explicit is not None:\n        return explicit\n",
        "",
        "tests/models/test_pricing.py",
        "a price in the models file is ignored for a library price",
    ),
    # ---- the episode loop and its stops -----------------------------------------------------
    change(
        "loop-max-steps",
        "simulation/_loop.py",
        "            if self.steps >= self.ep.limits.max_steps:\n"
        "                return TerminationReason.MAX_STEPS\n"
        "            ended = yield from self.user_turn()",
        "            if self.steps > self.ep.limits.max_steps:\n"
        "                return TerminationReason.MAX_STEPS\n"
        "            ended = yield from self.user_turn()",
        "tests/simulation",
        "an episode runs one step beyond --max-steps",
    ),
    change(
        "loop-max-errors",
        "simulation/_loop.py",
        "if self.tool_errors >= self.ep.limits.max_errors:",
        "if self.tool_errors > self.ep.limits.max_errors:",
        "tests/simulation",
        "an episode goes on after --max-errors tool errors",
    ),
    change(
        "loop-max-turns",
        "simulation/_loop.py",
        "if limit is not None and self.turns >= limit:",
        "if limit is not None and self.turns > limit:",
        "tests/simulation",
        "a dialogue runs one turn beyond its turn limit",
    ),
    change(
        "loop-stop-after-tools",
        "simulation/_loop.py",
        "                if agent_stopped(reply.content):\n                    return TerminationReason.AGENT_STOP\n                if self.tool_errors",
        "                if self.tool_errors",
        "tests/simulation",
        "an agent stop token sent together with tool calls no longer ends the episode",
    ),
    change(
        "loop-predict-bounds",
        "simulation/_loop.py",
        "if not 0 <= i <= len(history):",
        "if not 0 <= i <= len(history) + 1:",
        "tests/simulation",
        "a prediction index past the history is accepted",
    ),
    change(
        "loop-agent-call-cap",
        "simulation/_loop.py",
        "if cap is not None and calls >= cap:",
        "if cap is not None and calls > cap:",
        "tests/simulation",
        "the agent gets one model call beyond its per-turn cap",
    ),
    change(
        "loop-user-stop",
        "simulation/_loop.py",
        "if any(token in reply.content for token in self.ep.user_stop_tokens):",
        "if any(reply.content.endswith(token) for token in self.ep.user_stop_tokens):",
        "tests/simulation",
        "a user stop token followed by text no longer ends the episode",
    ),
    change(
        "loop-empty-reply",
        "simulation/_loop.py",
        "if reply.content.strip() or reply.tool_calls:",
        "if reply.content or reply.tool_calls:",
        "tests/simulation",
        "a whitespace-only agent reply counts as a message",
    ),
    # ---- RL faces ---------------------------------------------------------------------------
    change(
        "rl-ungradable-reward",
        "rl/_types.py",
        '        elif not evaluation.gradable:\n            status = "ungradable"',
        '        elif not evaluation.gradable and False:\n            status = "ungradable"',
        "tests/rl/test_faces.py::test_an_outcome_carries_a_reward_only_when_graded tests/rl/test_step_rules.py tests/rl/test_parity.py",
        "an ungradable episode is served to a trainer as graded with reward 0",
    ),
    change(
        "rl-grading-failed",
        "rl/_types.py",
        '        elif evaluation.error is not None:\n            status, error = "grading_failed", evaluation.error',
        '        elif evaluation.error is not None and False:\n            status, error = "grading_failed", evaluation.error',
        "tests/rl/test_faces.py::test_an_outcome_carries_a_reward_only_when_graded tests/rl/test_step_rules.py tests/rl/test_parity.py",
        "a failed grading is served as a graded reward",
    ),
    change(
        "rl-rejected",
        "rl/_types.py",
        'status = "rejected" if rejected else "infrastructure_error"',
        'status = "infrastructure_error"',
        "tests/rl/test_faces.py::test_an_outcome_carries_a_reward_only_when_graded tests/rl/test_step_rules.py tests/rl/test_parity.py",
        "a content-filter rejection is served as an infrastructure error",
    ),
    # ---- sweeps -----------------------------------------------------------------------------
    change(
        "sweep-reserved-keys",
        "runner/_sweep.py",
        "        bad = sorted(set(values) & _RESERVED)\n        if bad:",
        "        bad = sorted(set(values) & _RESERVED)\n        if bad and False:",
        "tests/runner/test_sweep_properties.py tests/e2e/test_e2e_sweep.py",
        "a sweep cell may set out / concurrency / quiet itself",
    ),
    change(
        "sweep-duplicate-names",
        "runner/_sweep.py",
        "        if name in seen:\n            raise InputError(",
        "        if name in seen and False:\n            raise InputError(",
        "tests/runner/test_sweep_properties.py tests/e2e/test_e2e_sweep.py",
        "two cells with one name write into the same run directory",
    ),
    change(
        "sweep-grid-over-base",
        "runner/_sweep.py",
        "        values = dict(spec.base)\n",
        "        values = {}\n",
        "tests/runner/test_sweep_properties.py tests/e2e/test_e2e_sweep.py",
        "the base options of a sweep are dropped from every cell",
    ),
    # ---- TravelBench rows and sandbox ---------------------------------------------------------
    change(
        "travel-language-inferred",
        "travel/loader.py",
        'data["language"] = "zh" if _CJK.search(text) else "en"',
        'data["language"] = "zh"',
        "tests/travel/test_loader_guards.py tests/travel/test_loader_travel.py tests/travel/test_row_language.py",
        "a row without a language in English is taken for Chinese",
    ),
    change(
        "travel-subset-multi",
        "travel/loader.py",
        '    if row.get("user_profile"):\n        return "multi"\n',
        "",
        "tests/travel/test_loader_guards.py tests/travel/test_loader_travel.py tests/travel/test_row_language.py",
        "a row with a user profile is no longer a multi-turn task",
    ),
    change(
        "travel-empty-query",
        "travel/loader.py",
        'if isinstance(row.get("query"), str) and not row["query"].strip():',
        'if isinstance(row.get("query"), str) and not row["query"]:',
        "tests/travel/test_loader_guards.py tests/travel/test_loader_travel.py tests/travel/test_row_language.py",
        "a whitespace-only query is accepted",
    ),
    change(
        "sandbox-key-defaults",
        "travel/sandbox/keys.py",
        "if name in defaults and value == defaults[name] and type(value) is type(defaults[name]):",
        "if name in defaults and value == defaults[name]:",
        "tests/travel/test_sandbox_properties.py tests/travel/test_sandbox_cache.py tests/travel/test_sandbox_memo.py",
        "an argument equal to its default but of another type (1 vs True) is dropped from the key",
    ),
    change(
        "sandbox-key-time-strip",
        "travel/sandbox/keys.py",
        "return key_of(normalized_params(tool, args), time.strip())",
        "return key_of(normalized_params(tool, args), time)",
        "tests/travel/test_sandbox_properties.py tests/travel/test_sandbox_cache.py tests/travel/test_sandbox_memo.py",
        "a time with surrounding spaces gets another normalised key",
    ),
    change(
        "sandbox-key-integral",
        "travel/sandbox/keys.py",
        "    if math.isfinite(value) and value == int(value):\n        return int(value)\n",
        "",
        "tests/travel/test_sandbox_properties.py tests/travel/test_sandbox_cache.py tests/travel/test_sandbox_memo.py",
        "3 and 3.0 get different normalised keys",
    ),
    # ---- VitaBench tool preconditions (inside @tool methods) -------------------------------
    change(
        "vita-distance-negative",
        "vita/domains/delivery.py",
        "        if distance < 0:\n",
        "        if distance < -1:\n",
        "tests/vita/test_delivery_tool_guards.py tests/vita/test_delivery_tools.py tests/vita/test_tool_leniency.py tests/vita/test_cross.py",
        "a negative delivery distance gives a time instead of a precondition error",
    ),
    change(
        "vita-counts-positive",
        "vita/domains/delivery.py",
        "if any(c <= 0 for c in product_cnts):",
        "if any(c < 0 for c in product_cnts):",
        "tests/vita/test_delivery_tool_guards.py tests/vita/test_delivery_tools.py tests/vita/test_tool_leniency.py tests/vita/test_cross.py",
        "an order line with count 0 is accepted",
    ),
    change(
        "vita-counts-aligned",
        "vita/domains/delivery.py",
        "        if len(product_cnts) != n:\n",
        "        if len(product_cnts) < n:\n",
        "tests/vita/test_delivery_tool_guards.py tests/vita/test_delivery_tools.py tests/vita/test_tool_leniency.py tests/vita/test_cross.py",
        "more counts than products is accepted",
    ),
    change(
        "vita-dispatch-past",
        "vita/domains/delivery.py",
        "        if dispatch < self.now:\n",
        "        if dispatch < self.now and False:\n",
        "tests/vita/test_delivery_tool_guards.py tests/vita/test_delivery_tools.py tests/vita/test_tool_leniency.py tests/vita/test_cross.py",
        "an order dispatched in the past is accepted",
    ),
    change(
        "vita-other-user-order",
        "vita/domains/delivery.py",
        "        if order.user_id != self.db.user_id:\n",
        "        if order.user_id != self.db.user_id and False:\n",
        "tests/vita/test_delivery_tool_guards.py tests/vita/test_delivery_tools.py tests/vita/test_tool_leniency.py tests/vita/test_cross.py",
        "another user's order can be read and changed",
    ),
    change(
        "vita-nearby-range",
        "vita/domains/common.py",
        "        if range < 0:\n",
        "        if range < -1:\n",
        "tests/vita/test_delivery_tool_guards.py tests/vita/test_delivery_tools.py tests/vita/test_tool_leniency.py tests/vita/test_cross.py",
        "a negative search radius is accepted",
    ),
    # ---- workers / scheduler: exactly-once, bounds -------------------------------------------
    change(
        "workers-concurrency-bound",
        "runner/_workers.py",
        "while queue and sum(map(len, inflight)) < self._concurrency:",
        "while queue and sum(map(len, inflight)) <= self._concurrency:",
        "tests/runner/test_process_backend.py tests/runner/test_backend_invariants.py",
        "one unit more than --concurrency is in flight across the worker processes",
    ),
    change(
        "workers-dead-units-recorded",
        "runner/_workers.py",
        "                for unit in list(inflight[index].values()):\n"
        '                    error = f"worker process {index} exited unexpectedly (exit code {code})"\n'
        "                    sink.finished(PackedOutcome.of(unit, infra_outcome(unit, error)))\n",
        "",
        "tests/runner/test_process_backend.py tests/runner/test_backend_invariants.py",
        "the units in flight on a worker that died are never recorded",
    ),
    change(
        "workers-least-loaded",
        "runner/_workers.py",
        "index = min(candidates, key=lambda i: (len(inflight[i]), i))",
        "index = candidates[0]",
        "tests/runner/test_process_backend.py tests/runner/test_backend_invariants.py",
        "every unit goes to the first live worker (no spreading)",
    ),
    change(
        "workers-all-dead",
        "runner/_workers.py",
        "                if not any(alive) and queue:\n",
        "                if not any(alive) and queue and False:\n",
        "tests/runner/test_process_backend.py tests/runner/test_backend_invariants.py",
        "a run whose worker processes all died waits forever / ends as if complete",
    ),
    change(
        "workers-bounds",
        "runner/_workers.py",
        "if workers < 1 or concurrency < 1:",
        "if workers < 1:",
        "tests/runner/test_process_backend.py tests/runner/test_backend_invariants.py",
        "a process backend with concurrency 0 is accepted",
    ),
    change(
        "scheduler-bound",
        "runner/_scheduler.py",
        "for _ in range(min(self._concurrency, len(units))):",
        "for _ in range(min(self._concurrency + 1, len(units))):",
        "tests/runner/test_run_scheduler.py tests/runner/test_backend_invariants.py tests/runner/test_run_failures.py",
        "one unit more than --concurrency runs at once",
    ),
    change(
        "scheduler-foreign-simulation",
        "runner/_scheduler.py",
        "    try:\n        return PackedOutcome.of(unit, outcome)\n    except ValueError:",
        "    try:\n        return PackedOutcome.of(unit, outcome)\n    except ZeroDivisionError:",
        "tests/runner/test_run_scheduler.py tests/runner/test_backend_invariants.py tests/runner/test_run_failures.py",
        "an execute that returns another unit's simulation crashes the run",
    ),
    change(
        "scheduler-exception-infra",
        "runner/_scheduler.py",
        "    except Exception as exc:\n        outcome = infra_outcome(unit, exception_summary(exc))\n",
        "    except KeyError as exc:\n        outcome = infra_outcome(unit, exception_summary(exc))\n",
        "tests/runner/test_run_scheduler.py tests/runner/test_backend_invariants.py tests/runner/test_run_failures.py",
        "an exception in one unit stops the run instead of recording an infra error",
    ),
    # ---- tool arguments -------------------------------------------------------------------
    change(
        "tool-empty-arguments",
        "tools/_tool.py",
        'text = arguments.strip() or "{}"',
        "text = arguments.strip()",
        "tests/tools",
        "an empty arguments string is a JSON error instead of no arguments",
    ),
    change(
        "tool-null-optional",
        "tools/_tool.py",
        "            if not field.is_required() and not _admits_none(field.annotation):\n",
        "            if not _admits_none(field.annotation):\n",
        "tests/tools",
        "null for a required argument is dropped (a missing-argument error names it wrongly)",
    ),
    change(
        "tool-integral-float",
        "tools/_tool.py",
        "return int(value) if wants_int and value.is_integer() else value",
        "return int(value) if wants_int else value",
        "tests/tools",
        "2.5 for an integer argument is truncated to 2 instead of refused",
    ),
    change(
        "tool-non-object",
        "tools/_tool.py",
        "        if not isinstance(decoded, dict):\n            raise ToolError(",
        "        if not isinstance(decoded, dict | list):\n            raise ToolError(",
        "tests/tools",
        "a JSON array of arguments crashes instead of a bad_arguments error",
    ),
    change(
        "tool-internal-error",
        "tools/_tool.py",
        "        except Exception as exc:  # a bug in a tool must not end the simulation\n",
        "        except KeyError as exc:  # a bug in a tool must not end the simulation\n",
        "tests/tools",
        "a bug in a tool ends the episode instead of an internal tool error",
    ),
    # ---- provider requests and answers ---------------------------------------------------------
    change(
        "convert-object-arguments",
        "models/_convert.py",
        "        arguments = json.dumps(arguments, ensure_ascii=False)",
        "        arguments = str(arguments)",
        "tests/models/test_completion_parsing.py tests/models/test_wire.py tests/models/test_fail_fast.py tests/models/test_openai_model.py",
        "tool-call arguments sent as an object become Python repr, not JSON",
    ),
    change(
        "convert-missing-arguments",
        "models/_convert.py",
        '    if arguments is None:\n        arguments = "{}"\n',
        '    if arguments is None:\n        arguments = ""\n',
        "tests/models/test_completion_parsing.py tests/models/test_wire.py tests/models/test_fail_fast.py tests/models/test_openai_model.py",
        "a tool call without arguments gets an empty string",
    ),
    change(
        "convert-call-id",
        "models/_convert.py",
        'id=str(call_id) if call_id else f"call_{index}",',
        'id=str(call_id) if call_id else "call",',
        "tests/models/test_completion_parsing.py tests/models/test_wire.py tests/models/test_fail_fast.py tests/models/test_openai_model.py",
        "tool calls without ids all get one id (results cannot be matched)",
    ),
    change(
        "convert-null-content",
        "models/_convert.py",
        'out: dict[str, Any] = {"role": "assistant", "content": message.content}',
        'out: dict[str, Any] = {"role": "assistant", "content": message.content or None}',
        "tests/models/test_completion_parsing.py tests/models/test_wire.py tests/models/test_fail_fast.py tests/models/test_openai_model.py",
        'an assistant message with only tool calls sends content null (servers typed on the request refuse it) instead of ""',
    ),
    change(
        "convert-reasoning",
        "models/_convert.py",
        '    if message.reasoning is not None:\n        out["reasoning_content"] = message.reasoning\n',
        "",
        "tests/models/test_completion_parsing.py tests/models/test_wire.py tests/models/test_fail_fast.py tests/models/test_openai_model.py",
        "the model's reasoning is not sent back to the provider",
    ),
    change(
        "convert-content-filter",
        "models/_convert.py",
        'if finish_reason == "content_filter" and not content.strip() and not raw_calls:',
        'if finish_reason == "content_filter" and not content.strip() and not raw_calls and False:',
        "tests/models/test_completion_parsing.py tests/models/test_wire.py tests/models/test_fail_fast.py tests/models/test_openai_model.py",
        "an answer stopped by a content filter is an empty reply, not a rejection",
    ),
    # ---- reporting numbers ----------------------------------------------------------------------
    change(
        "report-ungradable-outcome",
        "reporting/_outcomes.py",
        '        outcome, error = "ungradable", NO_EVALUATION\n',
        '        outcome, error = "fail", NO_EVALUATION\n',
        "tests/metrics/test_outcome_guards.py tests/reporting/test_report_outcomes.py tests/reporting/test_show_export.py",
        "a unit without an evaluation is reported as a failure, not ungradable",
    ),
    change(
        "report-grading-error",
        "reporting/_outcomes.py",
        '        if ev.error is not None:\n            outcome, error = "grading_error", ev.error\n',
        '        if ev.error is not None and False:\n            outcome, error = "grading_error", ev.error\n',
        "tests/metrics/test_outcome_guards.py tests/reporting/test_report_outcomes.py tests/reporting/test_show_export.py",
        "a failed grading is reported as pass / fail",
    ),
    change(
        "report-unpriced-cost",
        "reporting/_outcomes.py",
        "        cost = None if spent.unpriced else spent.cost\n",
        "        cost = spent.cost\n",
        "tests/metrics/test_outcome_guards.py tests/reporting/test_report_outcomes.py tests/reporting/test_show_export.py",
        "an unpriced unit shows a cost (of 0) instead of none",
    ),
    change(
        "report-error-kinds-done-only",
        "reporting/_outcomes.py",
        '        if record.status != "done" or sim is None:\n            continue\n',
        "        if sim is None:\n            continue\n",
        "tests/metrics/test_outcome_guards.py tests/reporting/test_report_outcomes.py tests/reporting/test_show_export.py",
        "tool errors of unfinished units are counted in the report",
    ),
    change(
        "usage-tool-error-rate",
        "metrics/_usage.py",
        "return sum(s.tool_errors for s in simulations) / calls if calls else None",
        "return sum(s.tool_errors for s in simulations) / calls if calls else 0.0",
        "tests/metrics",
        "a run without tool calls reports a tool error rate of 0 instead of none",
    ),
    change(
        "usage-cost-per-success",
        "metrics/_usage.py",
        "per_success=total / n_successes if total is not None and n_successes else None,",
        "per_success=total / max(n_successes, 1) if total is not None else None,",
        "tests/metrics",
        "a run without a success reports a cost per success",
    ),
    # ---- text and cache keys ----------------------------------------------------------------
    change(
        "cache-endpoint-redacted",
        "models/_cache.py",
        "return endpoint_key(redact_url(base_url.strip()))",
        "return endpoint_key(base_url.strip())",
        "tests/models/test_cache_endpoint_guards.py tests/models/test_model_cache.py",
        "a key in the endpoint URL enters the cache (and its keys)",
    ),
    # ---- loaders: one clear message per problem ------------------------------------------------
    change(
        "vita-loader-more-problems",
        "vita/loader.py",
        '        message += "\\n" + "\\n".join(lines)\n',
        "",
        "tests/vita/test_loader.py tests/vita/test_loader_lint.py tests/vita/test_loading_normalise.py",
        "a task file with several problems names only the first",
    ),
    change(
        "vita-loader-empty-file",
        "_util/inputs.py",
        "    if not allow_empty and not text.strip():\n",
        "    if not allow_empty and not text.strip() and False:\n",
        "tests/vita/test_loader.py tests/vita/test_loader_lint.py tests/vita/test_loading_normalise.py",
        "an empty task file gives a parse error instead of saying it is empty",
    ),
    change(
        "flow-kb-descriptions",
        "flow/kb/loader.py",
        "    if not isinstance(data, dict) or not all(\n",
        "    if not isinstance(data, dict | list) or not all(\n",
        "tests/flow/test_kb_description_guards.py tests/flow/test_kb.py",
        "a description file holding a list crashes instead of a message naming it",
    ),
    change(
        "flow-parse-json-end",
        "flow/agents/parse.py",
        'if at >= len(text) or text[at] not in "{[":',
        'if text[at] not in "{[":',
        "tests/flow/test_parse_edges.py tests/flow/test_react_parse.py tests/flow/test_parse_exact.py",
        "a reply ending right at `Action Input:` raises instead of parsing",
    ),
    change(
        "text-trailing-spaces",
        "_util/text.py",
        '    if spaced != spaced.strip():\n        found["leading or trailing spaces"] = None\n',
        "",
        "tests/vita/test_loading_normalise.py tests/vita/test_loader_lint.py tests/reporting/test_escaping.py tests/tools",
        "leading or trailing spaces in a value are no longer reported",
    ),
    change(
        "text-repeated-spaces",
        "_util/text.py",
        '    if "  " in spaced.strip():\n',
        '    if "   " in spaced.strip():\n',
        "tests/vita/test_loading_normalise.py tests/vita/test_loader_lint.py tests/reporting/test_escaping.py tests/tools",
        "two repeated spaces in a value are no longer reported",
    ),
]


def _copy_tree(dest: Path) -> None:
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(
                src, dest / name, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis")
            )
        elif src.is_file():
            shutil.copy2(src, dest / name)


def _apply(tree: Path, c: Change) -> str | None:
    """The original text of the file once the change is applied; None when it is stale."""
    path = tree / c.path
    original = path.read_text(encoding="utf-8")
    if original.count(c.old) != 1:
        return None
    path.write_text(original.replace(c.old, c.new), encoding="utf-8")
    return original


def _run_tests(tree: Path, c: Change, timeout: float) -> tuple[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("MUTANT_UNDER_TEST", None)
    cmd = [
        "nice", "-n", "10", sys.executable, "-m", "pytest", "-x", "-q", "-n", "0",
        "-p", "no:cacheprovider", "-p", "no:randomly", "-rfE", *c.tests,
    ]  # fmt: skip
    try:
        done = subprocess.run(
            cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout", ""
    lines = done.stdout.strip().splitlines()
    failed = [ln for ln in lines if ln.startswith(("FAILED ", "ERROR "))]
    tail = (failed or lines or [""])[0 if failed else -1][:160]
    if done.returncode == 1:
        return "caught", tail
    if done.returncode == 0:
        return "NOT CAUGHT", tail
    return f"error (pytest exit {done.returncode})", tail


def _caught_in(outputs: list[str]) -> set[str]:
    """The ids of the changes an earlier run's output says were caught (the last verdict wins)."""
    verdicts: dict[str, str] = {}
    for output in outputs:
        for line in Path(output).read_text(encoding="utf-8").splitlines():
            verdict, _, rest = line.partition("  ")
            change_id = rest.strip().partition(":")[0]
            if change_id:
                verdicts[change_id] = verdict.strip()
    return {i for i, v in verdicts.items() if v == "caught"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prefix", nargs="*", help="run only the changes whose id starts so")
    parser.add_argument("--list", action="store_true", help="list the changes")
    parser.add_argument("--check", action="store_true", help="only check that each applies")
    parser.add_argument("--target", type=float, default=95.0, help="percent to reach (95)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per change")
    parser.add_argument(
        "--shard", default="1/1", help="K/N: every N-th change from the K-th (parallel runs)"
    )
    parser.add_argument(
        "--resume",
        nargs="+",
        default=[],
        metavar="OUTPUT",
        help="outputs of earlier runs: changes caught there are counted without running again",
    )
    args = parser.parse_args()
    k, n = (int(x) for x in args.shard.split("/"))
    caught_before = _caught_in(args.resume)
    chosen = [c for c in CHANGES if not args.prefix or c.id.startswith(tuple(args.prefix))]
    chosen = chosen[k - 1 :: n]
    ids = [c.id for c in CHANGES]
    if len(set(ids)) != len(ids):
        print("breaking_changes.py: duplicate change ids", file=sys.stderr)
        return 2
    if args.list:
        for c in chosen:
            print(f"{c.id:32} {c.path}: {c.what}")
        print(f"{len(chosen)} changes in {len({c.path for c in chosen})} modules")
        return 0
    counts = {"caught": 0, "not_caught": 0, "stale": 0, "other": 0}
    with tempfile.TemporaryDirectory(prefix="lifebench-breaking-") as scratch:
        tree = Path(scratch)
        _copy_tree(tree)
        for c in chosen:
            if c.id in caught_before and not args.check:
                counts["caught"] += 1
                print(f"{'caught':11} {c.id}: {c.what} [earlier run]", flush=True)
                continue
            original = _apply(tree, c)
            if original is None:
                counts["stale"] += 1
                print(f"stale       {c.id}: the original text is not in {c.path} exactly once")
                continue
            if args.check:
                (tree / c.path).write_text(original, encoding="utf-8")
                continue
            started = time.monotonic()
            try:
                verdict, tail = _run_tests(tree, c, args.timeout)
            finally:
                (tree / c.path).write_text(original, encoding="utf-8")
            key = {"caught": "caught", "NOT CAUGHT": "not_caught"}.get(verdict, "other")
            counts[key] += 1
            print(
                f"{verdict:11} {c.id}: {c.what} [{time.monotonic() - started:.0f} s; {tail}]",
                flush=True,
            )
    judged = counts["caught"] + counts["not_caught"] + counts["other"]
    rate = 100.0 * counts["caught"] / judged if judged else 0.0
    if args.check:
        print(f"breaking-changes stale={counts['stale']} total={len(chosen)}")
        return 1 if counts["stale"] else 0
    print(
        f"breaking-changes caught={counts['caught']} not_caught={counts['not_caught']} "
        f"other={counts['other']} stale={counts['stale']} total={len(chosen)} rate={rate:.1f}"
    )
    return 0 if counts["stale"] == 0 and rate >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
