"""Issue 28, a new player's first hour, second pass: items 1, 2, 3 and 9.

1. Output paths are checked before any work (a chart's type, its folder); the answer is printed
   before any file is written, and a write that still fails is one line after it (exit 1).
2. One set of exit codes in every command: 2 a usage error (bad option value, an input file missing,
   unreadable or a folder), 1 a failure while working, 130 Ctrl-C (also while the program loads).
3. `allfours --version`, and the version in the --json of a run.
9. Wording: rates in percent with one decimal in every text output; no "is a directory" jargon.
"""

from __future__ import annotations

import errno
import json
import re
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser import __version__
from analyser.cli import app

ROOT = Path(__file__).resolve().parent.parent
TYPED = ROOT / "tests" / "logs" / "typed-trinidad.jsonl"
HAND = "AS JS 4H 7D 9C TC"
COMPILING = "compiling the engine"  # a cold cache's first line, before anything else
# A quick what-if: matches played out (no equity table), few deals.
WHATIF = ["whatif", "--hand", HAND, "--turnup", "KS", "--win-by", "playout", "--max-deals", "200", "--threads", "1"]
runner = CliRunner()


def errors(result) -> list[str]:
    """stderr without the first-compile line (a cold cache may print it before anything else)."""
    return [line for line in result.stderr.splitlines() if not line.startswith(COMPILING)]


def no_work(monkeypatch, *names: str) -> None:
    """Make the functions that would do the work fail the test if they are reached."""
    import importlib

    modules = {name: importlib.import_module(name.rpartition(".")[0]) for name in names}
    for name, module in modules.items():
        monkeypatch.setattr(module, name.rpartition(".")[2],
                            lambda *a, **k: pytest.fail("work started before the output was checked"))


