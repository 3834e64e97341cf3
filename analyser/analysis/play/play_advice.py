"""Check the play advice of a Spanish-language All Fours guide ("Consejos y estrategias") on duplicated deals.

Each tip is a switch of the card player (``engine/tips.py`` says exactly what each
one does, quoting the tip; ``heuristic:tip_NAME=1`` forces it on, ``=0`` off, ``-1``
is the heuristic as it plays). For each tip, one side (the *tip side*) plays with
the switch on, then off, on the same cards, the other side(s) unchanged (the policy
as given, by default the plain heuristic):

1. **Deals** (kernel ``engine.tipcheck.tip_deals``): single deals from the score given
   (0:0 by default), the dealer the last seat; every deal is played with the tip side
   in each seating (side 0, the eldest's, then side 1, ...; three seatings with three
   players), tip on and tip off, from copies of the same card and choice streams
   (common random numbers). Per deal the effect is the tip side's net points (its
   points minus the others', every point of the deal) with the tip on minus with it
   off, averaged over the seatings; deals are the independent units of the mean, its
   standard error and its 95% CI. Also: the share of plays (deal x seating) in which
   the switch changed anything at all (a card, or the dealer's give or run) with a
   Wilson CI, and the effect per play where it did (a ratio estimate over deals, with a
   delta-method SE); where nothing changed the effect is exactly 0.
2. **Matches** (``tip_matches``): whole matches from 0:0, each played in every seating
   with the tip on and off from the same streams (every dealer turn of a match gets its
   own card stream, so the copies' k-th deals hold the same cards): the tip side's
   match-win rate with the tip on and off, and their paired difference (per match, the
   wins on minus off over the seatings), with 95% CIs. Not measured with ``matches=0``.
3. **Verdict** on the deals' effect in net points: *supported* if its 95% CI lies above
   0, *contradicted* if below, else *inconclusive*, with the deals it would take to
   separate the observed effect from zero at 95% (from the observed SE:
   deals x (1.96 SE / |effect|)^2). The match-win difference gets its verdict the same
   way (``match_win_rate.verdict``).
4. **Observation** (``observe_tips``): deals played by the strongest player available at
   every seat (``OBSERVER``: the ``pimc`` search player, on ``default_observe_deals``
   deals: it is slow), replayed from the log: at each card decision with more than one legal card where a
   tip's situation arises, whether the card played is the tip's (for
   tip_run_strong_side: each dealer's answer to a beg holding a strong side suit, and
   whether it ran). This reads the player, it does not judge the tip.

Streams: the deals of chunk k come from ``SeedSequence(seed, spawn_key=(1100, k))``,
the matches' from ``(1101, k)``: every tip is measured on the same deals and matches.
The observation's deal i draws its cards and choices from its own streams
(``engine.bits.unit_stream`` of i and the two keys of ``SeedSequence(seed, spawn_key=(1102,))``), so its
counts are the same for any cut of its deals into tasks: its tasks are cut by the observer's work
(``executor.work_chunks`` with at most ``observe_chunk_most`` deals a task: a search player's few, so that
every thread and every Dask worker has some, the heuristic's thousands).
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ...engine.bits import rng_state, unit_keys
from ...engine.layout import K_HEURISTIC, K_ORACLE, K_PIMC, K_TUNED
from ...engine.search import PIMC_WORLDS, needs_search, play_buffer_for
from ...engine.tipcheck import (
    N_TD_COLS, N_TM_COLS, N_TO_COLS, TD_CHANGED, TD_NET_OFF, TD_NET_ON, TM_DEALS, TM_UNFINISHED, TM_WINS,
    TO_FOLLOWED, TO_SITUATIONS, observe_tips, tip_deals, tip_matches,
)
from ...engine.tips import (
    N_TIPS, TIP_CAPTURE_JACK, TIP_EARLY_TRUMPS, TIP_KEEP_GAME, TIP_OFF, TIP_ON, TIP_RUN_STRONG_SIDE, TIP_SLOTS,
    TIP_TRUMP_ACE,
)
from ...work.executor import Executor, LocalExecutor, Task, work_chunks
from ...players.policy import seat_policies
from ...game.rules import RuleSet
from ..defaults import ADVICE_METHODS, PLAY_ADVICE_DEALS, PLAY_ADVICE_MATCHES
from ..bidding.advice import AdviceResult
from ..bidding.strategy import side_scores
from ..claims import INCONCLUSIVE, Claim, verdict_positive
from ..stats import Z95, wilson_ci
from .tournament import ratio

PLAY_STREAM = 1100
CHUNK_PLAY_DEALS = 5000
CHUNK_PLAY_MATCHES = 1000
# The observation's tasks (observe_chunk_most): pimc plays a trinidad deal in 1.5 s (4 players) to 2.6 s (2), a
# classic one in a tenth of that, so a task holds a few deals; other players a deal in microseconds, so up to
# CHUNK_PLAY_DEALS.
OBSERVE_SEARCH_CHUNK = 4
SWITCHABLE_KINDS = (K_HEURISTIC, K_TUNED, K_ORACLE, K_PIMC)  # card players whose card play obeys the tip switches
# The player whose habits the observation reads: the strongest card player the engine has that plays without
# seeing the other hands, the pimc search player (engine/search.py). It is slow (about a hundred card decisions a
# second), so it is watched on fewer deals than the tips are measured on (observe_deals).
OBSERVER = "pimc"
OBSERVER_NOTE = (f"pimc ({PIMC_WORLDS} worlds a card decision), the strongest fair card player the engine has (it "
                 "plays the heuristic's card while more than 24 cards are left in the hands, as after runs in trinidad)")
OBSERVE_MAX_DEALS = 200


def default_observe_deals(deals: int) -> int:
    """Deals the observer is watched on: a fiftieth of the tips' deals, between 20 and OBSERVE_MAX_DEALS."""
    return min(OBSERVE_MAX_DEALS, max(20, deals // 50))


DUPLICATED = ADVICE_METHODS[2]
SOURCE = "a Spanish-language All Fours guide (Consejos y estrategias, translated)"
Progress = Callable[[int], None]


@dataclasses.dataclass(frozen=True)
class PlayTip:
    tip: int            # engine.tips.TIP_*
    id: str
    switch: str         # the heuristic's parameter name
    claim: str          # the advice, as it is tested
    quote: str          # the document's words
    does: str           # what the switch does, on and off
    note: str = ""


TIPS = (
    PlayTip(TIP_CAPTURE_JACK, "play-small-trump-captures-jack", "tip_capture_jack",
            "Use permissive trumping to capture the jack: lead a small trump so that an opponent holding the jack "
            "must cover it with the jack.",
            "Use el triunfo permisivo para capturar la Jota. Si usted sale con un triunfo pequeno y su rival se ve "
            "obligado a cubrirlo con la Jota, asegura el punto de Jota incluso sin tener la Jota usted mismo.",
            "leading, while the jack of trump is out (not held, not seen played or turned up) and a small trump "
            "(2-9) is in hand: on, lead the smallest trump; off, lead no small trump (the player's next choice)",
            "the title names permissive trumping but the mechanism is a trump lead; taking an opponent's jack with "
            "a higher trump, even while holding the led suit, the heuristic always does when it can, so that part "
            "is not switched"),
    PlayTip(TIP_EARLY_TRUMPS, "play-lead-low-trumps-early", "tip_early_trumps",
            "Lead small trumps early, in tricks 1 and 2, to draw the jack out of the opponents' hands.",
            "Juegue triunfos pequenos pronto para atraer Jotas. La Jota suele ser la carta de puntuacion mas "
            "capturada; salga con triunfos bajos en las bazas 1 y 2 para sacar la Jota de las manos rivales.",
            "the tip_capture_jack switch in tricks 1 and 2 only: leading in trick 1 or 2, the jack of trump out and "
            "a small trump (2-9) in hand: on, lead the smallest trump; off, lead no small trump"),
    PlayTip(TIP_TRUMP_ACE, "play-trump-the-ace", "tip_trump_ace",
            "Trump the ace at all costs: take an opponent's ace with a trump.",
            "Triunfe el As a toda costa. Capturar el As de triunfo rival en una baza les niega tanto el punto Alto "
            "como 4 puntos de Juego; triunfar el As suele ser un cambio de 2 puntos.",
            "following, an ace of a non-trump suit played by an opponent winning the trick and a trump legal: on, "
            "play the smallest trump (at any cost: the ten or the jack if they are the only trumps); off, play no "
            "trump",
            "tested as a player would follow it: the ace of trump cannot be captured, and High goes to the side "
            "dealt the highest trump, so only the ace's 4 Game points (and the trick) can move, not a two-point "
            "swing"),
    PlayTip(TIP_KEEP_GAME, "play-keep-tens-and-aces-for-game", "tip_keep_game_cards",
            "Keep your best non-trump cards (tens and aces) for Game, to capture points in the final tricks.",
            "Guarde sus mejores cartas que no son triunfo para el Juego. El Diez vale 10 puntos y el As vale 4; "
            "conservelos en mano para capturar el mayor numero posible de puntos en las bazas finales.",
            "before the last 3 tricks, a side ace or ten and some other card legal: on, play no side ace or ten; "
            "off, cash them early: lead a side ace or ten no unseen card of its suit beats (the ace first), or "
            "play the led suit's such card when it takes the trick (no trump in it); else the player's own choice"),
    PlayTip(TIP_RUN_STRONG_SIDE, "play-dealer-runs-strong-side-suit", "tip_run_strong_side",
            "As dealer, refuse the beg and run when strong in a non-trump suit (as a switch of the player).",
            "Como repartidor, rechace la peticion y corra las cartas cuando su mano sea fuerte en un palo que no es "
            "triunfo.",
            "the dealer, begged, holding three or more cards of a non-trump suit including its ace or ten: on, "
            "run the cards; off, give one (a gift that would end the match is still refused)",
            "a bidding tip, also judged as a decision among the claims above "
            "(dealer-run-strong-side-suit); here its effect on whole deals and matches"),
)
assert [t.tip for t in TIPS] == list(range(N_TIPS))


@dataclasses.dataclass
class PlayAdviceResult:
    claims: list[Any]     # analysis.advice.Claim, one per tip
    deals: int
    matches: int
    observer: str
    observed_deals: int
    skipped: str = ""     # why the tips were not measured ("" if they were)


# ---- rows and chunks ------------------------------------------------------------------------------


def side_of_seat(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def tip_rows(rules: RuleSet, policy: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kinds, on, off): the seats' kinds and float64[tips, seatings, 4, N_PARAMS] rows, the tip side's switch
    on / off in its seats, every other seat the policy as given."""
    kinds, params = seat_policies([policy], rules.players)
    n = rules.players
    sides = rules.sides
    base = np.zeros((4, params.shape[1]), dtype=np.float64)
    base[:n] = params
    on = np.broadcast_to(base, (N_TIPS, sides, 4, params.shape[1])).copy()
    off = on.copy()
    for tip in range(N_TIPS):
        for side in range(sides):
            for seat in range(n):
                if side_of_seat(seat, n) == side:
                    on[tip, side, seat, TIP_SLOTS[tip]] = TIP_ON
                    off[tip, side, seat, TIP_SLOTS[tip]] = TIP_OFF
    return kinds, on, off


def play_buffer(kinds: np.ndarray) -> np.ndarray:
    """The play buffer the seats' policies need (the search players need their work area after the play state)."""
    return play_buffer_for(kinds)


def chunk_streams(seed: int, stream: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    cards, choices = np.random.SeedSequence(seed, spawn_key=(stream, index)).spawn(2)
    return rng_state(cards), rng_state(choices)


def deals_chunk(rules_array: np.ndarray, scores: np.ndarray, kinds: np.ndarray, on: np.ndarray, off: np.ndarray,
                seed: int, index: int, size: int, stop: threading.Event | None = None,
                progress: Progress | None = None) -> tuple[int, np.ndarray] | None:
    """Chunk `index` of the deals: (index, out[deal, tip, seating, TD_*]); None if stopped before it began."""
    if stop is not None and stop.is_set():
        return None
    deck_rng, rng = chunk_streams(seed, PLAY_STREAM, index)
    out = np.zeros((size, on.shape[0], on.shape[1], N_TD_COLS), dtype=np.int64)
    tip_deals(rules_array, size, scores, kinds, on, off, deck_rng, rng, play_buffer(kinds), out)
    if progress is not None:
        progress(size)
    return index, out


def matches_chunk(rules_array: np.ndarray, kinds: np.ndarray, on: np.ndarray, off: np.ndarray, seed: int, index: int,
                  size: int, stop: threading.Event | None = None,
                  progress: Progress | None = None) -> tuple[int, np.ndarray] | None:
    """Chunk `index` of the matches: (index, out[match, tip, setting, TM_*])."""
    if stop is not None and stop.is_set():
        return None
    deck_rng, rng = chunk_streams(seed, PLAY_STREAM + 1, index)
    out = np.zeros((size, on.shape[0], 2, N_TM_COLS), dtype=np.int64)
    tip_matches(rules_array, size, kinds, on, off, deck_rng, rng, play_buffer(kinds), out)
    if progress is not None:
        progress(size)
    return index, out


def observe_chunk(rules_array: np.ndarray, scores: np.ndarray, kinds: np.ndarray, params: np.ndarray, seed: int,
                  first: int, size: int, stop: threading.Event | None = None,
                  progress: Progress | None = None) -> np.ndarray | None:
    """Deals `first` .. `first + size - 1` of the observation: counts[tip, TO_*] (each deal from its own streams,
    so the counts of a run do not depend on its chunks); None if stopped before it began."""
    if stop is not None and stop.is_set():
        return None
    deck_key, key = unit_keys(seed, PLAY_STREAM + 2, 2)
    counts = np.zeros((N_TIPS, N_TO_COLS), dtype=np.int64)
    observe_tips(rules_array, first, size, scores, kinds, params, deck_key, key, play_buffer(kinds), counts)
    if progress is not None:
        progress(size)
    return counts


def observe_chunk_most(kinds: np.ndarray) -> int:
    """The most deals a task of the observation holds, by the observer's work: OBSERVE_SEARCH_CHUNK where a seat
    searches, else CHUNK_PLAY_DEALS (``executor.work_chunks`` cuts fewer where that leaves workers idle)."""
    return OBSERVE_SEARCH_CHUNK if needs_search(np.asarray(kinds, dtype=np.int64)) else CHUNK_PLAY_DEALS


def chunk_sizes(total: int, chunk: int) -> list[int]:
    return [min(chunk, total - lo) for lo in range(0, total, chunk)]


def run_chunks(executor: Executor, fn: Callable[..., Any], name: str, args: tuple, total: int, chunk: int,
               progress: Progress | None) -> list[Any]:
    """Results of `fn(*args, seed-index, size)` per chunk, in chunk order (whatever order they finish in)."""
    sizes = chunk_sizes(total, chunk)
    results: list[Any] = [None] * len(sizes)

    def finished(task: Task, result: Any) -> None:
        results[int(task.key.rsplit("-", 1)[1])] = result

    tasks = (Task(f"{name}-{k:06d}", args + (k, size), size) for k, size in enumerate(sizes))
    executor.run(fn, tasks, finished, progress)
    return results


# ---- estimates ------------------------------------------------------------------------------------


def mean_ci(x: np.ndarray) -> tuple[float, float, tuple[float, float]]:
    """(mean, SE, normal 95% CI) of independent values."""
    n = len(x)
    mean = float(x.mean()) if n else math.nan
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return mean, se, (mean - Z95 * se, mean + Z95 * se)


def verdict_of(ci: tuple[float, float]) -> str:
    return verdict_positive(ci)


def units_needed(mean: float, se: float, n: int) -> int | None:
    """Units (deals, matches) for the 95% CI to separate an effect of `mean` from zero, given the SE `se` seen
    on `n` units: n (1.96 se / |mean|)^2, rounded up; None when the effect is exactly zero or unknown."""
    if not (math.isfinite(mean) and math.isfinite(se)) or mean == 0 or n < 2:
        return None
    return int(math.ceil(n * (Z95 * se / abs(mean)) ** 2))


def estimate_json(mean: float, ci: tuple[float, float], **extra: Any) -> dict[str, Any]:
    return {"estimate": mean, "ci95": [ci[0], ci[1]], **extra}


def followed_by_player(tip: PlayTip, counts: np.ndarray, observer: str) -> dict[str, Any]:
    """How often `observer` played the tip's card where it applied, from the observation's counts[TO_*]."""
    situations, followed = int(counts[TO_SITUATIONS]), int(counts[TO_FOLLOWED])
    found: dict[str, Any] = {
        "player": observer, "situations": situations, "followed": followed,
        "estimate": followed / situations if situations else math.nan, "ci95": list(wilson_ci(followed, situations)),
        "over": "dealer's answers to a beg" if tip.tip == TIP_RUN_STRONG_SIDE else "card decisions",
    }
    if observer == OBSERVER:
        found["note"] = OBSERVER_NOTE
    return found


def tip_claim(tip: PlayTip, deals_out: np.ndarray, match_out: np.ndarray | None, counts: np.ndarray,
              observer: str, sides: int) -> Any:
    """The claim of one tip from its slices: deals_out[deal, seating, TD_*], match_out[match, setting, TM_*],
    counts[TO_*] of the observation."""
    n = deals_out.shape[0]
    d = (deals_out[:, :, TD_NET_ON] - deals_out[:, :, TD_NET_OFF]).astype(np.float64)
    effect, se, ci = mean_ci(d.sum(axis=1) / sides)
    verdict = verdict_of(ci)
    on_mean, _, on_ci = mean_ci(deals_out[:, :, TD_NET_ON].sum(axis=1) / sides)
    off_mean, _, off_ci = mean_ci(deals_out[:, :, TD_NET_OFF].sum(axis=1) / sides)
    changed = deals_out[:, :, TD_CHANGED].astype(np.float64)
    plays = n * sides
    changed_total = int(changed.sum())
    share_ci = wilson_ci(changed_total, plays)
    details: dict[str, Any] = {
        "method": DUPLICATED, "switch": tip.switch, "switch_does": tip.does, "deals": n, "seatings": sides,
        "deals_needed": units_needed(effect, se, n) if verdict == INCONCLUSIVE else None,
        "tip_on_against_policy": estimate_json(on_mean, on_ci),
        "tip_off_against_policy": estimate_json(off_mean, off_ci),
        "changed_share": estimate_json(changed_total / plays if plays else math.nan, share_ci, over="plays",
                                       plays=plays, changed=changed_total),
    }
    if changed_total >= 2:
        where = ratio(d.sum(axis=1), changed.sum(axis=1))
        details["effect_where_changed"] = estimate_json(where.mean, where.ci95, plays=changed_total)
    else:
        details["effect_where_changed"] = estimate_json(math.nan, (math.nan, math.nan), plays=changed_total)
    if match_out is not None and match_out.shape[0] > 0:
        m = match_out.shape[0]
        wins_on = match_out[:, 0, TM_WINS].astype(np.float64) / sides
        wins_off = match_out[:, 1, TM_WINS].astype(np.float64) / sides
        w_effect, w_se, w_ci = mean_ci(wins_on - wins_off)
        w_verdict = verdict_of(w_ci)
        details["match_win_rate"] = {
            "estimate": w_effect, "ci95": [w_ci[0], w_ci[1]], "verdict": w_verdict, "matches": m,
            "matches_needed": units_needed(w_effect, w_se, m) if w_verdict == INCONCLUSIVE else None,
            "on": estimate_json(float(wins_on.mean()), wilson_ci(float(match_out[:, 0, TM_WINS].sum()), m * sides)),
            "off": estimate_json(float(wins_off.mean()), wilson_ci(float(match_out[:, 1, TM_WINS].sum()), m * sides)),
            "deals_per_match": float(match_out[:, :, TM_DEALS].sum() / (2 * m * sides)),
            "unfinished": int(match_out[:, :, TM_UNFINISHED].sum()),
        }
    details["followed_by_player"] = followed_by_player(tip, counts, observer)
    if tip.note:
        details["note"] = tip.note
    test = (f"the tip side's net points per deal with {tip.switch} on minus off ({tip.does}), the other side "
            f"unchanged, on the same deals in every seating; supported if the 95% CI is above 0, contradicted if "
            "below")
    return Claim(tip.id, tip.claim, f"{SOURCE}: \"{tip.quote}\"", test, effect, ci, verdict, n,
                 "net points per deal", details)


def observe_counts(rules: RuleSet, observer: str, observe_deals: int, seed: int, scores: np.ndarray,
                   executor: Executor, progress: Progress | None = None, chunk: int | None = None) -> np.ndarray:
    """The observation alone (module docstring, 4): counts[tip, TO_*] of `observer` at every seat on
    `observe_deals` deals from `scores`, the streams of `seed` (the same as inside ``check_play_advice``), in
    tasks of at most `chunk` deals (default ``observe_chunk_most``), at least ``executor.TASKS_PER_WORKER`` a
    worker thread where the deals allow (``work_chunks``); any cut gives the same counts."""
    if observe_deals < 1:
        raise ValueError("the observation needs at least 1 deal")
    obs_kinds, obs_params = seat_policies([observer], rules.players)
    if chunk is None:
        chunk = observe_chunk_most(obs_kinds)
    if chunk < 1:
        raise ValueError("the observation's tasks need at least 1 deal each")
    counts = np.zeros((N_TIPS, N_TO_COLS), dtype=np.int64)

    def finished(task: Task, result: np.ndarray) -> None:
        np.add(counts, result, out=counts)  # integer sums: the order tasks finish in does not matter

    args = (rules.as_array(), scores, obs_kinds, obs_params, seed)
    tasks = (Task(f"tips-observe-{first:09d}", args + (first, size), size)
             for first, size in work_chunks(observe_deals, executor.parallelism, chunk))
    executor.run(observe_chunk, tasks, finished, progress)
    return counts


def check_play_advice(rules: RuleSet, policy: str = "heuristic", deals: int = PLAY_ADVICE_DEALS,
                      matches: int = PLAY_ADVICE_MATCHES, seed: int = 1, scores: np.ndarray | None = None,
                      executor: Executor | None = None, progress: Progress | None = None,
                      observer: str = OBSERVER, observe_deals: int | None = None) -> PlayAdviceResult:
    """Measure every tip on `deals` duplicated deals (from `scores`, int64[4] by side, eldest's side first) and
    `matches` duplicated matches, and observe `observer` on `observe_deals` deals (default
    `default_observe_deals(deals)`; 0: not watched; module docstring)."""
    if deals < 2:
        raise ValueError("play advice needs at least 2 deals")
    executor = executor if executor is not None else LocalExecutor(None)
    scores = np.zeros(4, dtype=np.int64) if scores is None else np.asarray(scores, dtype=np.int64)
    kinds, on, off = tip_rows(rules, policy)
    if any(int(k) not in SWITCHABLE_KINDS for k in kinds):
        if progress is not None:
            progress(deals + matches + (default_observe_deals(deals) if observe_deals is None else observe_deals))  # done
        return PlayAdviceResult([], 0, 0, observer, 0, skipped=f"the policy {policy!r} has no tip switches: play "
                                                                  "advice is measured with heuristic or tuned players")
    rules_array = rules.as_array()
    chunks = run_chunks(executor, deals_chunk, "tips-deals", (rules_array, scores, kinds, on, off, seed), deals,
                        CHUNK_PLAY_DEALS, progress)
    deals_out = np.concatenate([rows for _, rows in chunks])
    match_out = None
    if matches > 0:
        chunks = run_chunks(executor, matches_chunk, "tips-matches", (rules_array, kinds, on, off, seed), matches,
                            CHUNK_PLAY_MATCHES, progress)
        match_out = np.concatenate([rows for _, rows in chunks])
    observe_deals = default_observe_deals(deals) if observe_deals is None else observe_deals
    counts = (observe_counts(rules, observer, observe_deals, seed, scores, executor, progress) if observe_deals > 0
              else np.zeros((N_TIPS, N_TO_COLS), dtype=np.int64))  # not watched: no situations
    claims = [tip_claim(t, deals_out[:, t.tip], None if match_out is None else match_out[:, t.tip], counts[t.tip],
                        observer, rules.sides) for t in TIPS]
    return PlayAdviceResult(claims, deals, matches, observer, observe_deals)


def add_play_tips(result: AdviceResult, play_deals: int, play_matches: int, score: tuple[int, ...] | None = None,
                  executor: Executor | None = None, progress: Progress | None = None,
                  observer: str | None = None) -> AdviceResult:
    """`result` (the bidding claims of ``bidding.advice.check_advice``) with the play tips measured on `play_deals`
    duplicated deals and `play_matches` matches each, from the same score, with its policy and seed; the card
    player `observer` (default OBSERVER, pimc) watched for how often it follows them."""
    start = time.perf_counter()
    play = check_play_advice(result.rules, result.policy, play_deals, play_matches, result.seed,
                             side_scores(result.rules, score), executor, progress, observer=observer or OBSERVER)
    return dataclasses.replace(result, play=play.claims, play_deals=play.deals, play_matches=play.matches,
                               play_observer=play.observer, play_skipped=play.skipped,
                               seconds=result.seconds + time.perf_counter() - start)
