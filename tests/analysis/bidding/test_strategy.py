"""Strategy tables: the paired kernel's sums, the round arithmetic, the run folder, reproducibility."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.strategy import class_sums, read_run, round_gain, round_table, run_strategy, side_scores
from analyser.record.vocabulary import ROLES
from analyser.analysis.bidding.whatif import make_situation, run_batch
from analyser.cli import app
from analyser.engine.decisions import (
    CLASSING_HAND, CS_A, CS_AA, CS_B, CS_BB, CS_D, CS_D_POLICY_B, CS_DD, CS_DD_POLICY_B, CS_N, CS_POLICY_B,
    CT_DEALS, CT_KICK_ENDED, CT_NO_BEG, CT_TRIES, N_CLASS_SUMS,
)
from analyser.engine.evaluator import N_HAND_CLASSES, class_key, possible_classes
from analyser.work.executor import LocalExecutor
from analyser.players.policy import parse_policy, seat_policies
from analyser.game.rules import make_rules

SMALL = make_rules("trinidad", settings=["target=5"])
TABLE_COLUMNS = ["round", "class_code", "class_key", "n", "share", "diff_mean", "diff_se", "diff_ci_lo",
                 "diff_ci_hi", "recommend", "ci_includes_zero", "final"]
OPTION_COLUMNS = {"eldest": ["stand_mean", "stand_se", "beg_mean", "beg_se"],
                  "dealer": ["run_mean", "run_se", "give_mean", "give_se"]}
TIMING = ["seconds", "deals_per_s"]


def heuristic_sums(role: str, deals: int = 3000, rules=SMALL, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    kinds, params = seat_policies(["heuristic"], rules.players)
    return class_sums(rules, role, side_scores(rules, None), kinds, params, CLASSING_HAND, deals, seed, 0,
                      LocalExecutor(1))


@pytest.mark.parametrize("role", ["eldest", "dealer"])
def test_kernel_sums_are_consistent(role: str) -> None:
    sums, counts = heuristic_sums(role)
    assert sums[:, CS_N].sum() == counts[CT_DEALS] == 3000
    assert (sums[:, CS_D] == sums[:, CS_B] - sums[:, CS_A]).all()
    assert (sums[:, CS_DD] >= 0).all() and (sums[:, CS_AA] >= 0).all() and (sums[:, CS_BB] >= 0).all()
    assert counts[CT_TRIES] == counts[CT_DEALS] + counts[CT_KICK_ENDED] + counts[CT_NO_BEG]
    impossible = sorted(set(range(N_HAND_CLASSES)) - set(possible_classes()))
    assert not sums[impossible].any()
    # The heuristic's own choice is a function of the class: all or nothing in every class.
    chose = sums[:, CS_POLICY_B]
    assert ((chose == 0) | (chose == sums[:, CS_N])).all()
    if role == "eldest":  # BEG_WEAK with beg_trumps 2: T0, T1 and T1:lo beg
        assert {class_key(c) for c in range(N_HAND_CLASSES) if chose[c] > 0} == {"T0", "T1", "T1:lo"}
        assert counts[CT_NO_BEG] == 0
    else:  # the dealer only ever sees hands the eldest begged with
        assert counts[CT_NO_BEG] > 0


def test_a_kick_that_ends_the_match_leaves_no_decision() -> None:
    kinds, params = seat_policies(["heuristic"], 4)
    scores = side_scores(SMALL, (0, 4))  # the dealer's side needs one point: any kick ends it
    sums, counts = class_sums(SMALL, "eldest", scores, kinds, params, CLASSING_HAND, 2000, 1, 0, LocalExecutor(1))
    assert counts[CT_KICK_ENDED] > 0 and sums[:, CS_N].sum() == 2000


def test_round_gain_matches_the_per_deal_definition() -> None:
    rng = np.random.default_rng(7)
    size = 5000
    cls = rng.choice([0, 1, 9, 17], size=size)
    a = rng.integers(-4, 5, size=size)
    b = a + rng.integers(-3, 4, size=size) + np.where(cls == 9, 2, 0) - np.where(cls == 1, 1, 0)
    old_b = np.where(cls == 0, rng.random(size) < 0.5, cls == 1)  # class 0 mixed, class 1 begs, others stand
    d = b - a
    sums = np.zeros((N_HAND_CLASSES, N_CLASS_SUMS), dtype=np.int64)
    for column, values in ((CS_N, np.ones(size)), (CS_A, a), (CS_AA, a * a), (CS_B, b), (CS_BB, b * b), (CS_D, d),
                           (CS_DD, d * d), (CS_POLICY_B, old_b), (CS_D_POLICY_B, d * old_b),
                           (CS_DD_POLICY_B, d * d * old_b)):
        np.add.at(sums[:, column], cls, values.astype(np.int64))
    counts = np.array([size, 0, 0, size], dtype=np.int64)
    table = round_table(sums, counts, "eldest", 1)
    new_b = dict(zip(table["class_code"], table["recommend"] == "beg"))
    choice_new = np.array([new_b[c] for c in cls])
    gain = np.where(choice_new & ~old_b, d, 0) - np.where(~choice_new & old_b, d, 0)
    mean, se, before, after = round_gain(sums, table, "eldest")
    assert mean == pytest.approx(gain.mean())
    assert se == pytest.approx(gain.std(ddof=1) / np.sqrt(size))
    assert before == pytest.approx(np.where(old_b, b, a).mean())
    assert after == pytest.approx(np.where(choice_new, b, a).mean())
    row = table.set_index("class_key")
    assert row.loc["T2", "recommend"] == "beg" and row.loc["T1", "recommend"] == "stand"
    assert row.loc["T1", "current"] == "beg" and row.loc["T1", "changed"]
    assert row.loc["T1", "diff_mean"] == pytest.approx(d[cls == 1].mean())
    assert row.loc["T1", "diff_se"] == pytest.approx(d[cls == 1].std(ddof=1) / np.sqrt((cls == 1).sum()))
    assert row.loc["T1", "share"] == pytest.approx((cls == 1).mean())


def test_holding_ace_king_queen_jack_of_trump_the_eldest_stands() -> None:
    # One class checked directly through the what-if's paired evaluation: A K Q J of trump.
    sit = make_situation(make_rules("trinidad"), "AS KS QS JS 4H 7D", "9S", "eldest", "0:0")
    net, _, _, _ = run_batch(sit, "heuristic", np.zeros((1, 1)), False, 3, 0, 600)
    stand_minus_beg = net[:, 0] - net[:, 1]
    assert stand_minus_beg.mean() - 3 * stand_minus_beg.std(ddof=1) / np.sqrt(len(net)) > 0


def test_three_or_more_trumps_stand_in_the_table() -> None:
    sums, _ = heuristic_sums("eldest", deals=6000)
    table = round_table(sums, np.array([6000, 0, 0, 6000]), "eldest", 1)
    strong = [c for c in possible_classes() if c >= 17]  # T3 and T4+
    d = sums[strong, CS_D].sum() / sums[strong, CS_N].sum()
    assert d < -1.0
    assert (table[table["class_code"].isin(strong) & (table["n"] > 30)]["recommend"] == "stand").all()


def strategy_run(tmp_path: Path, name: str, threads: int, seed: int = 5) -> object:
    return run_strategy(SMALL, "heuristic", deals=3000, seed=seed, rounds=3, out_dir=tmp_path / name, threads=threads,
                        chunk_deals=500)  # six chunks a round, so two threads really share the work


def test_a_tiny_run_writes_every_file_with_the_documented_columns(tmp_path: Path) -> None:
    res = strategy_run(tmp_path, "one", threads=1)
    out = tmp_path / "one"
    for name in ("meta.json", "eldest.parquet", "eldest.csv", "dealer.parquet", "dealer.csv", "rounds.csv",
                 "tuned.json", "beg-minus-stand.png", "give-minus-run.png", *(r.chart_file for r in ROLES)):
        assert (out / name).stat().st_size > 0, name
    for role in ("eldest", "dealer"):
        frame = pd.read_parquet(out / f"{role}.parquet")
        assert set(TABLE_COLUMNS + OPTION_COLUMNS[role]) <= set(frame.columns)
        assert len(pd.read_csv(out / f"{role}.csv")) == len(frame)
        final = frame[frame["final"]]
        assert len(final) == len(possible_classes()) and final["round"].nunique() == 1
        assert final["round"].iloc[0] == frame["round"].max()
    rounds = pd.read_csv(out / "rounds.csv")
    assert {"round", "role", "deals", "classes_changed", "gain_mean", "gain_se"} <= set(rounds.columns)
    assert rounds["role"].tolist()[:2] == ["eldest", "dealer"] and (rounds["deals"] == 3000).all()
    meta = json.loads((out / "meta.json").read_text())
    assert meta["deals"] == 3000 and meta["seed"] == 5 and meta["rules"]["target"] == 5
    assert {"rules", "policy", "deals", "seed", "rounds", "version", "command"} <= set(meta)
    back = read_run(out)
    pd.testing.assert_frame_equal(back["eldest"], res.eldest)
    assert back["meta"] == meta and back["tuned"] == json.loads((out / "tuned.json").read_text())
    # The tuned policy in the folder is what the final tables recommend.
    kind, row = parse_policy(f"tuned:{out}")
    tuned = json.loads((out / "tuned.json").read_text())
    for role in ("eldest", "dealer"):
        final = res.final(role)
        sampled = final[final["n"] > 0]
        assert dict(zip(sampled["class_key"], sampled["recommend"])) == tuned[role]


def test_same_seed_same_tables_on_one_or_two_threads_and_another_seed_differs(tmp_path: Path) -> None:
    runs = [strategy_run(tmp_path, "a", 1), strategy_run(tmp_path, "b", 2), strategy_run(tmp_path, "c", 2, seed=6)]
    for role in ("eldest", "dealer"):
        pd.testing.assert_frame_equal(runs[0].table(role), runs[1].table(role))
    pd.testing.assert_frame_equal(runs[0].rounds.drop(columns=TIMING), runs[1].rounds.drop(columns=TIMING))
    assert (tmp_path / "a" / "tuned.json").read_text() != "" and np.array_equal(runs[0].tuned_row, runs[1].tuned_row)
    assert not runs[0].eldest["diff_mean"].equals(runs[2].eldest["diff_mean"])


def test_starting_policies_the_tables_cannot_change_are_refused() -> None:
    with pytest.raises(ValueError, match="heuristic"):
        run_strategy(SMALL, "random", deals=100, rounds=2)
    with pytest.raises(ValueError, match="fixes the beg or give probability"):
        run_strategy(SMALL, "heuristic:beg=0.5", deals=100, rounds=2)


def test_cli_json_and_text(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["strategy", "--rules", "classic", "--players", "3", "--set", "target=5", "--deals", "1500",
            "--rounds", "2", "--seed", "3", "--score", "1:2:0", "--out", str(tmp_path / "run")]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["score"] == [1, 2, 0] and len(data["eldest"]) == len(possible_classes())
    assert {"rounds_table", "dealer", "tuned"} <= set(data)
    refused = runner.invoke(app, args)  # the run folder is there now: not replaced without --force
    assert refused.exit_code == 2 and "--force" in refused.stderr
    text = runner.invoke(app, [*args, "--force"])
    assert text.exit_code == 0 and "recommend" in text.stdout and "tuned:" in text.stdout
    assert "score 1:2:0, eldest's side first" in text.stdout and "Hand classes: T0 = no trump" in text.stdout
    bad = runner.invoke(app, [*args[:-2], "--score", "1:2"])
    assert bad.exit_code != 0 and "ELDEST:NEXT:DEALER" in bad.stderr
