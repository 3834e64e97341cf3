"""`allfours simulate --log` and `allfours replay` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from analyser.cli import app

runner = CliRunner()


def simulate(tmp_path, *args, name="log.jsonl"):
    path = tmp_path / name
    result = runner.invoke(app, ["simulate", *args, "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("args", [["--rules", "trinidad"], ["--rules", "trinidad", "--players", "2"],
                                  ["--rules", "classic", "--players", "3"], ["--rules", "partnership-seven"],
                                  ["--rules", "classic", "--set", "undertrump=forbidden", "--set", "target=7"]])
def test_simulate_then_replay_round_trip(tmp_path, args):
    path = simulate(tmp_path, *args, "--deals", "300", "--seed", "3")
    lines = path.read_text().splitlines()
    assert len(lines) == 300 and json.loads(lines[0])["format"] == "allfours-log/1"
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "300 lines legal" in result.output


def test_same_seed_same_file(tmp_path):
    a = simulate(tmp_path, "--deals", "200", "--seed", "9", name="a.jsonl")
    b = simulate(tmp_path, "--deals", "200", "--seed", "9", name="b.jsonl")
    c = simulate(tmp_path, "--deals", "200", "--seed", "10", name="c.jsonl")
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()


def test_scores_run_through_matches(tmp_path):
    lines = [json.loads(t) for t in simulate(tmp_path, "--deals", "400").read_text().splitlines()]
    for before, after in zip(lines, lines[1:]):
        if before["winner"] is None:
            assert after["score_before"] == before["score_after"]
            assert after["dealer"] == (before["dealer"] + 1) % 4
        else:
            assert after["score_before"] == [0, 0]
    assert any(line["winner"] is not None for line in lines)


def corrupt(tmp_path, mutate):
    path = simulate(tmp_path, "--deals", "5", "--seed", "2")
    lines = [json.loads(t) for t in path.read_text().splitlines()]
    mutate(lines[2])
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return runner.invoke(app, ["replay", str(path)])


def first_index(line, kind):
    return next(i for i, e in enumerate(line["events"]) if e["event"] == kind)


def test_replay_names_line_event_and_reason(tmp_path):
    def wrong_winner(line):
        i = first_index(line, "trick")
        line["events"][i]["winner"] = (line["events"][i]["winner"] + 1) % 4
    result = corrupt(tmp_path, wrong_winner)
    assert result.exit_code == 1
    assert "line 3, event" in result.stderr and "wrong trick winner" in result.stderr
    assert "Traceback" not in result.output


def test_replay_rejects_extra_points(tmp_path):
    def extra(line):
        line["events"].insert(first_index(line, "trump"), {"event": "points", "side": 0, "n": 1, "why": "kick"})
    result = corrupt(tmp_path, extra)
    assert result.exit_code == 1 and "points" in result.stderr


def test_replay_malformed_json_and_missing_file(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "allfours-log/1"\n')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "line 1" in result.stderr and "not valid JSON" in result.stderr
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.jsonl")])
    assert result.exit_code != 0 and "cannot read" in result.stderr


def test_replay_scores_a_log_without_points(tmp_path):
    path = simulate(tmp_path, "--deals", "3", "--seed", "4")
    lines = [json.loads(t) for t in path.read_text().splitlines()]
    for line in lines:
        line["events"] = [e for e in line["events"] if e["event"] != "points"]
        del line["score_after"], line["winner"]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and len(report["scored"]) == 3
    assert all(item["points"] for item in report["scored"])
    text = runner.invoke(app, ["replay", str(path)])
    assert "line 1:" in text.stdout and "3 lines legal; they give no points: they are worked out above" in text.stdout


@pytest.mark.parametrize("args,message", [
    (["--rules", "nope"], "nope"),
    (["--rules", "trinidad", "--players", "5"], "--players"),
    (["--rules", "classic", "--set", "target=0"], "target=0 is out of range"),
    (["--rules", "classic", "--players", "2", "--set", "bunching=true"], "bunching needs 4 players"),
    (["--rules", "classic", "--set", "colour=red"], "unknown rule parameter"),
    (["--policy", "clever"], "unknown policy"),
])
def test_simulate_errors_are_one_clear_line(tmp_path, args, message):
    result = runner.invoke(app, ["simulate", *args, "--deals", "5", "--log", str(tmp_path / "x.jsonl")])
    assert result.exit_code != 0
    assert message in result.stderr + result.stdout
    assert "Traceback" not in result.stderr + result.stdout


def test_end_to_end_subprocess(tmp_path):
    path = tmp_path / "e2e.jsonl"
    sim = subprocess.run([sys.executable, "-m", "analyser", "simulate", "--rules", "classic", "--players", "2",
                          "--deals", "50", "--seed", "1", "--log", str(path)], capture_output=True, text=True)
    assert sim.returncode == 0, sim.stderr
    rep = subprocess.run([sys.executable, "-m", "analyser", "replay", str(path)], capture_output=True, text=True)
    assert rep.returncode == 0 and "50 lines legal" in rep.stdout
    lines = path.read_text().splitlines()
    bad = json.loads(lines[0])
    bad["events"][0]["hands"][1][0] = bad["events"][0]["hands"][0][0]  # a card dealt twice
    path.write_text(json.dumps(bad) + "\n")
    rep = subprocess.run([sys.executable, "-m", "analyser", "replay", str(path)], capture_output=True, text=True)
    assert rep.returncode == 1 and "dealt twice" in rep.stderr and "Traceback" not in rep.stderr
