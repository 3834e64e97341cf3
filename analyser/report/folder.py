"""The report folder's life: written beside itself, renamed when complete, replaced by its manifest.

- A report is written into ``OUT.partial/`` (next to ``OUT``), never into ``OUT``: an interrupted
  run leaves no folder that looks like a report. ``OUT.partial/PARTIAL.json`` marks it; it names
  what the parts depend on (rules, sizes, seed, policies, the allfours version and the engine's
  sources, as ``simulate --resume`` checks them) and the parts finished so far,
  each part's result kept in ``OUT.partial/.parts/NAME.pickle``. The same command run again finds
  them and starts after the last finished part; with other options it is refused (``--force``
  starts over).
- When every file is written, ``manifest.json`` lists them, and ``OUT.partial`` becomes ``OUT``:
  renamed when ``OUT`` is absent or empty. Paths the parts recorded while they ran (run folders,
  the tuned policy ``tuned:OUT.partial/strategy``) are rewritten to name ``OUT``.
- Over an earlier report (``--force``): exactly the files its ``manifest.json`` lists are removed
  (and the folders that leaves empty), then the new files are moved in. A file the earlier report
  did not write stays; so does everything when it has no manifest (a report from before
  manifests: its files that the new report also writes are replaced, the others are named).

The parts' results are pickled: a partial folder is read back only by the command that wrote it.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import __version__
from ..game.errors import AllFoursError
from ..work.executor import source_fingerprint

MARKER = "PARTIAL.json"
MANIFEST = "manifest.json"
PARTS = ".parts"
FORMAT = "allfours-report-partial/1"
MANIFEST_FORMAT = "allfours-report-manifest/1"
# Text files whose recorded paths are rewritten from OUT.partial to OUT when the report is complete.
TEXT_SUFFIXES = {".json", ".md", ".html", ".csv", ".txt"}


class ReportFolderError(AllFoursError):
    """A report folder that cannot be resumed or replaced as asked."""


def partial_path(out: Path) -> Path:
    """Where the report for `out` is written until it is complete."""
    out = Path(out)
    if not out.name:  # "." or "/": named by where it is
        out = out.resolve()
    return out.with_name(out.name + ".partial")


class Partial:
    """The partial folder of one report: `part(name, compute)` returns a finished part's kept result, or
    computes it and keeps it. `folder` is where the parts write their files."""

    def __init__(self, out: Path, key: dict[str, Any], *, force: bool = False,
                 say: Callable[[str], None] = lambda message: None) -> None:
        self.out = Path(out)
        self.folder = partial_path(self.out)
        self.key = {"format": FORMAT, **key, "version": __version__, "engine": source_fingerprint()}
        self.say = say
        self.done: list[str] = []
        marker = self.folder / MARKER
        if self.folder.exists() or self.folder.is_symlink():
            if not self.folder.is_dir():
                raise ReportFolderError(f"{self.folder} is in the way of the unfinished report: it is not a folder")
            found = _read_json(marker)
            if found is None or found.get("format") != FORMAT:
                if any(self.folder.iterdir()):
                    raise ReportFolderError(f"{self.folder} is not an unfinished report (no {MARKER}); move it away, "
                                            "or give another --out")
            elif found.get("key") == self.key:
                self.done = [name for name in found.get("done", [])
                             if (self.folder / PARTS / f"{name}.pickle").is_file()]
                if self.done:
                    say(f"finishing the unfinished report in {self.folder}: {len(self.done)} of its parts are "
                        "done")
            elif not force:
                raise ReportFolderError(
                    f"{self.folder} holds an unfinished report made with other options or another engine: run its "
                    "own command again to finish it, or add --force to start this one over")
            else:
                say(f"starting over: removing the unfinished report in {self.folder}")
                shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._write_marker()

    def _write_marker(self) -> None:
        _write_json(self.folder / MARKER, {"format": FORMAT, "note": "an unfinished allfours report: run the command "
                                           "that started it again to finish it", "key": self.key, "done": self.done})

    def part(self, name: str, compute: Callable[[], Any]) -> Any:
        """The part's result: kept from an earlier run of this report, or computed now and kept."""
        path = self.folder / PARTS / f"{name}.pickle"
        if name in self.done:
            with open(path, "rb") as stream:
                return pickle.load(stream)
        value = compute()
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.tmp")
        with open(temp, "wb") as stream:
            pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, path)
        self.done.append(name)
        self._write_marker()
        return value

    def finish(self) -> list[str]:
        """Every file written: the manifest, then the folder in place of `out`; returns the files (relative)."""
        _rewrite_paths(self.folder, str(self.folder), str(self.out))
        kept = {MARKER, PARTS}
        files = sorted(p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*")
                       if (p.is_file() or p.is_symlink()) and p.relative_to(self.folder).parts[0] not in kept)
        files.append(MANIFEST)
        _write_json(self.folder / MANIFEST, {"format": MANIFEST_FORMAT, "version": __version__,
                                             "note": "every file this report wrote; `allfours report --force` "
                                                     "removes exactly these before writing the next one",
                                             "files": files})
        shutil.rmtree(self.folder / PARTS, ignore_errors=True)  # the marker last: until here it can be resumed
        (self.folder / MARKER).unlink(missing_ok=True)
        install(self.folder, self.out, files, self.say)
        return files


