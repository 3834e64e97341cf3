"""What the commands share: option types, the rule set, one-line errors and the progress bar.

Every command module imports from here (and from non-CLI modules), never from another command.
"""

from __future__ import annotations

import enum
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

from ..game.rules import PRESETS, RuleSet, RulesError, make_rules

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.bidding.equity import EquityTable

Preset = enum.Enum("Preset", {name.replace("-", "_"): name for name in PRESETS}, type=str)  # type: ignore[misc]


class Inference(str, enum.Enum):
    """What a search player infers from the others' bids and cards (play --inference, whatif --inference)."""

    none = "none"
    bids = "bids"
    full = "full"


RulesOpt = Annotated[Preset, typer.Option(
    "--rules", help="Rule preset (see docs/rules.md; `allfours rules` prints what it sets).")]
PlayersOpt = Annotated[Optional[int], typer.Option(
    "--players", min=2, max=4, help="Number of players (2-4; default: the preset's, 4 for every preset).")]
InferenceStrategyOpt = Annotated[Optional[Path], typer.Option(
    "--strategy", help="With --inference bids or full: the equilibrium run (allfours equilibrium --out DIR) the others' "
                       "bids are read by (default: the shipped edition of these rules, at the deal's score).")]
SetOpt = Annotated[
    Optional[list[str]], typer.Option("--set", metavar="KEY=VALUE", help="Override a rule parameter, e.g. target=7.")
]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="Random seed: the same seed gives the same answer.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
PolicyOpt = Annotated[str, typer.Option("--policy", help="Policy of every seat: heuristic or random (NAME:key=value).")]
# What --score means in every command that takes it (its help says exactly this).
SCORE_ORDER = "the eldest's side first, the dealer's side last"
SCORE_HELP = ("Score before the deal, " + SCORE_ORDER + ", in every command: ELDEST:DEALER, e.g. 10:12 "
              "(3 players: ELDEST:NEXT:DEALER). Default all zero.")
ScoreOpt = Annotated[Optional[str], typer.Option("--score", help=SCORE_HELP)]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace what is already at the output path.")]
ThreadsOpt = Annotated[Optional[int], typer.Option("--threads", min=1, max=256,
                                                   help="Worker threads (default: all cores); same answer on any.")]
SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="tcp://HOST:PORT", help="Run the chunks on this Dask scheduler's workers.")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", metavar="local:N", help="Start a Dask cluster of N worker processes here and run on it.")]


# Exit codes, the same in every command: 2 a usage error (a bad option value, an input file that is
# missing, unreadable or a folder, a bad card, an output path that cannot be written), found before any
# work; 1 a failure while working (a log the referee rejects, a file that could not be written); 130 Ctrl-C.
USAGE, FAILED = 2, 1


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print one line on stderr and exit non-zero (2, a usage error, unless `code` says otherwise)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def stamped(doc: Any) -> Any:
    """A run's JSON object with the version of allfours that made it (``"version"``), if it has none yet."""
    from .. import __version__

    return {**doc, "version": __version__} if isinstance(doc, dict) and "version" not in doc else doc


def print_json(doc: Any, indent: int | None = None) -> None:
    """A run's --json output on stdout, stamped with the allfours version (`stamped`)."""
    import json

    typer.echo(json.dumps(stamped(doc), indent=indent))


# The OS's reasons in a player's words (the errno names: ENOENT, EACCES, ...).
OS_WORDS: dict[str, str] = {"ENOENT": "no such file or folder", "EACCES": "permission denied",
                            "EPERM": "permission denied", "ENOSPC": "the disk is full",
                            "EDQUOT": "the disk quota is used up", "EROFS": "the file system is read-only",
                            "EISDIR": "a folder is there, not a file", "ENOTDIR": "a file is there, not a folder",
                            "EEXIST": "a file is there, not a folder", "ENAMETOOLONG": "the name is too long"}


def os_words(err: OSError) -> str:
    """Why an OSError happened, in plain words (never "[Errno 21] Is a directory")."""
    import errno

    name = errno.errorcode.get(err.errno or 0, "")
    return OS_WORDS.get(name) or (err.strerror or str(err)).lower()


