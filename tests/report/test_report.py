"""`allfours report` in quick mode: every file is there, every chart is a real PNG, the
tables load with their documented columns, and the text agrees with the tables."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.report.thumb import rules_of_thumb

runner = CliRunner()

TABLE_COLUMNS = {
    "eldest-classes": ["hand class", "in words", "deals", "share %", "stand (net pts)", "beg (net pts)",
                       "beg - stand", "95% CI", "choose"],
    "dealer-classes": ["hand class", "in words", "deals", "share %", "run (net pts)", "give (net pts)", "give - run",
                       "95% CI", "choose"],
    "advice": ["claim", "test", "estimate", "95% CI", "verdict", "deals"],
    "score-shifts": ["situation", "score (eldest's side first)", "what the score is", "option 1", "option 2",
                     "P(win match), option 1", "P(win match), option 2", "option 1 minus option 2", "95% CI", "better",
                     "deals"],
    "tournaments": ["player A", "player B", "matches", "share A wins", "share, 95% CI", "A minus B, points per deal",
                    "points, 95% CI", "deals counted"],
    "equity": [],
    "equilibrium-eldest": ["hand class", "in words", "deals", "P(beg)", "95% CI", "heuristic P(beg)", "action"],
    "equilibrium-dealer": ["hand class", "in words", "deals", "P(give)", "95% CI", "heuristic P(give)", "action"],
    "equilibrium-exploitability": ["strategy", "exploitability", "eldest's gain", "dealer's gain", "simulated (95% CI)", "eldest's value"],
    "equilibrium-advice": ["claim", "test", "estimate", "95% CI", "verdict", "best response verdict", "deals"],
    "rules-of-thumb": ["role", "size", "lines", "rule", "agreement %, 95% CI", "cost, net points/deal",
                       "cost, match-win %-points/deal", "fit loss", "on the card"],
    "play-advice": ["tip", "switch", "net points, on minus off", "95% CI", "verdict", "deals", "deals needed",
                    "share changed", "effect where changed", "match-win, on minus off", "match-win 95% CI",
                    "match-win verdict", "matches", "player follows it", "situations"],
}


def png_size(path):
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


SENSITIVITY_ROWS = [  # as scripts/sensitivity.py writes them
    {"role": "eldest", "class_key": "T0", "n": 40, "heuristic_recommend": "beg", "heuristic_diff": 0.5,
     "heuristic_ci_lo": 0.1, "heuristic_ci_hi": 0.9, "pimc_recommend": "beg", "pimc_diff": 0.4, "pimc_ci_lo": 0.05,
     "pimc_ci_hi": 0.75, "verdict": "holds"},
    {"role": "dealer", "class_key": "T3", "n": 12, "heuristic_recommend": "give", "heuristic_diff": 0.2,
     "heuristic_ci_lo": -0.3, "heuristic_ci_hi": 0.7, "pimc_recommend": "run", "pimc_diff": -0.1, "pimc_ci_lo": -0.6,
     "pimc_ci_hi": 0.4, "verdict": "unsettled"},
]


QUICK_PIMC = "pimc:worlds=6"  # the default (80 worlds) would take most of the suite's time


@pytest.fixture(scope="module")
def sensitivity_dir(tmp_path_factory):
    sens = tmp_path_factory.mktemp("sensitivity")
    (sens / "sensitivity.json").write_text(json.dumps({
        "rules": "trinidad", "players": 4, "deals": 1500, "seed": 1, "pimc": "pimc:worlds=10", "seconds": 1800.0,
        "cpus": 2, "command": "python scripts/sensitivity.py --deals 1500", "rows": SENSITIVITY_ROWS}))
    return sens


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory, sensitivity_dir):
    out = tmp_path_factory.mktemp("report")
    sens = sensitivity_dir
    result = runner.invoke(app, ["report", "--rules", "trinidad", "--set", "target=5", "--deals", "2000",
                                 "--seed", "3", "--threads", "2", "--out", str(out), "--sensitivity", str(sens),
                                 "--pimc", QUICK_PIMC])
    assert result.exit_code == 0, result.output
    return out


def test_every_file_and_chart(report_dir):
    for name in ("REPORT.md", "report.html", "report.json", "strategy/meta.json", "strategy/tuned.json"):
        assert (report_dir / name).is_file(), name
    charts = ["strategy/beg-minus-stand.png", "strategy/give-minus-run.png", "score-eldest.png", "score-dealer.png",
              "equity-heatmap.png", "tournaments.png", "equilibrium-scores/scores-eldest.png",
              "equilibrium-scores/scores-dealer.png", "card.png"]
    html = (report_dir / "report.html").read_text()
    md = (report_dir / "REPORT.md").read_text()
    for chart in charts:
        width, height = png_size(report_dir / chart)
        assert width >= 500 and height >= 250 and (report_dir / chart).stat().st_size > 15_000, chart
        assert f"]({chart})" in md
    assert html.count("data:image/png;base64,") == len(charts)  # every chart visible in the page


def test_tables_load_with_their_columns(report_dir):
    for name, columns in TABLE_COLUMNS.items():
        csv = pd.read_csv(report_dir / "tables" / f"{name}.csv")
        parquet = pd.read_parquet(report_dir / "tables" / f"{name}.parquet")
        assert len(csv) == len(parquet) > 0
        assert list(csv.columns)[: len(columns)] == columns


def test_text_agrees_with_tables(report_dir):
    md = (report_dir / "REPORT.md").read_text()
    numbers = json.loads((report_dir / "report.json").read_text())
    final = {role: pd.read_csv(report_dir / "strategy" / f"{role}.csv") for role in ("eldest", "dealer")}
    thumbs = rules_of_thumb(*(f[f["final"]] for f in final.values()))
    assert numbers["best_response_rules"] == thumbs  # the best responses, read as rules, under their own heading
    best = md[md.index("## Best responses to the heuristic"):]
    assert f"eldest, {thumbs['eldest']} Dealer, when the eldest begs: {thumbs['dealer']}" in best
    assert "**Eldest:**" not in best
    advice = pd.read_csv(report_dir / "tables" / "advice.csv")
    for claim, verdict, finding in zip(advice["claim"], advice["verdict"], advice["finding"]):
        assert f"**{verdict}: {finding}**: \"{claim}\"" in md
    assert set(advice["finding"]) <= {"always beg", "always stand", "beg", "stand", "run", "give", "too close to call"} \
        | {f for f in advice["finding"] if f.startswith("mostly ")}
    assert set(advice["verdict"]) <= {"supported", "contradicted", "inconclusive"}
    assert "allfours report" in md and "--seed 3" in md  # the command that regenerates it


def test_the_report_leads_with_the_equilibrium_and_speaks_with_one_voice(report_dir):
    """Its rules of thumb are the card's, fitted to its equilibrium; the best responses come after, marked."""
    from analyser.report.card import Card, card_text
    from analyser.game.rules import make_rules

    md = (report_dir / "REPORT.md").read_text()
    numbers = json.loads((report_dir / "report.json").read_text())
    fitted = json.loads((report_dir / "rules-of-thumb" / "rules.json").read_text())
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings[:2] == ["## Rules of thumb", "## The bidding game's equilibrium"]
    assert headings.index("## Best responses to the heuristic") > headings.index("## Match equity")
    lead = md[md.index("## Rules of thumb\n"):md.index("## The bidding game's equilibrium")]
    card = card_text(Card(make_rules("classic", players=2), fitted, [], "", ""))
    for role, who in (("eldest", "Eldest"), ("dealer", "Dealer, when the eldest begs")):
        chosen = next(r for r in fitted["sizes"] if r["role"] == role and r["size"] == fitted["chosen"][role])
        assert numbers["rules_of_thumb"][role] == " ".join(chosen["text"])
        assert f"**{who}:** {' '.join(chosen['text'])}" in lead
        assert all(line in card for line in chosen["text"])  # the card prints the same rule
    assert fitted["fit"]["source"].endswith("equilibrium")
    assert "![The strategy card" in lead
    # The score parts play the equilibrium's bids; the tournaments measure it against the heuristic.
    assert "with the equilibrium's bids and the heuristic's card play" in md
    assert {"tuned", "equilibrium"} <= {row["a"] for row in numbers["tournaments"]}
    # A class whose best response changed in the last round is marked where the table shows it.
    for role in ("eldest", "dealer"):
        final = pd.read_csv(report_dir / "strategy" / f"{role}.csv").query("final and n > 0")
        shown = pd.read_csv(report_dir / "tables" / f"{role}-classes.csv")
        assert list(shown["settled"].str.startswith("unsettled")) == list(final["changed"])


