"""``allfours solve``: the open-hand value of a position, and of every card the player to move may play."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from .options import FAILED, USAGE, JsonOpt, PlayersOpt, Preset, SetOpt, announce_engine, build_rules, fail, log_lines

if TYPE_CHECKING:
    from ..players.solve import Position, Solution

# More cards than this in the hands (4 players, 9 each) and a solve may take minutes: the command says so first,
# and then how far it has got (on a terminal every second, else every PROGRESS_LOG seconds).
BIG_SOLVE = 36
PROGRESS_LOG = 5.0
LINE_HELP = "Which line of FILE (numbered as an editor numbers them, blank lines counted)."
HANDS_HELP = ("A position typed by hand instead of a log: every seat's hand, seat 0 first, separated by / or |, "
              "e.g. \"AS JS 4H / KD 2D 9C / ...\" (all the same size; High, Low and the jack's owner are read "
              "from them).")


def what_value_means(players: int) -> str:
    if players == 3:
        return ("its own High, Low, Jack and Game points minus the other two players' together, "
                "both taken to play against it")
    if players == 2:
        return "its High, Low, Jack and Game points minus the other player's"
    return "its side's High, Low, Jack and Game points minus the other side's"


def solve(
    file: Annotated[Optional[Path], typer.Argument(
        help="An allfours-log/1 file whose line is cut in trick play: after the trump event (and the discards), "
             "up to a play or trick event. The position is the one after the line's last event.")] = None,
    line: Annotated[int, typer.Option("--line", min=1, help=LINE_HELP)] = 1,
    hands: Annotated[Optional[str], typer.Option("--hands", help=HANDS_HELP)] = None,
    trump: Annotated[Optional[str], typer.Option("--trump", help="Trump suit with --hands (S H D C).")] = None,
    leader: Annotated[int, typer.Option("--leader", min=0, max=3,
                                        help="Seat to lead with --hands; the seat before it is taken as the "
                                             "dealer (for Game ties).")] = 0,
    rules: Annotated[Optional[Preset], typer.Option(
        "--rules", help="Rule preset with --hands (default trinidad); a log line carries its own.")] = None,
    players: PlayersOpt = None,
    set_: SetOpt = None,
    seconds: Annotated[Optional[float], typer.Option(
        "--seconds", min=0.001, help="Stop the search after this many seconds and say what it proved by then: "
                                     "the least and most the position, and each card, can be worth.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Solve a position with every hand open: its value under perfect play, and each legal card's.

    The value is in net points of the deal still to be decided by play (High and Low as dealt, Jack or hang jack,
    Game), for the player to move: its side's points minus the other side's (with three players, its own
    points minus the other two's, both taken to play against it). Kicks, the gift and the match target are
    not counted.
    """
    from ..players.solve import SolveError, SolveInterrupted, Solver, position_from_hands, position_from_text

    if file is not None and hands is not None:
        raise SolveError("give a log FILE or --hands, not both")
    if file is None and hands is None:
        raise SolveError("give a log FILE (a line cut at a card decision) or --hands with --trump")
    if file is not None:
        if rules is not None or players is not None or set_:
            raise SolveError("a log line carries its own rules: --rules, --players and --set go with --hands")
        text = None
        for number, content in log_lines(file):
            if number == line:
                text = content
                break
        if text is None:
            raise SolveError(f"{file}: no line {line} (or it is blank)")
        try:
            position = position_from_text(text)
        except SolveError as err:  # a line not cut at a card decision: 2; a wrong log (as replay says it): 1
            where = f"line {line}" + (f", event {err.event}" if err.event >= 0 else "")
            if err.reason.startswith("not valid JSON"):
                fail(f"{file}: line {line} is {err.reason}", FAILED)
            fail(f"{file}: {where}: {err.reason}", USAGE if err.cut else FAILED)
    else:
        assert hands is not None
        if trump is None:
            raise SolveError("--hands needs --trump (the trump suit: S, H, D or C)")
        rule_set = build_rules(rules or Preset("trinidad"), players, set_)
        position = position_from_hands(rule_set, hands, trump, leader)
    announce_engine()
    held = position.cards_in_hands()
    if held > BIG_SOLVE and seconds is None:
        typer.echo(f"note: {held} cards are left in the hands; an exact solve this big can take minutes, with 12 "
                   "cards in each of 4 hands hours (docs/solver.md: the solver's speed). Ctrl-C stops it (and says what it "
                   "proved), as --seconds N does after N seconds; a line cut a trick or two later solves in seconds.", err=True)
    solver = Solver.for_position(position)
    if solver.work.tt.nbytes >= 1 << 28:
        typer.echo(f"note: its transposition table takes {solver.work.tt.nbytes >> 20} MiB of memory.", err=True)
    # A big solve says how far it has got on stderr: a line rewritten every second on a terminal, else one
    # every PROGRESS_LOG seconds.
    tty = sys.stderr.isatty()
    shown = [False]

    def progress(sofar: Solution) -> None:
        lo, hi = sofar.value_range
        assert sofar.card_ranges is not None
        text = (f"searching: {sofar.seconds:.0f} s, {sofar.nodes:,} positions, {len(sofar.cards)} of "
                f"{len(sofar.card_ranges)} cards solved; value {between(lo, hi)} so far")
        typer.echo(f"\r{text}  " if tty else text, err=True, nl=not tty)
        shown[0] = True

    big = held > BIG_SOLVE
    interrupted = False
    try:
        solution = solver.solve(position, interruptible=True, seconds=seconds, progress=progress if big else None,
                                every=1.0 if tty else PROGRESS_LOG)
    except SolveInterrupted as stop:
        # What the search proved before Ctrl-C, then "interrupted" and exit 130 as for any command.
        solution, interrupted = stop.solution, True
    if shown[0] and tty:
        typer.echo("", err=True)  # ends the progress line
    show(solution, position, json_out)
    if interrupted:
        raise KeyboardInterrupt