def install(partial: Path, out: Path, files: list[str], say: Callable[[str], None]) -> None:
    """Put the complete report `partial` (its `files`) in place of `out`."""
    if out.is_dir() and not any(out.iterdir()):
        out.rmdir()
    if not out.exists() and not out.is_symlink():
        os.replace(partial, out)
        return
    if not out.is_dir():
        raise ReportFolderError(f"{out} is a file, not a report folder")
    earlier = _read_json(out / MANIFEST)
    if earlier is not None and earlier.get("format") == MANIFEST_FORMAT:
        remove_listed(out, [str(f) for f in earlier.get("files", [])])
    else:
        written = set(files)
        left = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                      if (p.is_file() or p.is_symlink()) and p.relative_to(out).as_posix() not in written)
        if left:
            say(f"note: {out} had no {MANIFEST} (an older report): its {len(left)} file"
                f"{'' if len(left) == 1 else 's'} the new report does not write are left as they were, e.g. "
                + ", ".join(left[:3]))
    for name in files:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(partial / name, target)
    shutil.rmtree(partial, ignore_errors=True)  # only folders are left in it


def remove_listed(out: Path, files: list[str]) -> None:
    """Remove exactly `files` (paths relative to `out`, none outside it), then the folders that leaves empty."""
    folders: set[Path] = set()
    for name in files:
        if Path(name).is_absolute() or ".." in Path(name).parts:
            continue  # a manifest naming a file outside its report: not ours to remove
        path = out / name
        if path.is_file() or path.is_symlink():
            path.unlink()
        folders.update(p for p in path.relative_to(out).parents if p != Path("."))
    for folder in sorted(folders, key=lambda p: -len(p.parts)):
        try:
            (out / folder).rmdir()
        except OSError:  # not empty: it holds files the earlier report did not write
            pass


def partial_state(out: Path) -> tuple[Path, list[str]] | None:
    """An unfinished report of `out`: its folder and the parts it keeps; None when there is none."""
    folder = partial_path(Path(out))
    found = _read_json(folder / MARKER)
    if found is None:
        return None
    return folder, [name for name in found.get("done", []) if (folder / PARTS / f"{name}.pickle").is_file()]


def _rewrite_paths(folder: Path, old: str, new: str) -> None:
    if old == new:
        return
    for path in folder.rglob("*"):
        if path.suffix in TEXT_SUFFIXES and path.is_file() and path.name != MARKER:
            text = path.read_text(encoding="utf-8")
            if old in text:
                path.write_text(text.replace(old, new), encoding="utf-8")


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _write_json(path: Path, value: dict[str, Any]) -> None:
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")
    os.replace(temp, path)


def finished_reports(folders: list[Path], results: Path) -> list[Path]:
    """The report folders a script works on: `folders`, or every finished edition under `results` (those with a
    report.json); raises ReportFolderError naming the first given folder that is not a finished report."""
    for folder in folders:
        if not (Path(folder) / "report.json").is_file():
            raise ReportFolderError(f"{folder}: no report.json (not a finished report folder)")
    return list(folders) or sorted(p.parent for p in Path(results).glob("*/report.json"))