def test_the_equilibrium_section(report_dir):
    md = (report_dir / "REPORT.md").read_text()
    numbers = json.loads((report_dir / "report.json").read_text())
    assert "## The bidding game's equilibrium" in md
    eq = numbers["equilibrium"]
    lo, hi = eq["value_ci95"]
    assert lo <= eq["value"] <= hi and f"{eq['value']:+.4f} (95% CI [{lo:+.4f}, {hi:+.4f}]" in md
    exploit = pd.read_csv(report_dir / "tables" / "equilibrium-exploitability.csv")
    assert list(exploit["strategy"]) == ["heuristic", "tuned", "equilibrium"]
    assert exploit["exploitability"].iloc[-1] == pytest.approx(0, abs=1e-6) and (exploit["exploitability"] >= 0).all()
    eldest = pd.read_csv(report_dir / "tables" / "equilibrium-eldest.csv")
    assert list(eldest["hand class"]) == [r["class"] for r in eq["eldest"]]
    assert eldest["P(beg)"].between(0, 1).all()
    advice = pd.read_csv(report_dir / "tables" / "equilibrium-advice.csv")
    best = pd.read_csv(report_dir / "tables" / "advice.csv")
    assert len(advice) == 2 and list(advice["claim"]) == list(best["claim"][:2])
    assert list(advice["best response verdict"]) == list(best["verdict"][:2])
    for claim, verdict, finding in zip(advice["claim"], advice["verdict"], advice["finding"]):
        assert f"**{verdict}: {finding}** (equilibrium): \"{claim}\"" in md
    assert "### The published advice against the equilibrium" in md
    assert (report_dir / "equilibrium" / "equilibrium.json").is_file()


