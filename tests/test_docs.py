"""The user documentation: its examples replay, and it names every rule parameter.

docs/game-log.md holds a hand-written trinidad deal (pretty-printed in a ```json block
and as one line in a ```jsonl block) and a short scored log; docs/rules.md explains
every preset and parameter. README.md is for players: at most 300 lines, and every
command of its quick start is run here (at small sizes) so that it cannot go stale.
These tests keep all three in step with the code.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.game import rules as rules_module
from analyser.cli import app
from analyser.engine.layout import REDEAL_REASONS, WHY
from analyser.game.rules import PRESET_PLAYERS, PRESETS, RuleSet, make_rules
from analyser.game.rules_text import PARAM_MEANINGS, VALUE_MEANINGS, describe, format_rules, parameters, set_options

DOCS = Path(__file__).resolve().parent.parent / "docs"
RULES_DOC = (DOCS / "rules.md").read_text(encoding="utf-8")
LOG_DOC = (DOCS / "game-log.md").read_text(encoding="utf-8")
FIELDS = [f.name for f in dataclasses.fields(RuleSet)]
USER_PARAMETERS = [name for name in FIELDS if name != "preset"]
# Choice parameters and their values; void_play's tuple may not exist in an older rules module.
CHOICES = {
    name: getattr(rules_module, const)
    for name, const in (("kick", "KICKS"), ("game_tie", "GAME_TIES"), ("undertrump", "UNDERTRUMPS"),
                        ("void_play", "VOID_PLAYS"))
    if hasattr(rules_module, const)
}
EVENTS = ("deal", "turnup", "stand", "beg", "give", "run", "more", "redeal", "bunch", "trump", "discard", "play",
          "trick", "points")

runner = CliRunner()


def fenced(text: str, lang: str) -> list[str]:
    """Bodies of the fenced code blocks of one language (```json does not match ```jsonl)."""
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.S | re.M)


def jsonl_lines() -> list[str]:
    return [line for block in fenced(LOG_DOC, "jsonl") for line in block.splitlines() if line.strip()]


def the_deal() -> dict:
    """The worked example: the pretty-printed ```json block of game-log.md."""
    blocks = fenced(LOG_DOC, "json")
    assert len(blocks) == 1, "game-log.md should have one ```json block: the worked deal"
    return json.loads(blocks[0])


def replay(tmp_path, monkeypatch, name: str, objects: list[dict], *args: str):
    monkeypatch.chdir(tmp_path)
    Path(name).write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return runner.invoke(app, ["replay", name, *args])


# --- docs/game-log.md --------------------------------------------------------