@contextmanager
def file_errors(path: Path | str | None, code: int = FAILED) -> Iterator[None]:
    """An OSError in the block is about `path`, a file or folder the work reads or writes: one line
    naming it, exit `code` (1: a failure while working). With `path` None the block touches no file,
    and an OSError stays what it is (a bug)."""
    if path is None:
        yield
        return
    try:
        yield
    except OSError as err:
        fail(f"{err.filename or path}: {os_words(err)}", code)


@contextmanager
def writing(path: Path | str | None) -> Iterator[None]:
    """An output written after the result was printed: if it still fails, one line saying so (the result
    above stands), exit 1."""
    if path is None:
        yield
        return
    try:
        yield
    except OSError as err:
        fail(f"could not write {err.filename or path} ({os_words(err)}); the result above is complete", FAILED)


LOG_FILE = "a game log file (allfours-log/1, JSON lines)"


def check_input(path: Path, option: str | None = None, what: str = LOG_FILE) -> None:
    """Before any work: `path`, an input file the user named (`option`, or an argument), is there, is a
    file and can be opened; otherwise one line, exit 2."""
    name = f"{option} {path}" if option else str(path)
    if path.is_dir():
        fail(f"{name} is a folder, not a file: give {what}")
    if not path.exists():
        fail(f"cannot read {name}: there is no such file")
    try:
        with open(path, "rb"):
            pass
    except OSError as err:
        fail(f"cannot read {name}: {os_words(err)}")


def log_lines(path: Path, option: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, text) of every non-blank line of a game log the user named, as `gamelog.read_lines`
    gives them; a file that is missing, a folder, unreadable or not UTF-8 text is one line, exit 2."""
    name = f"{option} {path}" if option else str(path)
    check_input(path, option)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            for number, text in enumerate(handle, start=1):
                if not text.isascii():
                    try:
                        text.encode("utf-8")
                    except UnicodeEncodeError:
                        fail(f"cannot read {name}: line {number} is not text (not UTF-8): give {LOG_FILE}")
                if text.strip():
                    yield number, text
    except OSError as err:
        fail(f"cannot read {name}: {os_words(err)}")


def score_text(score: tuple[int, ...] | list[int]) -> str:
    """A score as the text output prints it back: ``score 10:12, eldest's side first``."""
    return f"score {':'.join(map(str, score))}, eldest's side first"


def image_types() -> list[str]:
    """The file name endings matplotlib can write a chart to (png, pdf, svg, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return sorted(set(FigureCanvasBase.get_supported_filetypes()) - {"pgf"})  # pgf needs LaTeX


def _file_in_the_way(path: Path) -> Path | None:
    """The first file among `path`'s folders (``a-file`` in ``a-file/x/out.png``), if one is."""
    for folder in reversed(path.parents):
        if folder.exists() and not folder.is_dir():
            return folder
    return None


def check_output(path: Path | None, option: str, *, folder: bool, force: bool = False, resuming: bool = False,
                 resumable: bool = False, image: bool = False) -> None:
    """Before any work starts: refuse an output that is already there and not empty (unless
    `force`, or `resuming` a run folder), and make sure it can be written; otherwise one line, exit 2.
    `resumable`: the refusal also names ``--resume``. `image`: a chart, whose name must end in a type
    matplotlib can write (.png, .pdf, .svg, ...).

    A folder is created (with its parents) here, and so is a file's folder: every output path names where it goes,
    as ``--out results/today/card.png`` and ``--out results/today/analysis`` alike. Both are checked by writing and
    removing a probe file, so a path that cannot be written fails now, in one line.
    """
    if path is None:
        return
    what = "folder" if folder else "file"
    if image and not path.is_dir():  # (a folder is named as one below)
        kinds = image_types()
        if path.suffix.lower().lstrip(".") not in kinds:
            fail(f"{option} {path}: give a file name ending in .png or another image type matplotlib can write "
                 f"({', '.join('.' + k for k in kinds)})")
    blocked = _file_in_the_way(path)
    if blocked is not None:
        fail(f"{option} {path}: {blocked} is a file, not a folder")
    where = path if folder else path.parent
    try:
        if path.exists():
            if folder and not path.is_dir():
                fail(f"{option} {path} is a file, not a folder: give a folder with {option}")
            if not folder and path.is_dir():
                fail(f"{option} {path} is a folder, not a file: give a file name with {option}")
            full = any(path.iterdir()) if folder else path.stat().st_size > 0
            if full and not (force or resuming):
                fail(f"{option} {path}: this {what} already exists and is not empty; add --force to replace it,"
                     + (f" --resume {path} to finish it," if resumable else "") + f" or give another {option}")
        where.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".allfours-write-check-", dir=where)
        os.close(handle)
        os.unlink(probe)
    except OSError as err:
        fail(f"{option} {path}: cannot write this {what} ({os_words(err)})")


