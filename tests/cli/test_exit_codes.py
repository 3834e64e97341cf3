"""One set of exit codes in every command, each error one plain line on stderr: 2 a usage error (a bad option
value, named with the choices; an input file missing, unreadable, not text or a folder; an event that is no
decision), 1 a failure while working (a log line that is wrong, a write that fails). Ctrl-C (130): test_ctrl_c.py;
outputs that cannot be written: test_output_paths.py."""

from __future__ import annotations

import errno
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from conftest import TYPED, disk_full, error_lines

HAND = "AS JS 4H 7D 9C TC"
runner = CliRunner()


@pytest.mark.parametrize("args,message", [
    (["simulate", "--rules", "bogus"],
     "error: --rules bogus: not one of the choices; choose trinidad, trinidad-tobago, partnership-seven or classic"),
    (["simulate", "--players", "5"], "error: --players 5: out of range; give 2, 3 or 4"),
    (["whatif", "--hand", HAND, "--turnup", "KS", "--seat", "north"],
     "error: --seat north: not one of the choices; choose eldest or dealer"),
    (["equity", "--matches-per-cell=5"], "error: --matches-per-cell 5: out of range; give 100 to 10,000,000"),
])
def test_usage_errors_name_the_value_and_the_choices(args, message):
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stderr) == (2, message + "\n")


def test_a_malformed_log_line_is_named(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"format": "allfours-log/1"}\n{"format": "allfours-log/1", "x": "a\tb"}\n')
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert error_lines(result) == [f"error: {log}: line 1: rules must be an object naming at least the preset, "
                                   'e.g. {"preset": "trinidad"}']
    log.write_text('{"format": "allfours-log/1", "x": "a\tb"}\n')
    result = runner.invoke(app, ["replay", str(log)])
    assert error_lines(result) == [f"error: {log}: line 1 is not valid JSON: invalid control character at column 37"]


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
    assert error_lines(result) == [f"error: cannot read {name}: line 1 is not text (not UTF-8): give a game log file "
                                   "(allfours-log/1, JSON lines)"]


@pytest.mark.parametrize("command", READERS)
def test_a_folder_or_a_missing_file_as_the_log_is_a_usage_error_in_plain_words(tmp_path, command):
    """replay said "cannot read x: Is a directory", the others "a folder is in the way of a file"."""
    name = "--log " if command == "whatif --log" else ""
    folder = run_reader(command, tmp_path)
    assert folder.exit_code == 2
    assert error_lines(folder) == [f"error: {name}{tmp_path} is a folder, not a file: give a game log file "
                                   "(allfours-log/1, JSON lines)"]
    missing = run_reader(command, tmp_path / "nope.jsonl")
    assert missing.exit_code == 2
    assert error_lines(missing) == [f"error: cannot read {name}{tmp_path / 'nope.jsonl'}: there is no such file"]
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
    assert error_lines(result) == [f"error: cannot read {name}: permission denied"]


@pytest.mark.parametrize("event,message", [
    ("8", "--event 8: that event of {log}: line 1 is 'trick', not a decision; give the index of a stand, beg, give, "
          "run or play event"),
    ("999", "--event 999: {log}: line 1 has events 0..33")])
def test_an_event_that_is_no_decision_is_a_bad_option_value(event, message):
    """It exited 1, as if the log were wrong."""
    result = runner.invoke(app, ["whatif", "--log", str(TYPED), "--event", event])
    assert result.exit_code == 2
    assert error_lines(result) == ["error: " + message.format(log=TYPED)]


def test_a_wrong_log_line_exits_1_in_solve_as_in_replay(tmp_path):
    """solve said the same as replay about a line that is not JSON, in other words, and exited 2."""
    log = tmp_path / "bad.jsonl"
    log.write_text('{"format": "allfours-log/1"\n')
    replayed, solved = run_reader("replay", log), run_reader("solve", log)
    assert replayed.exit_code == solved.exit_code == 1
    assert error_lines(solved) == error_lines(replayed)
    assert error_lines(solved)[0].startswith(f"error: {log}: line 1 is not valid JSON: expecting ',' delimiter")
    # a legal line not cut where a card is due is the player's choice of line: a usage error
    whole = run_reader("solve", TYPED)
    assert whole.exit_code == 2 and "cut the line at a card decision" in whole.stderr


def test_a_write_that_fails_while_working_exits_1(tmp_path, monkeypatch):
    """A run folder that could not be written mid-run exited 2, as if the command line were wrong."""
    out = tmp_path / "run"
    monkeypatch.setattr("analyser.analysis.bidding.strategy.run_strategy", disk_full(out / "rounds.csv"))
    result = runner.invoke(app, ["strategy", "--deals", "100", "--out", str(out)])
    assert result.exit_code == 1
    assert error_lines(result) == [f"error: {out / 'rounds.csv'}: the disk is full"]
