"""Runs on a Dask cluster: byte-identical to local threads, a killed worker, an interrupted client.

One LocalCluster on loopback (two worker processes, one thread each) serves the module;
the CLI test starts its own with ``--cluster local:2``. Every run is bounded in time.
"""

from __future__ import annotations

import logging
import operator
import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis import runner
from analyser.analysis.play import tournament
from analyser.analysis.bidding.equity import estimate_transitions
from analyser.cli import app
from analyser.work.executor import LOADED_SOURCES, DaskExecutor, ExecutorError, LocalExecutor, Task, run_task, work_chunks
from analyser.game.rules import make_rules

DEALS, CHUNK = 400_000, 50_000  # eight chunks
LIMIT_S = 60


def spec(seed: int = 11, deals: int = DEALS, chunk: int = CHUNK) -> runner.RunSpec:
    return runner.RunSpec.new(make_rules("trinidad"), ["random"], seed, deals, chunk)


def bounded(call: Callable[[], Any], seconds: float = LIMIT_S) -> Any:
    """`call()`, failing the test (not hanging it) if it takes longer than `seconds`."""
    pool = ThreadPoolExecutor(1)
    try:
        return pool.submit(call).result(timeout=seconds)
    finally:
        pool.shutdown(wait=False)  # on a timeout, closing the cluster ends the call


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    from distributed import Client, LocalCluster

    with (LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0",
                       silence_logs=logging.ERROR) as cluster,
          Client(cluster, set_as_default=False) as connected):
        connected.wait_for_workers(2, timeout=LIMIT_S)
        yield connected


def folder_bytes(run_dir: Path) -> dict[str, bytes]:
    return {p.relative_to(run_dir).as_posix(): p.read_bytes() for p in sorted(run_dir.rglob("*"))
            if p.is_file() and p.name != "meta.json"}  # meta.json holds its creation time


def test_cluster_run_is_byte_identical_to_local_threads(client: Any, tmp_path: Path) -> None:
    runner.run(spec(), 2, tmp_path / "local")  # also fills numba's cache before the workers need it
    executor = DaskExecutor(client=client)
    bounded(lambda: runner.run(spec(), executor, tmp_path / "cluster"))
    local, cluster = folder_bytes(tmp_path / "local"), folder_bytes(tmp_path / "cluster")
    assert len(local) == 8 + 2 and local == cluster
    assert len(executor.timings) == 8 and len({t.worker for t in executor.timings}) == 2


def test_equity_transitions_on_the_cluster_equal_local(client: Any) -> None:
    rules = make_rules("trinidad", settings=["target=4"])
    local = estimate_transitions(rules, "random", 2_000, 5, threads=1)
    remote = bounded(lambda: estimate_transitions(rules, "random", 2_000, 5, executor=DaskExecutor(client=client)))
    assert np.array_equal(local, remote)


def test_cli_scheduler_address_runs_on_that_cluster(client: Any, tmp_path: Path) -> None:
    common = ["simulate", "--deals", "120000", "--chunk-size", "40000", "--seed", "5", "--json"]
    code, stderr = invoke(*common, "--threads", "1", "--out", str(tmp_path / "local"))
    assert code == 0, stderr
    code, stderr = bounded(lambda: invoke(*common, "--scheduler", client.scheduler.address, "--out",
                                          str(tmp_path / "cluster")))
    assert code == 0, stderr
    assert folder_bytes(tmp_path / "local") == folder_bytes(tmp_path / "cluster")


