"""``allfours replay``: referee a game log (or score a hand-written one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .options import JsonOpt, announce_engine, check_input, fail, log_lines


def replay(
    file: Annotated[Path, typer.Argument(help="An allfours-log/1 file: JSON lines, one dealer's turn each (see docs/game-log.md).")],
    show: Annotated[bool, typer.Option(
        "--show", help="Print each deal as a person reads it: hands, turn-ups, bids, every trick and who won it, "
                       "card points for Game, every point with its reason, the score.")] = False,
    line: Annotated[Optional[int], typer.Option(
        "--line", min=1, metavar="N", help="Only line N of the file (numbered as a text editor numbers them).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Referee a game log: every act, play, trick and point is checked. A seat's view (the cards that seat
    did not see written ??) is checked as far as it shows, and replay says what it could not check. A deal in
    progress (the last line that play or record keeps when left in the middle of a deal) is checked as far as
    it goes, and replay says which command finishes it."""
    from ..record.deal_account import account, account_text
    from ..referee import LogError

    scored: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    unfinished: list[dict[str, Any]] = []
    count = 0
    numbers: list[int] = []
    check_input(file)
    announce_engine()
    last = max((number for number, _ in log_lines(file)), default=0)
    try:
        for number, text in log_lines(file):
            numbers.append(number)
            if line is not None and number != line:
                continue
            count += 1
            try:
                obj, verdict, cut = referee_cut_text(text)
            except LogError as err:
                where = f"line {number}" + (f", event {err.event}" if err.event >= 0 else "")
                if json_out:
                    typer.echo(json.dumps({"ok": False, "line": number, "event": err.event, "error": err.reason}))
                if err.reason.startswith("not valid JSON"):  # "line 3 is not valid JSON: ..."
                    fail(f"{file}: line {number} is {err.reason}", code=1)
                fail(f"{file}: {where}: {err.reason}", code=1)
            if cut:
                unfinished.append(unfinished_item(file, number, obj, number == last))
            elif verdict.scored:
                scored.append({"line": number, "points": [{"side": s, "n": n, "why": w} for s, n, w in verdict.points],
                               "score_after": verdict.score_after, "winner": verdict.winner})
            if verdict.seat is not None and not cut:
                views.append({"line": number, "seat": verdict.seat, "unchecked": verdict.unchecked})
            if show:
                shown.append(account(obj, verdict, number))
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {getattr(err, 'strerror', None) or err}")
    if line is not None and count == 0:
        have = f"its log lines are {', '.join(map(str, numbers[:8]))}{' …' if len(numbers) > 8 else ''}"
        fail(f"--line {line}: {file} has no log line {line} ({have if numbers else 'it has none'})")
    if count == 0:
        fail(f"{file}: no log lines", code=1)
    if json_out:
        typer.echo(json.dumps({"ok": True, "lines": count, "scored": scored, "views": views}
                              | ({"unfinished": unfinished} if unfinished else {})
                              | ({"shown": shown} if show else {})))
        return
    if show:
        typer.echo("\n\n".join(account_text(item) for item in shown))
        typer.echo("")
        for item in unfinished:
            typer.echo(unfinished_text(item))
        typer.echo(f"{file}: {summary_line(count, len(scored), len(views), len(unfinished))}")
        return
    for item in views:
        unchecked = "; ".join(item["unchecked"]) or "nothing (every card of the other hands was played)"
        typer.echo(f"line {item['line']}: seat {item['seat']}'s view, checked as far as it shows; "
                   f"not checked: {unchecked}")
    for item in scored:
        points = ", ".join(f"side {p['side']} {p['n']} {p['why']}" for p in item["points"]) or "no points"
        typer.echo(f"line {item['line']}: {points}; score after {item['score_after']}"
                   + (f", side {item['winner']} wins" if item["winner"] is not None else ""))
    for item in unfinished:
        typer.echo(unfinished_text(item))
    typer.echo(f"{file}: {summary_line(count, len(scored), len(views), len(unfinished))}")


