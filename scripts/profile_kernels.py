"""Where the engine's compiled code spends its time: `perf` samples of `simulate_lines`, by kernel and instruction.

    .venv/bin/python scripts/profile_kernels.py random:beg=0
    .venv/bin/python scripts/profile_kernels.py heuristic --seconds 20 --annotate heuristic_card
    .venv/bin/python scripts/profile_kernels.py solve:9 --annotate _enter
    .venv/bin/python scripts/profile_kernels.py translation

`translation` profiles the C program's numba translation (`engine/c_port.py`, a deal a line), the yardstick
of `bench --against-c`.

`solve:CARDS` profiles the open-hand solver instead: `solve.Solver.value` on random 4-player trinidad
positions at the first lead with CARDS cards each (`solve.dealt_positions`, seed 1, 50 of them in turn), the
rate in nodes per second.

numba's compiled functions have no symbols `perf` can see, so this script gives them some: it compiles the
engine afresh (a numba cache folder of its own, so the code is built here and its LLVM module is at hand;
a minute or two), writes the address of every compiled function to `/tmp/perf-PID.map` (perf's map for
JIT code) and copies each kernel's machine code out of memory, then plays `simulate_lines` (trinidad, 4
players, one thread) for `--seconds` under `perf record`. It prints each kernel's share of the samples in
compiled code, nanoseconds per line from that share, and the share spent passing arguments (push, pop,
call, ret: numba passes every array as its struct's fields, so a call with ten arrays pushes some
seventy words). `--annotate NAME` disassembles that kernel (objdump) with each instruction's share.

A function's range is from its address to the next function's, so code LLVM placed between two
functions counts to the first. Needs `perf` (linux-tools) and `objdump` (binutils).
"""

from __future__ import annotations

import argparse
import bisect
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALL_OPS = {"push", "pop", "call", "ret"}


def short_name(mangled: str) -> str:
    """`module.function` from numba's mangled name (`_ZN8analyser6engine4deal12play_line_inB3v29...`)."""
    if not mangled.startswith("_ZN"):
        return mangled
    parts, i = [], 3
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while mangled[j].isdigit():
            j += 1
        size = int(mangled[i:j])
        parts.append(mangled[j:j + size])
        i = j + size
    return ".".join(parts[2:]) if parts[:2] == ["analyser", "engine"] else ".".join(parts)


def playouts(policy: str) -> tuple[object, Callable[[], int]]:
    """simulate_lines_in (the kernel simulate_lines calls), compiled here, and one step of the workload: 20,000
    lines of `policy` (lines played)."""
    import numpy as np

    from analyser.engine.deal import N_STATS, new_match_state, simulate_lines, simulate_lines_in
    from analyser.players.policy import seat_policies
    from analyser.game.rules import make_rules
    from analyser.players.simulate import NO_EVENTS, NO_META, chunk_rngs

    rules = make_rules("trinidad").as_array()
    kinds, params = seat_policies([policy], 4)
    stats = np.zeros(N_STATS, dtype=np.int64)
    deck_rng, rng = chunk_rngs(0, 0)
    mstate = new_match_state(4)
    simulate_lines(rules, 10, mstate, kinds, params, deck_rng, rng, NO_EVENTS, NO_META, stats)  # compile here

    def step() -> int:
        return int(simulate_lines(rules, 20_000, mstate, kinds, params, deck_rng, rng, NO_EVENTS, NO_META, stats))

    return simulate_lines_in, step


def translation() -> tuple[object, Callable[[], int]]:
    """The C program's numba translation (engine/c_port.py), for comparison: 20,000 deals a step."""
    from analyser.engine.c_port import Port, port_deals

    port = Port(0)
    port.play(10)  # compile here

    def step() -> int:
        port.play(20_000)
        return 20_000

    return port_deals, step


def solves(cards: int) -> tuple[object, Callable[[], int]]:
    """solve_value, compiled here, and one step of the workload: one first-lead position solved (its nodes)."""
    import numpy as np

    from analyser.engine.solver import solve_value
    from analyser.game.rules import make_rules
    from analyser.players.solve import Solver, dealt_positions

    positions = dealt_positions(make_rules("trinidad"), cards, 50, np.random.default_rng(1))
    solver = Solver.for_position(positions[0])
    solver.value(positions[0])  # compile here
    turn = [0]

    def step() -> int:
        solver.value(positions[turn[0] % len(positions)])
        turn[0] += 1
        return solver.nodes

    return solve_value, step


