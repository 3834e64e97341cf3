"""Tournaments: whole matches, duplicated with seats swapped, seeded, with honest statistics."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.play import tournament
from analyser.cli import app
from analyser.engine.bits import rng_state
from analyser.engine.matches import play_match
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules
from analyser.analysis.play.tournament import TournamentError, ratio, run_tournament, win_rate


def test_a_match_ends_when_exactly_one_side_reaches_the_target():
    rules = make_rules("trinidad")
    kinds, params = seat_policies(["heuristic", "random"] * 2, 4)
    seeds = np.random.SeedSequence(3).spawn(40)
    for ss in seeds:
        deck_rng, rng = (rng_state(s) for s in ss.spawn(2))
        scores = np.zeros(4, dtype=np.int64)
        winner, deals = play_match(rules.as_array(), kinds, params, deck_rng, rng, scores)
        assert winner in (0, 1) and deals >= 1
        assert scores[winner] >= rules.target > scores[1 - winner]


def test_same_seed_same_result_whatever_the_threads_and_chunks():
    rules = make_rules("classic", players=2)
    one = run_tournament(rules, "heuristic", "random:beg=0.2", 60, seed=9, threads=1)
    again = run_tournament(rules, "heuristic", "random:beg=0.2", 60, seed=9, threads=3, chunk=7)
    whole = run_tournament(rules, "heuristic", "random:beg=0.2", 60, seed=9, threads=1, chunk=1000)
    assert one.as_dict() == again.as_dict() == whole.as_dict()
    assert one.matches == 60 and one.as_dict()["pairs"] == 30
    other = run_tournament(rules, "heuristic", "random:beg=0.2", 60, seed=10)
    assert other.as_dict() != one.as_dict()


def test_cli_gives_the_same_json_on_one_or_two_threads(monkeypatch):
    monkeypatch.setattr(tournament, "CHUNK_PAIRS", 6)  # five chunks, finishing in any order on two threads
    args = ["tournament", "--rules", "trinidad", "--players", "2", "--b", "random:beg=0.3", "--matches", "60",
            "--seed", "12", "--json"]
    one = CliRunner().invoke(app, [*args, "--threads", "1"])
    two = CliRunner().invoke(app, [*args, "--threads", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout)["matches"] == 60 and one.stdout == two.stdout


SEARCH_ARGS = ["tournament", "--rules", "trinidad", "--players", "2", "--a", "pimc:worlds=4", "--b", "heuristic",
               "--matches", "12", "--seed", "7", "--json"]


def test_a_search_players_tournament_is_the_same_json_however_it_is_cut(monkeypatch):
    """Pair i plays from the seed and i alone: 1 or 2 threads, 1 or 4 pairs a task, one JSON (the cluster:
    tests/work/test_cluster.py); the progress bar counts every pair once, as its task ends."""
    from analyser.cli import options

    advanced: list[int] = []
    advance = options.ProgressBar.advance
    monkeypatch.setattr(options.ProgressBar, "advance", lambda bar, n: (advanced.append(n), advance(bar, n))[1])
    found = {}
    for threads, cap in (("1", 1), ("2", 1), ("1", 1000)):  # tasks of 1 pair; on 1 thread, 2 pairs then 1 a task
        monkeypatch.setattr(tournament, "SEARCH_CHUNK_PAIRS", cap)
        advanced.clear()
        result = CliRunner().invoke(app, [*SEARCH_ARGS, "--threads", threads])
        assert result.exit_code == 0, result.output
        found[(threads, cap)] = result.stdout
        assert sum(advanced) == 6 and advanced == ([1] * 6 if cap == 1 else [2, 1, 1, 1, 1]), advanced
    assert len(set(found.values())) == 1, found
    doc = json.loads(found[("1", 1)])
    assert doc["matches"] == 12 and doc["a"] == "pimc:worlds=4" and doc["deals"] > 12


class CountingExecutor:
    """Records the tasks a run submits and answers each at once with made-up rows (nothing is played)."""

    def __init__(self, parallelism: int) -> None:
        self.parallelism, self.timings, self.tasks = parallelism, [], []

    def run(self, fn, tasks, on_result, progress=None):
        for task in tasks:
            self.tasks.append(task)
            first, size = task.args[-2], task.args[-1]
            cols = tournament.N_PAIR_COLS if fn is tournament.pairs_chunk else tournament.N_RD_COLS
            on_result(task, (first, np.ones((size, cols), dtype=np.int64)))

    def close(self):
        pass


@pytest.mark.parametrize("a", ["pimc", "oracle", "pimc:worlds=4"])
@pytest.mark.parametrize("workers", [1, 2, 16])
def test_a_search_players_100_matches_are_cut_into_several_tasks(a, workers):
    executor = CountingExecutor(workers)
    run_tournament(make_rules("trinidad"), a, "heuristic", 100, seed=1, executor=executor)
    cut = [(task.args[-2], task.args[-1]) for task in executor.tasks]
    assert len(cut) >= min(50, 4 * workers) and max(size for _, size in cut) <= tournament.SEARCH_CHUNK_PAIRS
    assert sorted(cut) == cut and [first for first, _ in cut] == list(np.cumsum([0] + [n for _, n in cut])[:-1])
    assert sum(size for _, size in cut) == 50 and len({task.key for task in executor.tasks}) == len(cut)


def test_cheap_players_are_cut_by_the_workers_into_large_tasks():
    executor = CountingExecutor(2)
    run_tournament(make_rules("trinidad"), "heuristic", "random", 200_000, seed=1, executor=executor)
    sizes = [task.args[-1] for task in executor.tasks]
    assert sum(sizes) == 100_000 and sizes[0] == tournament.CHUNK_PAIRS > 1000 and sizes[-8:] == [1] * 8
    assert sizes == sorted(sizes, reverse=True) and 20 < len(sizes) < 100
    executor = CountingExecutor(2)
    run_tournament(make_rules("trinidad"), "heuristic", "random", 2_000, seed=1, executor=executor)
    sizes = [task.args[-1] for task in executor.tasks]
    assert sum(sizes) == 1000 and sizes[:3] == [125, 110, 96]  # an eighth of what is left: 4 tasks a thread, then less


def test_a_search_players_run_deal_duel_is_cut_into_several_tasks():
    from analyser.analysis.play.tournament import run_deal_duel

    executor = CountingExecutor(2)
    run_deal_duel(make_rules("trinidad"), "pimc", "pimc:max_cards=24", 100, seed=1, executor=executor)
    sizes = [task.args[-1] for task in executor.tasks]
    assert sum(sizes) == 100 and len(sizes) >= 8 and max(sizes) <= tournament.SEARCH_CHUNK_RUN_DEALS


def test_identical_policies_split_every_pair_exactly():
    # A duplicate pair of the same deterministic policy replays one match with the sides
    # swapped: each side wins exactly one of the two.
    res = run_tournament(make_rules("trinidad"), "heuristic", "heuristic", 40, seed=2)
    assert res.a_wins == 20 and res.a_win_rate.mean == 0.5
    assert res.a_points_per_deal.mean == res.b_points_per_deal.mean


def test_heuristic_beats_random_in_three_quarters_of_trinidad_matches():
    res = run_tournament(make_rules("trinidad"), "heuristic", "random", 1000, seed=1)
    assert res.a_win_rate_ci95[0] > 0.75
    assert res.diff_points_per_deal.ci95[0] > 0


def test_odd_matches_round_up_to_pairs_and_three_players_are_refused():
    assert run_tournament(make_rules("trinidad", players=2), "random", "random", 5, seed=1).matches == 6
    with pytest.raises(TournamentError, match="2 or 4 players"):
        run_tournament(make_rules("classic", players=3), "heuristic", "random", 10, seed=1)


def test_statistics_count_pairs_as_the_independent_units():
    est, ci = win_rate(np.array([2.0, 0.0, 1.0, 1.0]))
    assert est.mean == 0.5
    assert est.se == pytest.approx(np.std([1, 0, 0.5, 0.5], ddof=1) / 2)
    assert ci[0] < 0.5 < ci[1]
    # Every pair split: no spread, so the interval falls back to Wilson's on the pairs.
    est, ci = win_rate(np.array([1.0] * 10))
    assert est.se == 0 and 0 < ci[0] < 0.5 < ci[1] < 1
    r = ratio(np.array([3.0, 5.0, 4.0]), np.array([2.0, 2.0, 2.0]))
    assert r.mean == 2.0 and r.se == pytest.approx(np.std([1.5, 2.5, 2.0], ddof=1) / np.sqrt(3))


def test_cli_json():
    result = CliRunner().invoke(
        app, ["tournament", "--rules", "trinidad", "--a", "heuristic", "--b", "random", "--matches", "40",
              "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["a"] == "heuristic" and data["b"] == "random" and data["matches"] == 40
    lo, hi = data["a_win_rate_ci95"]
    assert 0 <= lo <= data["a_win_rate"] <= hi <= 1
    for side in ("a", "b"):
        est = data[f"{side}_points_per_deal"]
        assert est["ci95"][0] <= est["value"] <= est["ci95"][1]
    again = CliRunner().invoke(
        app, ["tournament", "--a", "heuristic", "--b", "random", "--matches", "40", "--seed", "4", "--json"])
    assert json.loads(again.stdout) == data


def test_cli_errors_are_one_line():
    result = CliRunner().invoke(app, ["tournament", "--rules", "classic", "--players", "3", "--matches", "10"])
    assert result.exit_code != 0
    assert "2 or 4 players" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(app, ["tournament", "--a", "clever", "--matches", "10"])
    assert result.exit_code != 0 and "unknown policy" in result.output


# --- duplicated deals with runs (issue 31) ------------------------------------------------------------------------


def test_run_deals_identical_players_net_exactly_zero_and_only_run_deals_count():
    """The same player on both sides: each run deal's two copies cancel exactly (kicks and gift included)."""
    from analyser.analysis.play.tournament import run_deal_duel

    result = run_deal_duel(make_rules("trinidad"), "heuristic", "heuristic", 60, seed=3, threads=1)
    assert result.deals == 60 and 0 < result.run_deals < 60 and result.twice_run <= result.run_deals
    assert result.a_net_per_run_deal.mean == 0.0 and result.a_net_per_run_deal.se == 0.0


def test_run_deals_same_seed_same_result_and_cli(monkeypatch):
    from analyser.analysis.play.tournament import run_deal_duel

    rules = make_rules("trinidad")
    one = run_deal_duel(rules, "pimc:worlds=2", "pimc:worlds=2,max_cards=24", 30, seed=2, threads=1)
    two = run_deal_duel(rules, "pimc:worlds=2", "pimc:worlds=2,max_cards=24", 30, seed=2, threads=2, chunk=4)
    assert one.as_dict() == two.as_dict() and one.run_deals > 0  # deal i from the seed and i: any cut
    result = CliRunner().invoke(app, ["tournament", "--a", "pimc:worlds=2", "--b", "pimc:worlds=2,max_cards=24",
                                      "--run-deals", "30", "--seed", "2", "--threads", "1", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    doc.pop("version")
    assert doc == json.loads(json.dumps(one.as_dict()))
