"""What a command's first run compiles, and for about how long: the line it says first.

The engine's kernels are compiled on their first call and kept in the kernel cache (``analyser.engine``),
so only a command's first run waits. How long depends on the kernels it calls, and they come in groups:
the open-hand solver, the players (their rules for every decision, dealing, tricks and scoring; the
search players' solver too, so every command that plays deals compiles most of the engine), then each
analysis's own kernels. A group is compiled when the cache holds its probe kernel, one that every
command needing the group compiles.

The seconds are measured, not guessed: CPU seconds of each group's compile on the development
machine (2 cores of an AMD EPYC server; ``NUMBA_CACHE_DIR`` an empty folder, each command run once
after the groups before it; tests/work/test_first_use.py names the commands). A faster machine takes
about half as long, a slower or busy one longer: the notice gives that range.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# group: (probe kernel, CPU seconds of its compile on the development machine)
GROUPS: dict[str, tuple[str, float]] = {
    "solver": ("solve.solve_cards", 27),             # the open-hand solver (solve, and every search player)
    "players": ("policies.choose_card", 59),         # every policy's decisions, deals, tricks, scoring
    "simulate": ("deal.simulate_lines_in", 3),       # whole deals with their statistics
    "whatif": ("decisions.evaluate_decision", 22),   # paired rollouts of one decision
    "strategy": ("decisions.paired_class_sums", 24),  # paired decisions by hand class
    "tournament": ("matches.play_pairs", 17),        # duplicated matches
    "equity": ("decisions.sample_transitions", 9),  # one-deal transitions from every score
    "equilibrium": ("bidding.payoff_tensor", 23),    # the bidding game's payoff tensor
    "tips": ("tipcheck.tip_deals", 40),              # the play tips tested
    "cards": ("search.world_values", 5),             # a card valued over sampled worlds
}

# command: the groups it compiles, every run of it (a group compiled only by some runs would be announced again
# by the others); a command not named here compiles nothing that takes long
COMMANDS: dict[str, tuple[str, ...]] = {
    "simulate": ("solver", "players", "simulate"),
    "bench": ("solver", "players", "simulate"),
    "solve": ("solver",),
    "whatif": ("solver", "players", "whatif"),
    "analyse": ("solver", "players", "whatif", "cards"),
    "strategy": ("solver", "players", "strategy"),
    "tournament": ("solver", "players", "tournament"),
    "equity": ("solver", "players", "equity"),
    "equilibrium": ("solver", "players", "equilibrium", "strategy"),
    "check-advice": ("solver", "players", "strategy", "tips"),
    "report": ("solver", "players", "strategy", "equity", "whatif", "equilibrium", "tips", "tournament"),
    "hint": ("solver",),               # a card: the solver; a bid: the what-if's kernels too (not counted)
    "play": ("solver", "players"),     # the computer players at the table
}

# A faster machine than the development one compiles in about this share of its time (one such machine: 60 s
# for a cold `whatif`, 14 s for `solve`); a slower or busy one takes up to the second share.
FASTER, SLOWER = 0.45, 1.3


def compile_seconds(command: str, missing: set[str] | None = None) -> float:
    """CPU seconds the command's first run compiles for on the development machine: the groups it needs
    whose probe kernel is `missing` (all of them when `missing` is None)."""
    return float(sum(GROUPS[g][1] for g in COMMANDS.get(command, ())
                     if missing is None or GROUPS[g][0] in missing))


def about(seconds: float) -> str:
    """A compile's CPU seconds on the development machine as the range a user may wait.

    >>> about(27), about(110), about(3)
    ('about 10-35 s', 'about 1-2.5 min', 'a few seconds')
    """
    lo, hi = FASTER * seconds, SLOWER * seconds
    if hi < 10:
        return "a few seconds"
    if hi < 100:
        return f"about {max(5, 5 * round(lo / 5))}-{5 * round(hi / 5)} s"
    half = lambda s: f"{max(1.0, round(s / 30) / 2):g}"  # noqa: E731  minutes, to the half
    return f"about {half(lo)}-{half(hi)} min"


def cache_unwritable(folder: Path) -> OSError | None:
    """None when `folder` (made with its parents if need be) takes a new file; else the error that says why."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".allfours-write-check-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as err:
        return err
    return None


def reason(err: OSError) -> str:
    """Why a folder cannot be written, in the OS's words, lower case ("permission denied")."""
    return (err.strerror or str(err)).lower()


def compile_notice(command: str) -> str | None:
    """The line a command says before its first run compiles (None: nothing to compile that takes long):
    what compiles, for about how long, and, when the kernel cache cannot be written, that every run will."""
    from ..engine import cache_folder, missing_kernels

    groups = COMMANDS.get(command, ())
    missing = set(missing_kernels([GROUPS[g][0] for g in groups]))
    seconds = compile_seconds(command, missing)
    if seconds < 8:  # a few kernels, compiled faster than the notice is read
        return None
    line = f"compiling the engine for {command} ({about(seconds)}, depending on the machine)"
    folder = cache_folder()
    err = cache_unwritable(folder) if folder is not None else None
    if folder is None or err is None:
        return line[:-1] + "; only its first run waits)"
    how = ("NUMBA_CACHE_DIR names it: set it to a folder you can write" if os.environ.get("NUMBA_CACHE_DIR")
           else "set ALLFOURS_CACHE_DIR to a folder you can write to move it")
    return (f"{line}; it cannot be kept: the cache folder {folder} cannot be written ({reason(err)}), so every run "
            f"compiles again ({how})")