def test_the_rules_of_thumb_section(report_dir):
    from analyser.analysis.bidding.rules_of_thumb import SIZES, RuleList

    md = (report_dir / "REPORT.md").read_text()
    doc = json.loads((report_dir / "rules-of-thumb" / "rules.json").read_text())
    assert json.loads((report_dir / "report.json").read_text())["rules_of_thumb_fitted"] == doc
    assert "## Rules of thumb fitted to the equilibrium" in md
    assert md.index("## Rules of thumb fitted") < md.index("## Play advice")
    assert doc["measure"]["seed"] != doc["fit"]["seed"]  # measured on other deals than the fitting ones
    table = pd.read_csv(report_dir / "tables" / "rules-of-thumb.csv")
    assert len(table) == 2 * len(SIZES) and list(table["on the card"].fillna("")).count("yes") == 2
    for row in doc["sizes"]:
        rule = RuleList.from_json(row["rule"])
        assert rule.describe() == row["text"] and rule.table() == row["table"]
        assert " ".join(row["text"]) in list(table["rule"])
    for role in ("eldest", "dealer"):
        chosen = next(r for r in doc["sizes"] if r["role"] == role and r["size"] == doc["chosen"][role])
        assert f"**{role.capitalize()}** ({chosen['lines']} line" in md and " ".join(chosen["text"]) in md
    assert {(z["role"], z["zone"]) for z in doc["near_target"]} == {(r, z) for r in ("eldest", "dealer")
                                                                     for z in ("you", "they")}


def test_the_play_advice_section(report_dir):
    md = (report_dir / "REPORT.md").read_text()
    numbers = json.loads((report_dir / "report.json").read_text())
    assert "## Play advice" in md
    play = pd.read_csv(report_dir / "tables" / "play-advice.csv")
    assert list(play["switch"]) == [c["switch"] for c in numbers["play_advice"]]
    assert list(play["switch"]) == ["tip_capture_jack", "tip_early_trumps", "tip_trump_ace", "tip_keep_game_cards",
                                    "tip_run_strong_side"]
    for claim, verdict, switch in zip(play["tip"], play["verdict"], play["switch"]):
        assert f"**{verdict}**: {claim}" in md and f"`{switch}`" in md
    assert (play["deals"] == numbers["sizes"]["play_deals"]).all()
    assert "Triunfe el As a toda costa" in md  # each switch quotes its tip