_ANNOUNCED = threading.Event()


def announce_engine(command: str | None = None) -> None:
    """Say so on stderr, once per process, when kernels the command (by default the one running) needs are
    about to be compiled: for about how long (`first_use`), and whether only this first run waits."""
    from ..work.first_use import compile_notice

    if not _ANNOUNCED.is_set():
        _ANNOUNCED.set()
        if command is None:
            import importlib

            where = importlib.import_module(typer.BadParameter.__module__.rpartition(".")[0] + ".globals")
            context = where.get_current_context(silent=True)
            command = context.info_name if context is not None else ""
        notice = compile_notice(command or "")
        if notice:
            typer.echo(notice, err=True)


def build_rules(preset: Preset, players: int | None, settings: list[str] | None) -> RuleSet:
    try:
        return make_rules(preset.value, players=players, settings=settings or [])
    except RulesError as err:
        fail(str(err))


class ProgressBar:
    """A rich bar on stderr, shown only on a terminal: done/total, an optional rate, time left.

    `advance(n)` may be called from any thread; `start(done)` restarts it at `done` (a resumed run).
    """

    def __init__(self, description: str, total: int, rate: str | None = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn

        console = Console(stderr=True)
        columns: list[str | ProgressColumn] = [
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}")]
        if rate is not None:
            columns.append(TextColumn("{task.fields[rate]} " + rate + "/s"))
        columns.append(TimeRemainingColumn())
        self.progress = Progress(*columns, console=console, transient=True,
                                 disable=not (console.is_terminal and sys.stderr.isatty()))
        self.task = self.progress.add_task(description, total=total, rate="-")
        self.show_rate = rate is not None
        self.lock = threading.Lock()

    def start(self, done: int) -> None:
        self.progress.reset(self.task, completed=done, rate="-")

    def advance(self, n: int) -> None:
        with self.lock:
            self.progress.advance(self.task, n)
            if self.show_rate:
                speed = self.progress.tasks[0].speed
                if speed:
                    self.progress.update(self.task, rate=f"{speed:,.0f}")


# What a long command says the moment Ctrl-C arrives (then it stops as it always did: the chunks under way stop at
# their next step, finished work is kept where the command keeps it, exit 130).
STOPPING = "stopping after the current chunk..."
_stopping: list[str] = []  # the messages of the blocks under way, innermost last


@contextmanager
def stopping_notice(message: str = STOPPING) -> Iterator[None]:
    """While the block runs, a Ctrl-C is acknowledged at once: `message` on stderr, the moment SIGINT arrives, even
    while the main thread waits for workers or runs a kernel that has let go of the GIL; then KeyboardInterrupt is
    raised in the main thread as without this (a second Ctrl-C says nothing more). Nested blocks: the innermost
    message. Only in the main thread, and only where Ctrl-C raises KeyboardInterrupt (Python's own handler)."""
    import signal

    nested = bool(_stopping)
    if nested or threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        _stopping.append(message)
        try:
            yield
        finally:
            _stopping.pop()
        return
    told = threading.Event()
    lock = threading.Lock()

    def tell(wait: bool = True) -> None:
        if not lock.acquire(blocking=wait):  # (the main thread never waits for the watcher's write)
            return
        try:
            if not told.is_set():
                sys.stderr.write((_stopping[-1] if _stopping else message) + "\n")
                sys.stderr.flush()
        except (OSError, ValueError, RuntimeError):  # stderr closed, or busy in this very thread
            pass
        finally:
            told.set()
            lock.release()

    read, write = os.pipe()
    os.set_blocking(write, False)

    def watch() -> None:  # the signal's byte arrives here at once, whatever the main thread is doing
        try:
            while True:
                got = os.read(read, 64)
                if not got:
                    return
                if signal.SIGINT in got:
                    tell()
        finally:
            os.close(read)

    def on_sigint(signum: int, frame: Any) -> None:  # in the main thread, before KeyboardInterrupt unwinds it
        if not told.wait(0.5):  # (the watcher has normally said it already; this keeps the order of the lines)
            tell(wait=False)
        signal.default_int_handler(signum, frame)

    watcher = threading.Thread(target=watch, name="allfours-ctrl-c", daemon=True)
    watcher.start()
    old_fd = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    signal.signal(signal.SIGINT, on_sigint)
    _stopping.append(message)
    try:
        yield
    finally:
        _stopping.pop()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.set_wakeup_fd(old_fd)
        os.close(write)  # the watcher reads the end of the pipe and goes


@contextmanager
def progress_bar(description: str, total: int, rate: str | None = None,
                 stopping: str = STOPPING) -> Iterator[ProgressBar]:
    """The progress bar of every long command, on stderr while the block runs; pass `bar.advance` on. A Ctrl-C
    while it runs is acknowledged at once with `stopping` (`stopping_notice`)."""
    bar = ProgressBar(description, total, rate)
    with stopping_notice(stopping), bar.progress:
        yield bar


def check_cache(folder: Path, option: str, given: bool) -> None:
    """A cache folder (tables are added to it, never replaced) can be written. One the user named with `option`
    is checked as an output; the default one, in the user's cache, is named with what moves it."""
    if given:
        check_output(folder, option, folder=True, force=True)
        return
    from ..work.first_use import cache_unwritable, reason

    err = cache_unwritable(folder)
    if err is not None:
        fail(f"cannot write the cache folder {folder} ({reason(err)}): set ALLFOURS_CACHE_DIR to a folder you "
             f"can write, or give {option} FOLDER")


def load_equity(ruleset: RuleSet, policy: str, equity_dir: Path | None, threads: int | None) -> tuple[EquityTable, Path]:
    """The policy's match-equity table for these rules: from the cache (or the shipped tables), else built once,
    announced on stderr with a progress bar, and kept in the cache (``--equity-dir``, default equity/ in the
    user's cache); (table, its parquet file)."""
    from ..analysis.bidding.equity import build_notice, cached_table, equity_folder, equity_table

    folder = equity_folder(equity_dir)
    if equity_dir is not None:
        check_cache(folder, "--equity-dir", given=True)
    with file_errors(folder):
        found = cached_table(ruleset, policy, folder)
        if found is not None:
            return found
        if equity_dir is None:  # the user's cache: checked only when a table is to be kept in it
            check_cache(folder, "--equity-dir", given=False)
        typer.echo(f"{build_notice(ruleset, threads=threads)}; it is kept in {folder} for next time", err=True)
        with progress_bar("equity table", ruleset.target ** 2) as bar:
            table, path, _ = equity_table(ruleset, policy, out_dir=folder, progress=bar.advance, threads=threads)
    return table, path


def answer_reader() -> tuple[Any, bool]:
    """How an interactive command reads an answer: (read(prompt) -> str, interactive). At a terminal, input()
    with line editing; through a pipe, one line at a time, echoed after its prompt so the transcript reads as at
    a terminal; end of input raises EOFError."""
    interactive = sys.stdin.isatty()
    if interactive:
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
        return input, True

    def read(prompt: str) -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        answer = line.rstrip("\r\n")
        typer.echo(prompt + answer)
        return answer

    return read, False