def child(policy: str, seconds: float, out: Path) -> None:
    """Compile, write the perf map and the code, then run the workload for `seconds`; writes its rate."""
    sys.path.insert(0, str(ROOT))
    if policy.startswith("solve:"):
        kernel, step = solves(int(policy.split(":", 1)[1]))
    elif policy == "translation":
        kernel, step = translation()
    else:
        kernel, step = playouts(policy)
    found: set[tuple[int, str]] = set()
    seen: set[int] = set()

    def walk(library: object) -> None:
        if id(library) in seen:
            return
        seen.add(id(library))
        module = getattr(library, "_final_module", None)
        for fn in getattr(module, "functions", []):
            if not fn.is_declaration:
                address = library.get_pointer_to_function(fn.name)  # type: ignore[attr-defined]
                if address:
                    found.add((address, fn.name))
        for linked in getattr(library, "_linking_libraries", []):
            walk(linked)

    for result in kernel.overloads.values():  # type: ignore[attr-defined]
        walk(getattr(result, "library"))
    if not found:
        raise SystemExit("no compiled functions found: was the engine loaded from a cache?")
    functions = sorted(found)
    index: list[dict[str, object]] = []
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as perf_map:
        for k, (address, name) in enumerate(functions):
            size = min(functions[k + 1][0] - address if k + 1 < len(functions) else 4096, 1 << 20)
            perf_map.write(f"{address:x} {size:x} {name}\n")
            if name.startswith("_ZN8analyser") and "cpython" not in name:
                code = out / f"{len(index)}.bin"
                code.write_bytes(ctypes.string_at(address, size))
                index.append({"address": address, "size": size, "name": name, "code": str(code)})
    (out / "index.json").write_text(json.dumps(index))
    done = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        done += step()
    (out / "speed.json").write_text(json.dumps({"per_second": done / (time.perf_counter() - begin)}))


def sample_ips(data: Path) -> list[int]:
    text = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True,
                          check=True).stdout
    return [int(word, 16) for word in text.split()]


def disassemble(entry: dict) -> list[tuple[int, str, str]]:
    """(address, mnemonic, text) of each instruction of a kernel's copied code."""
    text = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", f"--adjust-vma={entry['address']:#x}",
                           entry["code"]], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(\S+)?(.*)", line)
        if m and m.group(3):
            rows.append((int(m.group(1), 16), m.group(3), (m.group(3) + m.group(4)).strip()))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("policy", help="policy spec of all four seats, e.g. heuristic or random:beg=0; translation; "
                        "or solve:CARDS, the solver on first-lead positions of CARDS cards each")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play under perf (default 10)")
    parser.add_argument("--annotate", metavar="NAME", help="a kernel to disassemble with its samples")
    parser.add_argument("--top", type=int, default=40, help="instructions shown with --annotate (default 40)")
    parser.add_argument("--listing", action="store_true",
                        help="with --annotate: every instruction in address order, not the top ones")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.policy, args.seconds, args.child)
        return
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            raise SystemExit(f"profile_kernels: {tool} is not installed (perf: linux-tools; objdump: binutils)")
    work = Path(tempfile.mkdtemp(prefix="allfours-profile-"))
    try:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(work / "numba-cache")}
        data = work / "perf.data"
        print(f"compiling the engine afresh and playing {args.seconds:g} s under perf ...", file=sys.stderr)
        subprocess.run(["perf", "record", "-q", "-F", "2999", "-o", str(data), "--", sys.executable, __file__,
                        args.policy, "--seconds", str(args.seconds), "--child", str(work)], env=env, check=True)
        index = json.loads((work / "index.json").read_text())
        speed = json.loads((work / "speed.json").read_text())["per_second"]
        report(index, sample_ips(data), speed, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(index: list[dict], ips: list[int], speed: float, args: argparse.Namespace) -> None:
    starts = sorted((e["address"], k) for k, e in enumerate(index))
    counts: Counter[int] = Counter()
    per_ip: Counter[int] = Counter()
    keys = [a for a, _ in starts]
    for ip in ips:
        at = bisect.bisect_right(keys, ip) - 1
        if at >= 0:
            k = starts[at][1]
            if ip < index[k]["address"] + index[k]["size"]:
                counts[k] += 1
                per_ip[ip] += 1
    total = sum(counts.values())
    if total == 0:
        raise SystemExit("profile_kernels: no samples fell in compiled code")
    unit = "node" if args.policy.startswith("solve:") else "line"
    ns_per_line = 1e9 / speed
    print(f"{args.policy}: {speed:,.0f} {unit}s/s under perf ({ns_per_line:.0f} ns a {unit}), "
          f"{total:,} samples in compiled code")
    print(f"{'kernel':<40} {'share':>7} {'ns/' + unit:>8} {'passing args':>13}")
    for k, n in counts.most_common():
        if n / total < 0.002:
            continue
        calls = sum(per_ip[a] for a, op, _ in disassemble(index[k]) if op in CALL_OPS)
        print(f"{short_name(index[k]['name']):<40} {100 * n / total:6.1f}% {ns_per_line * n / total:8.1f} "
              f"{100 * calls / n:12.1f}%")
    if args.annotate:
        matches = [k for k, e in enumerate(index) if short_name(e["name"]).endswith(args.annotate)]
        if not matches:
            raise SystemExit(f"profile_kernels: no kernel named {args.annotate!r}")
        k = max(matches, key=lambda m: counts[m])
        rows = disassemble(index[k])
        n = max(counts[k], 1)
        shown = rows if args.listing else sorted(rows, key=lambda r: -per_ip[r[0]])[:args.top]
        what = "every instruction" if args.listing else f"the {args.top} instructions with most samples"
        print(f"\n{short_name(index[k]['name'])}: {what} (of {counts[k]:,} samples)")
        for address, _, text in shown:
            print(f"  {100 * per_ip[address] / n:5.1f}%  {address - index[k]['address']:#7x}  {text}")


if __name__ == "__main__":
    main()
