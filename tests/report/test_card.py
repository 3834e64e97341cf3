"""`allfours card`: the shipped trinidad card as text, PNG, SVG and PDF, looked at; bad input refused in one
line with nothing written."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.rules_of_thumb import RuleList
from analyser.cli import app
from analyser.report.card import A5, RESULTS, chosen_row

runner = CliRunner()
SHIPPED = json.loads((RESULTS / "trinidad-4p" / "rules-of-thumb" / "rules.json").read_text(encoding="utf-8"))
PLAY = RESULTS / "play-rules" / "trinidad-4p"
CARRIED = json.loads((PLAY / "carried.json").read_text(encoding="utf-8"))


def invoke(*args: str):
    return runner.invoke(app, ["card", *args])


def test_text_card_prints_the_shipped_rules_and_the_claims():
    res = invoke("--rules", "trinidad", "--players", "4")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for role in ("eldest", "dealer"):
        row = chosen_row(SHIPPED, role)
        assert RuleList.from_json(row["rule"]).describe() == row["text"]
        for k, line in enumerate(row["text"], 1):
            assert f"{k}. {line}" in out
    advice = (RESULTS / "trinidad-4p" / "tables" / "advice.csv").read_text(encoding="utf-8")
    front = out.split("PLAYING THE CARDS (the card's other side)")[0]
    assert front.count("supported:") + front.count("contradicted:") + front.count("inconclusive:") == 4
    assert "Beg when missing the ace or the jack of trump." in out and "Beg when missing" in advice
    assert "NEAR THE TARGET" in out and "results/trinidad-4p/rules-of-thumb (shipped, seed 1)" in " ".join(out.split())


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_png_card_is_an_a5_page_with_text_on_it(tmp_path):
    from matplotlib.image import imread

    out = tmp_path / "card.png"
    res = invoke("--out", str(out))
    assert res.exit_code == 0, res.output
    width, height = png_size(out)
    assert height / width == pytest.approx(A5[1] / (2 * A5[0]), rel=0.01) and width >= 2000  # two A5 at 200 dpi
    pixels = imread(str(out))[..., :3]
    ink = (pixels < 0.5).any(axis=2)
    rows = ink.any(axis=1)
    # Text in the top, the rule lines and the advice: ink in each third's upper part, and many separate lines.
    assert ink[: height // 10].any() and ink[height // 10: height // 2].sum() > 2000
    starts = np.flatnonzero(rows[1:] & ~rows[:-1])
    assert len(starts) >= 15  # title, two rules, their costs, the near-target lines, four claims, the footer
    red = (pixels[..., 0] > 0.6) & (pixels[..., 1] < 0.3) & (pixels[..., 2] < 0.3)
    assert red[: height // 10].sum() > 50  # the red suits in the header
    # The second side (right half): ink from the top, its rule lines, and the red suits of its own header.
    back, back_red = ink[:, width // 2 + 20:], red[:, width // 2 + 20:]
    assert back[: height // 10].any() and back[height // 10: height // 2].sum() > 2000
    assert back_red[: height // 10].sum() > 50
    assert len(np.flatnonzero(back.any(axis=1)[1:] & ~back.any(axis=1)[:-1])) >= 12


def test_svg_card_holds_the_rule_text(tmp_path):
    import matplotlib

    out = tmp_path / "card.svg"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text, so the words can be found
    try:
        res = invoke("--out", str(out))
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert res.exit_code == 0, res.output
    svg = out.read_text(encoding="utf-8")
    for role in ("eldest", "dealer"):
        for line in chosen_row(SHIPPED, role)["text"]:
            assert line in svg
    assert "#c8102e" in svg  # hearts and diamonds in red
    for rule in CARRIED["rules"]:  # the second side: the rules of play, wrapped over lines
        assert rule["words"].split(":")[0].split(",")[0] in svg
    assert "Playing the cards" in svg


def test_pdf_card_and_force(tmp_path):
    out = tmp_path / "card.pdf"
    assert invoke("--out", str(out)).exit_code == 0
    assert out.read_bytes()[:5] == b"%PDF-"
    before = out.read_bytes()
    res = invoke("--out", str(out))
    assert res.exit_code == 2 and "--force" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert out.read_bytes() == before
    assert invoke("--out", str(out), "--force").exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["--rules", "nosuch"], "--rules nosuch"),
    (["--players", "5"], "--players 5"),
    (["--rules", "partnership-seven", "--players", "2"], "players=2 is not allowed"),
    (["--out", "card.docx"], "matplotlib"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code == 2, res.output
    assert words in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_json_has_the_rules_and_the_claims():
    res = invoke("--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["rules_of_thumb"]["chosen"] == SHIPPED["chosen"] and len(doc["claims"]) == 4


# ---- the second side: playing the cards ----------------------------------------------------------------------


def test_the_second_side_lists_the_carried_rules_with_their_worth_and_the_tips():
    """Text and --json: the fit's `carry` rules in its words, each rule's worth the list against the list without
    it (worth-top-N.json), the list against the heuristic, the policy that plays them, the edition's five play
    tips with their verdicts."""
    worth = json.loads((PLAY / f"worth-top-{CARRIED['carry']}.json").read_text(encoding="utf-8"))
    res = invoke("--json")
    play = json.loads(res.stdout)["play"]
    assert play["policy"] == "rules:trinidad-4p"
    assert [r["text"] for r in play["rules"]] == [r["words"] for r in CARRIED["rules"]]
    for k, rule in enumerate(play["rules"], 1):
        dropped = next(p for p in worth["pairings"] if p["b"] == f"without rule {k}")["diff_points_per_deal"]
        assert rule["worth"] == dropped["value"] and rule["worth_ci95"] == dropped["ci95"]
        assert rule["worth_ci95"][0] <= rule["worth"] <= rule["worth_ci95"][1]
    versus = next(p for p in worth["pairings"] if p["b"] == "heuristic")["diff_points_per_deal"]
    assert play["versus_heuristic"]["value"] == versus["value"]
    tips = pd.read_csv(RESULTS / "trinidad-4p" / "tables" / "play-advice.csv")
    assert [t["tip"] for t in play["tips"]] == list(tips["tip"])
    assert [t["verdict"] for t in play["tips"]] == list(tips["verdict"])
    text = " ".join(invoke().stdout.split())
    assert "PLAYING THE CARDS (the card's other side)" in text
    for k, rule in enumerate(play["rules"], 1):
        assert f"{k}. {rule['text']} Worth {rule['worth']:+.3f}" in text
    assert f"+{versus['value']:.3f} net points a deal" in text and "--policy rules:trinidad-4p" in text
    assert text.count("supported:") + text.count("contradicted:") + text.count("inconclusive:") == 4 + len(tips)


def test_the_cards_policy_plays_in_a_tournament():
    """The policy the card names is a spec tournament takes, and it is the carried list, not the heuristic."""
    from analyser.players.policy import parse_policy

    spec = json.loads(invoke("--json").stdout)["play"]["policy"]
    assert not np.array_equal(parse_policy(spec)[1], parse_policy("heuristic")[1])
    res = runner.invoke(app, ["tournament", "--rules", "trinidad", "--players", "4", "--a", spec, "--b", "heuristic",
                              "--matches", "4", "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["a"] == spec


def test_rules_without_fitted_play_rules_say_so_and_name_the_heuristic(monkeypatch):
    import analyser.report.card_play as card_play

    monkeypatch.setattr(card_play, "play_rules_folder", lambda rules, results: None)  # as if none were shipped
    doc = json.loads(invoke("--rules", "classic", "--players", "3", "--json").stdout)
    assert doc["play"]["policy"] == "heuristic" and doc["play"]["rules"] == [] and doc["play"]["versus_heuristic"] is None
    assert doc["play"]["tips_source"] == "results/classic-3p/tables/play-advice.csv" and len(doc["play"]["tips"]) == 5
    text = " ".join(invoke("--rules", "classic", "--players", "3").stdout.split())
    assert "No rules of play fitted for these rules" in text and "scripts/fit_play_rules.py" in text


# ---- --set: a variant never reads another rule set's shipped results -----------------------------------------


def small_compute(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computed card on fewer deals (the same code path, seconds instead of tens of seconds)."""
    import analyser.report.card as card_module
    import analyser.report.card_play as card_play

    monkeypatch.setattr(card_module, "CARD_EQUILIBRIUM_DEALS", 20_000)
    monkeypatch.setattr(card_module, "CARD_MEASURE_DEALS", 20_000)
    monkeypatch.setattr(card_module, "CARD_ADVICE_DEALS", 10_000)
    monkeypatch.setattr(card_play, "CARD_TIP_DEALS", 4_000)


