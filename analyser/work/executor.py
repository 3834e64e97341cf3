"""Where chunk tasks run: threads in this process, or a Dask cluster.

An executor runs tasks ``fn(*task.args)`` and calls ``on_result(task, result)`` in the
calling thread as each finishes, in any order. Callers make results independent of
that order (seeded chunks, integer sums, results placed by index), so a seed gives the
same answer on 1 thread or 40 workers.

- ``LocalExecutor(threads)``: a thread pool (the kernels release the GIL). It also
  passes ``stop`` (an Event) and ``progress`` keywords to ``fn``, so a task reports
  progress as it goes and stops between steps when the run is interrupted; a task
  that stopped returns None and is dropped.
- ``DaskExecutor(scheduler=ADDRESS | local_workers=N | client=CLIENT)``: each task is a Dask future
  with its own key and ``retries``; a worker that dies has its tasks rerun elsewhere by
  the scheduler. ``fn`` must be a module-level function (it is pickled by reference,
  so workers need the same ``allfours`` installed); it gets no ``stop``/``progress``,
  and ``progress(task.size)`` is called when its result arrives. Workers import the
  engine, and load numba's cached kernels, on their first task only.

Both keep a bounded window of submitted tasks, so memory stays flat however many
chunks a run has, and both cancel what is outstanding if ``on_result`` raises or the
run is interrupted (Ctrl-C), then re-raise.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import pickle
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple, Protocol
from ..game.errors import AllFoursError

Progress = Callable[[int], None]
RETRIES = 3            # Dask reruns a task that raised this many times before giving up
CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler
TASKS_PER_WORKER = 4   # work_chunks: a run is cut into at least this many tasks per worker thread where it can be


class ExecutorError(AllFoursError):
    """A scheduler that cannot be reached, a bad --cluster value, or contradictory options."""


class Task(NamedTuple):
    """One unit of work: `key` names it (unique within a run), `size` is what it counts for in progress."""

    key: str
    args: tuple
    size: int = 1


class Timing(NamedTuple):
    """Where and how long a task ran (measured inside the worker)."""

    key: str
    seconds: float
    worker: str
    first: bool  # the first task of its worker process (it paid for imports and loading the kernels)


class Executor(Protocol):
    @property
    def timings(self) -> list[Timing]:
        """Where and how long each finished task ran (a list the executor appends to)."""
        ...

    @property
    def parallelism(self) -> int:
        """Tasks that can run at once (threads, or the cluster's worker threads)."""
        ...

    def run(self, fn: Callable[..., Any], tasks: Iterable[Task], on_result: Callable[[Task, Any], None],
            progress: Progress | None = None) -> None: ...

    def close(self) -> None: ...


def work_chunks(units: int, parallelism: int, most: int, per_worker: int = TASKS_PER_WORKER) -> list[tuple[int, int]]:
    """(first, size) of each task of a run of `units` independent units (duplicate pairs, deals, matches), cut by
    the work so every worker has some until the end: each task takes 1 / (`per_worker` x `parallelism`) of the
    units still left (`parallelism`: the executor's worker threads), at most `most` (what a task of these
    players does in about a second or a few: thousands of the heuristic's pairs, a few of a search player's) and
    at least one. So a run is at least `per_worker` tasks a worker where there are units enough, and its last
    tasks are single units: no worker waits long for another's last task. For runs whose unit i draws its streams
    from the seed and i alone (``engine.bits.unit_stream``), so the cut changes nothing but the speed.

    >>> work_chunks(10, 2, 1000), work_chunks(3, 8, 100)
    ([(0, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (9, 1)], [(0, 1), (1, 1), (2, 1)])
    >>> [size for _, size in work_chunks(40, 1, 4)]
    [4, 4, 4, 4, 4, 4, 4, 3, 3, 2, 1, 1, 1, 1]
    """
    chunks: list[tuple[int, int]] = []
    first, share = 0, max(1, parallelism) * max(1, per_worker)
    while first < units:
        size = max(1, min(most, -(-(units - first) // share)))
        chunks.append((first, size))
        first += size
    return chunks


def source_fingerprint() -> str:
    """Hash of the sources that decide what a task computes (engine, policies, rules)."""
    digest = hashlib.sha256()
    root = Path(__file__).parent.parent
    for path in sorted(root.joinpath("engine").rglob("*.py")) + [root / "players" / "policy.py", root / "game" / "rules.py"]:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# The sources as this process imported them (its tasks import the engine just after this
# module), not as they are on disk later: a client and its workers must have loaded the same.
LOADED_SOURCES = source_fingerprint()
_tasks_started = itertools.count()  # per process: 0 marks its first task


def run_task(fn: Callable[..., Any], args: tuple, key: str, fingerprint: str) -> tuple[Any, Timing]:
    """What a Dask worker runs: `fn(*args)`, timed, after checking it has the client's sources."""
    first = next(_tasks_started) == 0
    start = time.perf_counter()
    mine = LOADED_SOURCES
    if mine != fingerprint:  # other sources would play other deals: refuse rather than mix them
        raise RuntimeError(f"worker on {os.uname().nodename} runs other allfours sources ({mine}, client "
                           f"{fingerprint}): install the same version on every machine")
    result = fn(*args)
    return result, Timing(key, time.perf_counter() - start, f"{os.uname().nodename}:{os.getpid()}", first)


class LocalExecutor:
    """Tasks on a pool of threads in this process."""

    def __init__(self, threads: int | None = None) -> None:
        self.parallelism = max(1, threads or os.cpu_count() or 1)
        self.timings: list[Timing] = []

    def run(self, fn: Callable[..., Any], tasks: Iterable[Task], on_result: Callable[[Task, Any], None],
            progress: Progress | None = None) -> None:
        stop = threading.Event()
        started: set[int] = set()

        def work(task: Task) -> tuple[Any, Timing]:
            thread = threading.get_ident()
            first = thread not in started
            started.add(thread)
            begin = time.perf_counter()
            result = fn(*task.args, stop=stop, progress=progress)
            return result, Timing(task.key, time.perf_counter() - begin, f"thread-{thread}", first)

        pool = ThreadPoolExecutor(max_workers=self.parallelism, thread_name_prefix="allfours-task")
        waiting = iter(tasks)
        pending: dict[Future[tuple[Any, Timing]], Task] = {}
        try:
            while True:
                for task in itertools.islice(waiting, max(0, 2 * self.parallelism - len(pending))):
                    pending[pool.submit(work, task)] = task
                if not pending:
                    break
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = pending.pop(future)
                    result, timing = future.result()
                    if result is not None:
                        self.timings.append(timing)
                        on_result(task, result)
        except BaseException:
            stop.set()  # running tasks stop at their next step
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        pass


class KeptExecutor:
    """Another executor whose finished tasks are kept in `folder`, one file each, so that the same run after an
    interruption computes only the tasks it had not finished (each found one is handed to ``on_result`` as if
    it had just run). A task's file is named by a hash of the function, the task's key and arguments, `key`
    (what else decides the result) and the sources (``source_fingerprint``): a file of other work, or of
    other sources, is never read. Results must pickle; a file is written whole or not at all."""

    def __init__(self, inner: Executor, folder: Path, key: str = "") -> None:
        self.inner, self.folder, self.key = inner, Path(folder), key
        self.fingerprint = source_fingerprint()
        self.found = 0  # tasks answered from the folder in this executor's runs

    @property
    def parallelism(self) -> int:
        return self.inner.parallelism

    @property
    def timings(self) -> list[Timing]:
        return self.inner.timings

    def path(self, fn: Callable[..., Any], task: Task) -> Path:
        digest = hashlib.sha256()
        for part in (f"{fn.__module__}.{fn.__qualname__}", task.key, self.key, self.fingerprint):
            digest.update(part.encode() + b"\0")
        digest.update(pickle.dumps(task.args, protocol=4))
        return self.folder / f"{digest.hexdigest()[:32]}.pickle"

    def run(self, fn: Callable[..., Any], tasks: Iterable[Task], on_result: Callable[[Task, Any], None],
            progress: Progress | None = None) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)

        def missing() -> Iterator[Task]:
            for task in tasks:  # consumed in the calling thread, so on_result stays there
                path = self.path(fn, task)
                if path.is_file():
                    self.found += 1
                    on_result(task, pickle.loads(path.read_bytes()))
                    if progress is not None:
                        progress(task.size)
                else:
                    yield task

        def keep(task: Task, result: Any) -> None:
            path = self.path(fn, task)
            part = path.with_suffix(".tmp")
            part.write_bytes(pickle.dumps(result, protocol=4))
            os.replace(part, path)
            on_result(task, result)

        self.inner.run(fn, missing(), keep, progress)

    def close(self) -> None:
        self.inner.close()


def parse_cluster(value: str) -> int:
    """Workers of ``local:N`` (N local worker processes, one thread each)."""
    kind, _, count = value.partition(":")
    if kind != "local" or not count.isdigit() or not 1 <= int(count) <= 256:
        raise ExecutorError(f"--cluster {value}: expected local:N with N worker processes, 1 to 256")
    return int(count)


class DaskExecutor:
    """Tasks as futures on a Dask cluster: a scheduler's address, a LocalCluster of
    `local_workers` processes started here, or a ``distributed.Client`` the caller owns.

    Connects (or starts the cluster) on first use, so an answer from a cache costs nothing;
    ``close`` closes only what it opened.
    """

    def __init__(self, scheduler: str | None = None, local_workers: int | None = None, client: Any = None,
                 connect_timeout: float = CONNECT_TIMEOUT, retries: int = RETRIES) -> None:
        if sum(x is not None for x in (scheduler, local_workers, client)) != 1:
            raise ExecutorError("give one of a scheduler address, a number of local workers or a client")
        check_options(None, scheduler, None)
        self.scheduler, self.local_workers = scheduler, local_workers
        self.connect_timeout, self.retries = connect_timeout, retries
        self.timings: list[Timing] = []
        self._client: Any = client
        self._owns_client = client is None
        self._cluster: Any = None

    @property
    def client(self) -> Any:
        """The ``distributed.Client`` (connecting or starting the local cluster if need be)."""
        if self._client is None:
            from distributed import Client, LocalCluster

            try:
                if self.local_workers is not None:
                    # Loopback only; one thread per process: numba kernels do the parallel work.
                    self._cluster = LocalCluster(n_workers=self.local_workers, threads_per_worker=1, processes=True,
                                                 host="127.0.0.1", dashboard_address=":0",
                                                 silence_logs=logging.CRITICAL)
                    self._client = Client(self._cluster, set_as_default=False)
                else:
                    self._client = Client(self.scheduler, timeout=self.connect_timeout, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as err:
                self.close()
                where = f"the scheduler at {self.scheduler}" if self.scheduler else "a local cluster"
                raise ExecutorError(f"cannot reach {where}: {err}") from None
        return self._client

    @property
    def parallelism(self) -> int:
        if self.local_workers is not None and self._client is None:
            return self.local_workers
        return max(1, sum(self.client.nthreads().values()))

    def run(self, fn: Callable[..., Any], tasks: Iterable[Task], on_result: Callable[[Task, Any], None],
            progress: Progress | None = None) -> None:
        from distributed import as_completed

        client = self.client
        fingerprint = LOADED_SOURCES
        token = uuid.uuid4().hex[:8]  # keys of this run only: another client's run never shares them
        waiting = iter(tasks)
        pending: dict[Any, Task] = {}
        done = as_completed(loop=client.loop)

        def submit_more() -> None:
            # Two tasks per worker thread: one running, one queued behind it; workers that join count.
            for task in itertools.islice(waiting, max(0, 2 * self.parallelism - len(pending))):
                future = client.submit(run_task, fn, task.args, task.key, fingerprint,
                                        key=f"{fn.__name__}-{token}-{task.key}", retries=self.retries)
                pending[future] = task
                done.add(future)

        try:
            submit_more()
            for future in done:
                task = pending.pop(future)
                try:
                    result, timing = future.result()  # the task's error once its retries are spent
                except Exception as err:  # a worker that kept dying (KilledWorker), a lost scheduler, ...
                    raise ExecutorError(f"task {task.key} failed on the cluster: {type(err).__name__}: {err}") from err
                future.release()
                self.timings.append(timing)
                on_result(task, result)
                if progress is not None:
                    progress(task.size)
                submit_more()
        except BaseException:
            try:
                client.cancel(list(pending))
            except Exception:  # the scheduler may be gone; closing the client releases the rest
                pass
            raise

    def close(self) -> None:
        for part in (self._client if self._owns_client else None, self._cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing what is already broken must not hide the real error
                    pass
        if self._owns_client:
            self._client = None
        self._cluster = None


def check_options(threads: int | None, scheduler: str | None, cluster: str | None) -> None:
    """Refuse contradictory --threads / --scheduler / --cluster (before any work is done)."""
    if scheduler is not None and cluster is not None:
        raise ExecutorError("give --scheduler or --cluster, not both")
    if threads is not None and (scheduler is not None or cluster is not None):
        raise ExecutorError("--threads is for local runs; a cluster runs one task per worker thread")
    if cluster is not None:
        parse_cluster(cluster)
    if scheduler is not None:
        # Checked here: a Client given a malformed address hangs for 20 s when it is dropped.
        host, _, port = scheduler.partition("://")[2 if "://" in scheduler else 0].rpartition(":")
        if not host or not port.isdigit():
            raise ExecutorError(f"--scheduler {scheduler}: expected an address like tcp://HOST:8786")


@contextmanager
def open_executor(threads: int | None = None, scheduler: str | None = None,
                  cluster: str | None = None) -> Iterator[LocalExecutor | DaskExecutor]:
    """The executor that the CLI options ask for (local threads by default); closed on exit."""
    check_options(threads, scheduler, cluster)
    executor: LocalExecutor | DaskExecutor
    if scheduler is not None:
        executor = DaskExecutor(scheduler=scheduler)
    elif cluster is not None:
        executor = DaskExecutor(local_workers=parse_cluster(cluster))
    else:
        executor = LocalExecutor(threads)
    try:
        yield executor
    finally:
        executor.close()


def overhead(timings: list[Timing], wall: float, parallelism: int) -> float:
    """Share of the workers' time not spent inside tasks: 1 - sum(task time) / (wall * parallelism)."""
    if wall <= 0 or parallelism <= 0:
        return 0.0
    return 1.0 - sum(t.seconds for t in timings) / (wall * parallelism)
