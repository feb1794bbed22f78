"""The generation pipeline: sub-seed → draft → load → lint → certify, with bounded retries."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from lifebench.errors import InputError, LifebenchError
from lifebench.vita.generate.certify import Certificate, certify
from lifebench.vita.generate.output import dumps_tasks
from lifebench.vita.generate.protocol import GenerateOptions, TaskGenerator, TaskSpec
from lifebench.vita.generate.registry import load_generator
from lifebench.vita.generate.seeds import sub_seed, task_id
from lifebench.vita.lint import lint_task
from lifebench.vita.loader import parse_tasks


class GenerationError(LifebenchError):
    """No attempt of a task passed the checks; the message lists why each attempt failed."""


@dataclass(frozen=True)
class GeneratedTask:
    """One accepted task with how it got there."""

    task: dict[str, Any]
    attempts: int
    certificate: Certificate | None
    rejected: tuple[str, ...]


@dataclass(frozen=True)
class GenerationResult:
    """Every accepted task of a run, in index order."""

    options: GenerateOptions
    items: tuple[GeneratedTask, ...]

    @property
    def tasks(self) -> list[dict[str, Any]]:
        """The task records, ready for :func:`~lifebench.vita.generate.output.dumps_tasks`."""
        return [item.task for item in self.items]

    @property
    def regenerated(self) -> int:
        """Drafts rejected along the way (each was replaced by the next sub-seed's draft)."""
        return sum(item.attempts - 1 for item in self.items)

    @property
    def certified(self) -> int:
        """Tasks whose certificate passed."""
        return sum(1 for item in self.items if item.certificate and item.certificate.passed)


def check_options(options: GenerateOptions) -> None:
    """Knob checks common to every domain (InputError naming the option)."""
    if options.n < 1:
        raise InputError("must be at least 1", field="--n")
    if options.language not in ("en", "zh"):
        raise InputError(f"must be 'en' or 'zh', got {options.language!r}", field="--language")
    for name in ("subgoals", "providers", "products"):
        value = getattr(options, name)
        if value is not None and value < 1:
            raise InputError("must be at least 1", field=f"--{name}")
    if options.max_attempts < 1:
        raise InputError("must be at least 1", field="max_attempts")


async def _judge(
    generator: TaskGenerator, options: GenerateOptions, task: dict[str, Any]
) -> tuple[Certificate | None, str | None]:
    """Load, lint and certify one draft; return its certificate or why it was rejected."""
    label = str(task.get("id", "?"))
    try:
        (loaded,) = parse_tasks(dumps_tasks([task]), label)
    except InputError as exc:
        return None, f"does not load: {exc}"
    issues = lint_task(loaded)
    if issues:
        return None, "lint: " + "; ".join(str(i) for i in issues[:3])
    if not options.certify:
        return None, None
    certificate = await certify(loaded, generator.vita_domain, options.language)
    if not certificate.passed:
        return certificate, f"certification failed ({certificate.describe()})"
    return certificate, None


async def generate_one(
    generator: TaskGenerator, options: GenerateOptions, index: int
) -> GeneratedTask:
    """Task ``index``: the first attempt whose draft passes every check.

    Raises:
        GenerationError: ``options.max_attempts`` drafts were rejected.
    """
    tid = task_id(options.domain, options.seed, index)
    rejected: list[str] = []
    for attempt in range(options.max_attempts):
        seed = sub_seed(options.domain, options.seed, index, attempt)
        spec = TaskSpec(
            task_id=tid,
            index=index,
            attempt=attempt,
            seed=seed,
            language=options.language,
            subgoals=options.subgoals,
            providers=options.providers,
            products=options.products,
        )
        draft = generator.draft(spec, random.Random(seed))
        if draft.problems:
            rejected.append(f"attempt {attempt}: " + "; ".join(draft.problems))
            continue
        certificate, reason = await _judge(generator, options, draft.task)
        if reason is None:
            return GeneratedTask(draft.task, attempt + 1, certificate, tuple(rejected))
        rejected.append(f"attempt {attempt}: {reason}")
    raise GenerationError(
        f"task {tid}: no acceptable draft in {options.max_attempts} attempts:\n  "
        + "\n  ".join(rejected[-5:])
    )


async def agenerate_tasks(
    options: GenerateOptions, generator: TaskGenerator | None = None
) -> GenerationResult:
    """Generate ``options.n`` tasks (async; see :func:`generate_tasks`)."""
    check_options(options)
    generator = generator or load_generator(options.domain)
    generator.check_options(options)
    items = [await generate_one(generator, options, i) for i in range(options.n)]
    return GenerationResult(options, tuple(items))


def generate_tasks(
    options: GenerateOptions, generator: TaskGenerator | None = None
) -> GenerationResult:
    """Generate ``options.n`` certified tasks of ``options.domain``.

    Deterministic: the same options give the same tasks (and the same bytes through
    :func:`~lifebench.vita.generate.output.dumps_tasks`); task ``i`` depends only on the
    domain, the seed and ``i`` (plus the knobs).

    Raises:
        InputError: a bad option, or a domain without a generator yet.
        GenerationError: some task had no acceptable draft.
    """
    return asyncio.run(agenerate_tasks(options, generator))
