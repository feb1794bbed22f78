"""``lifebench data``: get the official data sets (pinned, verified, resumable), or list them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lifebench.cli._common import EXIT_UNITS_FAILED, err_console, run_async, user_errors

if TYPE_CHECKING:
    from lifebench.data import DataFile, Dataset, GetResult
    from lifebench.data._fetch import ProgressFn

app = typer.Typer(
    help="Get the official data sets (VitaBench, TravelBench, FlowBench).", no_args_is_help=True
)


def _licence_lines(data: Dataset) -> list[str]:
    lic = data.licence
    return [
        f"{data.title}",
        f"licence: {lic.name} — {lic.summary}",
        f"  full text: {lic.url}",
    ]


@app.command("list")
def list_() -> None:
    """List the data sets: what they hold, their licence, source and pinned commit."""
    from lifebench.data import DATASETS

    for data in DATASETS.values():
        repos = sorted({f"{f.repo}@{f.commit[:12]}" for f in data.files})
        known = sum(1 for f in data.files if f.size is not None)
        typer.echo(f"{data.name} (suite {data.suite}): {data.title}")
        typer.echo(f"  licence: {data.licence.name}")
        typer.echo(f"  from: {', '.join(repos)}; {len(data.files)} files ({known} with known size)")
        for step in data.manual:
            typer.echo(f"  by hand: {step.what}")


@app.command("get")
def get(
    name: Annotated[str, typer.Argument(help="vitabench, travelbench or flowbench.")],
    dest: Annotated[
        Path, typer.Option("--dest", help="Folder that receives DEST/<name>/ (default: ./data).")
    ] = Path("data"),
    offline: Annotated[
        bool,
        typer.Option(
            "--offline",
            help="Download nothing: check the files already in DEST and say what to put where.",
        ),
    ] = False,
    url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            help="Download from this mirror of raw.githubusercontent.com "
            "({base}/{owner}/{repo}/{commit}/{path}; default: $LIFEBENCH_DATA_URL, else GitHub).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress display.")] = False,
) -> None:
    """Download a data set's official files from their public repositories at pinned commits
    into DEST/<name>/, verify each one (SHA-256 and git blob id), and unpack archives.

    Re-running skips verified files and resumes partial downloads (HTTP Range). A file that
    does not match its pin is deleted, never left in place. Without network (or with
    --offline) it lists exactly which URL to download to which path, with its hash. Each data
    set's licence is shown before and after (TravelBench's data is CC BY-NC 4.0:
    non-commercial use only).

    Exit codes: 0 every file in place and verified; 1 some files missing or not verified (the
    message says what to do); 2 unknown data set; 4 DEST cannot be written.
    """
    from lifebench.data import dataset, get_dataset

    with user_errors():
        data = dataset(name)
        for line in _licence_lines(data):
            typer.echo(line, err=True)
        with _Bars(quiet or offline) as bars:
            result = run_async(
                lambda: get_dataset(data, dest, url=url, offline=offline, progress=bars.start)
            )
    _summary(result)
    if not result.complete:
        raise typer.Exit(code=EXIT_UNITS_FAILED)


def _summary(result: GetResult) -> None:
    from lifebench.data import by_hand

    data = result.dataset
    for outcome in result.files:
        item = outcome.item
        if outcome.status in ("present", "downloaded"):
            how = "unpacked earlier" if outcome.detail == "unpacked" else outcome.status
            sha = f"  sha256 {outcome.digest.sha256}" if outcome.digest else ""
            pinned = "" if item.sha256 else " (pinned by git blob id)" if outcome.digest else ""
            typer.echo(f"ok  {outcome.target}  [{how}]{sha}{pinned}")
        else:
            typer.echo(f"--  {outcome.target}  [{outcome.status}] {outcome.detail}".rstrip())
    for folder, count in result.unpacked.items():
        typer.echo(f"ok  {result.folder / folder}/  [unpacked {count} files]")
    for problem in result.problems:
        typer.echo(f"error: {problem}", err=True)
    for line in by_hand(result):  # whole lines: URLs and paths are copied from here
        typer.echo(line, err=True)
    done = len(result.files) - len(result.missing)
    if result.complete:
        typer.echo(f"{data.name}: all {done} files in {result.folder}, verified")
        licence = next((o.target for o in result.files if o.item.dest == "LICENSE"), None)
        where = f", saved as {licence}" if licence else " (no licence file to save)"
        typer.echo(f"licence: {data.licence.name}{where}", err=True)
        for step in data.next_steps:
            typer.echo("next: " + step.replace("DEST", str(result.folder.parent)))
    else:
        typer.echo(
            f"{data.name}: {done} of {len(result.files)} files in {result.folder}; "
            "run the same command again to resume"
        )


class _Bars:
    """One rich progress bar per downloading file, on stderr (nothing when ``quiet``)."""

    def __init__(self, quiet: bool) -> None:
        self._quiet = quiet
        self._progress: object | None = None

    def __enter__(self) -> _Bars:
        if not self._quiet:
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TransferSpeedColumn,
            )

            progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(),
                TransferSpeedColumn(),
                console=err_console(),
            )
            progress.start()
            self._progress = progress
        return self

    def __exit__(self, *exc: object) -> None:
        from rich.progress import Progress

        if isinstance(self._progress, Progress):
            self._progress.stop()

    def start(self, item: DataFile) -> ProgressFn | None:
        from rich.progress import Progress

        progress = self._progress
        if not isinstance(progress, Progress):
            return None
        task = progress.add_task(item.dest, total=item.size)

        def update(done: int, total: int | None) -> None:
            progress.update(task, completed=done, total=total)

        return update
