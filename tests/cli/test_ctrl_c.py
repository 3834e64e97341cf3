"""Ctrl-C in a long command: acknowledged on stderr the moment it arrives, then the command stops as it always
did (finished work kept where the command keeps it, exit 130); Ctrl-C while the program loads is one line and 130
too, and an interrupted `simulate --log` keeps its finished deals and says how many (an interrupted report:
tests/report/test_report_resume.py).

Each command runs in a subprocess with stderr on a pseudo-terminal, so its progress bar is drawn and the test
knows the work is under way before it sends SIGINT; a pipe (no terminal) is tested too."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.cli.options import STOPPING, stopping_notice
from conftest import ROOT, error_lines

ALLFOURS = str(Path(sys.executable).parent / "allfours")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ACK_SECONDS = 3.0  # "at once": the notice follows SIGINT within this (the machine may be busy); today it never came


class Run:
    """`allfours ARGS` with stderr read as it comes, each chunk with the time it arrived."""

    def __init__(self, args: list[str], terminal: bool = True) -> None:
        env = {**os.environ, "COLUMNS": "120", "LINES": "40", "TERM": "xterm"}
        read, write = pty.openpty() if terminal else os.pipe()  # (stderr is read here only, never by communicate)
        # SIGINT as a terminal's Ctrl-C finds it, not ignored as by a test run started in the background
        self.proc = subprocess.Popen([ALLFOURS, *args], stdout=subprocess.PIPE, stderr=write, stdin=subprocess.DEVNULL,
                                     env=env, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(write)
        self.fd = read
        self.chunks: list[tuple[float, str]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 4096)
            except OSError:  # the pty's other end closed
                return
            if not data:
                return
            self.chunks.append((time.monotonic(), data.decode("utf-8", "replace")))

    def text(self, since: float = 0.0) -> str:
        """What stderr showed (a line the terminal rewrote, after "\\r", is a line of its own)."""
        return ANSI.sub("", "".join(c for t, c in list(self.chunks) if t >= since)).replace("\r", "\n")

    def wait_for(self, pattern: str, timeout: float = 300.0) -> None:
        end = time.monotonic() + timeout
        while not re.search(pattern, self.text()):
            if self.proc.poll() is not None or time.monotonic() > end:
                self.proc.kill()
                raise AssertionError(f"never saw {pattern!r}; stderr: {self.text()[-2000:]}")
            time.sleep(0.05)

    def interrupt(self) -> tuple[float, int, str]:
        """SIGINT; (seconds until the notice appeared on stderr, exit status, stdout)."""
        sent = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=300)
        self.reader.join(timeout=10)
        os.close(self.fd)
        told, seen = None, ""
        for t, c in list(self.chunks):  # when the text since SIGINT first holds the notice (it may span chunks)
            seen += ANSI.sub("", c) if t >= sent else ""
            if told is None and STOPPING in seen:
                told = t
        assert told is not None, f"no {STOPPING!r} on stderr after Ctrl-C: {self.text(sent)[-2000:]}"
        return told - sent, self.proc.returncode, out.decode()


BAR = r"\d+/[\d,]+"  # the progress bar's done/total: the work is under way


@pytest.mark.parametrize("args", [
    ["strategy", "--deals", "2000000", "--rounds", "3"],
    ["equilibrium", "--deals", "5000000"],
    ["tournament", "--matches", "2000000"],
    ["check-advice", "--deals", "5000000"],
], ids=lambda a: a[0])
def test_long_command_acknowledges_ctrl_c_at_once(args: list[str], tmp_path: Path) -> None:
    run = Run([*args, *(["--out", str(tmp_path / "out")] if args[0] in ("strategy", "equilibrium") else [])])
    run.wait_for(BAR)
    time.sleep(1.0)
    after, code, _ = run.interrupt()
    assert after < ACK_SECONDS
    assert code == 130
    lines = [line for line in run.text().splitlines() if line.strip()]
    assert lines.index(STOPPING) < len(lines) - 1 and "interrupted" in lines[-1]  # the notice, then the end
    assert run.text().count(STOPPING) == 1


def test_report_acknowledges_ctrl_c_and_keeps_its_finished_parts(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    run = Run(["report", "--deals", "200000", "--out", str(out)], terminal=False)
    run.wait_for(r"report: advice check")  # the strategy tables are finished and kept
    time.sleep(1.0)
    after, code, _ = run.interrupt()
    assert after < ACK_SECONDS
    assert code == 130
    last = run.text().strip().splitlines()[-1]
    assert last.startswith("interrupted: the report is not finished; its finished parts (strategy")
    assert (tmp_path / "rep.partial").is_dir()
    assert run.text().index(STOPPING) < run.text().index("interrupted")


def test_simulate_acknowledges_ctrl_c_and_keeps_finished_chunks(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = Run(["simulate", "--deals", "200000000", "--policy", "heuristic", "--out", str(out)])
    run.wait_for(BAR)
    time.sleep(1.0)
    after, code, _ = run.interrupt()
    assert after < ACK_SECONDS
    assert code == 130
    assert f"interrupted: finished chunks are kept; continue with --resume {out}" in run.text()
    assert (out / "meta.json").is_file()


@pytest.fixture
def python_ctrl_c() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in this process (also in a test run started in the background, where SIGINT
    is ignored)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("python_ctrl_c")
def test_the_notice_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    """Inside the block: the notice, then KeyboardInterrupt as before; outside it, Python's own handler again."""
    with pytest.raises(KeyboardInterrupt):
        with stopping_notice("stopping: test..."):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # interrupted at once
    assert capsys.readouterr().err == "stopping: test...\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    assert capsys.readouterr().err == ""


