"""Issue 11, a card player's first hour: what a newcomer meets before any result.

1. No output is overwritten silently, and an output that cannot be written fails before any work.
2. The documentation is in the clone: `allfours rules`, docs/ instead of shared/.
3. The first compile of the engine and the first equity table are announced.
4. One --score convention (the eldest's side first) in every command; proportions' CIs inside [0, 1].
5. Hand classes, the what-if's answer and the report's tables in plain words.
6. The usage and input errors a newcomer makes, each as one plain line.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

from analyser.analysis.stats import wilson_ci
from analyser.analysis.bidding.strategy import parse_side_score, side_scores
from analyser.analysis.bidding.whatif import decider_score, make_situation
from analyser.cli import app
from analyser.cli import options
from analyser.engine import cache_is_cold
from analyser.engine.evaluator import class_key, possible_classes
from analyser.errors import AllFoursError
from analyser.hand_text import class_words
from analyser.rules import make_rules
from analyser.rules_text import parameters

ROOT = Path(__file__).resolve().parent.parent
HAND = "AS JS 4H 7D 9C TC"
COMPILING = "compiling the engine for simulate (about 1-2 min, depending on the machine; only its first run waits)"
runner = CliRunner()


def errors(result) -> list[str]:
    """stderr without the first-compile line (a cold cache may print it before anything else)."""
    return [line for line in result.stderr.splitlines() if not line.startswith("compiling the engine for ")]


# --- 1. no silent overwrite -----------------------------------------------------------------

REFUSED = [
    (["simulate", "--deals", "10", "--log", "{file}"], "--log", "file"),
    (["simulate", "--deals", "10", "--out", "{folder}"], "--out", "folder"),
    (["strategy", "--deals", "100", "--rounds", "2", "--out", "{folder}"], "--out", "folder"),
    (["check-advice", "--deals", "100", "--out", "{folder}"], "--out", "folder"),
    (["report", "--deals", "2000", "--out", "{folder}"], "--out", "folder"),
    (["whatif", "--hand", HAND, "--turnup", "KS", "--win-by", "playout", "--plot", "{file}"], "--plot", "file"),
    (["equity", "--players", "2", "--out", "{folder}", "--plot", "{file}"], "--plot", "file"),
]

WORK = ("analyser.analysis.runner.run", "analyser.analysis.bidding.strategy.run_strategy", "analyser.analysis.bidding.advice.check_advice",
        "analyser.report.build.build_report", "analyser.analysis.bidding.whatif.what_if", "analyser.analysis.bidding.equity.equity_table")


@pytest.mark.parametrize("args,option,kind", REFUSED, ids=[f"{a[0]} {o}" for a, o, _ in REFUSED])
def test_an_existing_output_is_refused_before_any_work(tmp_path, monkeypatch, args, option, kind):
    monkeypatch.chdir(tmp_path)
    folder, file = tmp_path / "earlier", tmp_path / ("earlier.png" if option == "--plot" else "earlier.txt")
    folder.mkdir()
    (folder / "kept.txt").write_text("an earlier run\n")
    file.write_text("an earlier run\n")
    # nothing may start: the functions that would do the work are not reached (their modules are all
    # imported first: one imported while another is patched would keep the patch for good)
    modules = {name: importlib.import_module(name.rpartition(".")[0]) for name in WORK}
    for name, module in modules.items():
        monkeypatch.setattr(module, name.rpartition(".")[2],
                            lambda *a, **k: pytest.fail("work started before the output was checked"))
    words = [w.format(folder=folder, file=file) for w in args]
    result = runner.invoke(app, words)
    target = file if kind == "file" else folder
    assert result.exit_code == 2, result.output
    assert errors(result) == [f"error: {option} {target}: this {kind} already exists and is not empty; add --force "
                              f"to replace it," + (f" --resume {target} to finish it," if words[0] == "simulate"
                                                   and option == "--out" else "") + f" or give another {option}"]
    assert (folder / "kept.txt").read_text() == file.read_text() == "an earlier run\n"


def test_force_replaces_a_log_and_a_run_folder(tmp_path):
    log, run = tmp_path / "deals.jsonl", tmp_path / "run"
    log.write_text("old\n")
    assert runner.invoke(app, ["simulate", "--deals", "10", "--threads", "1", "--log", str(log), "--force"]).exit_code == 0
    assert len(log.read_text().splitlines()) == 10
    for deals in (20, 30):  # the second run replaces the first one's files
        result = runner.invoke(app, ["simulate", "--deals", str(deals), "--threads", "1", "--out", str(run), "--force"])
        assert result.exit_code == 0, result.output
    assert json.loads((run / "meta.json").read_text())["deals"] == 30
    assert json.loads((run / "summary.json").read_text())["deals"] == 30


@pytest.mark.parametrize("where", ["/proc/nope", "{tmp}/a-file/below"])
def test_an_output_that_cannot_be_written_fails_at_once(tmp_path, monkeypatch, where):
    """--equity-dir /proc/nope used to build the whole table, then fail."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("x")
    path = where.format(tmp=tmp_path)
    monkeypatch.setattr("analyser.analysis.bidding.equity.equity_table",
                        lambda *a, **k: pytest.fail("a table was built before the folder was checked"))
    result = runner.invoke(app, ["whatif", "--hand", HAND, "--turnup", "KS", "--equity-dir", path])
    assert result.exit_code == 2
    (line,) = errors(result)
    if "a-file" in path:  # a file where a folder should be: named (issue 28)
        assert line == f"error: --equity-dir {path}: {tmp_path / 'a-file'} is a file, not a folder"
    else:
        assert line.startswith(f"error: --equity-dir {path}: cannot write this folder (")


