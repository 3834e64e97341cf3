"""``allfours record``: enter a real deal as it is played, checked answer by answer, and append it to a log."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import PlayersOpt, Preset, ScoreOpt, SeedOpt, SetOpt, answer_reader, fail


SETTINGS = {"rules": "--rules", "players": "--players", "set_": "--set", "dealer": "--dealer", "seat": "--seat",
            "score": "--score", "seed": "--seed"}


def record(
    ctx: typer.Context,
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
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with the deal in progress that an interrupted entry left as the last line of "
                         "--out: the same questions from where it stopped (rules, seat, dealer and score are taken "
                         "from the file).")] = False,
    partial: Annotated[bool, typer.Option(
        "--partial", help="Accepted for older scripts: the deal in progress is always kept now.")] = False,
) -> None:
    """Enter a real deal as it is played: rules, dealer, your seat, your hand (or every hand), turn-ups, bids,
    then each card in turn. An impossible answer is refused with the reason at once; trick winners, points and
    the score are worked out. Each finished deal is appended to --out as a full log (every hand known) or your
    seat's view, so an interrupted entry keeps every finished deal.

    At a terminal a refused answer is asked again; through a pipe, one answer per line, it ends the entry
    (exit 2). '?' at a bid or a card of a known hand gives the hint; 'undo' takes back the last answer.
    End of input (exit 0), Ctrl-C (exit 130) or a refused answer through a pipe keep the finished deals and
    the deal in progress, as the last line of --out; `allfours record --resume --out FILE` goes on with it.
    """
    from ..game.errors import AllFoursError
    from ..table.record import EndOfInput, Recorder, RecordError, Start, TableIO, resume_words, resumed_deal, saved_words
    from ..table.resume import ResumeError, left_in, read_unfinished

    logfile = None
    if resume:
        given = [flag for name, flag in SETTINGS.items()
                 if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"]
        if given:
            fail(f"--resume takes the entry's settings from --out: leave out {', '.join(given)}")
        try:
            logfile = read_unfinished(out, "record")
            resumed_deal(logfile)
            seed = logfile.line["resume"].get("seed", seed)
        except ResumeError as err:
            fail(str(err))
    else:
        left = left_in(out, "record")
        if left is not None:
            typer.echo(f"Note: {out} ends with a deal in progress (line {left}); this entry goes after it, and that "
                       f"one can then no longer be resumed. To go on with it instead: allfours record --resume --out "
                       f"{shlex.quote(str(out))}")
    read, interactive = answer_reader()

    start = Start(preset=None if rules is None else rules.value, players=players, settings=list(set_ or []),
                  dealer=dealer, seat=seat, score=score, seed=seed, resume=logfile)
    try:
        recorder = Recorder(TableIO(read, typer.echo, interactive), out, start)
    except AllFoursError as err:
        fail(str(err))

    def keep() -> None:
        try:
            recorder.keep_deal()
        except AllFoursError as why:
            typer.echo(f"the deal in progress could not be kept: {why}", err=True)

    def go_on(err: bool = False) -> None:
        words = resume_words(recorder)
        if words:
            typer.echo(words, err=err)

    try:
        recorder.run()
    except EndOfInput:
        if interactive:
            typer.echo()
        keep()
        typer.echo(f"end of input: {saved_words(recorder)}")
        go_on()
        return
    except KeyboardInterrupt:
        if interactive:
            typer.echo()
        keep()
        typer.echo(f"interrupted: {saved_words(recorder)}", err=True)
        go_on(err=True)
        raise typer.Exit(130) from None
    except RecordError as err:
        keep()
        words = resume_words(recorder)
        fail(f"{err}; {saved_words(recorder)}" + (f". {words}" if words else ""))
    except ResumeError as err:
        fail(str(err))
    typer.echo(f"Done: {saved_words(recorder)}.")
