"""``allfours play``: one match in the terminal against the computer, with a coach."""

from __future__ import annotations

import datetime
import enum
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import (
    Inference, InferenceStrategyOpt, PlayersOpt, Preset, RulesOpt, SetOpt, announce_engine, answer_reader, build_rules, fail, os_words,
)


class Opponent(str, enum.Enum):
    pimc = "pimc"
    heuristic = "heuristic"


class CoachMode(str, enum.Enum):
    off = "off"
    mistakes = "mistakes"
    all = "all"


def data_folder() -> Path:
    """Where the matches are logged by default: $XDG_DATA_HOME/allfours, else ~/.local/share/allfours."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "allfours"


def default_log() -> Path:
    """Today's log in the data folder (created if missing): matches of the same day are appended to it."""
    folder = data_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(f"cannot create the log folder {folder} ({os_words(err)}): give --log FILE")
    return folder / f"play-{datetime.date.today().isoformat()}.jsonl"


SETTINGS = {"rules": "--rules", "players": "--players", "seat": "--seat", "opponent": "--opponent", "seed": "--seed",
            "set_": "--set", "coach": "--coach", "inference": "--inference", "strategy": "--strategy"}


def play(
    ctx: typer.Context,
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    seat: Annotated[int, typer.Option("--seat", min=0, max=3, help="Your seat (0 to players-1).")] = 0,
    opponent: Annotated[Opponent, typer.Option(
        "--opponent", help="Who plays the other seats: pimc (searches the deals it cannot see) or heuristic "
                           "(plays by rules of thumb, faster).")] = Opponent.pimc,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", min=0, help="Random seed: the same seed deals the same match again. Default: a new one, "
                              "printed at the start.")] = None,
    set_: SetOpt = None,
    log: Annotated[Optional[Path], typer.Option(
        "--log", help="Append each finished deal to this allfours-log/1 file (never overwritten). Default: "
                      "play-DATE.jsonl in $XDG_DATA_HOME/allfours (~/.local/share/allfours).")] = None,
    coach: Annotated[CoachMode, typer.Option(
        "--coach", help="After each of your bids and cards: mistakes (say what was better when analyse would flag "
                        "it an error or a blunder), all (a word on every decision) or off.")] = CoachMode.mistakes,
    inference: Annotated[Inference, typer.Option(
        "--inference", help="How the coach weighs the deals of the unseen cards when it judges a card: full (by how "
                            "likely the others' bids and cards make each), bids (by the bids only) or none (every "
                            "deal alike), as analyse --inference.")] = Inference.full,
    strategy: InferenceStrategyOpt = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with the match left in the middle of a deal in --log: the same deal from where you "
                         "left it, the same score, seed, seat, opponent and coach (taken from the log).")] = False,
) -> None:
    """Play one match against the computer, with a coach. The table shows the score, the turn-up and trump,
    your hand, the trick so far and the last trick; you answer with a card (10h, th, t♥, or its number in your
    hand), a bid (stand, beg, give, run), y or n to bunch; ? gives the hint, q saves and leaves. An answer that
    does not fit is refused with the reason and asked again.

    Each finished deal is appended to the log (every hand), which replay, analyse and hint read. After the
    match: the result, your points and your costliest decisions. Through a pipe it reads one answer per line
    and prints plain text.

    q, end of input (exit 0) and Ctrl-C (exit 130) keep the finished deals and the deal in progress, as the
    log's last line; `allfours play --resume --log FILE` goes on from the card where you stopped, as the match
    would have gone on.
    """
    from ..game.errors import AllFoursError
    from ..table.play import Game, Leave, Options, open_resume
    from ..table.record import EndOfInput, TableIO
    from ..table.resume import ResumeError, left_in
    from ..table.screen import Style

    resumed = None
    if resume:
        given = [flag for name, flag in SETTINGS.items()
                 if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"]
        if given:
            fail(f"--resume takes the match's settings from the log: leave out {', '.join(given)}")
        path = log if log is not None else default_log()
        try:
            options, resumed = open_resume(path)
        except ResumeError as err:
            fail(str(err))
    else:
        ruleset = build_rules(rules, players, set_)
        if seat >= ruleset.players:
            fail(f"--seat {seat}: the rules have seats 0 to {ruleset.players - 1} ({ruleset.players} players)")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little") % 1_000_000
        path = log if log is not None else default_log()
        left = left_in(path, "play")
        if left is not None:
            typer.echo(f"Note: {path} ends with a match left in the middle of a deal (line {left}); this new match "
                       f"goes after it, and that one can then no longer be resumed. To go on with it instead: "
                       f"allfours play --resume --log {shlex.quote(str(path))}")
        options = Options(ruleset, path, seat=seat, opponent=opponent.value, seed=seed, coach=coach.value,
                          inference=inference.value, strategy=None if strategy is None else str(strategy))
    if options.strategy is not None:
        from ..players.policy import read_equilibrium

        read_equilibrium(options.strategy)  # a bad folder: one line now, not at the first card judged
    read, interactive = answer_reader()

    colour = interactive and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    try:
        game = Game(TableIO(read, typer.echo, interactive), options, Style(colour), resumed)
    except AllFoursError as err:
        fail(str(err))
    announce_engine()

    def keep() -> None:
        """The deal in progress kept as the log's last line, and how to go on with it."""
        try:
            game.keep_deal()
        except AllFoursError as why:
            typer.echo(f"the deal in progress could not be kept: {why}", err=True)
        if interactive:
            typer.echo()

    def go_on(err: bool = False) -> None:
        command = game.resume_command()
        if command:
            typer.echo(f"To go on with it: {command}", err=err)

    try:
        game.run()
    except EndOfInput:
        keep()
        typer.echo(f"end of input: {game.saved_words()}")
        go_on()
    except Leave:
        keep()
        typer.echo(f"You leave the match: {game.saved_words()}.")
        go_on()
        if game.saved:
            typer.echo(f"Its analysis as a web page: {game.analysis_command()}")
    except KeyboardInterrupt:
        keep()
        typer.echo(f"interrupted: {game.saved_words()}", err=True)
        go_on(err=True)
        raise typer.Exit(130) from None
    except ResumeError as err:  # a resumed deal that does not play out as saved: nothing was written
        fail(str(err))
    except AllFoursError as err:  # the log could not be written after all
        fail(f"{err}; {game.saved_words()}", code=1)