def show(solution: Solution, position: Position, json_out: bool) -> None:
    """The answer on stdout: as JSON, or a line for the position and its value and one for each card."""
    if json_out:
        typer.echo(json.dumps(solution.to_json()))
        return
    r = position.rules
    whose = f"seat {solution.seat}" if r.sides == r.players else f"seat {solution.seat}'s side (side {position.side})"
    typer.echo(f"position: {position.describe()}")
    if not solution.finished:
        show_stopped(solution, whose, r.players)
        return
    assert solution.value is not None
    typer.echo(f"value {solution.value:+d} for {whose}: {what_value_means(r.players)}, "
               "under perfect play with every hand open")
    width = max(len(name) for name in solution.cards)
    for name, value in solution.cards.items():
        typer.echo(f"  {name:<{width}}  {value:+d}" + ("  best" if value == solution.value else ""))


def show_stopped(solution: Solution, whose: str, players: int) -> None:
    """A search stopped by --seconds or Ctrl-C: the ranges it proved, the position's and each card's."""
    assert solution.card_ranges is not None
    lo, hi = solution.value_range
    typer.echo(f"stopped after {solution.seconds:.1f} s ({solution.nodes:,} positions searched), before the end: "
               "what it proved so far")
    typer.echo(f"value {between(lo, hi)} for {whose}: {what_value_means(players)}, "
               "under perfect play with every hand open")
    width = max(len(name) for name in solution.card_ranges)
    for name, (a, b) in solution.card_ranges.items():
        # A card is the best one for sure when the least it is worth is the most any card is worth.
        best = "  best" if a == hi else ""
        typer.echo(f"  {name:<{width}}  {between(a, b)}{best}")


def between(lo: int, hi: int) -> str:
    """A proved range in words: "+1", or "-2 to +1".

    >>> between(1, 1), between(-2, 1)
    ('+1', '-2 to +1')
    """
    return f"{lo:+d}" if lo == hi else f"{lo:+d} to {hi:+d}"