def test_every_jsonl_example_is_accepted_by_replay(tmp_path, monkeypatch):
    lines = jsonl_lines()
    assert len(lines) >= 2
    result = replay(tmp_path, monkeypatch, "examples.jsonl", [json.loads(t) for t in lines], "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["lines"] == len(lines)
    # at least one example has its points checked, and at least one is scored
    assert 0 < len(report["scored"]) < len(lines)


def test_pretty_example_is_the_one_line_example():
    assert the_deal() in [json.loads(t) for t in jsonl_lines()]


def test_the_deal_is_a_full_trinidad_deal_as_described(tmp_path, monkeypatch):
    deal = the_deal()
    assert deal["rules"]["preset"] == "trinidad" and deal["rules"]["players"] == 4
    assert set(deal["rules"]) == set(FIELDS) | {"void_play"}  # the simulator writes every parameter
    kinds = [e["event"] for e in deal["events"]]
    assert kinds.count("trick") == 9 and kinds.count("play") == 36 and "run" in kinds
    whys = [e["why"] for e in deal["events"] if e["event"] == "points"]
    assert whys == ["kick", "high", "low", "hang-jack", "game"]
    result = replay(tmp_path, monkeypatch, "deal.jsonl", [deal])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() in LOG_DOC  # "deal.jsonl: 1 line legal; ..."


def test_the_deal_is_refused_under_void_play_trump_as_the_doc_says(tmp_path, monkeypatch):
    if "void_play" not in FIELDS:
        pytest.skip("void_play is not a rule parameter in this version")
    deal = copy.deepcopy(the_deal())
    deal["rules"]["void_play"] = "trump"
    result = replay(tmp_path, monkeypatch, "deal.jsonl", [deal])
    assert result.exit_code == 1
    assert "line 1, event 35:" in result.stderr
    assert deal["events"][35] == {"event": "play", "seat": 2, "card": "3H"}
    assert result.stderr.strip() in LOG_DOC


def test_the_deal_without_points_is_scored_as_the_doc_says(tmp_path, monkeypatch):
    deal = copy.deepcopy(the_deal())
    points = [(e["side"], e["n"], e["why"]) for e in deal["events"] if e["event"] == "points"]
    deal["events"] = [e for e in deal["events"] if e["event"] != "points"]
    del deal["score_after"], deal["winner"]
    result = replay(tmp_path, monkeypatch, "scored.jsonl", [deal], "--json")
    assert result.exit_code == 0, result.output
    (item,) = json.loads(result.stdout)["scored"]
    assert [(p["side"], p["n"], p["why"]) for p in item["points"]] == points
    assert item["score_after"] == the_deal()["score_after"]
    text = replay(tmp_path, monkeypatch, "scored.jsonl", [deal])
    assert text.stdout.splitlines()[0] in LOG_DOC  # "line 1: side 1 2 kick, ..."


def test_strict_order_claim_of_the_doc(tmp_path, monkeypatch):
    """From 10:9 the hang jack reaches 14 and the line ends there, with no game event."""
    deal = copy.deepcopy(the_deal())
    deal["score_before"] = [10, 9]
    deal["events"] = [e for e in deal["events"] if e.get("why") != "game"]
    deal["score_after"], deal["winner"] = [14, 12], 0
    assert '"score_after": [14, 12]' in LOG_DOC and '"winner": 0' in LOG_DOC
    result = replay(tmp_path, monkeypatch, "end.jsonl", [deal])
    assert result.exit_code == 0, result.output


def test_the_short_scored_example_output_is_as_shown(tmp_path, monkeypatch):
    scored = [json.loads(t) for t in jsonl_lines() if '"points"' not in t]
    assert len(scored) == 1
    result = replay(tmp_path, monkeypatch, "short.jsonl", scored)
    assert result.exit_code == 0, result.output
    shown = "$ allfours replay short.jsonl\n" + result.stdout
    assert shown in LOG_DOC


def test_game_log_doc_names_every_event_reason_and_rule_parameter():
    for name in EVENTS + WHY + REDEAL_REASONS:
        assert f"`{name}`" in LOG_DOC or f'"{name}"' in LOG_DOC, name
    for name in FIELDS + ["void_play"]:
        assert f"`{name}`" in LOG_DOC, name
    assert "allfours-log/1" in LOG_DOC


# --- docs/rules.md -----------------------------------------------------------


def test_rules_doc_names_every_parameter_preset_and_value():
    for name in FIELDS + ["void_play"]:
        assert f"`{name}`" in RULES_DOC, name
    for preset in PRESETS:
        assert f"`{preset}`" in RULES_DOC, preset
    for name, values in CHOICES.items():
        for value in values:
            assert f"`{value}`" in RULES_DOC, (name, value)
    for source in ("000", "001", "002", "003", "004"):
        assert f"**{source}**" in RULES_DOC, source
    assert "--rules" in RULES_DOC and "--players" in RULES_DOC and "--set" in RULES_DOC


def table_after(heading: str) -> list[list[str]]:
    """The rows of the first markdown table after a heading, as lists of cell texts (header and rule dropped)."""
    start = RULES_DOC.index(heading)
    rows = []
    for line in RULES_DOC[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def test_defaults_table_matches_every_preset():
    rows = table_after("### Defaults by preset")
    header = RULES_DOC[RULES_DOC.index("### Defaults by preset"):].split("| parameter |")[1].splitlines()[0]
    presets = [cell.strip().strip("`") for cell in header.strip().strip("|").split("|")]
    assert presets == list(PRESETS)
    table = {row[0].strip("`"): [cell.strip("`") for cell in row[1:]] for row in rows}
    for name in USER_PARAMETERS:
        assert name in table, f"{name} missing from the defaults table"
    for column, preset in enumerate(presets):
        values = {name: value for name, value, _ in describe(make_rules(preset))}
        for name in USER_PARAMETERS:
            assert table[name][column] == values[name], (preset, name)
    assert set(table) <= set(USER_PARAMETERS) | {"void_play"}


def test_parameters_table_lists_every_parameter():
    names = [row[0].strip("`") for row in table_after("## The parameters")]
    assert set(USER_PARAMETERS) <= set(names) <= set(USER_PARAMETERS) | {"void_play"}


def test_rules_doc_player_counts():
    """docs/rules.md states which player counts each preset allows; a change here needs the doc updated."""
    documented = {"trinidad": (4, 2), "trinidad-tobago": (4, 2), "partnership-seven": (4,), "classic": (4, 2, 3)}
    assert PRESET_PLAYERS == documented, "player counts changed: update docs/rules.md"
    assert "`partnership-seven` 4 only" in RULES_DOC


# --- analyser/game/rules_text.py --------------------------------------------------


def test_every_parameter_has_a_meaning():
    assert "preset" not in PARAM_MEANINGS
    assert "void_play" in PARAM_MEANINGS  # documented even where the field is not there yet
    for name in USER_PARAMETERS:
        assert PARAM_MEANINGS.get(name, "").strip(), name
    assert set(PARAM_MEANINGS) <= set(USER_PARAMETERS) | {"void_play"}
    for name, values in CHOICES.items():
        for value in values:
            assert VALUE_MEANINGS[name].get(value, "").strip(), (name, value)


@pytest.mark.parametrize("preset,players", [(p, n) for p, counts in PRESET_PLAYERS.items() for n in counts])
def test_describe_values_rebuild_the_rule_set(preset, players):
    ruleset = make_rules(preset, players=players)
    rows = describe(ruleset)
    assert [name for name, _, _ in rows] == parameters(ruleset) == USER_PARAMETERS
    assert all(meaning for _, _, meaning in rows)
    assert make_rules(preset, settings=set_options(ruleset)) == ruleset


def test_describe_shows_overrides_as_typed():
    ruleset = make_rules("classic", players=3, settings=["undertrump=forbidden", "hang-jack=yes", "target=7"])
    values = {name: value for name, value, _ in describe(ruleset)}
    assert (values["players"], values["target"], values["undertrump"], values["hang_jack"]) == \
        ("3", "7", "forbidden", "true")


def test_format_rules_is_a_table_of_every_parameter():
    text = format_rules(make_rules("partnership-seven"))
    lines = text.splitlines()
    assert lines[0].startswith("rules: partnership-seven, 4 players")
    assert lines[1].split() == ["parameter", "value", "meaning"]
    assert [line.split()[0] for line in lines[3:]] == USER_PARAMETERS
    assert "dealer-opponents" in text and "final-jack" in text


# --- README.md ---------------------------------------------------------------

ROOT = DOCS.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
# The quick start's commands at test sizes: each option's value here replaces the README's (the README's sizes take
# minutes), and the extra options make the slow parts (the pimc player) quick. Every other word of the command is
# run as written.
SMALL = {"--deals": {"report": "2000", "strategy": "4000", "check-advice": "1000"},
         "--play-deals": {"check-advice": "200"}, "--play-matches": {"check-advice": "20"}}
EXTRA = {"report": ["--pimc", "pimc:worlds=2"], "check-advice": ["--observer", "pimc:worlds=2"],
         "whatif": ["--max-deals", "2000"]}
NUMBER = re.compile(r"(?<![A-Za-z0-9:])[+\-−]?\d[\d,]*(?:\.\d+)?")
VERDICT = re.compile(r"\b(supported|contradicted|inconclusive)\b")


def quick_start(heading: str = "## Quick start") -> str:
    """The README's section under `heading`, up to the next level-2 heading outside a code block."""
    lines, inside, fence = [], False, False
    for line in README.splitlines(keepends=True):
        if line.startswith("```"):
            fence = not fence
        if line.startswith("## ") and not fence:
            inside = line.strip() == heading
        if inside:
            lines.append(line)
    return "".join(lines)


def quick_start_blocks(heading: str = "## Quick start") -> list[tuple[str, str]]:
    """The section's fenced blocks in order, as (language, body)."""
    return re.findall(r"^```(\w+)\n(.*?)^```", quick_start(heading), re.S | re.M)


def shape(line: str) -> str:
    """A line of output with its numbers and verdicts blanked, and its whitespace collapsed: what a run at other sizes
    must still print."""
    line = VERDICT.sub("VERDICT", NUMBER.sub("#", line))
    line = re.sub(r"\b(stand|beg|give|run)\?$", r"\1", line.strip())  # "?": too close to call at this size
    return " ".join(line.split())


def small(words: list[str]) -> list[str]:
    command, out = words[0], list(words)
    for option, sizes in SMALL.items():
        if option in out and command in sizes:
            out[out.index(option) + 1] = sizes[command]
    for option in EXTRA.get(command, [])[::2]:
        assert option not in out, f"the README's {command} sets {option}: adjust EXTRA"
    return out + EXTRA.get(command, [])


def test_readme_is_short_and_names_no_numbered_document():
    lines = README.splitlines()
    assert len(lines) <= 300, len(lines)
    assert not re.search(r"document\s+0\d", README, re.I)
    for heading in ("## Set up", "## Quick start", "## Glossary"):
        assert heading in README, heading
    assert "make run" in README and "make test" in README
    for term in ("Eldest", "Stand / beg", "Give one", "Run", "Kick", "Hang jack", "High, Low, Jack, Game", "Net points",
                 "95% CI", "World", "Equilibrium"):
        assert f"- **{term}" in README, term


def test_readme_links_resolve():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), target
    for doc in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if "://" not in target:
                assert (doc.parent / target).exists(), (doc.name, target)


# Work-diary marks a reader of the repository cannot follow: an issue's number, a date.
DIARY = re.compile(r"\b[Ii]ssues? ?#?\d+|(?:^|[^\w/&])#\d+\b|\b20\d\d-\d\d-\d\d\b", re.M)


def test_docs_name_no_issue_numbers_or_dates():
    """The README, docs/ and results/README.md say what the code does and which command or commit made a
    figure; not which issue it came from or on which day (git keeps the history)."""
    pages = [ROOT / "README.md", ROOT / "results" / "README.md", *sorted(DOCS.glob("*.md"))]
    assert len(pages) > 10
    found = [f"{page.relative_to(ROOT)}:{n}: {m.group(0).strip()}" for page in pages
             for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             for m in DIARY.finditer(line)]
    assert not found, found
    assert DIARY.search("until issue 31") and DIARY.search("see #31") and DIARY.search("on 2026-12-02")
    assert not DIARY.search("seed 31, commit 5222953, docs/search.md#3, &#39;")


def test_readme_quick_start_runs(tmp_path, monkeypatch):
    """Every command of the README's quick start runs (at test sizes) and prints what the README shows, numbers and
    verdicts aside; the report excerpt shown after `report` is in the REPORT.md it writes."""
    monkeypatch.chdir(tmp_path)
    blocks = quick_start_blocks()
    ran, report_dir = [], None
    for lang, body in blocks:
        if lang == "markdown":
            assert report_dir is not None, "a markdown block in the quick start shows a report: put it after one"
            written = {shape(line) for line in (report_dir / "REPORT.md").read_text(encoding="utf-8").splitlines()}
            for line in body.splitlines():
                if line.strip() and line.strip() != "...":
                    assert shape(line) in written, line
            continue
        assert lang == "console", lang
        runs = re.split(r"^\$ ", body, flags=re.M)[1:]
        for run in runs:
            command, *shown = run.splitlines()
            words = shlex.split(command)
            assert words[0] == "allfours", command
            args = small(words[1:])
            result = runner.invoke(app, args)
            assert result.exit_code == 0, (args, result.output)
            printed = {shape(line) for line in result.stdout.splitlines()}
            for line in shown:
                if line.strip() and line.strip() != "...":
                    assert shape(line) in printed, (command, line, result.stdout)
            ran.append(words[1])
            if words[1] == "report":
                report_dir = tmp_path / args[args.index("--out") + 1]
                assert (report_dir / "REPORT.md").is_file() and (report_dir / "report.html").is_file()
    assert ran == ["whatif", "strategy", "report", "check-advice"], ran


def test_readme_at_the_table_runs():
    """The README's "At the table" commands (hint for a card, hint for a bid) print what it shows, numbers aside."""
    ran = []
    for lang, body in quick_start_blocks("## At the table"):
        assert lang == "console", lang
        for run in re.split(r"^\$ ", body, flags=re.M)[1:]:
            command, *shown = run.splitlines()
            words = shlex.split(command)
            assert words[0] == "allfours", command
            result = runner.invoke(app, words[1:])
            assert result.exit_code == 0, (words, result.output)
            printed = {shape(line) for line in result.stdout.splitlines()}
            for line in shown:
                if line.strip() and line.strip() != "...":
                    assert shape(line) in printed, (command, line, result.stdout)
            ran.append(words[1])
    assert ran == ["hint", "hint"], ran


# --- the documentation is in the clone -------------------------------------------------------


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
