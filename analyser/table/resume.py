"""The deal in progress kept in a log, and taken up again: ``allfours play --resume`` and ``record --resume``.

When a match at the table (``play``) or an entry (``record``) is left in the middle of a deal, the deal so far
is written to the log as its last line: an ``allfours-log/1`` line that stops early, where the next step was due
(what ``hint --log`` reads), with two keys the format allows beside its own:

``"unfinished": true``
    the line is a deal in progress, not a finished deal (no ``score_after``, no ``winner``);
``"resume"``
    what the command needs to go on: ``"command"`` (``"play"`` or ``"record"``), ``"due"`` (what was due where
    the line stops: ``{"kind", "seat", "role"}``, `due_of`), the command's own settings (play: ``seat``,
    ``opponent``, ``seed``, ``coach``, ``deal`` (the deal's number in the match, from 1) and ``streams``, the
    computer's card and choice streams as the deal began; record: ``seat``, ``seed`` and, while not every hand of
    a full log is entered, ``hands``), and ``"digest"``: the SHA-256 of the line (and, for play, of the match's
    earlier lines), so a line changed by hand is refused (`check_digest`).

``--resume`` reads the file's last line (`read_unfinished`): it must be such a line, written by the same
command; it is checked against its digest and refereed again, and the deal goes on from there. Whatever is
written next (the finished deal, or the deal in progress again) replaces that last line (`LogFile.replace_last`:
a new file written beside it, then ``os.replace``; the lines before it are kept byte for byte).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..game.errors import AllFoursError
from ..record.gamelog import FORMAT, dumps
from .entry import Built, EntryError, check_appendable

UNFINISHED = "unfinished"
RESUME = "resume"


class ResumeError(AllFoursError):
    """A ``--resume`` that cannot go on: the file is left as it is."""


def is_unfinished(line: Any) -> bool:
    """A deal in progress, as ``play`` and ``record`` keep one."""
    return isinstance(line, dict) and line.get(UNFINISHED) is True


def due_of(built: Built) -> dict[str, Any]:
    """What is due where the line stops: its kind (``hand``, ``turnup``, ``bid``, ``more``, ``bunch``,
    ``discard``, ``card``), the seat (None when no seat is named) and a bid's role (``eldest``/``dealer``)."""
    due = built.due
    return {"kind": due.kind, "seat": due.seat, "role": due.role}