def test_set_changes_the_rules_and_the_shipped_results_are_not_read(monkeypatch):
    """An English table (classic, void_play=any) is not the shipped classic-4p (void_play=trump): the card is
    computed for it, says so, and names the variant in its title, its rules line and its command."""
    small_compute(monkeypatch)
    shipped = json.loads((RESULTS / "classic-4p" / "rules-of-thumb" / "rules.json").read_text(encoding="utf-8"))
    assert shipped["rules"]["void_play"] == "trump"
    res = invoke("--rules", "classic", "--players", "4", "--set", "void_play=any", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["rules"]["void_play"] == "any" and doc["rules"]["preset"] == "classic"
    assert doc["rules_of_thumb"]["rules"] == doc["rules"]  # fitted for the variant, not read from classic-4p
    assert "results/classic-4p" not in doc["source"] and doc["source"].startswith("an equilibrium solved now")
    assert "results/classic-4p" not in doc["claims_source"] and doc["claims_source"].startswith("checked now")
    assert doc["play"]["tips_source"].startswith("checked now") and len(doc["play"]["tips"]) == 5
    assert doc["play"]["policy"] == "heuristic" and doc["play"]["rules"] == []
    assert doc["departures"] is None  # no equilibrium at every score for the variant
    assert "any card when void" in doc["assumes"]
    assert "solving one" in res.stderr and "void_play=any" in res.stderr
    text = invoke("--rules", "classic", "--players", "4", "--set", "void_play=any").stdout
    assert text.startswith("All Fours strategy card: classic, 4 players, with void_play=any\n")
    assert "allfours card --rules classic --players 4 --set void_play=any" in " ".join(text.split())


def test_the_preset_reads_the_shipped_edition_and_a_set_equal_to_it_too():
    res = invoke("--rules", "classic", "--players", "4", "--set", "void_play=trump", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["source"] == "results/classic-4p/rules-of-thumb (shipped, seed 1)" and res.stderr == ""
    assert "must trump when void" in doc["assumes"]


@pytest.mark.parametrize("value, words", [
    ("void_play=sometimes", "void_play='sometimes'"),
    ("nosuch=1", "nosuch"),
    ("target", "expected KEY=VALUE"),
    ("target=0", "target"),
])
def test_a_bad_set_value_is_one_line(tmp_path, monkeypatch, value, words):
    monkeypatch.chdir(tmp_path)
    res = invoke("--set", value, "--out", "card.png")
    assert res.exit_code == 2, res.output
    assert words in res.stderr and len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("error: ")
    assert not list(tmp_path.iterdir())


def copy_edition(src: Path, dst: Path, names: list[str]) -> None:
    import shutil

    for name in names:
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src / name, dst / name)


EDITION_FILES = ["rules-of-thumb/rules.json", "tables/advice.csv", "report.json", "equilibrium-scores/scores.csv",
                 "equilibrium-scores/scores.json"]


def test_an_edition_made_for_other_rules_is_not_read(tmp_path, monkeypatch):
    """The same files under results/trinidad-4p, each stamped with other rules: none is read (the rules, the
    advice and the at-every-score table); stamped with the asked rules, all are."""
    from analyser.report.card import load_card
    from analyser.game.rules import make_rules

    small_compute(monkeypatch)
    results = tmp_path / "results"
    copy_edition(RESULTS / "trinidad-4p", results / "trinidad-4p", EDITION_FILES)
    found = load_card(make_rules("trinidad", players=4), 1, results)
    assert found.source.endswith("(shipped, seed 1)") and found.claims_source.endswith("tables/advice.csv")
    assert found.departures is not None and found.departures
    asked = make_rules("trinidad", players=4, settings=["undertrump=forbidden"])
    said: list[str] = []
    other = load_card(asked, 1, results, say=said.append)
    assert other.source.startswith("an equilibrium solved now") and other.claims_source.startswith("checked now")
    assert other.thumbs["rules"] == asked.as_log_dict() and other.departures is None
    assert any("undertrump=forbidden" in m for m in said)
    # The rules and advice shipped for these rules but the at-every-score table made for others: not read.
    meta = results / "trinidad-4p" / "equilibrium-scores" / "scores.json"
    doc = json.loads(meta.read_text(encoding="utf-8"))
    meta.write_text(json.dumps({**doc, "rules": {**doc["rules"], "gift": 2}}), encoding="utf-8")
    assert load_card(make_rules("trinidad", players=4), 1, results).departures is None


# ---- the rules it assumes -------------------------------------------------------------------------------------


def test_the_card_states_the_rules_it_assumes(tmp_path):
    import matplotlib

    from analyser.report.card import assumed_rules
    from analyser.game.rules import make_rules

    assert assumed_rules(make_rules("trinidad")) == (
        "Rules assumed: 14 to win; turn-up scores ace 1, six 2, jack 3; hang jack scores 3; undertrumping allowed; "
        "any card when void; gift 1; run 3 cards; no discard; tied Game: nobody scores.")
    seven = assumed_rules(make_rules("partnership-seven"))
    assert "7 to win" in seven and "no hang jack" in seven and "discard to six after a run" in seven
    assert "bunching" in seven and "tied Game: the dealer's opponents score" in seven
    odd = assumed_rules(make_rules("classic", players=2, settings=["undertrump=forbidden", "gift=2", "run_cards=6"]))
    assert "no undertrumping" in odd and "gift 2" in odd and "run 6 cards" in odd and "must trump when void" in odd
    text = invoke("--rules", "trinidad", "--players", "4").stdout
    assert assumed_rules(make_rules("trinidad")) in " ".join(text.split())
    assert json.loads(invoke("--json").stdout)["assumes"] == assumed_rules(make_rules("trinidad"))
    out = tmp_path / "card.svg"
    matplotlib.rcParams["svg.fonttype"] = "none"
    try:
        assert invoke("--out", str(out)).exit_code == 0
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert "Rules assumed: 14 to win;" in out.read_text(encoding="utf-8")


# ---- exact scores that depart from the near-target rule ---------------------------------------------------------


def hand_made_scores():
    """A dealer's equilibrium at four scores of a 14-point game, every class 100 deals, near-target rule "with 2 or
    more trumps or a low trump: give" (you need 2 or fewer):
    12:13 gives only with the ace (departs); 13:13 follows the rule (100%); 12:12 leaves it on exactly 7 of 28
    classes (75%: not under the threshold); 12:5 departs but lies outside the zone (the dealer needs 9)."""
    import pandas as pd

    from analyser.analysis.bidding.rules_of_thumb import CLASSES, Atom, Condition, Hand, RuleList
    from analyser.engine.evaluator import class_key

    near = RuleList("dealer", ((Condition((Atom("trumps", ">=", 2), Atom("low", "has")), "or"), "give"),), "run")
    hands = [Hand.of_class(c) for c in CLASSES]
    follows = [near.apply(h) == "give" for h in hands]
    ace = [h.ace for h in hands]
    flipped = [not f if k < 7 else f for k, f in enumerate(follows)]
    rows = []
    for (e, d), gives in (((12, 13), ace), ((13, 13), follows), ((12, 12), flipped), ((12, 5), ace)):
        rows += [{"eldest_score": e, "dealer_score": d, "role": "dealer", "class": class_key(c), "deals": 100,
                  "p": float(g), "heuristic_p": 0.0} for c, g in zip(CLASSES, gives)]
    # The eldest at 12:13 does the opposite of its near-target rule "with no trump: beg" on every hand (begs with any
    # trump, stands with none); the zone there is "the other side needs 2 or fewer".
    beg0 = RuleList("eldest", ((Condition((Atom("trumps", "==", 0),)), "beg"),), "stand")
    rows += [{"eldest_score": 12, "dealer_score": 13, "role": "eldest", "class": class_key(c), "deals": 100,
              "p": float(beg0.apply(h) != "beg"), "heuristic_p": 0.0} for c, h in zip(CLASSES, hands)]
    card_dealer = RuleList("dealer", ((Condition((Atom("trumps", ">=", 3), Atom("ace", "has")), "or"), "give"),),
                           "run")
    thumbs = {"rules": {"target": 14}, "chosen": {"eldest": 2, "dealer": 2},
              "sizes": [{"role": "eldest", "size": 2, "rule": beg0.to_json()},
                        {"role": "dealer", "size": 2, "rule": card_dealer.to_json()}],
              "near_target": [{"role": "dealer", "zone": "you", "needing": 2, "rule": near.to_json()},
                              {"role": "eldest", "zone": "they", "needing": 2, "rule": beg0.to_json()}]}
    expected_near = sum(a == f for a, f in zip(ace, follows)) / len(CLASSES)
    return thumbs, pd.DataFrame(rows), expected_near


def test_departures_on_a_hand_made_table():
    from analyser.report.card import DEPARTURE_AGREEMENT, departure_words, departures

    thumbs, scores, expected_near = hand_made_scores()
    assert expected_near < DEPARTURE_AGREEMENT
    found = departures(thumbs, scores)
    assert [(d["score"], d["role"], d["zone"]) for d in found] == [("12:13", "eldest", "they"),
                                                                   ("12:13", "dealer", "you")]
    eldest, dealer = found
    assert eldest["near_agreement"] == 0.0 and eldest["agreement"] == 1.0
    assert eldest["rule"] == ["With any trump: beg.", "Otherwise: stand."]
    assert dealer["near_agreement"] == pytest.approx(expected_near)
    assert dealer["rule"] == ["With the ace of trump: give.", "Otherwise: run."] and dealer["agreement"] == 1.0
    assert dealer["situation"] == "you need 2 or fewer" and eldest["situation"] == "the other side needs 2 or fewer"
    # 12:12 agrees on exactly 75%: listed only with a higher threshold.
    assert ("12:12", "dealer") in [(d["score"], d["role"]) for d in departures(thumbs, scores, 0.76)]
    lines = departure_words(found, shown=1)
    assert "under 75% of hands" in lines[0] and "eldest's side first" in lines[0]
    assert lines[1] == ("– 12:13, eldest, the other side needs 2 or fewer: With any trump: beg. Otherwise: stand. "
                        "(100%; the near-target rule: 0%)")
    assert lines[2] == "... and 1 more score (allfours card --json lists them all)."
    assert departure_words([])[0].startswith("At every exact score near the target") and departure_words(None) == []
    assert eldest["settled"] is None  # the table keeps no bootstrap intervals


def test_a_departure_says_how_much_of_it_the_bootstrap_settles():
    """With the bootstrap's columns, each departure carries the deal-weighted share of the role's hands there
    whose class is settled; the card's line says the unsettled share when it prints as 1% or more."""
    from analyser.report.card import departure_words, departures

    thumbs, scores, _ = hand_made_scores()
    scores = scores.assign(p_low=scores["p"], p_high=scores["p"], settled=True)
    at = (scores["eldest_score"] == 12) & (scores["dealer_score"] == 13) & (scores["role"] == "dealer")
    first = scores.index[at][0]
    scores.loc[first, "settled"] = False
    found = {(d["score"], d["role"]): d for d in departures(thumbs, scores)}
    dealer = found[("12:13", "dealer")]
    cell = scores[at]
    assert dealer["settled"] == pytest.approx(1 - cell.loc[first, "deals"] / cell["deals"].sum())
    assert found[("12:13", "eldest")]["settled"] == 1.0
    line = departure_words([dealer])[1]
    assert line.endswith(f"; not settled on {100 * (1 - dealer['settled']):.0f}% of hands)")
    assert departure_words([found[("12:13", "eldest")]])[1].endswith("(100%; the near-target rule: 0%)")


def test_trinidad_4p_lists_the_dealer_at_12_13_who_gives_only_with_the_ace():
    """The shipped equilibrium at every score: at 12:13 the dealer gives with the ace of trump (High wins the
    match) and almost never without it, which the near-target rule ("2 or more trumps or a low trump") gets right on
    half the hands."""
    import pandas as pd

    from analyser.analysis.bidding.rules_of_thumb import CLASSES, Hand
    from analyser.engine.evaluator import class_key

    scores = pd.read_csv(RESULTS / "trinidad-4p" / "equilibrium-scores" / "scores.csv")
    cell = scores[(scores["eldest_score"] == 12) & (scores["dealer_score"] == 13) & (scores["role"] == "dealer")]
    ace = cell["class"].map({class_key(c): Hand.of_class(c).ace for c in CLASSES}).astype(bool)
    assert (cell["p"][ace] == 1.0).all(), "the shipped data changed"
    assert (cell["p"] * cell["deals"])[~ace].sum() < 0.01 * cell["deals"].sum(), "the shipped data changed"
    res = invoke("--rules", "trinidad", "--players", "4", "--json")
    doc = json.loads(res.stdout)
    assert doc["departure_threshold"] == 0.75
    at = [d for d in doc["departures"] if (d["score"], d["role"]) == ("12:13", "dealer")]
    assert len(at) == 1 and at[0]["rule"] == ["With the ace of trump: give.", "Otherwise: run."]
    assert at[0]["agreement"] > 0.99 and at[0]["near_agreement"] < 0.75
    assert set(at[0]) >= {"score", "role", "situation", "rule", "agreement"}
    text = " ".join(invoke("--rules", "trinidad", "--players", "4").stdout.split())
    assert "– 12:13, dealer, you need 2 or fewer: With the ace of trump: give. Otherwise: run. (100%;" in text


def test_three_players_have_no_departures():
    doc = json.loads(invoke("--rules", "classic", "--players", "3", "--json").stdout)
    assert doc["departures"] is None
