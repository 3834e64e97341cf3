"""A command of `allfours` running in a real terminal: a tmux session with a server socket of its own.

Shared by the real-terminal tests of `record` and `play`: type with `send`, read with `screen`, wait for what
should appear with `wait_for` (a text, or a test of the whole screen), and read the exit status.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


class Terminal:
    def __init__(self, tmp_path: Path, command: str, width: int, height: int, term: str = "xterm"):
        self.command, self.width, self.height, self.term = command, width, height, term
        # A name of its own for every session: a server killed by the test before may still be going away
        # (kill-server does not wait), and a second new-session on its socket then fails.
        self.name = f"allfours-{command}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.socket = ["-L", self.name]
        self.status = tmp_path / "status"

    def start(self, args: list[str]) -> None:
        exe = Path(sys.executable).parent / "allfours"
        command = " ".join(shlex.quote(w) for w in [str(exe), self.command, *args])
        session = ["new-session", "-d", "-s", self.name, "-x", str(self.width), "-y", str(self.height),
                   f"{command}; echo $? > {shlex.quote(str(self.status))}; sleep 60"]
        for attempt in range(3):  # starting a tmux server is the machine's business, not allfours': try again
            try:
                self.tmux(*session)
                return
            except AssertionError:
                if attempt == 2:
                    raise
                time.sleep(1.0)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", *self.socket, *args], capture_output=True, text=True,
                              env={**os.environ, "TERM": self.term, "LANG": "C.UTF-8"})
        if done.returncode != 0:
            raise AssertionError(f"tmux {args[0]} failed (exit {done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def send(self, text: str) -> None:
        """Type `text` and Enter."""
        self.tmux("send-keys", "-t", self.name, "-l", text)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def screen(self, colours: bool = False) -> str:
        return self.tmux("capture-pane", "-p", "-J", *(["-e"] if colours else []), "-t", self.name, "-S", "-400")

    def last(self) -> str:
        return self.screen().rstrip().splitlines()[-1]

    def wait_for(self, what: str | Callable[[str], bool], seconds: float = 120.0) -> str:
        """Until `what` (a text, or a test of the screen) is on the screen (a first run may compile the engine)."""
        test = what if callable(what) else (lambda shown: what in shown)
        end = time.monotonic() + seconds
        while True:
            shown = self.screen()
            if test(shown):
                return shown
            if time.monotonic() > end:
                raise AssertionError(f"the screen never showed {what!r}:\n{shown}")
            time.sleep(0.1)

    def exit_code(self, seconds: float = 60.0) -> int:
        end = time.monotonic() + seconds
        while not self.status.exists() or not self.status.read_text().strip():
            if time.monotonic() > end:
                raise AssertionError(f"{self.command} did not exit:\n{self.screen()}")
            time.sleep(0.1)
        return int(self.status.read_text())


@contextlib.contextmanager
def another_terminal(tmp_path: Path, command: str, width: int = 200, height: int = 60,
                     term: str = "xterm") -> Iterator[Terminal]:
    """A second Terminal in the same test (a command run again: ``--resume``), its tmux server killed after."""
    folder = tmp_path / f"terminal-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    again = Terminal(folder, command, width, height, term)
    try:
        yield again
    finally:
        subprocess.run(["tmux", *again.socket, "kill-server"], capture_output=True)


def terminal_session(tmp_path: Path, command: str, width: int, height: int, term: str = "xterm") -> Iterator[Terminal]:
    """The body of a fixture: a Terminal, its tmux server killed after the test; a skip without tmux."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the real-terminal test needs it (apt-get install -y tmux)")
    term_ = Terminal(tmp_path, command, width, height, term)
    yield term_
    subprocess.run(["tmux", *term_.socket, "kill-server"], capture_output=True)
