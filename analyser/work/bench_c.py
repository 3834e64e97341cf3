"""The engine against a plain C reference (scripts/c_reference/allfours_random.c).

The C program does the work of ``allfours bench``'s random figure (trinidad, 4 players,
``random:beg=0``, matches to 14 with the dealer rotating, batches of 2000 deals between
looks at the clock), written from the rule book. ``run_against_c`` compiles it with the
first C compiler on PATH (cached, rebuilt when the source changes) and measures, in
alternation, round after round: the C reference, its line-by-line numba translation
(``engine/c_port.py``: what numba itself reaches on the same work, first checked to give the
C program's totals exactly), the random player on 1 thread, the same with the portable
n-th-card loop instead of PDEP (in a child process, since ``ALLFOURS_NO_PDEP`` must be set
before the kernels compile), the heuristic on 1 thread and the random player on 2
threads. Each figure is the median of its rounds; the engine's figures are given as
ratios to C and to the translation.

``agreement`` checks that the C program plays the same game: points per deal in each
category (kick, high, low, jack, hang-jack, game; dealer's side and the other side) and
matches ended per deal, C against the engine on independent random streams, within
4 combined standard errors.

    .venv/bin/python -m analyser.work.bench_c [--seconds 2] [--rounds 3] [--json-out PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

C_SOURCE = Path(__file__).resolve().parents[2] / "scripts" / "c_reference" / "allfours_random.c"
COMPILERS = ("cc", "gcc", "clang")
C_FLAGS = ["-O3", "-march=native", "-std=c99"]
C_FALLBACK_FLAGS = ["-O3", "-std=c99"]  # a compiler that does not know -march=native
C_CATEGORIES = ("kick", "high", "low", "jack", "hang-jack", "game")
POLICY = "random:beg=0"
AGREEMENT_Z = 4.0
PORT_CHECK_DEALS = 20_000  # deals over which the translation must give the C program's totals exactly
FIGURES = ("c", "translation", "random", "random_no_pdep", "heuristic", "random_2_threads")
# Each ratio: (figure, figure it is taken over), a round's two samples at a time.
RATIOS = {
    "translation_over_c": ("translation", "c"),
    "random_over_translation": ("random", "translation"),
    "heuristic_over_translation": ("heuristic", "translation"),
    "random_over_c": ("random", "c"),
    "random_no_pdep_over_c": ("random_no_pdep", "c"),
    "heuristic_over_c": ("heuristic", "c"),
    "two_threads_over_one_thread": ("random_2_threads", "random"),
}


class CReferenceUnavailable(Exception):
    """No compiler, no source, or a build that failed: the comparison is skipped."""


def find_compiler() -> str | None:
    """The first of cc, gcc, clang on PATH (CC in the environment first, if set)."""
    names = ([os.environ["CC"]] if os.environ.get("CC") else []) + list(COMPILERS)
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def compiler_version(compiler: str) -> str:
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.splitlines()[0].strip() if out.strip() else "unknown"


def _slow_pdep_cpu() -> bool:
    """True on AMD Zen 1/2, where PDEP exists but is microcoded (bits.pdep_is_fast says the same)."""
    try:
        import llvmlite.binding as llvm

        return llvm.get_host_cpu_name() in ("znver1", "znver2")
    except Exception:
        return False


def _cache_root() -> Path:
    root = os.environ.get("ALLFOURS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "allfours"
    )
    return Path(root) / "c-reference"


def build_reference(compiler: str | None = None) -> tuple[Path, dict[str, Any]]:
    """Compile the C reference (or reuse the cached build); its path and how it was built."""
    compiler = compiler or find_compiler()
    if compiler is None:
        raise CReferenceUnavailable("no C compiler (cc, gcc or clang) on PATH: the C reference comparison is skipped")
    if not C_SOURCE.is_file():
        raise CReferenceUnavailable(f"C reference source not found at {C_SOURCE}: the comparison is skipped")
    source = C_SOURCE.read_bytes()
    version = compiler_version(compiler)
    extra = ["-DNO_PDEP"] if _slow_pdep_cpu() else []
    errors = []
    for flags in (C_FLAGS + extra, C_FALLBACK_FLAGS + extra):
        key = hashlib.sha256(source + "\0".join([compiler, version, *flags]).encode()).hexdigest()[:16]
        for root in (_cache_root(), Path(tempfile.gettempdir()) / "allfours-c-reference"):
            binary = root / f"allfours_random-{key}"
            built = {"compiler": compiler, "version": version, "flags": flags, "binary": str(binary)}
            if binary.is_file() and os.access(binary, os.X_OK):
                return binary, built
            try:
                root.mkdir(parents=True, exist_ok=True)
                partial = root / f".{binary.name}.{os.getpid()}"
            except OSError:
                continue  # cache folder not writable: try the temp folder
            done = subprocess.run([compiler, *flags, "-o", str(partial), str(C_SOURCE)],
                                  capture_output=True, text=True)
            if done.returncode == 0:
                os.replace(partial, binary)
                return binary, built
            errors.append(f"{' '.join(flags)}: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
            break  # the flags, not the folder, failed: try the fallback flags
    raise CReferenceUnavailable(f"the C reference did not compile with {compiler} ({'; '.join(errors)})")


def _run_c(binary: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run([str(binary), *args], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def c_deals_per_second(binary: Path, seconds: float, seed: int = 0) -> float:
    """The C reference's deals per second over batches of 2000 deals for `seconds` (start-up excluded)."""
    return float(_run_c(binary, "speed-time", str(seconds), str(seed))["deals_per_second"])


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "usable_cores": usable, "arch": platform.machine()}