# --- 2. the documentation is in the clone ---------------------------------------------------


def test_rules_prints_every_parameter_with_its_meaning():
    ruleset = make_rules("classic", players=3, settings=["target=7"])
    result = runner.invoke(app, ["rules", "--rules", "classic", "--players", "3", "--set", "target=7"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines()[3:] if line.strip()
            and line.split()[0] in parameters(ruleset)}
    assert rows["players"] == "3" and rows["target"] == "7" and set(rows) == set(parameters(ruleset))
    data = json.loads(runner.invoke(app, ["rules", "--rules", "classic", "--players", "3", "--set", "target=7",
                                          "--json"]).stdout)
    assert [p["name"] for p in data["parameters"]] == parameters(ruleset)
    assert all(p["meaning"] for p in data["parameters"]) and data["rules"] == ruleset.as_log_dict()
    assert make_rules(data["rules"]["preset"], settings=data["options"][3::2]) == ruleset


def test_nothing_points_outside_the_clone():
    """Help texts, docstrings and the README name docs/ (in the clone), never shared/ (beside it)."""
    texts = {path: path.read_text(encoding="utf-8") for path in [*(ROOT / "analyser").rglob("*.py"), ROOT / "README.md"]}
    assert not [str(p) for p, text in texts.items() if "shared/" in text]
    named = {m for text in texts.values() for m in re.findall(r"docs/[\w.-]+\.md", text)}
    assert {"docs/rules.md", "docs/game-log.md"} <= named and all((ROOT / m).is_file() for m in named)


# --- 3. first use announced -----------------------------------------------------------------


def test_a_cold_cache_is_a_missing_or_empty_folder(tmp_path):
    assert cache_is_cold(tmp_path / "missing") and cache_is_cold(tmp_path)
    (tmp_path / "sub").mkdir()
    assert cache_is_cold(tmp_path)
    (tmp_path / "sub" / "kernel.nbi").write_bytes(b"x")
    assert not cache_is_cold(tmp_path)


def test_the_announcement_is_made_once_and_only_for_a_cold_cache(monkeypatch, capsys):
    for cold, said in ((False, ""), (True, COMPILING + "\n")):
        monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
        monkeypatch.setattr("analyser.engine.missing_kernels", lambda names: list(names) if cold else [])
        options.announce_engine("simulate")
        options.announce_engine("simulate")
        assert capsys.readouterr().err == said


def test_a_first_run_says_it_compiles(tmp_path):
    """One real cold start: the line comes before any kernel compiles (the run is stopped there)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ALLFOURS_CACHE_DIR"] = str(tmp_path / "cache")
    proc = subprocess.Popen([sys.executable, "-m", "analyser", "simulate", "--deals", "10", "--threads", "1"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait()
    assert first == COMPILING + "\n"


def test_building_an_equity_table_is_announced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def stop(*args, **kwargs):
        raise AllFoursError("stopped before the table")

    monkeypatch.setattr("analyser.analysis.bidding.equity.cached_table", lambda *a, **k: None)
    monkeypatch.setattr("analyser.analysis.bidding.equity.equity_table", stop)
    result = runner.invoke(app, ["whatif", "--hand", HAND, "--turnup", "KS", "--threads", "2"])
    notice, last = errors(result)
    assert notice == ("building the match-equity table for trinidad, 4 players (first use, about 20 s); it is kept "
                      f"in {Path('results') / 'equity'} for next time") or notice.startswith(
                          "building the match-equity table for trinidad, 4 players (first use, about ")
    assert last == "error: stopped before the table"


# --- 4. one --score convention; proportions inside [0, 1] -----------------------------------


def test_every_score_option_says_the_same():
    group = typer.main.get_command(app)
    helps = {name: param.help for name, command in group.commands.items()  # type: ignore[attr-defined]
             for param in command.params if "--score" in getattr(param, "opts", [])}
    assert {"whatif", "strategy", "check-advice"} <= set(helps)
    assert set(helps.values()) == {options.SCORE_HELP}
    assert "the eldest's side first, the dealer's side last, in every command" in options.SCORE_HELP


@pytest.mark.parametrize("preset,players,score", [("trinidad", 4, "3:9"), ("trinidad", 2, "9:3"),
                                                  ("classic", 3, "1:4:7")])
@pytest.mark.parametrize("seat", ["eldest", "dealer"])
def test_whatif_and_strategy_read_a_score_alike(preset, players, score, seat):
    """The same --score puts the same points on the same sides in whatif (either seat) and strategy."""
    rules = make_rules(preset, players=players)
    given = parse_side_score(score, rules)
    sit = make_situation(rules, HAND, "KH", seat, ":".join(map(str, decider_score(given, rules, seat))))
    assert sit.side_scores().tolist() == side_scores(rules, given).tolist()
    assert sit.eldest_first() == given


def test_whatif_prints_the_score_back_and_answers_in_a_sentence():
    args = ["whatif", "--rules", "trinidad", "--players", "2", "--hand", HAND, "--turnup", "KH", "--seat", "dealer",
            "--score", "10:12", "--win-by", "playout", "--max-deals", "1000", "--threads", "1"]
    text = runner.invoke(app, args + ["--explain"])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert "score: you 12, the eldest 10 (to 14)" in lines[0]  # --score 10:12 is the eldest's side first
    assert re.fullmatch(r"(Give|Run): with this hand (giving one|running the cards) wins the match about \d+\.\d% of "
                        r"the time, (giving one|running the cards) \d+\.\d%\.|Too close to call: .*", lines[1])
    assert "P(really best)" not in text.stdout and " SE" not in text.stdout and "How: 1,000 deals" in text.stdout
    data = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    assert data["score"] == [12, 10] and data["score_eldest_first"] == [10, 12]


def test_wilson_intervals_stay_inside_0_1():
    for n in (1, 2, 10, 1000):
        for k in range(0, n + 1, max(1, n // 7)):
            lo, hi = wilson_ci(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0


@pytest.mark.parametrize("deals", [10, 200])
def test_a_small_simulate_prints_no_interval_outside_its_range(deals):
    result = runner.invoke(app, ["simulate", "--deals", str(deals), "--seed", "3", "--threads", "1"])
    assert result.exit_code == 0, result.output
    found = 0
    for line in result.stdout.splitlines():
        match = re.search(r"95% CI \[(-?[\d.]+)(%?), (-?[\d.]+)%?\]", line)
        if match:
            found += 1
            scale = 100 if match[2] else 1  # a rate is printed in percent (issue 28)
            lo, hi = float(match[1]) / scale, float(match[3]) / scale
            assert lo >= 0.0 or line.startswith("net points"), line
            if "rate" in line:
                assert 0.0 <= lo <= hi <= 1.0, line
    assert found >= 2


# --- 5. plain words -------------------------------------------------------------------------


def test_every_hand_class_has_words():
    words = {class_key(c): class_words(class_key(c)) for c in possible_classes()}
    assert len(set(words.values())) == len(words) == 28
    assert words["T2:J,lo"].startswith("two trumps including the jack and a low trump (2-5)")
    with pytest.raises(ValueError):
        class_words("T1:A,J")


def test_report_tables_have_plain_headers():
    from analyser.report.build import shift_view, strength_view

    shifts = pd.DataFrame([{"seat": "eldest", "situation": "s", "score": "0:0", "score_label": "level at 0",
                            "first": "stand", "second": "beg", "deals": 2000, "win_first": 0.5, "win_second": 0.4,
                            "win_diff": 0.1, "win_diff_lo": 0.05, "win_diff_hi": 0.15, "favours": "stand"}])
    strength = pd.DataFrame([{"a": "heuristic", "b": "random", "matches": 200, "a_win_rate": 0.8, "ci_lo": 0.74,
                              "ci_hi": 0.85, "a_minus_b_points_per_deal": 1.2, "points_ci_lo": 1.0,
                              "points_ci_hi": 1.4}])
    for view in (shift_view(shifts), strength_view(strength)):
        assert not [c for c in view.columns if "_" in c], list(view.columns)
    assert shift_view(shifts)["95% CI"].tolist() == ["[+0.0500, +0.1500]"]


# --- 6. messages ----------------------------------------------------------------------------


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
    assert errors(result) == [f"error: {log}: line 1: rules must be an object naming at least the preset, "
                              'e.g. {"preset": "trinidad"}']
    log.write_text('{"format": "allfours-log/1", "x": "a\tb"}\n')
    result = runner.invoke(app, ["replay", str(log)])
    assert errors(result) == [f"error: {log}: line 1 is not valid JSON: invalid control character at column 37"]


@pytest.mark.parametrize("command", [["check-advice", "--deals", "100"], ["strategy", "--deals", "100"],
                                     ["report", "--deals", "2000"]])
def test_a_file_in_the_way_of_an_output_folder(tmp_path, command):
    """Used to be "[Errno 17] File exists" (or "File exists") after the work was done."""
    path = tmp_path / "taken"
    path.write_text("x")
    result = runner.invoke(app, [*command, "--out", str(path)])
    assert result.exit_code == 2
    assert errors(result) == [f"error: --out {path} is a file, not a folder: give a folder with --out"]