def disk_full(path: Path):
    def write(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    return write


# --- 1. output paths checked first; the answer before the files ------------------------------


@pytest.mark.parametrize("args", [[*WHATIF, "--plot", "{tmp}/x.txt"], [*WHATIF, "--plot", "{tmp}/noext"],
                                  ["equity", "--players", "2", "--out", "{tmp}/eq", "--plot", "{tmp}/x.txt"]],
                         ids=["whatif x.txt", "whatif noext", "equity x.txt"])
def test_a_chart_name_matplotlib_cannot_write_is_refused_before_any_work(tmp_path, monkeypatch, args):
    """`whatif --plot x.txt` ran the whole what-if, then ended in a matplotlib traceback; `--plot noext`
    silently wrote noext.png."""
    no_work(monkeypatch, "analyser.analysis.bidding.whatif.what_if", "analyser.analysis.bidding.equity.equity_table")
    words = [w.format(tmp=tmp_path) for w in args]
    result = runner.invoke(app, words)
    assert result.exit_code == 2, result.output
    (line,) = errors(result)
    plot = words[words.index("--plot") + 1]
    assert line.startswith(f"error: --plot {plot}: give a file name ending in .png or another image type ")
    assert ".pdf" in line and ".svg" in line and "Traceback" not in result.output
    assert not list(tmp_path.glob("x*")) and not list(tmp_path.glob("noext*"))


def test_a_chart_in_a_folder_that_is_not_there_is_written_there(tmp_path):
    """The folders of an output file are created, as an output folder's are (tests/test_output_paths.py); a file
    in the way of one is refused before any work."""
    plot = tmp_path / "no-such-folder" / "x.png"
    result = runner.invoke(app, [*WHATIF, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.is_file()
    (tmp_path / "a-file").write_text("x")
    result = runner.invoke(app, ["simulate", "--deals", "10", "--log", str(tmp_path / "a-file" / "deals.jsonl")])
    assert result.exit_code == 2
    assert errors(result) == [f"error: --log {tmp_path / 'a-file' / 'deals.jsonl'}: {tmp_path / 'a-file'} is a "
                              "file, not a folder"]


OUT_FOLDERS = {"simulate": ["simulate", "--deals", "10"], "strategy": ["strategy", "--deals", "100"],
               "equilibrium": ["equilibrium", "--deals", "100"], "check-advice": ["check-advice", "--deals", "100"],
               "analyse": ["analyse", str(TYPED)], "report": ["report", "--deals", "2000"],
               "equity": ["equity", "--players", "2"]}
WORK = ("analyser.analysis.runner.run", "analyser.analysis.bidding.strategy.run_strategy",
        "analyser.analysis.bidding.equilibrium.run_equilibrium", "analyser.analysis.bidding.advice.check_advice",
        "analyser.analysis.play.analyse.analyse", "analyser.report.build.build_report",
        "analyser.analysis.bidding.equity.equity_table")


@pytest.mark.parametrize("command", OUT_FOLDERS)
def test_every_output_folder_is_checked_the_same_way_before_any_work(tmp_path, monkeypatch, command):
    """equilibrium checked its --out its own way: a folder below a file failed only when written, after the work."""
    no_work(monkeypatch, *WORK)
    (tmp_path / "a-file").write_text("x")
    out = tmp_path / "a-file" / "below"
    result = runner.invoke(app, [*OUT_FOLDERS[command], "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert errors(result) == [f"error: --out {out}: {tmp_path / 'a-file'} is a file, not a folder"]


def test_the_answer_is_printed_before_a_chart_that_cannot_be_written(tmp_path, monkeypatch):
    plot = tmp_path / "diff.png"
    monkeypatch.setattr("analyser.analysis.charts.convergence_plot", disk_full(plot))
    result = runner.invoke(app, [*WHATIF, "--plot", str(plot)])
    assert result.exit_code == 1, result.output
    assert re.match(r"(Stand|Beg): with this hand|Too close to call", result.stdout.splitlines()[1])
    assert "P(win match)" in result.stdout and "Traceback" not in result.output
    assert errors(result) == [f"error: could not write {plot} (the disk is full); the result above is complete"]
    as_json = runner.invoke(app, [*WHATIF, "--plot", str(plot), "--json"])
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["best"] in ("stand", "beg")


def test_the_equity_table_is_printed_before_its_heatmap(tmp_path, monkeypatch):
    plot = tmp_path / "heat.svg"
    monkeypatch.setattr("analyser.analysis.charts.equity_heatmap", disk_full(plot))
    result = runner.invoke(app, ["equity", "--players", "2", "--deals-per-cell", "100", "--threads", "1",
                                 "--out", str(tmp_path / "eq"), "--plot", str(plot)])
    assert result.exit_code == 1, result.output
    assert "P(dealer's side wins the match)" in result.stdout and f"heatmap: {plot}" in result.stdout
    assert errors(result) == [f"error: could not write {plot} (the disk is full); the result above is complete"]


def test_check_advice_and_analyse_print_before_writing_their_files(tmp_path, monkeypatch):
    out = tmp_path / "advice"
    monkeypatch.setattr("analyser.cli.advice.write_out", disk_full(out / "advice.json"))
    advice = runner.invoke(app, ["check-advice", "--deals", "100", "--no-equilibrium", "--play-deals", "0",
                                 "--threads", "1", "--out", str(out)])
    assert advice.exit_code == 1, advice.output
    assert "Published advice" in advice.stdout and "[" in advice.stdout
    assert errors(advice) == [f"error: could not write {out / 'advice.json'} (the disk is full); the result above "
                              "is complete"]
    page = tmp_path / "page"
    monkeypatch.setattr("analyser.analysis.play.analyse_html.write_page", disk_full(page / "index.html"))
    analysed = runner.invoke(app, ["analyse", str(TYPED), "--no-win-prob", "--worlds", "2", "--bid-deals", "100",
                                   "--max-cards", "2", "--threads", "1", "--out", str(page)])
    assert analysed.exit_code == 1, analysed.output
    assert "2 deals in 1 match" in analysed.stdout
    assert errors(analysed)[-1] == (f"error: could not write {page / 'index.html'} (the disk is full); the result "
                                    "above is complete")


# --- 2. exit codes ------------------------------------------------------------------------------

# Every command that reads a game log, as a player names the file.
READERS = {"replay": ["replay", "{log}"], "analyse": ["analyse", "{log}", "--no-win-prob"],
           "solve": ["solve", "{log}"], "whatif --log": ["whatif", "--log", "{log}"]}


def run_reader(command: str, log: Path):
    return runner.invoke(app, [w.format(log=log) for w in READERS[command]])


@pytest.mark.parametrize("command", READERS)
def test_a_log_that_is_not_text_is_a_usage_error(tmp_path, command):
    """solve and whatif --log ended in a UnicodeDecodeError traceback; replay and analyse printed the codec's
    words."""
    log = tmp_path / "photo.jsonl"
    log.write_bytes(b"\xff\xd8\xff\xe0 not a log\n")
    result = run_reader(command, log)
    assert result.exit_code == 2, result.output
    name = f"--log {log}" if command == "whatif --log" else str(log)
    assert errors(result) == [f"error: cannot read {name}: line 1 is not text (not UTF-8): give a game log file "
                              "(allfours-log/1, JSON lines)"]


@pytest.mark.parametrize("command", READERS)
def test_a_folder_or_a_missing_file_as_the_log_is_a_usage_error_in_plain_words(tmp_path, command):
    """replay said "cannot read x: Is a directory", the others "a folder is in the way of a file"."""
    name = "--log " if command == "whatif --log" else ""
    folder = run_reader(command, tmp_path)
    assert folder.exit_code == 2
    assert errors(folder) == [f"error: {name}{tmp_path} is a folder, not a file: give a game log file "
                              "(allfours-log/1, JSON lines)"]
    missing = run_reader(command, tmp_path / "nope.jsonl")
    assert missing.exit_code == 2
    assert errors(missing) == [f"error: cannot read {name}{tmp_path / 'nope.jsonl'}: there is no such file"]
    for result in (folder, missing):
        assert not re.search(r"directory|Errno|in the way", result.stderr)


@pytest.mark.parametrize("command", READERS)
def test_an_unreadable_log_is_a_usage_error(tmp_path, monkeypatch, command):
    log = tmp_path / "locked.jsonl"
    log.write_text(TYPED.read_text())
    log.chmod(0)
    real_open = open

    def locked(path, *args, **kwargs):  # as chmod 0 does for anyone but root
        if Path(path) == log:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", locked)
    result = run_reader(command, log)
    assert result.exit_code == 2, result.output
    name = f"--log {log}" if command == "whatif --log" else str(log)
    assert errors(result) == [f"error: cannot read {name}: permission denied"]


@pytest.mark.parametrize("event,message", [
    ("8", "--event 8: that event of {log}: line 1 is 'trick', not a decision; give the index of a stand, beg, give, "
          "run or play event"),
    ("999", "--event 999: {log}: line 1 has events 0..33")])
def test_an_event_that_is_no_decision_is_a_bad_option_value(event, message):
    """It exited 1, as if the log were wrong."""
    result = runner.invoke(app, ["whatif", "--log", str(TYPED), "--event", event])
    assert result.exit_code == 2
    assert errors(result) == ["error: " + message.format(log=TYPED)]


def test_a_wrong_log_line_exits_1_in_solve_as_in_replay(tmp_path):
    """solve said the same as replay about a line that is not JSON, in other words, and exited 2."""
    log = tmp_path / "bad.jsonl"
    log.write_text('{"format": "allfours-log/1"\n')
    replayed, solved = run_reader("replay", log), run_reader("solve", log)
    assert replayed.exit_code == solved.exit_code == 1
    assert errors(solved) == errors(replayed)
    assert errors(solved)[0].startswith(f"error: {log}: line 1 is not valid JSON: expecting ',' delimiter")
    # a legal line not cut where a card is due is the player's choice of line: a usage error
    whole = run_reader("solve", TYPED)
    assert whole.exit_code == 2 and "cut the line at a card decision" in whole.stderr


def test_a_write_that_fails_while_working_exits_1(tmp_path, monkeypatch):
    """A run folder that could not be written mid-run exited 2, as if the command line were wrong."""
    out = tmp_path / "run"
    monkeypatch.setattr("analyser.analysis.bidding.strategy.run_strategy", disk_full(out / "rounds.csv"))
    result = runner.invoke(app, ["strategy", "--deals", "100", "--out", str(out)])
    assert result.exit_code == 1
    assert errors(result) == [f"error: {out / 'rounds.csv'}: the disk is full"]


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


# --- 3. the version -----------------------------------------------------------------------------


def test_version():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert __version__ == pyproject
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"allfours {pyproject}\n")
    proc = subprocess.run([sys.executable, "-m", "analyser", "--version"], capture_output=True, text=True, timeout=300)
    assert (proc.returncode, proc.stdout) == (0, f"allfours {pyproject}\n")


@pytest.mark.parametrize("args", [["simulate", "--deals", "10", "--threads", "1"],
                                  ["tournament", "--matches", "2", "--threads", "1"], WHATIF,
                                  ["whatif", "--log", str(TYPED), "--event", "2", "--max-deals", "200",
                                   "--threads", "1"],
                                  ["analyse", str(TYPED), "--no-win-prob", "--worlds", "2", "--bid-deals", "100",
                                   "--max-cards", "2", "--threads", "1"]],
                         ids=["simulate", "tournament", "whatif", "whatif --log", "analyse"])
def test_a_runs_json_carries_the_version(args):
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["version"] == __version__


# --- 9. wording ---------------------------------------------------------------------------------

PERCENT = r"\d+\.\d%"


def test_tournament_prints_its_win_rate_in_percent():
    """It printed "win rate 0.8000 (se 0.0816, 95% CI [0.6400, 0.9600])"."""
    result = runner.invoke(app, ["tournament", "--matches", "20", "--threads", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(rf"A wins \d+: win rate {PERCENT} \(se {PERCENT}, 95% CI \[{PERCENT}, {PERCENT}\]\)",
                     result.stdout), result.stdout


def test_simulate_and_whatif_print_rates_in_percent():
    sim = runner.invoke(app, ["simulate", "--deals", "200", "--threads", "1"])
    rates = [line for line in sim.stdout.splitlines() if " rate " in line]
    assert len(rates) == 2
    for line in rates:
        assert re.search(rf" {PERCENT} ± {PERCENT}   95% CI \[{PERCENT}, {PERCENT}\]$", line), line
    what = runner.invoke(app, WHATIF)
    rows = what.stdout.splitlines()[4:7]
    for row in rows:
        assert re.search(rf"  [+]?{PERCENT}  \[[+]?{PERCENT}, [+]?{PERCENT}\]$", row), row
    assert not re.search(r"\b0\.\d{4}\b", "\n".join(rows))


def test_the_bidding_tables_print_probabilities_in_percent():
    from analyser.cli.advice import format_by_score
    from analyser.cli.equilibrium import format_classes

    rows = [{"class": "T0", "deals": 181, "p_beg": 1.0, "ci95": [0.9, 1.0], "heuristic_p_beg": 0.5, "action": "beg"}]
    lines = format_classes(rows, "eldest")
    assert "P(beg)" in lines[1] and lines[2].split()[2:6] == ["100.0%", "[90.0%,", "100.0%]", "50.0%"]
    by = format_by_score({"deals": 1000, "at_0_0": 0.75, "threshold": 0.1,
                          "moves": [{"score": [3, 12], "estimate": 0.5, "ci95": [0.4, 0.6], "verdict": "moved"}]})
    assert by == ["  by score (match-win probability, 1,000 deals): P(beg) at 0:0 75.0%",
                  "  at 3:12: 50.0%, 95% CI [40.0%, 60.0%]: moved"]


def test_no_doubled_words_in_what_a_newcomer_meets(tmp_path):
    """"at at" and its kind, in the outputs and error lines of a first hour."""
    runs = [["--help"], ["whatif", "--help"], [*WHATIF, "--explain"], ["tournament", "--matches", "4", "--threads", "1"],
            ["replay", str(TYPED)], ["replay", str(tmp_path)], ["solve", str(TYPED)],
            ["whatif", "--log", str(TYPED), "--event", "8"], ["whatif", "--log", str(TYPED), "--seat", "dealer",
                                                              "--event", "2"],
            ["simulate", "--deals", "0"], [*WHATIF, "--plot", "x.txt"]]
    for args in runs:
        result = runner.invoke(app, args)
        text = result.stdout + result.stderr
        doubled = re.findall(r"\b([A-Za-z]+) \1\b", text)
        assert not doubled, (args, doubled, text)