# --- the portable (no-PDEP) kernels, in a child process -----------------------------


def _worker() -> None:
    """Child process: answers "POLICY THREADS SECONDS SEED" lines with deals per second, one per line."""
    from .bench import deals_per_second
    from ..engine import bits

    print(json.dumps({"pdep": bits.nth_card is bits.nth_card_pdep}), flush=True)
    for line in sys.stdin:
        policy, threads, seconds, seed = line.split()
        print(deals_per_second(policy, int(threads), float(seconds), int(seed)), flush=True)


class _Child:
    """A python child with ALLFOURS_NO_PDEP=1 that measures on request (compiled once)."""

    def __init__(self) -> None:
        env = dict(os.environ, ALLFOURS_NO_PDEP="1")
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen([sys.executable, "-c", "from analyser.work.bench_c import _worker; _worker()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.pdep = bool(json.loads(self._read())["pdep"])

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the no-PDEP measuring process ended (exit code {self.proc.wait()})")
        return line

    def deals_per_second(self, policy: str, threads: int, seconds: float, seed: int = 0) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{policy} {threads} {seconds} {seed}\n")
        self.proc.stdin.flush()
        return float(self._read())

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()


# --- the comparison --------------------------------------------------------------------


def round_ratios(samples: dict[str, list[float]]) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Each ratio of ``RATIOS`` as the median of its rounds' own ratios, and those ratios.

    As scripts/ab_speed.py: a busy spell of the machine slows a round's two figures (measured seconds apart)
    alike, where a ratio of two medians can pair one figure's fast round with the other's slow one.

    >>> ratios, per_round = round_ratios({"c": [4.0] * 3, "translation": [2.0, 4.0, 3.0], "random": [1.0, 2.0, 3.0],
    ...                                   "random_no_pdep": [1.0] * 3, "heuristic": [1.0] * 3,
    ...                                   "random_2_threads": [2.0, 4.0, 6.0]})
    >>> per_round["random_over_translation"], ratios["random_over_translation"]  # a ratio of medians: 2/3
    ([0.5, 0.5, 1.0], 0.5)
    """
    per_round = {name: [top / bottom for top, bottom in zip(samples[num], samples[den])]
                 for name, (num, den) in RATIOS.items()}
    return {name: statistics.median(values) for name, values in per_round.items()}, per_round


def run_against_c(seconds: float = 2.0, rounds: int = 5) -> dict[str, Any]:
    """C reference against the engine, measured in alternation, `rounds` rounds of `seconds` per figure.

    ``{"available": False, "reason": ...}`` where there is no C compiler (or it fails);
    otherwise deals per second (medians, and every sample), the ratios, the machine and
    the compiler.
    """
    try:
        binary, built = build_reference()
    except CReferenceUnavailable as err:
        return {"available": False, "reason": str(err)}
    from .bench import deals_per_second
    from ..engine.c_port import port_deals_per_second, same_as_c
    from ..engine import bits

    rounds = max(1, rounds)
    same = same_as_c(_run_c(binary, "totals", str(PORT_CHECK_DEALS), "1"), PORT_CHECK_DEALS, 1)
    samples: dict[str, list[float]] = {name: [] for name in FIGURES}
    child = _Child()
    try:
        # Warm-up: compile (or load) every kernel before the first timed round.
        c_deals_per_second(binary, min(seconds, 0.2))
        port_deals_per_second(0.05)
        deals_per_second(POLICY, 1, 0.05)
        deals_per_second("heuristic", 1, 0.05)
        child.deals_per_second(POLICY, 1, 0.05)
        for r in range(rounds):
            samples["c"].append(c_deals_per_second(binary, seconds, seed=r))
            samples["translation"].append(port_deals_per_second(seconds, seed=r))
            samples["random"].append(deals_per_second(POLICY, 1, seconds, seed=r))
            samples["random_no_pdep"].append(child.deals_per_second(POLICY, 1, seconds, seed=r))
            samples["heuristic"].append(deals_per_second("heuristic", 1, seconds, seed=r))
            samples["random_2_threads"].append(deals_per_second(POLICY, 2, seconds, seed=r))
    finally:
        child.close()
    rate = {name: statistics.median(values) for name, values in samples.items()}
    ratios, per_round = round_ratios(samples)
    return {
        "available": True,
        "rules": "trinidad",
        "policy": POLICY,
        "seconds": seconds,
        "rounds": rounds,
        "deals_per_second": rate,
        "samples": samples,
        "translation": {"deals_per_second": rate["translation"], "same_totals_as_c_over": PORT_CHECK_DEALS,
                        "same_totals_as_c": same},
        "ratios": ratios,
        "ratio_samples": per_round,
        "engine_pdep": bits.nth_card is bits.nth_card_pdep,
        "nth_card": bits.nth_card_choice(),
        "no_pdep_child_pdep": child.pdep,
        "c_pdep": "-DNO_PDEP" not in built["flags"] and _run_c(binary, "speed", "1", "0")["pdep"],
        "machine": machine(),
        "compiler": built,
    }


def against_c_text(result: dict[str, Any]) -> str:
    """The comparison as a few lines of text (one line when it was skipped)."""
    if not result.get("available"):
        return f"C reference: {result.get('reason', 'unavailable')}"
    rate, ratio, cc = result["deals_per_second"], result["ratios"], result["compiler"]
    mach = result["machine"]
    differs = "" if result["translation"]["same_totals_as_c"] else "   <-- its totals differ from the C program's"
    lines = [
        f"engine against the C reference and its numba translation, {result['rules']}, {result['policy']} "
        f"(medians of {result['rounds']} alternating rounds of {result['seconds']:g} s per figure; each ratio the "
        f"median of the rounds' own ratios)",
        f"  C reference, 1 thread       {rate['c']:>12,.0f} deals/s",
        f"  numba translation of C      {rate['translation']:>12,.0f} deals/s   x{ratio['translation_over_c']:.2f} of C"
        f"{differs}",
        f"  random, 1 thread            {rate['random']:>12,.0f} deals/s   x{ratio['random_over_c']:.2f} of C, "
        f"x{ratio['random_over_translation']:.2f} of the translation",
        f"  random, 1 thread, no PDEP   {rate['random_no_pdep']:>12,.0f} deals/s   "
        f"x{ratio['random_no_pdep_over_c']:.2f} of C",
        f"  heuristic, 1 thread         {rate['heuristic']:>12,.0f} deals/s   x{ratio['heuristic_over_c']:.2f} of C, "
        f"x{ratio['heuristic_over_translation']:.2f} of the translation",
        f"  random, 2 threads           {rate['random_2_threads']:>12,.0f} deals/s   "
        f"x{ratio['two_threads_over_one_thread']:.2f} of 1 thread",
        *_ratio_ranges(result),
        f"  n-th card: {result['nth_card']['kernel']} ({result['nth_card']['why']})",
        f"  machine: {mach['cpu']}, {mach['cores']} cores ({mach['usable_cores']} usable), {mach['arch']}",
        f"  compiler: {cc['version']} ({cc['compiler']}) {' '.join(cc['flags'])}"
        f"{', PDEP' if result['c_pdep'] else ', portable n-th-card loop'}",
    ]
    return "\n".join(lines)


def _ratio_ranges(result: dict[str, Any]) -> list[str]:
    """One line with the lowest and highest of the rounds' own ratios (none for a single round): how far one
    round's figure moved on this machine."""
    per_round = result.get("ratio_samples")
    if not per_round or len(per_round["random_over_translation"]) < 2:
        return []

    def span(name: str) -> str:
        return f"{min(per_round[name]):.2f}-{max(per_round[name]):.2f}"

    return [f"  per round: translation {span('translation_over_c')} of C, random {span('random_over_translation')} "
            f"and heuristic {span('heuristic_over_translation')} of the translation, 2 threads "
            f"{span('two_threads_over_one_thread')} of 1"]


# --- agreement: the C program plays the same game ----------------------------------------


def c_totals(deals: int, seed: int) -> dict[str, Any]:
    """The C reference's totals: deals, matches, per-category sums and sums of squares by side."""
    binary, _ = build_reference()
    return _run_c(binary, "totals", str(deals), str(seed))


def engine_totals(deals: int, seed: int) -> dict[str, Any]:
    """The same totals from the engine's kernel (``random:beg=0``, trinidad, matches carried on)."""
    import numpy as np

    from ..engine.deal import N_STATS, S_DEALER_POINTS, S_MATCHES, S_OTHER_POINTS, new_match_state, simulate_lines
    from ..engine.layout import WHY
    from ..players.policy import seat_policies
    from ..game.rules import make_rules
    from ..players.simulate import NO_EVENTS, NO_META, chunk_rngs

    rules = make_rules("trinidad")
    rules_array = rules.as_array()
    kinds, params = seat_policies([POLICY], rules.players)
    deck_rng, rng = chunk_rngs(seed, 0)
    mstate = new_match_state(rules.players)
    stats = np.zeros(N_STATS, dtype=np.int64)
    cumulative = np.zeros((deals + 1, N_STATS), dtype=np.int64)
    for i in range(deals):  # one deal per call: the per-deal points give the standard errors
        simulate_lines(rules_array, 1, mstate, kinds, params, deck_rng, rng, NO_EVENTS, NO_META, stats)
        cumulative[i + 1] = stats
    per_deal = np.diff(cumulative, axis=0)
    out: dict[str, Any] = {"deals": deals, "matches": int(stats[S_MATCHES])}
    for side, base in (("dealer", S_DEALER_POINTS), ("other", S_OTHER_POINTS)):
        column = {name: per_deal[:, base + WHY.index(name)] for name in C_CATEGORIES}
        out[side] = {name: int(values.sum()) for name, values in column.items()}
        out[side + "_sq"] = {name: int((values * values).sum()) for name, values in column.items()}
    return out


def _mean_se(total: int, squares: int, n: int) -> tuple[float, float]:
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    return mean, math.sqrt(var / n)


def agreement(deals: int = 200_000, seed: int = 1) -> dict[str, Any]:
    """Points per deal by category, C reference against the engine, `deals` deals each.

    Each category (and matches ended per deal) agrees when the two means differ by at
    most 4 combined standard errors. The two programs use independent random streams.
    ``{"available": False, "reason": ...}`` without a C compiler.
    """
    try:
        c = c_totals(deals, seed)
    except CReferenceUnavailable as err:
        return {"available": False, "reason": str(err)}
    engine = engine_totals(deals, seed)
    rows: dict[str, dict[str, float | bool]] = {}
    keys = [("matches", "", "")] + [(f"{side} {name}", side, name) for side in ("dealer", "other")
                                     for name in C_CATEGORIES]
    for label, side, name in keys:
        if side:
            c_mean, c_se = _mean_se(c[side][name], c[side + "_sq"][name], c["deals"])
            e_mean, e_se = _mean_se(engine[side][name], engine[side + "_sq"][name], engine["deals"])
        else:  # 0 or 1 per deal: the sum of squares is the sum
            c_mean, c_se = _mean_se(c["matches"], c["matches"], c["deals"])
            e_mean, e_se = _mean_se(engine["matches"], engine["matches"], engine["deals"])
        se = math.hypot(c_se, e_se)
        z = (c_mean - e_mean) / se if se > 0 else (0.0 if c_mean == e_mean else math.inf)
        rows[label] = {"c": c_mean, "engine": e_mean, "se": se, "z": z, "ok": abs(z) <= AGREEMENT_Z}
    return {
        "available": True,
        "deals": deals,
        "seed": seed,
        "limit_z": AGREEMENT_Z,
        "categories": rows,
        "agree": all(row["ok"] for row in rows.values()),
    }


def agreement_text(result: dict[str, Any]) -> str:
    if not result.get("available"):
        return f"C reference: {result.get('reason', 'unavailable')}"
    lines = [f"points per deal, C reference against the engine ({result['deals']:,} deals each, "
             f"agreement within {result['limit_z']:g} standard errors): "
             f"{'agree' if result['agree'] else 'DISAGREE'}"]
    for label, row in result["categories"].items():
        lines.append(f"  {label:<18} C {row['c']:.5f}   engine {row['engine']:.5f}   z {row['z']:+.2f}"
                     f"{'' if row['ok'] else '   <-- differs'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The engine against a plain C reference (deals per second).")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per figure and round")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians are reported)")
    parser.add_argument("--agreement", type=int, default=0, metavar="DEALS",
                        help="also check point totals per category over DEALS deals each")
    parser.add_argument("--json-out", type=Path, help="write the figures as JSON here too")
    opts = parser.parse_args(argv)
    result = run_against_c(opts.seconds, opts.rounds)
    print(against_c_text(result))
    if opts.agreement and result.get("available"):
        result["agreement"] = agreement(opts.agreement)
        print(agreement_text(result["agreement"]))
    if opts.json_out:
        opts.json_out.parent.mkdir(parents=True, exist_ok=True)
        opts.json_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if result.get("agreement", {}).get("agree", True) else 1


if __name__ == "__main__":
    sys.exit(main())
