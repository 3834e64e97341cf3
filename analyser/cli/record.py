"""``allfours record``: enter a real deal as it is played, checked answer by answer, and append it to a log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import PlayersOpt, Preset, ScoreOpt, SeedOpt, SetOpt, answer_reader, fail


def record(
    out: Annotated[Path, typer.Option(
        "--out", help="Append each finished deal to this allfours-log/1 file (created if missing, never overwritten).")],
    rules: Annotated[Optional[Preset], typer.Option(
        "--rules", help="Rule preset (see docs/rules.md); asked when not given.")] = None,
    players: PlayersOpt = None,
    set_: SetOpt = None,
    dealer: Annotated[Optional[int], typer.Option(
        "--dealer", help="The first deal's dealer (a seat number); asked when not given.")] = None,
    seat: Annotated[Optional[str], typer.Option(
        "--seat", metavar="SEAT|all", help="Your seat (its hand is entered, the others' cards as they are played), "
                                           "or 'all' when every hand is known; asked when not given.")] = None,
    score: ScoreOpt = None,
    seed: SeedOpt = 1,
    partial: Annotated[bool, typer.Option(
        "--partial", help="At end of input or Ctrl-C, also append the deal in progress, cut where a bid or a card "
                          "is due (a line `allfours hint --log` reads).")] = False,
) -> None:
    """Enter a real deal as it is played: rules, dealer, your seat, your hand (or every hand), turn-ups, bids,
    then each card in turn. An impossible answer is refused with the reason at once; trick winners, points and
    the score are worked out. Each finished deal is appended to --out as a full log (every hand known) or your
    seat's view, so an interrupted entry keeps every finished deal.

    At a terminal a refused answer is asked again; through a pipe, one answer per line, it ends the entry
    (exit 2). '?' at a bid or a card of a known hand gives the hint; 'undo' takes back the last answer.
    End of input saves the finished deals and exits 0; Ctrl-C saves them and exits 130.
    """
    from ..table.record import EndOfInput, Recorder, RecordError, Start, TableIO, saved_words

    read, interactive = answer_reader()

    start = Start(preset=None if rules is None else rules.value, players=players, settings=list(set_ or []),
                  dealer=dealer, seat=seat, score=score, seed=seed)
    recorder = Recorder(TableIO(read, typer.echo, interactive), out, start)
    try:
        recorder.run()
    except EndOfInput:
        if interactive:
            typer.echo()
        if partial:
            recorder.save_partial()
        typer.echo(f"end of input: {saved_words(recorder)}")
        return
    except KeyboardInterrupt:
        if interactive:
            typer.echo()
        if partial:
            recorder.save_partial()
        typer.echo(f"interrupted: {saved_words(recorder)}", err=True)
        raise typer.Exit(130) from None
    except RecordError as err:
        fail(f"{err}; {saved_words(recorder)}")
    typer.echo(f"Done: {saved_words(recorder)}.")
