"""Task generation for VitaBench-style suites: a per-domain generator plus a shared pipeline.

``lifebench tasks generate --domain delivery --n 100 --seed 0 --language en --out FILE`` drives
:func:`generate_tasks`. Each domain contributes one :class:`TaskGenerator` (registered by import
path in :mod:`lifebench.vita.generate.registry`); the pipeline derives a sub-seed per task,
loads and lints every draft, and certifies it with the domain's real environment (oracle 1,
noop 0, distractor 0), retrying with the next sub-seed when a draft fails.
"""

from lifebench.vita.generate.certify import Certificate, certify
from lifebench.vita.generate.output import dumps_tasks, write_tasks
from lifebench.vita.generate.pipeline import (
    GeneratedTask,
    GenerationError,
    GenerationResult,
    agenerate_tasks,
    generate_tasks,
)
from lifebench.vita.generate.protocol import Draft, GenerateOptions, TaskGenerator, TaskSpec
from lifebench.vita.generate.registry import GENERATORS, available_generators, load_generator

__all__ = [
    "GENERATORS",
    "Certificate",
    "Draft",
    "GenerateOptions",
    "GeneratedTask",
    "GenerationError",
    "GenerationResult",
    "TaskGenerator",
    "TaskSpec",
    "agenerate_tasks",
    "available_generators",
    "certify",
    "dumps_tasks",
    "generate_tasks",
    "load_generator",
    "write_tasks",
]
