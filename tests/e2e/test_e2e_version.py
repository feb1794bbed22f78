"""The version comes from the git tag (hatch-vcs), from a clean clone, an sdist and a wheel, with
a fallback for sources without git metadata; ``lifebench --version`` prints it (and the commit
of a checkout). Builds run offline with the hatchling and hatch-vcs of the dev environment."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench import __version__
from lifebench._about import FALLBACK_VERSION, package_versions, revision, version
from lifebench.cli import app

ROOT = Path(__file__).resolve().parents[2]
GIT = ["git", "-c", "user.name=lifebench", "-c", "user.email=tests@lifebench.invalid"]


def _build(source: Path, out: Path, *targets: str) -> list[Path]:
    hatchling = shutil.which("hatchling", path=str(Path(sys.executable).parent))
    if hatchling is None:
        pytest.skip("hatchling is not installed (pip install -e '.[dev]')")
    args = [a for t in targets for a in ("-t", t)]
    done = subprocess.run(
        [hatchling, "build", *args, "-d", str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return sorted(out.iterdir())


def _wheel_version(wheel: Path) -> tuple[str, str]:
    """(METADATA Version, lifebench/_version.py's __version__) of a wheel."""
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        version_line = next(
            line for line in z.read(meta).decode().splitlines() if line.startswith("Version: ")
        )
        built = z.read("lifebench/_version.py").decode()
    scope: dict[str, object] = {}
    exec(built, scope)  # the file hatch-vcs wrote
    return version_line.removeprefix("Version: "), str(scope["__version__"])


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    target = tmp_path_factory.mktemp("clone") / "lifebench"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(target)], check=True, timeout=120)
    return target


def test_a_tagged_clone_builds_that_version_into_the_sdist_and_the_wheel(
    clone: Path, tmp_path: Path
) -> None:
    subprocess.run([*GIT, "-C", str(clone), "tag", "v9.8.7"], check=True)
    built = _build(clone, tmp_path / "dist", "sdist", "wheel")
    (sdist,) = [p for p in built if p.name.endswith(".tar.gz")]
    (wheel,) = [p for p in built if p.suffix == ".whl"]
    assert wheel.name == "lifebench-9.8.7-py3-none-any.whl"
    assert _wheel_version(wheel) == ("9.8.7", "9.8.7")
    # a wheel built from the sdist (no git metadata there) keeps the version
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (source,) = (tmp_path / "unpacked").iterdir()
    assert not (source / ".git").exists()
    (rebuilt,) = _build(source, tmp_path / "dist2", "wheel")
    assert _wheel_version(rebuilt) == ("9.8.7", "9.8.7")
    # a commit after the tag: the next version's development release, with the commit
    subprocess.run([*GIT, "-C", str(clone), "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    head = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "--short=9", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (later,) = _build(clone, tmp_path / "dist3", "wheel")
    meta, built = _wheel_version(later)
    assert meta == built and meta.startswith("9.8.8.dev1+g")
    assert meta.split("+g", 1)[1][:7] == head[:7]


def test_sources_without_git_metadata_fall_back(clone: Path, tmp_path: Path) -> None:
    archive = tmp_path / "src.tar"
    subprocess.run(
        ["git", "-C", str(clone), "archive", "-o", str(archive), "HEAD"], check=True, timeout=120
    )
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "plain", filter="data")
    (wheel,) = _build(tmp_path / "plain", tmp_path / "dist", "wheel")
    assert _wheel_version(wheel) == ("0.1.0", "0.1.0")


def test_version_and_revision_of_the_running_lifebench(tmp_path: Path) -> None:
    assert __version__ == version() and __version__ != FALLBACK_VERSION
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    commit = revision()
    if commit.source == "checkout":
        assert result.stdout.startswith(f"lifebench {__version__} (git {commit.commit[:12]}")
        assert commit.commit is not None and len(commit.commit) == 40
    else:
        assert result.stdout.strip() == f"lifebench {__version__}"
    # outside a checkout the version's +gHASH names the commit; without one it is unknown
    package = tmp_path / "site" / "lifebench"
    package.mkdir(parents=True)
    elsewhere = revision(str(package))
    if "+g" in __version__:
        assert elsewhere.source == "version" and elsewhere.commit is not None
        assert __version__.split("+g", 1)[1].startswith(elsewhere.commit)
    else:
        assert elsewhere.commit is None and elsewhere.describe() == "unknown"
    versions = package_versions(("pydantic", "no-such-package-lb"))
    assert versions["no-such-package-lb"] == "missing" and versions["pydantic"]
    assert versions["python"].count(".") == 2
