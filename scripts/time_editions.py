"""Wall time of the reference edition's default run at two commits, one edition at a time.

    .venv/bin/python scripts/time_editions.py 9fc0f1d 7c9b939 trinidad-tobago-4p
    .venv/bin/python scripts/time_editions.py 9fc0f1d 7c9b939 classic-2p classic-3p --after-first
    .venv/bin/python scripts/time_editions.py 9fc0f1d 7c9b939 --table      (the table of what is recorded)

Each commit is checked out in a worktree of its own (``--work``, default /tmp/time-editions/SHA, made once and
reused, so its numba cache stays warm for the next run). For each edition, each commit in turn (the *before*
commit first unless ``--after-first``): a warm-up run of the same edition at ``--warm-scale`` fills that tree's
numba cache, then the timed run, ``scripts/reference_edition.py --only NAME --scale 1`` of that tree with
``PYTHONPATH`` set to it, writing into the tree's own ``results/`` (the worktree's copy, thrown away). The runs go
one after the other; keep the machine otherwise idle. Each finished run is appended at once to ``--record`` (default
results/edition-times.jsonl, committed; JSON lines: edition, commit, scale, wall seconds, UTC start and end, exit status, machine), so an interrupted session
loses only the run in progress, and ``--table`` prints every edition timed at both commits as a markdown table
(after / before per edition; the latest record of each). The whole default run (``make report``, seven editions)
takes hours on two cores, so the editions are timed in separate invocations and summed; ``--side before`` (or
``after``) times one commit only, for an edition whose two runs do not fit in one sitting.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "results" / "edition-times.jsonl"  # committed: the editions are timed over several sessions
EDITIONS = ("classic-2p", "classic-3p", "classic-4p", "partnership-seven-4p", "trinidad-2p",
            "trinidad-tobago-4p", "trinidad-4p")


def short_sha(commit: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short=7", commit], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def worktree(sha: str, work: Path) -> Path:
    """A worktree of `sha` under `work`, made once (detached, forced past a stale registration)."""
    tree = work / sha
    if not (tree / "scripts" / "reference_edition.py").is_file():
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(tree), sha], cwd=ROOT, check=True,
                       capture_output=True)
    return tree


def timed_run(tree: Path, edition: str, scale: float, log: Path) -> tuple[float, int, str, str]:
    """Run the edition at `scale` in `tree`; (wall seconds, exit status, UTC start, UTC end)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "scripts/reference_edition.py", "--only", edition, "--scale", str(scale),
               "--out", str(tree / "results")]
    start = dt.datetime.now(dt.timezone.utc)
    began = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        rc = subprocess.run(command, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - began
    end = dt.datetime.now(dt.timezone.utc)
    return wall, rc, start.strftime("%Y-%m-%dT%H:%M:%SZ"), end.strftime("%Y-%m-%dT%H:%M:%SZ")


def read_records(record: Path) -> list[dict]:
    if not record.is_file():
        return []
    return [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines() if line.strip()]


def table(records: list[dict], before: str, after: str) -> str:
    """Markdown rows of every edition with a finished full-scale run at both commits (the latest of each)."""
    latest: dict[tuple[str, str], dict] = {}
    for r in records:
        if r["scale"] == 1 and r["rc"] == 0 and not r["warm_up"]:
            latest[(r["edition"], r["commit"])] = r
    rows = [f"| edition | before ({before}) s | after ({after}) s | after / before |", "|---|---|---|---|"]
    total_b = total_a = 0.0
    for name in EDITIONS:
        b, a = latest.get((name, before)), latest.get((name, after))
        if b is None or a is None:
            shown = [f"{r['wall_s']:.1f}" if r else "not timed" for r in (b, a)]
            rows.append(f"| {name} | {shown[0]} | {shown[1]} | |")
            continue
        total_b += b["wall_s"]
        total_a += a["wall_s"]
        rows.append(f"| {name} | {b['wall_s']:.1f} | {a['wall_s']:.1f} | {a['wall_s'] / b['wall_s']:.2f} |")
    rows.append(f"| editions timed at both, summed | {total_b:.1f} | {total_a:.1f} | "
                f"{(total_a / total_b if total_b else float('nan')):.2f} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("editions", nargs="*", metavar="EDITION", help=f"any of {', '.join(EDITIONS)}")
    parser.add_argument("--after-first", action="store_true", help="time the after commit first")
    parser.add_argument("--side", choices=("both", "before", "after"), default="both",
                        help="time one commit only (an edition too long to time twice in one sitting)")
    parser.add_argument("--warm-scale", type=float, default=0.002, help="scale of the warm-up run (0: none)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/time-editions"))
    parser.add_argument("--record", type=Path, default=RECORD, help="JSON lines of finished runs (appended)")
    parser.add_argument("--table", action="store_true", help="only print the table of what is recorded")
    args = parser.parse_args()
    unknown = [e for e in args.editions if e not in EDITIONS]
    if unknown:
        parser.error(f"unknown edition {unknown[0]!r} (one of {', '.join(EDITIONS)})")
    before, after = short_sha(args.before), short_sha(args.after)
    record = args.record
    if args.table or not args.editions:
        print(table(read_records(record), before, after))
        return 0
    args.work.mkdir(parents=True, exist_ok=True)
    order: tuple[str, ...] = (after, before) if args.after_first else (before, after)
    if args.side != "both":
        order = (before,) if args.side == "before" else (after,)
    for edition in args.editions:
        for sha in order:
            tree = worktree(sha, args.work)
            runs = ([(args.warm_scale, True)] if args.warm_scale > 0 else []) + [(1.0, False)]
            for scale, warm_up in runs:
                tag = f"{edition}-{sha}-{'warm' if warm_up else 'timed'}"
                print(f"{tag}: running (log {args.work / (tag + '.log')})", flush=True)
                wall, rc, start, end = timed_run(tree, edition, scale, args.work / f"{tag}.log")
                entry = {"edition": edition, "commit": sha, "scale": scale, "warm_up": warm_up,
                         "wall_s": round(wall, 1), "rc": rc, "start": start, "end": end,
                         "machine": f"{platform.node()} {os.cpu_count()} cores",
                         "how": "scripts/time_editions.py" + ("" if rc == 0 else f"; failed or stopped (exit {rc})")}
                with record.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(entry) + "\n")
                print(f"{tag}: {wall:.1f} s, exit {rc}", flush=True)
                if rc != 0:
                    print(f"{tag} failed: see its log", file=sys.stderr)
                    return 1
    print(table(read_records(record), before, after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