@pytest.mark.usefixtures("python_ctrl_c")
def test_a_nested_block_says_its_own_words_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(KeyboardInterrupt):
        with stopping_notice("outer"), stopping_notice("inner"):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
    assert capsys.readouterr().err == "inner\n"


def test_equity_acknowledges_ctrl_c_at_once(tmp_path: Path) -> None:
    run = Run(["equity", "--deals-per-cell", "200000", "--out", str(tmp_path / "equity")])
    run.wait_for(BAR)
    time.sleep(1.0)
    after, code, _ = run.interrupt()
    assert after < ACK_SECONDS and code == 130


def test_analyse_acknowledges_ctrl_c_at_once(tmp_path: Path) -> None:
    log = tmp_path / "deals.jsonl"
    subprocess.run([ALLFOURS, "simulate", "--deals", "20", "--policy", "heuristic", "--log", str(log)], check=True,
                   capture_output=True, timeout=300)
    run = Run(["analyse", str(log)])
    run.wait_for(BAR)
    time.sleep(1.0)
    after, code, _ = run.interrupt()
    assert after < ACK_SECONDS and code == 130


def test_simulate_writing_a_log_acknowledges_ctrl_c_and_keeps_the_deals(tmp_path: Path) -> None:
    log = tmp_path / "deals.jsonl"
    run = Run(["simulate", "--deals", "100000000", "--policy", "heuristic", "--log", str(log)], terminal=False)
    end = time.monotonic() + 300
    while not (log.is_file() and log.stat().st_size > 0):  # the deals are being written
        assert run.proc.poll() is None and time.monotonic() < end, run.text()
        time.sleep(0.1)
    after, code, _ = run.interrupt()
    assert after < ACK_SECONDS and code == 130
    kept = re.search(r"interrupted: the (\d+) finished deals are kept in", run.text())
    assert kept is not None, run.text()
    assert len(log.read_text(encoding="utf-8").splitlines()) == int(kept.group(1))


def test_bench_acknowledges_ctrl_c_in_its_own_words() -> None:
    run = Run(["bench", "--seconds", "20", "--threads", "1"], terminal=False)
    time.sleep(8.0)  # loaded and measuring: it measures for 40 s or more, and prints nothing until the end
    assert run.proc.poll() is None, run.text()
    sent = time.monotonic()
    run.proc.send_signal(signal.SIGINT)
    run.proc.communicate(timeout=300)
    run.reader.join(timeout=10)
    os.close(run.fd)
    told = next(t for t, c in run.chunks if "stopping: the measurement under way is dropped..." in c)
    assert told - sent < ACK_SECONDS and run.proc.returncode == 130
    assert run.text().strip().splitlines()[-2:] == ["stopping: the measurement under way is dropped...", "interrupted"]


# --- interrupted while loading, or while writing a log --------------------------------------------

runner = CliRunner()


def console_script() -> tuple[str, str]:
    """The module and function that `allfours` runs, from pyproject.toml."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, function = scripts["allfours"].split(":")
    return module, function


def test_ctrl_c_while_the_program_loads_is_one_line_and_130(tmp_path):
    """Ctrl-C in the first second or two (while numpy and numba load) printed a KeyboardInterrupt traceback.
    Here the interrupt arrives, as a real SIGINT, the moment numpy starts to load."""
    module, function = console_script()
    code = ("import os, signal, sys\n"
            "class Interrupt:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'numpy':\n"
            "            sys.meta_path.remove(self)\n"
            "            os.kill(os.getpid(), signal.SIGINT)\n"
            "        return None\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            f"from {module} import {function}\n"
            f"{function}()\n")
    # SIGINT as a terminal's Ctrl-C finds it, not ignored as a job started in the background inherits it (pytest
    # run with `&` or nohup: Python then never raises KeyboardInterrupt)
    proc = subprocess.run([sys.executable, "-c", code, "simulate", "--deals", "10"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stderr) == (130, "interrupted\n")


def test_an_interrupted_log_keeps_its_finished_deals_and_says_how_many(tmp_path, monkeypatch):
    import analyser.players.simulate as simulate

    lines = simulate.iter_log_lines

    def three_then_stop(*args, **kwargs):
        for n, line in enumerate(lines(*args, **kwargs)):
            if n == 3:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(simulate, "iter_log_lines", three_then_stop)
    log = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["simulate", "--deals", "50", "--threads", "1", "--log", str(log)])
    assert result.exit_code == 130, result.output
    assert error_lines(result)[-1] == (f"interrupted: the 3 finished deals are kept in {log} (of 50 asked); "
                                       "`allfours replay` reads them")
    assert [json.loads(line)["format"] for line in log.read_text().splitlines()] == ["allfours-log/1"] * 3
