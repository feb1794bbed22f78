"""Which lifebench is running: its version, the git commit it came from, its key packages.

The version is the git tag (``vX.Y.Z``; between tags ``X.Y.(Z+1).devN+gHASH``) written into
``lifebench/_version.py`` by ``hatch-vcs`` when the package is built or installed (an sdist
carries it too). The commit is read from the git checkout lifebench runs from (an editable
install: the commit *now*, with a flag for local changes), else from the version's
``+gHASH`` part, else it is unknown.
"""

from __future__ import annotations

import sys

FALLBACK_VERSION = "0.1.0+unknown"
"""The version of a copy without git metadata or build information."""

KEY_PACKAGES = (
    "pydantic",
    "aiohttp",
    "typer",
    "rich",
    "rapidfuzz",
    "holidays",
    "json-repair",
    "jinja2",
    "jsonschema",
    "pyyaml",
    "genai-prices",
)
"""The dependencies whose versions a run records (those that can change a result: parsing,
matching, calendars, validation, prices)."""

_HASH_IN_VERSION = r"\+g([0-9a-f]{7,40})\b"


def version() -> str:
    """The installed lifebench version (see the module docstring)."""
    try:
        from lifebench._version import __version__ as built
    except ImportError:
        built = ""
    if built:
        return str(built)
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        return dist_version("lifebench")
    except (ImportError, PackageNotFoundError):
        return FALLBACK_VERSION


class Revision:
    """The git commit lifebench was built or runs from (``commit`` None: unknown), whether
    its tree had local changes, and where that was read: ``checkout`` (the git work tree
    lifebench runs from, now), ``version`` (the build's ``+gHASH``) or ``unknown``."""

    __slots__ = ("commit", "dirty", "source")

    def __init__(
        self, commit: str | None, dirty: bool | None = None, source: str = "unknown"
    ) -> None:
        self.commit = commit
        self.dirty = dirty
        self.source = source

    def __repr__(self) -> str:
        return f"Revision({self.commit!r}, dirty={self.dirty!r}, source={self.source!r})"

    def describe(self) -> str:
        """``abc1234`` / ``abc1234, with local changes`` / ``unknown``."""
        if self.commit is None:
            return "unknown"
        short = self.commit[:12]
        return f"{short}, with local changes" if self.dirty else short


def _git(root: str, *args: str) -> str | None:
    import subprocess

    try:
        done = subprocess.run(
            ["git", "-C", root, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def revision(package_dir: str | None = None) -> Revision:
    """The commit of the running lifebench (see :class:`Revision`)."""
    from pathlib import Path

    here = Path(package_dir) if package_dir else Path(__file__).resolve().parent
    root = here.parent.parent  # src/lifebench → the project root of a checkout
    if (root / ".git").exists() and (root / "pyproject.toml").is_file():
        commit = _git(str(root), "rev-parse", "HEAD")
        if commit:
            status = _git(str(root), "status", "--porcelain", "--untracked-files=no")
            return Revision(commit, None if status is None else bool(status), "checkout")
    import re

    match = re.search(_HASH_IN_VERSION, version())
    if match:
        return Revision(match.group(1), ".d" in version().split("+", 1)[1], "version")
    return Revision(None)


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of ``names`` (``missing`` when not installed), and Python's."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    out = {"python": ".".join(map(str, sys.version_info[:3]))}
    for name in names:
        try:
            out[name] = dist_version(name)
        except PackageNotFoundError:
            out[name] = "missing"
    return out
