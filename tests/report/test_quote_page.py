"""The quotable page (QUOTE.md, analyser/report/quote.py): every number on it equals the file it came from, every
section is there with its conditions, it works for a report that leads with the equilibrium (the small report the
tests build) and one made before (a shipped trinidad edition), its commands reproduce its numbers, and the shipped
pages are what the code writes now."""

from __future__ import annotations

import importlib.util
import json
import shlex
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.report.card import RESULTS, chosen_row
from analyser.report.quote import QUOTE_FILE, quote_page, write_quote_page

SHIPPED = sorted(p.parent for p in RESULTS.glob("*/report.json"))
TRINIDAD = RESULTS / "trinidad-4p"
NEW_LAYOUT = RESULTS / "classic-2p"    # a shipped report that leads with the equilibrium
HEADINGS = ("## The bidding rules", "## What the score changes", "## The published bidding advice",
            "## The play tips", "## Card play against bidding")


def tables(page: str) -> dict[str, list[dict[str, str]]]:
    """Every Markdown table on the page by its caption: a list of rows, each {column: cell}."""
    out: dict[str, list[dict[str, str]]] = {}
    lines = page.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("*") and line.endswith("`)") and k + 2 < len(lines) and lines[k + 2].startswith("| "):
            caption = line[1:line.index("*", 1)]
            head = [c.strip() for c in lines[k + 2].strip("|").split("|")]
            rows, j = [], k + 4
            while j < len(lines) and lines[j].startswith("| "):
                rows.append(dict(zip(head, (c.strip() for c in lines[j].strip("|").split("|")))))
                j += 1
            out[caption] = rows
    return out


def number_and_ci(cell: str) -> tuple[float, float, float]:
    """'+0.0007 [-0.0004, +0.0019]' or '86.5% [86.4, 86.5]' -> (0.0007, -0.0004, 0.0019)."""
    value, _, ci = cell.partition(" [")
    lo, hi = ci.rstrip("]").split(", ")
    return float(value.rstrip("%")), float(lo), float(hi)