def digest(line: dict[str, Any], earlier: list[dict[str, Any]] = ()) -> str:  # type: ignore[assignment]
    """The SHA-256 of `earlier` lines and `line` (its own digest left out), as canonical JSON."""
    bare = dict(line)
    if isinstance(bare.get(RESUME), dict):
        bare[RESUME] = {k: v for k, v in bare[RESUME].items() if k != "digest"}
    text = json.dumps([*earlier, bare], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def unfinished_line(built: Built, resume: dict[str, Any], earlier: list[dict[str, Any]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    """The line of the deal in progress `built`, marked unfinished, with what `resume` holds and its digest."""
    line = {k: v for k, v in built.line.items() if k not in ("score_after", "winner")}
    line[UNFINISHED] = True
    line[RESUME] = {"command": resume["command"], "due": due_of(built),
                    **{k: v for k, v in resume.items() if k != "command"}}
    line[RESUME]["digest"] = digest(line, earlier)
    return line


def check_digest(line: dict[str, Any], number: int, path: Path, earlier: list[dict[str, Any]] = ()) -> None:  # type: ignore[assignment]
    if line[RESUME].get("digest") != digest(line, earlier):
        lines = f"line {number}" if not earlier else f"lines {number - len(earlier)} to {number}"
        raise ResumeError(f"{path}: {lines} changed since the deal was left (the digest in line {number} does not "
                          "match): it cannot be resumed")


@dataclasses.dataclass
class LogFile:
    """A log whose last line is a deal in progress: the lines before it (`lines`, parsed, with their numbers),
    that line (`line`, number `number`) and the file's bytes (`head`: everything before that line)."""

    path: Path
    head: bytes
    tail: bytes
    lines: list[tuple[int, Any]]
    line: dict[str, Any]
    number: int

    def replace_last(self, new: dict[str, Any]) -> None:
        """Write `new` where the unfinished line is: the file's other bytes are kept as they are."""
        check_appendable(self.path)
        try:
            if self.path.read_bytes() != self.head + self.tail:
                raise ResumeError(f"{self.path} was changed while the deal was played: the deal in progress is not "
                                  "written")
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(self.head + (dumps(new) + "\n").encode("utf-8"))
                try:
                    os.chmod(tmp, self.path.stat().st_mode & 0o7777)
                except OSError:
                    pass
                os.replace(tmp, self.path)
            except BaseException:
                if os.path.exists(tmp):
                    os.unlink(tmp)
                raise
        except OSError as err:
            raise EntryError(f"cannot write {self.path}: {err.strerror or err}") from None
        self.tail = (dumps(new) + "\n").encode("utf-8")
        self.line = new


def read_unfinished(path: Path, command: str) -> LogFile:
    """The log `path` whose last line is a deal in progress left by `command` (``play`` or ``record``); a
    `ResumeError` saying why not. Nothing is written."""
    other = {"play": "record", "record": "play"}[command]
    option = "--log" if command == "play" else "--out"
    if path.is_dir():
        raise ResumeError(f"{option} {path} is a folder, not a file: give the log of the {what(command)} to resume")
    if not path.exists():
        raise ResumeError(f"cannot resume: there is no file {path}")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ResumeError(f"cannot read {path}: {err.strerror or err}") from None
    rows = data.split(b"\n")
    numbered = [(k, row) for k, row in enumerate(rows, start=1) if row.strip()]
    if not numbered:
        raise ResumeError(f"{path} is empty: there is no {what(command)} to resume")
    parsed: list[tuple[int, Any]] = []
    for number, row in numbered:
        try:
            obj = json.loads(row.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ResumeError(f"{path} is not a game log: line {number} is not an {FORMAT} line") from None
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise ResumeError(f"{path} is not a game log: line {number} is not an {FORMAT} line")
        parsed.append((number, obj))
    number, last = parsed[-1]
    start = sum(len(r) + 1 for r in rows[:number - 1])
    head, tail = data[:start], data[start:]
    if not is_unfinished(last):
        raise ResumeError(f"{path}: its last deal (line {number}) is finished: there is no deal in progress to "
                          f"resume")
    resume = last.get(RESUME)
    if not isinstance(resume, dict) or resume.get("command") not in ("play", "record"):
        raise ResumeError(f"{path}: line {number} is marked unfinished but says nothing of how to resume it")
    if resume["command"] == other:
        flag = "--out" if other == "record" else "--log"
        raise ResumeError(f"{path} is not a {what(command)} log: its deal in progress (line {number}) was left by "
                          f"`allfours {other}`; continue it with allfours {other} --resume {flag} {path}")
    return LogFile(path, head, tail, parsed[:-1], last, number)


def left_in(path: Path, command: str) -> int | None:
    """The number of `path`'s last line when it is a deal in progress left by `command`, else None (a missing or
    unreadable file, or any other last line, says nothing)."""
    try:
        rows = path.read_bytes().split(b"\n")
    except OSError:
        return None
    for number in range(len(rows), 0, -1):
        if rows[number - 1].strip():
            try:
                obj = json.loads(rows[number - 1].decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                return None
            resume = obj.get(RESUME) if is_unfinished(obj) else None
            return number if isinstance(resume, dict) and resume.get("command") == command else None
    return None


def what(command: str) -> str:
    return "match" if command == "play" else "entry"


def referee_or_refuse(line: Any, number: int, path: Path, cut: bool) -> Built | None:
    """Referee line `number` again (a finished one, or with `cut` the deal in progress as far as it goes); a
    `ResumeError` when it no longer referees."""
    from ..referee import LogError, referee_line
    from .entry import check_line

    try:
        if cut:
            return check_line({k: v for k, v in line.items() if k not in (UNFINISHED, RESUME)})
        referee_line(line)
    except (LogError, EntryError) as err:
        reason = err.reason if isinstance(err, LogError) else str(err)
        where = f", event {err.event}" if isinstance(err, LogError) and err.event >= 0 else ""
        raise ResumeError(f"{path}: line {number}{where} no longer referees ({reason}): it cannot be resumed") \
            from None
    return None


__all__ = ["left_in", "LogFile", "RESUME", "ResumeError", "UNFINISHED", "check_digest", "digest", "due_of", "is_unfinished",
           "read_unfinished", "referee_or_refuse", "unfinished_line"]