def referee_cut_text(text: str) -> tuple[Any, Any, bool]:
    """One line of JSON refereed: (the line, its verdict, whether it is a deal in progress). A deal in progress is
    refereed as far as it goes (a full log or a seat's view, stopping where its next step was due)."""
    from ..referee import LogError, Referee, read_view, referee_text, view_seat

    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        obj = None  # referee_text says why it is not JSON
    if not (isinstance(obj, dict) and obj.get("unfinished") is True):
        return obj, referee_text(text), False
    bare = {k: v for k, v in obj.items() if k not in ("unfinished", "resume", "score_after", "winner")}
    if view_seat(bare) is not None:
        return obj, read_view(bare, cut=True).verdict, True
    ref = Referee(bare)
    try:
        ref.line()
    except LogError as err:
        if not (err.event >= len(ref.events) and err.reason.startswith("the log ends early")):
            raise
    else:
        raise LogError(-1, "marked unfinished, but the deal is over: a finished deal gives score_after and winner "
                           "instead")
    ref.verdict.score_after = list(ref.score)
    return obj, ref.verdict, True


def unfinished_item(file: Path, number: int, obj: dict[str, Any], last: bool) -> dict[str, Any]:
    """What replay says of a deal in progress: where it stops and the command that finishes it."""
    import shlex

    from ..record.deal_account import due_words

    resume: dict[str, Any] = obj["resume"] if isinstance(obj.get("resume"), dict) else {}
    command = resume.get("command")
    finish = None
    if last and command == "play":
        finish = f"allfours play --resume --log {shlex.quote(str(file))}"
    elif last and command == "record":
        finish = f"allfours record --resume --out {shlex.quote(str(file))}"
    return {"line": number, "left_by": command, "due": due_words(resume.get("due")), "finish": finish}


def unfinished_text(item: dict[str, Any]) -> str:
    by = f" left by allfours {item['left_by']}" if item["left_by"] in ("play", "record") else ""
    how = f"finish it with: {item['finish']}" if item["finish"] else (
        "a later line follows it, so it cannot be resumed" if item["left_by"] else "no command to resume it is named")
    return (f"line {item['line']}: a deal in progress{by}, legal as far as it goes (next: {item['due']}); {how}")


def summary_line(count: int, scored: int, views: int = 0, unfinished: int = 0) -> str:
    """The last line of a replay, in words.

    >>> summary_line(5000, 0)
    '5000 lines legal; every point the log gives is right'
    >>> summary_line(1, 1)
    '1 line legal; it gives no points: they are worked out above'
    >>> summary_line(4, 1)
    '4 lines legal; every point the log gives is right (3 lines), and the line without points is scored above'
    >>> summary_line(1, 0, 1)
    "1 line legal; every point the log gives is right; it is a seat's view, checked as far as it shows (above)"
    """
    text = _summary(count, scored)
    if unfinished:
        what = "it is a deal in progress" if count == 1 else (
            "1 of them is a deal in progress" if unfinished == 1 else f"{unfinished} of them are deals in progress")
        text += f"; {what}, legal as far as {'it goes' if unfinished == 1 else 'they go'} (above)"
    if views:
        what = "it is a seat's view" if count == 1 else (
            "each is a seat's view" if views == count else
            "1 of them is a seat's view" if views == 1 else f"{views} of them are seats' views")
        text += f"; {what}, checked as far as {'it shows' if views == 1 else 'they show'} (above)"
    return text


def _summary(count: int, scored: int) -> str:
    lines = lambda n: f"{n} line" + ("" if n == 1 else "s")  # noqa: E731
    checked = count - scored
    head = f"{lines(count)} legal; "
    if scored == 0:
        return head + "every point the log gives is right"
    without = "it gives" if count == 1 else ("they give" if checked == 0 else "")
    if checked == 0:
        return head + f"{without} no points: they are worked out above"
    rest = "the line without points is" if scored == 1 else f"the {scored} lines without points are"
    return head + f"every point the log gives is right ({lines(checked)}), and {rest} scored above"