def read(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def check_numbers(folder: Path, page: str) -> None:
    """The page's numbers against report.json, rules-of-thumb/rules.json and tables/*.csv of `folder`."""
    found = tables(page)
    numbers, thumbs = read(folder, "report.json"), read(folder, "rules-of-thumb/rules.json")
    played = numbers.get("play_rules") or {}
    if played.get("rules"):  # the rules for playing the cards, each with its worth, as the report.json has them
        rows = found["Rules for playing the cards"]
        assert [r["rule"] for r in rows] == [f"{k}. {r['text']}" for k, r in enumerate(played["rules"], 1)]
        for row, rule in zip(rows, played["rules"]):
            value, lo, hi = number_and_ci(row["worth, net points a deal"])
            assert (value, lo, hi) == tuple(round(x, 3) for x in (rule["worth"], *rule["worth_ci95"]))
    rules = {r["role"]: r for r in found["The card's rules against the equilibrium"]}
    for role, label in (("eldest", "Eldest"), ("dealer", "Dealer, when the eldest begs")):
        row, cost = chosen_row(thumbs, role), rules[label]
        assert cost["rule"] == " ".join(row["text"])
        c = row["cost_points"]
        assert number_and_ci(cost["cost, net points a deal"]) == tuple(round(x, 4) for x in (c["mean"], *c["ci95"]))
        a = row["agreement"]
        assert number_and_ci(cost["agrees with the equilibrium"]) == tuple(
            round(100 * x, 1) for x in (a["mean"], *a["ci95"]))
    eq = numbers["equilibrium"]
    assert (f"**{eq['value']:+.4f} [{eq['value_ci95'][0]:+.4f}, {eq['value_ci95'][1]:+.4f}] net points a decision "
            "deal** at 0:0") in page
    advice = pd.read_csv(folder / "tables" / "advice.csv")
    shown = found["The advice as best responses to the heuristic's bids"]
    assert len(shown) == len(advice) == 4
    for csv_row, row in zip(advice.to_dict("records"), shown):
        assert row["advice"] == csv_row["claim"] and row["verdict"] == csv_row["verdict"]
        assert row["what the deals say"] == csv_row["finding"]
        assert row["measured"] == f"{csv_row['estimate']:.4f} {csv_row['95% CI']}"
        assert number_and_ci(row["measured"])[0] == csv_row["estimate"]
        assert int(row["deals"].replace(",", "")) == csv_row["deals"]
    eq_advice = pd.read_csv(folder / "tables" / "equilibrium-advice.csv")
    for csv_row, row in zip(eq_advice.to_dict("records"), found["The eldest's advice at the equilibrium"]):
        assert row["verdict"] == csv_row["verdict"]
        assert row["P(beg) at the equilibrium"] == f"{csv_row['estimate']:.4f} {csv_row['95% CI']}"
    tips = found["The play tips"]
    assert len(tips) == len(numbers["play_advice"])
    for tip, row in zip(numbers["play_advice"], tips):
        assert row["verdict"] == tip["verdict"] and row["switch"] == f"`{tip['switch']}`"
        assert number_and_ci(row["net points a deal, on minus off"]) == tuple(
            round(x, 4) for x in (tip["estimate"], *tip["ci95"]))
        m = tip["match_win_rate"]
        assert number_and_ci(row["match-win percentage points, on minus off"]) == tuple(
            round(100 * x, 2) for x in (m["estimate"], *m["ci95"]))
    played = {r["a"]: r for r in numbers.get("tournaments") or [] if r["b"] == "heuristic"}
    for row in found.get("Better bidding and better card play, each against the heuristic", []):
        source = played[row["player A"].strip("`")]
        assert number_and_ci(row["net points a deal, A minus B"]) == (
            source["a_minus_b_points_per_deal"], source["points_ci_lo"], source["points_ci_hi"])
        assert number_and_ci(row["matches A wins"]) == pytest.approx(
            tuple(100 * source[k] for k in ("a_win_rate", "ci_lo", "ci_hi")), abs=1e-9)
        assert int(row["matches"].replace(",", "")) == source["matches"]


def check_conditions(folder: Path, page: str) -> None:
    command = (folder / "REPORT.md").read_text(encoding="utf-8").split("```\n")[1].strip()
    for mark in ("**Rules:**", "Rules assumed: ", "**Score:** 0:0", "**Players:**", "**Net points a deal:**",
                 f"The whole report folder: `{command}`"):
        assert mark in page, mark
    positions = [page.index(h) for h in HEADINGS]
    assert positions == sorted(positions)
    for section in page.split("\n## ")[1:]:  # each section names its command, or says what is not measured
        assert "Reproduce" in section or "Not measured" in section, section.splitlines()[0]


@pytest.mark.parametrize("folder", SHIPPED, ids=[p.name for p in SHIPPED])
def test_each_shipped_page_is_what_the_code_writes_now(folder: Path) -> None:
    assert (folder / QUOTE_FILE).is_file(), f"{folder.name}: run scripts/quote_pages.py"
    assert (folder / QUOTE_FILE).read_text(encoding="utf-8") == quote_page(folder), (
        f"{folder.name}/QUOTE.md is stale: run scripts/quote_pages.py")


@pytest.mark.parametrize("folder", [NEW_LAYOUT, TRINIDAD], ids=["classic-2p", "trinidad-4p"])
def test_every_number_equals_its_source_and_says_its_conditions(folder: Path) -> None:
    page = quote_page(folder)
    check_conditions(folder, page)
    check_numbers(folder, page)


def test_a_report_from_before_the_equilibrium_led_says_what_is_not_measured(tmp_path: Path) -> None:
    """A report folder made before the report led with the equilibrium (its report.json's rules of thumb the best
    responses, no equilibrium among the tournaments): the page says what it opens with and what is not measured."""
    import shutil

    old = tmp_path / "trinidad-4p"
    shutil.copytree(TRINIDAD, old)
    numbers = read(old, "report.json")
    numbers["rules_of_thumb"] = numbers.pop("best_response_rules")
    numbers["tournaments"] = [r for r in numbers["tournaments"] if r["a"] != "equilibrium"]
    (old / "report.json").write_text(json.dumps(numbers), encoding="utf-8")
    page = quote_page(old)
    assert "The equilibrium's bidding is not measured against the heuristic in this edition" in page
    assert "This edition's REPORT.md opens with these instead of the card's rules." in page
    assert numbers["rules_of_thumb"]["eldest"] in page  # the best responses it opens with, named as such


def test_trinidad_4p_names_the_exact_score_exception_and_card_play_against_bidding() -> None:
    page = quote_page(TRINIDAD)
    check_conditions(TRINIDAD, page)
    check_numbers(TRINIDAD, page)
    # trinidad 4p: the equilibrium's dealer at 12:13 gives only with the ace (match-win payoff), unlike the
    # near-target rule: the exception is on the page with its score.
    score = {r["score"]: r for r in tables(page)["Exact scores that depart from the near-target rules"]}
    assert score["12:13"]["the equilibrium there, as a rule"] == "With the ace of trump: give. Otherwise: run."
    assert "the chance of winning the match" in page and "play that equilibrium at every score" in page
    # better card play against better bidding, from the tournaments against the heuristic
    rows = {r["a"]: r["a_minus_b_points_per_deal"] for r in read(TRINIDAD, "report.json")["tournaments"]
            if r.get("b") == "heuristic"}
    times = f"{rows['pimc'] / rows['equilibrium']:.0f}"
    assert f"Here better card play (`pimc`) gains about {times} times what better bidding (`equilibrium`) gains" in page
    assert "## Rules for playing the cards" in page and "--policy rules:trinidad-4p" in page


def test_the_advice_says_which_dealer_each_gain_assumes() -> None:
    page = quote_page(NEW_LAYOUT)
    numbers = read(NEW_LAYOUT, "report.json")
    gain = numbers["advice"][0]["beg_minus_stand"]
    t0 = pd.read_csv(NEW_LAYOUT / "tables" / "eldest-classes.csv").iloc[0]
    assert t0["hand class"] == "T0"
    heuristic = (f"against a dealer who answers by the heuristic's rule (give with trump strength 3 or more, else "
                 f"run): **{gain['estimate']:+.3f} [{gain['ci95'][0]:+.3f}, {gain['ci95'][1]:+.3f}]**")
    tuned = (f"against a dealer who answers by the dealer's best response of round 2 of the strategy tables (the "
             f"tuned dealer): **{t0['beg - stand']:+.3f} {t0['95% CI']}**")
    assert heuristic in page and tuned in page
    rows = tables(page)["The advice as best responses to the heuristic's bids"]
    assert [r["the other role bids by"].split(":")[0] for r in rows] == ["dealer", "dealer", "eldest", "eldest"]


def test_three_players_say_what_is_not_measured() -> None:
    page = quote_page(RESULTS / "classic-3p")
    assert "Not measured with three players: the equilibrium at every score needs two sides" in page
    assert "Not measured: the tournaments need two sides" in page
    assert "not measured (three players)" in page  # the match-win cost of a rule
    check_conditions(RESULTS / "classic-3p", page)


def test_a_freshly_built_report_gets_its_page_and_the_commands_reproduce_it(report_dir: Path,
                                                                            tmp_path: Path) -> None:
    copy = tmp_path / "classic-2p"
    shutil.copytree(report_dir, copy)
    path = write_quote_page(copy)
    assert path == copy / QUOTE_FILE
    page = path.read_text(encoding="utf-8")
    assert page == quote_page(copy)
    check_conditions(copy, page)
    check_numbers(copy, page)
    assert "best_response_rules" in read(copy, "report.json")
    runner = CliRunner()

    def run(marker: str) -> Any:
        line = next(x for x in page.splitlines() if marker in x)
        words = shlex.split(line[line.index("`allfours ") + 1:].split("`")[0])[1:]
        result = runner.invoke(app, [*words, "--json", "--threads", "2"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    advice = run("--no-equilibrium --play-deals 0 --play-matches 0`")
    assert [(c["estimate"], c["ci95"], c["verdict"]) for c in advice] == [
        (c["estimate"], c["ci95"], c["verdict"]) for c in read(copy, "report.json")["advice"]]
    duel = run("- equilibrium: `allfours tournament")
    row = next(r for r in read(copy, "report.json")["tournaments"] if r["a"] == "equilibrium")
    assert round(duel["diff_points_per_deal"]["value"], 3) == row["a_minus_b_points_per_deal"]
    assert round(duel["a_win_rate"], 4) == row["a_win_rate"]


def test_the_script_writes_and_checks_the_pages(report_dir: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("quote_pages", RESULTS.parent / "scripts" / "quote_pages.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    copy = tmp_path / "classic-2p"
    shutil.copytree(report_dir, copy)
    assert script.main(["--check", str(copy)]) == 1  # no page yet
    assert script.main([str(copy)]) == 0
    assert (copy / QUOTE_FILE).read_text(encoding="utf-8") == quote_page(copy)
    assert script.main(["--check", str(copy)]) == 0
    (copy / QUOTE_FILE).write_text("stale\n", encoding="utf-8")
    assert script.main(["--check", str(copy)]) == 1
    assert script.main([str(tmp_path / "nowhere")]) == 2
    assert "no report.json" in capsys.readouterr().err


def test_the_page_can_be_written_as_a_report_build_finishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written into the report's OUT.partial folder just before it becomes OUT (where build_report would call
    write_quote_page), the page names OUT, and the finished folder keeps it (its manifest lists it)."""
    from analyser.report import build

    finish = build.Partial.finish

    def finish_with_page(self: Any) -> list[str]:
        assert self.folder.name.endswith(".partial")
        write_quote_page(self.folder)
        return finish(self)

    monkeypatch.setattr(build.Partial, "finish", finish_with_page)
    out = tmp_path / "classic-2p"
    result = CliRunner().invoke(app, ["report", "--rules", "classic", "--players", "2", "--deals", "2000", "--seed",
                                      "5", "--threads", "2", "--out", str(out), "--pimc", "pimc:worlds=6"])
    assert result.exit_code == 0, result.output
    page = (out / QUOTE_FILE).read_text(encoding="utf-8")
    assert ".partial" not in page and f"equilibrium:{out.resolve()}/equilibrium" in page
    assert page == quote_page(out)
    assert QUOTE_FILE in read(out, "manifest.json")["files"]