def test_the_search_players_and_the_sensitivity(report_dir):
    md = (report_dir / "REPORT.md").read_text()
    strength = pd.read_csv(report_dir / "tables" / "tournaments.csv")
    pairs = list(zip(strength["player A"], strength["player B"]))
    assert (QUICK_PIMC, "heuristic") in pairs and ("oracle", "heuristic") in pairs and (QUICK_PIMC, "random") in pairs
    # the last row: pimc against itself as it was before it searched above 24 cards, on deals with runs only
    assert pairs[-1] == (QUICK_PIMC, f"{QUICK_PIMC},max_cards=24")
    run = json.loads((report_dir / "report.json").read_text())["run_deals"]
    last = strength.iloc[-1]
    assert pd.isna(last["matches"]) and pd.isna(last["share A wins"])
    assert last["A minus B, points per deal"] == round(run["a_net_per_run_deal"]["value"], 3)
    assert last["deals counted"] == f"{run['run_deals']:,} deals with a run (of {run['deals']:,} dealt), each twice"
    assert 0 < run["run_deals"] < run["deals"] == 40  # Sizes.run_deals at 2,000 deals
    assert f"--run-deals {run['deals']} --seed {run['seed']}" in md
    assert f"`{QUICK_PIMC}` samples 6 worlds" in md and f"--pimc {QUICK_PIMC}" in md  # the command says it
    assert "## Do the recommendations depend on the card player?" in md
    table = pd.read_csv(report_dir / "tables" / "sensitivity.csv")
    assert list(table["verdict"]) == ["holds", "unsettled"] and "holds 1, moves 0, unsettled 1" in md


def test_same_seed_same_numbers(report_dir, tmp_path):
    again = tmp_path / "again"
    result = runner.invoke(app, ["report", "--rules", "trinidad", "--set", "target=5", "--deals", "2000",
                                 "--seed", "3", "--threads", "1", "--out", str(again), "--pimc", QUICK_PIMC])
    assert result.exit_code == 0, result.output
    for name in TABLE_COLUMNS:
        assert (again / "tables" / f"{name}.csv").read_bytes() == (report_dir / "tables" / f"{name}.csv").read_bytes()


def test_redoing_the_search_players_parts_writes_the_same_report(report_dir, sensitivity_dir, tmp_path,
                                                                 monkeypatch):
    """scripts/reference_edition.py --search-players on a finished report: the same numbers as the full
    command (the same calls, sizes and seeds), spliced into the same places; interrupted, it changes nothing
    and the next call goes on from the steps it finished."""
    import shutil

    from analyser.report import searched
    from analyser.report.searched import KEPT, redo_search_parts, redo_sensitivity
    from analyser.game.rules import make_rules

    copy = tmp_path / "copy"
    shutil.copytree(report_dir, copy)
    numbers = json.loads((copy / "report.json").read_text())
    for claim in numbers["play_advice"]:
        claim["followed_by_player"]["followed"] = -1  # spoilt: the redo must put them back
    searched_row = next(row for row in numbers["tournaments"] if row["a"].startswith("pimc"))
    searched_row["a_win_rate"] = 2.0
    (copy / "report.json").write_text(json.dumps(numbers))
    md = (copy / "REPORT.md").read_text()
    md = md.replace("## Play advice\n", "## Play advice\n\nstale words\n\n")
    (copy / "REPORT.md").write_text(md.replace("holds 1, moves 0, unsettled 1", "stale counts"))
    rules = make_rules("trinidad", 4, {"target": 5})

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(searched, "run_deal_row", interrupted)
        with pytest.raises(KeyboardInterrupt):
            redo_search_parts(rules, copy, QUICK_PIMC, threads=1)
    assert "stale words" in (copy / "REPORT.md").read_text() and (copy / KEPT).is_file()
    monkeypatch.setattr(searched, "observe_counts", interrupted)  # done before: not measured again
    monkeypatch.setattr(searched, "search_strength", interrupted)
    redo_search_parts(rules, copy, QUICK_PIMC, threads=1)
    assert not (copy / KEPT).exists()
    redo_sensitivity(copy, sensitivity_dir)
    for name in ("REPORT.md", "report.html", "tables/tournaments.csv", "tables/play-advice.csv"):
        assert (copy / name).read_bytes() == (report_dir / name).read_bytes(), name
    assert json.loads((copy / "report.json").read_text()) == json.loads((report_dir / "report.json").read_text())


