"""KeptExecutor: finished tasks kept on disk, so an interrupted run computes only what it had not finished."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from analyser.analysis.bidding.strategy import run_strategy
from analyser.work.executor import KeptExecutor, LocalExecutor, Task
from analyser.game.rules import make_rules

CALLS: list[int] = []
LOCK = threading.Lock()


def square(x: int, stop: Any = None, progress: Any = None) -> int:
    with LOCK:
        CALLS.append(x)
    return x * x


def tasks(n: int) -> list[Task]:
    return [Task(f"t{k}", (k,)) for k in range(n)]


class Interrupted(Exception):
    pass


def test_an_interrupted_run_computes_only_the_missing_tasks(tmp_path: Path) -> None:
    CALLS.clear()
    seen: dict[str, int] = {}

    def stop_after_four(task: Task, result: int) -> None:
        seen[task.key] = result
        if len(seen) == 4:
            raise Interrupted

    with pytest.raises(Interrupted):
        KeptExecutor(LocalExecutor(1), tmp_path / "kept").run(square, tasks(10), stop_after_four)
    assert len(list((tmp_path / "kept").glob("*.pickle"))) == 4
    first_calls = len(CALLS)

    CALLS.clear()
    results: dict[str, int] = {}
    done: list[int] = []
    again = KeptExecutor(LocalExecutor(2), tmp_path / "kept")
    again.run(square, tasks(10), lambda task, result: results.__setitem__(task.key, result), done.append)
    assert results == {f"t{k}": k * k for k in range(10)}
    assert again.found == 4
    assert sorted(CALLS) == sorted(set(range(10)) - {int(key[1:]) for key in seen})
    assert first_calls >= 4
    assert sum(done) >= 4  # the kept ones count in the progress too


def test_other_arguments_or_another_key_never_read_a_kept_result(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    KeptExecutor(LocalExecutor(1), kept, key="a").run(square, tasks(3), lambda task, result: None)
    other_key = KeptExecutor(LocalExecutor(1), kept, key="b")
    other_key.run(square, tasks(3), lambda task, result: None)
    assert other_key.found == 0
    other_args = KeptExecutor(LocalExecutor(1), kept, key="a")
    other_args.run(square, [Task(f"t{k}", (k + 1,)) for k in range(3)], lambda task, result: None)
    assert other_args.found == 0
    same = KeptExecutor(LocalExecutor(1), kept, key="a")
    same.run(square, tasks(3), lambda task, result: None)
    assert same.found == 3


def test_a_strategy_run_through_kept_chunks_equals_the_plain_run_and_resumes_the_same(tmp_path: Path) -> None:
    rules = make_rules("trinidad", players=4)
    plain = run_strategy(rules, "heuristic", deals=400, seed=5, rounds=2, threads=1, chunk_deals=100)
    first = KeptExecutor(LocalExecutor(2), tmp_path / "kept")
    kept = run_strategy(rules, "heuristic", deals=400, seed=5, rounds=2, executor=first, chunk_deals=100)
    assert first.found == 0
    resumed = KeptExecutor(LocalExecutor(1), tmp_path / "kept")
    again = run_strategy(rules, "heuristic", deals=400, seed=5, rounds=2, executor=resumed, chunk_deals=100)
    assert resumed.found == 8  # 4 chunks a round, two rounds: nothing played again
    for role in ("eldest", "dealer"):
        a, b, c = plain.final(role), kept.final(role), again.final(role)
        assert a["recommend"].tolist() == b["recommend"].tolist() == c["recommend"].tolist()
        for column in ("n", "diff_mean", "diff_ci_lo"):
            assert np.array_equal(a[column].to_numpy(), b[column].to_numpy(), equal_nan=True)
            assert np.array_equal(a[column].to_numpy(), c[column].to_numpy(), equal_nan=True)
