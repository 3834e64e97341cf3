"""check-advice's observation of a card player (how often it follows each play tip): every observed deal draws
its cards and choices from its own streams (the seed and its index), so the counts are the same on 1 or 2
threads, with any chunk size and on a Dask cluster; a search player's observation is cut into several tasks
sized by its work."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from analyser.analysis.play import play_advice
from analyser.analysis.play.play_advice import observe_chunk_most, observe_counts
from analyser.engine.bits import unit_keys
from analyser.engine.search import play_buffer_for
from analyser.engine.tipcheck import N_TO_COLS, TO_SITUATIONS, observe_tips
from analyser.engine.tips import N_TIPS
from analyser.work.executor import DaskExecutor, LocalExecutor, Task, work_chunks
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules

OBSERVER = "pimc:worlds=4"  # a seeded search player all the same, quick
DEALS = 12
SEED = 7
LIMIT_S = 300  # a cluster's workers load the search kernels on their first task


class Counting:
    """A LocalExecutor that keeps the sizes of the tasks it was given."""

    def __init__(self, threads: int) -> None:
        self.inner = LocalExecutor(threads)
        self.sizes: list[int] = []

    @property
    def parallelism(self) -> int:
        return self.inner.parallelism

    @property
    def timings(self) -> list[Any]:
        return self.inner.timings

    def run(self, fn: Callable[..., Any], tasks: Iterable[Task], on_result: Callable[[Task, Any], None],
            progress: Callable[[int], None] | None = None) -> None:
        def seen() -> Iterator[Task]:
            for task in tasks:
                self.sizes.append(task.size)
                yield task

        self.inner.run(fn, seen(), on_result, progress)

    def close(self) -> None:
        pass


def kernel_counts(first: int, n: int) -> np.ndarray:
    """The kernel's counts of the observation's deals first .. first + n - 1, in one call."""
    rules = make_rules("trinidad", players=2).as_array()
    kinds, params = seat_policies([OBSERVER], 2)
    deck_key, key = unit_keys(SEED, play_advice.PLAY_STREAM + 2, 2)
    out = np.zeros((N_TIPS, N_TO_COLS), dtype=np.int64)
    observe_tips(rules, first, n, np.zeros(4, dtype=np.int64), kinds, params, deck_key, key, play_buffer_for(kinds),
                 out)
    return out


def observed(executor: Any, chunk: int | None = None, deals: int = DEALS) -> list[list[int]]:
    rules = make_rules("trinidad", players=2)
    return observe_counts(rules, OBSERVER, deals, SEED, np.zeros(4, dtype=np.int64), executor, chunk=chunk).tolist()


@pytest.fixture(scope="module")
def reference() -> list[list[int]]:
    return kernel_counts(0, DEALS).tolist()  # every deal in one call


def test_the_counts_are_the_same_for_any_threads_and_chunks(reference: list[list[int]]) -> None:
    assert sum(row[TO_SITUATIONS] for row in reference) > 0  # the deals hold situations to count
    one, two = Counting(1), Counting(2)
    assert observed(one) == reference
    assert observed(two) == reference
    most = observe_chunk_most(seat_policies([OBSERVER], 2)[0])
    assert one.sizes == [size for _, size in work_chunks(DEALS, 1, most)]  # the shared cut, by the work
    assert two.sizes == [size for _, size in work_chunks(DEALS, 2, most)] and len(two.sizes) >= 2 * 4
    ones = Counting(2)
    assert observed(ones, chunk=1) == reference
    assert ones.sizes == [1] * DEALS
    assert observed(LocalExecutor(1), chunk=DEALS) == observed(LocalExecutor(2), chunk=DEALS + 3) == reference


def test_the_counts_are_the_same_on_a_dask_cluster(reference: list[list[int]]) -> None:
    from distributed import Client, LocalCluster

    with (LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0",
                       silence_logs=logging.ERROR) as cluster,
          Client(cluster, set_as_default=False) as client):
        client.wait_for_workers(2, timeout=60)
        executor = DaskExecutor(client=client)
        pool = ThreadPoolExecutor(1)
        try:
            counts = pool.submit(observed, executor).result(timeout=LIMIT_S)
        finally:
            pool.shutdown(wait=False)
    assert counts == reference
    # TASKS_PER_WORKER tasks a worker at least, where the deals allow: the shared cut
    most = observe_chunk_most(seat_policies([OBSERVER], 2)[0])
    assert len(executor.timings) == len(work_chunks(DEALS, 2, most)) >= 2 * 4


def test_a_deal_is_the_same_wherever_it_falls() -> None:
    """The kernel: deals 0..5 counted in one call are deals 0..2 plus deals 3..5, and deal 3 alone is the same
    whether it is played first or after others (each deal from its own index's streams)."""
    counts = kernel_counts
    whole = counts(0, 6)
    assert whole[:, TO_SITUATIONS].sum() > 0
    assert (counts(0, 3) + counts(3, 3) == whole).all()
    parts = [counts(i, 1) for i in range(6)]
    assert (sum(parts) == whole).all()
    assert any((p != parts[0]).any() for p in parts[1:])  # the deals differ: each has its own streams


def test_a_search_player_is_observed_in_several_tasks_counted_by_deals() -> None:
    executor = Counting(2)
    done: list[int] = []
    observe_counts(make_rules("trinidad", players=2), OBSERVER, 20, SEED, np.zeros(4, dtype=np.int64), executor,
                   progress=done.append)
    assert len(executor.sizes) >= 2 * 3  # several tasks a thread
    assert max(executor.sizes) <= play_advice.OBSERVE_SEARCH_CHUNK and sum(executor.sizes) == 20
    assert sum(done) == 20  # the progress counts deals


def test_tasks_are_sized_by_the_players_work() -> None:
    """A search player's task holds a few deals (pimc's 200 of a report: 50 tasks), the heuristic's thousands."""
    for players in (["pimc"], ["oracle"], ["pimc:worlds=4"], ["heuristic", "heuristic", "heuristic", "pimc"]):
        assert observe_chunk_most(seat_policies(players, 4)[0]) == play_advice.OBSERVE_SEARCH_CHUNK == 4, players
    for players in (["heuristic"], ["random"], ["heuristic:tip_trump_ace=1"]):
        assert observe_chunk_most(seat_policies(players, 4)[0]) == play_advice.CHUNK_PLAY_DEALS == 5000, players
    chunks = work_chunks(200, 2, observe_chunk_most(seat_policies(["pimc"], 4)[0]))
    assert len(chunks) >= 50 and max(size for _, size in chunks) == 4 and sum(size for _, size in chunks) == 200


def test_a_task_needs_a_deal() -> None:
    with pytest.raises(ValueError, match="at least 1 deal"):
        observed(LocalExecutor(1), chunk=0)