def test_rewriting_the_search_players_sections_measures_nothing_and_writes_the_same_report(report_dir, tmp_path,
                                                                                           monkeypatch):
    """--search-players --sections-only: the sections written again from report.json's numbers alone."""
    import shutil

    from analyser.report import searched
    from analyser.game.rules import make_rules

    copy = tmp_path / "copy"
    shutil.copytree(report_dir, copy)
    md = (copy / "REPORT.md").read_text()
    (copy / "REPORT.md").write_text(md.replace("## Play advice\n", "## Play advice\n\nstale words\n\n")
                                    .replace("matches for each search-player pairing", "stale"))
    (copy / "tables" / "tournaments.csv").write_text("stale\n")

    def measured(*args, **kwargs):
        raise AssertionError("nothing is measured")

    for name in ("observe_counts", "search_strength", "run_deal_row"):
        monkeypatch.setattr(searched, name, measured)
    searched.rewrite_search_parts(make_rules("trinidad", 4, {"target": 5}), copy)
    for name in ("REPORT.md", "report.html", "tables/tournaments.csv", "tables/play-advice.csv"):
        assert (copy / name).read_bytes() == (report_dir / name).read_bytes(), name
    assert json.loads((copy / "report.json").read_text()) == json.loads((report_dir / "report.json").read_text())
    with pytest.raises(ValueError, match="other rules"):
        searched.rewrite_search_parts(make_rules("classic", 2), copy)


ADVICE_FILES = ("REPORT.md", "report.html", "tables/advice.csv", "tables/equilibrium-advice.csv")


@pytest.mark.parametrize("earlier", [False, True], ids=["stale words", "before the subheading"])
def test_rewriting_the_advice_passages_measures_nothing_and_writes_the_same_report(report_dir, tmp_path, earlier):
    """scripts/reference_edition.py --advice-sections: both passages on the bidding advice written again from
    report.json alone, as the report writes them; also over a report from before the equilibrium's passage had
    its subheading (its first paragraph then started the passage)."""
    import shutil

    from analyser.report.advice import EQUILIBRIUM_HEADING, HEADING, rewrite_advice_sections
    from analyser.game.rules import make_rules

    copy = tmp_path / "copy"
    shutil.copytree(report_dir, copy)
    md, page = (copy / "REPORT.md").read_text(), (copy / "report.html").read_text()
    md = md.replace(f"## {HEADING}\n", f"## {HEADING}\n\nstale words\n\n").replace("**contradicted: ", "**stale: ")
    page = page.replace(f"<h2>{HEADING}</h2>", f"<h2>{HEADING}</h2>\n<p>stale words</p>")
    if earlier:
        md = md.replace(f"### {EQUILIBRIUM_HEADING}\n\n", "")
        page = page.replace(f"<h3>{EQUILIBRIUM_HEADING}</h3>\n", "")
    (copy / "REPORT.md").write_text(md)
    (copy / "report.html").write_text(page)
    (copy / "tables" / "advice.csv").write_text("stale\n")
    rewrite_advice_sections(make_rules("trinidad", 4, {"target": 5}), copy)
    for name in ADVICE_FILES:
        assert (copy / name).read_bytes() == (report_dir / name).read_bytes(), name
    assert json.loads((copy / "report.json").read_text()) == json.loads((report_dir / "report.json").read_text())
    with pytest.raises(ValueError, match="other rules"):
        rewrite_advice_sections(make_rules("classic", 2), copy)


def test_the_run_deal_row_says_where_the_two_players_can_differ():
    from analyser.report.strength import where_they_differ
    from analyser.game.rules import make_rules

    assert where_they_differ(make_rules("trinidad", 4)) == ""  # 36 cards at the first run
    assert "third run" in where_they_differ(make_rules("trinidad", 2))  # 12, 18, 24, then 30 cards
    assert "second run" in where_they_differ(make_rules("trinidad", 2, {"run_cards": 6}))  # 12, 24, then 36
    for preset, players in (("classic", 2), ("classic", 4), ("partnership-seven", 4)):
        assert "can only show zero" in where_they_differ(make_rules(preset, players))


def test_three_players_report_skips_what_needs_two_sides(tmp_path):
    result = runner.invoke(app, ["report", "--rules", "classic", "--players", "3", "--set", "target=4",
                                 "--deals", "2000", "--out", str(tmp_path / "c3"), "--pimc", QUICK_PIMC])
    assert result.exit_code == 0, result.output
    md = (tmp_path / "c3" / "REPORT.md").read_text()
    assert "Not estimated with three players" in md and "each plays alone" in md
    assert "## The bidding game's equilibrium" in md and "CFR+" in md
    assert "## Play advice" in md and "each of the 3 players in turn" in md