def test_interrupted_client_resumes_on_the_cluster(client: Any, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"

    def interrupt(chunk: runner.ChunkResult) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bounded(lambda: runner.run(spec(), DaskExecutor(client=client), run_dir, on_chunk=interrupt))
    kept = list((run_dir / "chunks").glob("chunk-*.parquet"))
    assert len(kept) == 1 and not (run_dir / "summary.json").exists()
    resumed = bounded(lambda: runner.run(spec(), DaskExecutor(client=client), run_dir, resume=True))
    assert runner.summary_json(resumed) == runner.summary_json(runner.run(spec(), 2))


def test_a_failing_task_is_retried_then_reported_as_one_error(client: Any) -> None:
    executor = DaskExecutor(client=client, retries=1)
    with pytest.raises(ExecutorError, match="task one failed on the cluster: ZeroDivisionError"):
        bounded(lambda: executor.run(operator.truediv, [Task("one", (1, 0))], lambda task, result: None))


def test_a_tournament_on_the_cluster_is_the_one_on_local_threads(client: Any) -> None:
    rules = make_rules("trinidad", players=2)
    local = tournament.run_tournament(rules, "heuristic", "random", 240, seed=5, threads=2, chunk=30)
    executor = DaskExecutor(client=client)
    cluster = bounded(lambda: tournament.run_tournament(rules, "heuristic", "random", 240, seed=5, executor=executor))
    assert cluster.as_dict() == local.as_dict()
    assert len(executor.timings) == len(work_chunks(120, 2, tournament.CHUNK_PAIRS)) > 8  # 4 a worker, then less


def test_a_search_players_tournament_on_the_cluster_is_the_one_on_one_thread(client: Any) -> None:
    """Pair i (deal i of a run-deal duel) plays from the seed and i alone: two workers, one task a pair, give
    what one thread gives in tasks of two (tests/analysis/play/test_tournament.py: the same JSON on 1 or 2
    threads, the CLI)."""
    rules = make_rules("trinidad", players=2)
    local = tournament.run_tournament(rules, "pimc:worlds=4", "heuristic", 12, seed=7, threads=1)
    executor = DaskExecutor(client=client)
    cluster = bounded(lambda: tournament.run_tournament(rules, "pimc:worlds=4", "heuristic", 12, seed=7,
                                                        executor=executor), 120)
    assert cluster.as_dict() == local.as_dict() and len(executor.timings) == 6
    assert len({timing.worker for timing in executor.timings}) == 2  # both workers played
    duel = ("pimc:worlds=2", "pimc:worlds=2,max_cards=24", 16)
    local_duel = tournament.run_deal_duel(make_rules("trinidad"), *duel, seed=2, threads=1)
    cluster_duel = bounded(lambda: tournament.run_deal_duel(make_rules("trinidad"), *duel, seed=2,
                                                            executor=DaskExecutor(client=client)), 120)
    assert cluster_duel.as_dict() == local_duel.as_dict() and local_duel.run_deals > 0


# ---- the command line -----------------------------------------------------------------------

def test_a_worker_killed_mid_run_loses_nothing(client: Any, tmp_path: Path) -> None:
    # Last in the module: the nanny restarts the killed worker, under a new address.
    # Chunks of 200,000 deals (about 0.2 s) so that the kill lands while one is being played.
    run_spec = spec(seed=12, deals=1_600_000, chunk=200_000)
    expected = runner.summary_json(runner.run(run_spec, 2))
    pids = client.run(os.getpid)
    killed: list[str] = []

    def kill_a_busy_worker(chunk: runner.ChunkResult) -> None:
        if killed:
            return
        deadline = time.monotonic() + 10  # a worker that just finished a chunk gets its next one in a moment
        while not (busy := [address for address, keys in client.processing().items() if keys]):
            assert time.monotonic() < deadline, "no worker had a chunk to lose"
            time.sleep(0.01)
        killed.append(busy[0])
        os.kill(pids[busy[0]], signal.SIGKILL)

    executor = DaskExecutor(client=client)
    summary = bounded(lambda: runner.run(run_spec, executor, tmp_path / "run", on_chunk=kill_a_busy_worker))
    assert killed and runner.summary_json(summary) == expected
    deadline = time.monotonic() + 10  # the scheduler may notice the death after the last chunk came back
    while killed[0] in client.scheduler_info()["workers"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert killed[0] not in client.scheduler_info()["workers"]


def invoke(*args: str) -> tuple[int, str]:
    """Exit code and stderr."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stderr


def test_cli_cluster_local_2_writes_the_same_files_as_threads(tmp_path: Path) -> None:
    common = ["simulate", "--deals", "300000", "--chunk-size", "60000", "--seed", "4", "--json"]
    code, output = invoke(*common, "--threads", "2", "--out", str(tmp_path / "local"))
    assert code == 0, output
    code, output = bounded(lambda: invoke(*common, "--cluster", "local:2", "--out", str(tmp_path / "cluster")))
    assert code == 0, output
    assert folder_bytes(tmp_path / "local") == folder_bytes(tmp_path / "cluster")


@pytest.mark.parametrize("options, message", [
    (["--cluster", "local:2", "--threads", "2"], "--threads is for local runs"),
    (["--cluster", "local:2", "--scheduler", "tcp://127.0.0.1:8786"], "not both"),
    (["--cluster", "remote:3"], "expected local:N"),
    (["--scheduler", "localhost"], "expected an address like tcp://HOST:8786"),
])
def test_cli_refuses_contradictory_options_in_one_line(options: list[str], message: str) -> None:
    for command in (["simulate", "--deals", "10"], ["equity", "--set", "target=2"], ["tournament", "--matches", "2"]):
        code, stderr = invoke(*command, *options)
        assert code == 2 and message in stderr and len(stderr.strip().splitlines()) == 1, stderr


def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    executor = DaskExecutor(scheduler="tcp://127.0.0.1:1", connect_timeout=1)
    with pytest.raises(ExecutorError, match="cannot reach the scheduler at tcp://127.0.0.1:1"):
        bounded(lambda: executor.run(operator.add, [Task("x", (1, 2))], lambda task, result: None), 30)


def test_a_worker_with_other_sources_refuses_to_run() -> None:
    with pytest.raises(RuntimeError, match="other allfours sources"):
        run_task(operator.add, (1, 2), "x", "0" * 16)
    assert run_task(operator.add, (1, 2), "x", LOADED_SOURCES)[0] == 3


def test_local_executor_calls_back_with_every_result() -> None:
    seen: dict[str, int] = {}
    tasks = [Task(f"t{k}", (k,)) for k in range(10)]
    LocalExecutor(3).run(lambda k, stop, progress: k * k, tasks, lambda task, result: seen.__setitem__(task.key, result))
    assert seen == {f"t{k}": k * k for k in range(10)}