def test_report_errors(tmp_path):
    result = runner.invoke(app, ["report", "--policy", "random", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "Traceback" not in result.output
    for pimc, why in (("oracle", "is not a pimc player"), ("pimc:wolds=3", "bad policy parameter")):
        result = runner.invoke(app, ["report", "--pimc", pimc, "--out", str(tmp_path / "y")])
        assert result.exit_code != 0 and why in result.stderr and "Traceback" not in result.output
        assert not (tmp_path / "y").exists()  # refused before any work


def test_a_missing_count_shows_blank_in_the_page_not_na():
    """The run-deal row has no match count: the page shows an empty cell, as REPORT.md does."""
    from analyser.report.document import Document

    doc = Document("t")
    doc.table(pd.DataFrame({"matches": pd.array([500, None], dtype="Int64"), "points": [0.26, 0.29]}), "x", "")
    page = doc.html(Path("."))
    assert "&lt;NA&gt;" not in page and "<NA>" not in page and "<td>500</td>" in page and "<td></td>" in page


def test_splice_sections_replaces_a_section_or_inserts_it_before_a_named_one(tmp_path):
    """The one splicer of finished reports: a section there is replaced in place, one missing is inserted
    before the heading `before`; either way REPORT.md and report.html read as if written whole."""
    from analyser.report.document import Document, splice_sections

    def document(*sections: tuple[str, str]) -> Document:
        doc = Document("t")
        for heading, text in sections:
            doc.heading(heading)
            doc.paragraph(text)
        return doc

    def write(doc: Document) -> None:
        (tmp_path / "REPORT.md").write_text(doc.markdown(), encoding="utf-8")
        (tmp_path / "report.html").write_text(doc.html(tmp_path), encoding="utf-8")

    def read() -> tuple[str, str]:
        return (tmp_path / "REPORT.md").read_text(encoding="utf-8"), (tmp_path / "report.html").read_text(encoding="utf-8")

    def whole(doc: Document) -> tuple[str, str]:
        return doc.markdown(), doc.html(tmp_path)

    a, b, c = ("A", "first"), ("B & co", "second"), ("C", "third")
    write(document(a, c))  # B missing: inserted before C
    splice_sections(tmp_path, document(b), b[0], b[0], before=c[0])
    assert read() == whole(document(a, b, c))
    splice_sections(tmp_path, document(("B & co", "new")), b[0], b[0], before=c[0])  # B there: replaced
    assert read() == whole(document(a, ("B & co", "new"), c))
    splice_sections(tmp_path, document(("C", "last")), c[0], c[0])  # the last section, no `before`
    assert read() == whole(document(a, ("B & co", "new"), ("C", "last")))
    with pytest.raises(ValueError, match="to place the section before"):
        splice_sections(tmp_path, document(("D", "x")), "D", "D", before="E")
    with pytest.raises(ValueError, match="section to replace"):
        splice_sections(tmp_path, document(("D", "x")), "D", "D")


def test_the_by_score_passage_says_how_many_cells_are_settled_and_a_redo_reproduces_it(report_dir, tmp_path):
    """The report's at-every-score run carries its bootstrap: the passage counts the settled class-score cells as
    scores.csv marks them. Redone in a finished copy (report/scores_redo.py), every file and the report's text come
    out the same; a copy whose point estimates the run no longer reproduces is refused, unchanged."""
    import shutil

    from analyser.game.rules import rules_from_log
    from analyser.report.scores_redo import redo_scores

    frame = pd.read_csv(report_dir / "equilibrium-scores" / "scores.csv")
    numbers = json.loads((report_dir / "report.json").read_text())
    settled = numbers["equilibrium_by_score"]["settled"]
    assert settled == {"cells": len(frame), "settled": int(frame["settled"].sum()), "resamples": 10,
                       "chunks": 8}  # (2,000 deals in chunks of at least 250)
    md = (report_dir / "REPORT.md").read_text()
    assert f"Of the {len(frame):,} class-score cells, {settled['settled']:,} (" in md
    assert "not settled, its 95% CI reaching further than 5% from never or always" in md
    rules = rules_from_log(numbers["rules"])
    copy = tmp_path / "edition"
    shutil.copytree(report_dir, copy)
    redo_scores(rules, copy)
    assert (copy / "REPORT.md").read_text() == md
    pd.testing.assert_frame_equal(pd.read_csv(copy / "equilibrium-scores" / "scores.csv"), frame)
    assert json.loads((copy / "report.json").read_text())["equilibrium_by_score"] == numbers["equilibrium_by_score"]
    frame.loc[0, "p"] = 0.5 if frame.loc[0, "p"] != 0.5 else 0.25
    frame.to_csv(copy / "equilibrium-scores" / "scores.csv", index=False)
    with pytest.raises(ValueError, match="no longer reproduces the edition's point estimates"):
        redo_scores(rules, copy)
    assert (copy / "REPORT.md").read_text() == md
