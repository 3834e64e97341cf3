"""Rules of thumb: the shortest decision lists that lose least against the bidding equilibrium.

A rule is data. A ``RuleList`` is up to three lines ``(condition, action)`` and a default
action; the first line whose condition the hand meets decides. A condition is one or two
``Atom``s joined by "and" or "or"; an atom tests one feature a player sees at a glance:
the number of trumps held (0 to 4, 4 meaning four or more), the ace of trump, the jack of
trump, a low trump (2 to 5). These are the features of the hand classes
(``engine.evaluator``), so every rule compiles to a per-class flag table (``table``), the
tuned policy's own format. ``describe`` (the printed words) and ``apply`` (the decision)
both read the same atoms: what the card says is what the code does.

Fitting (``fit``): exhaustive search over every decision list of 1 to 4 lines (0 to 3
conditions and a default) built from ~100 distinct conditions, on the fitting game: the
equilibrium run's payoff tensor (``equilibrium.Game``, the deals of its own seed). The
opponent plays the equilibrium: for the eldest, each class's gain of begging over standing
against the equilibrium dealer; for the dealer, each class's gain of giving over running
against the equilibrium eldest's begs (its own payoff; minus the eldest's with two sides).
A list's loss is the equilibrium's value minus the list's, per eldest decision deal. A
longer list is taken only when it loses strictly less than the best shorter one; among
lists of one length, the first found wins a tie (conditions are tried simplest first;
prefixes that leave the same classes undecided keep only the best). A search of our own
rather than a tree learner (scikit-learn is not a dependency, and a tree minimises
impurity, not this loss): the lists are small enough to enumerate (about 150 distinct
conditions; seconds per role), the loss is exact on the tensor, and the result prints as
the words it tests.

Measuring (``measure``): a fresh payoff tensor (``equilibrium.payoff_tensor``) on the
measuring seed, ``measure_seed(seed)`` (a different seed; never the fitting deals), every
deal played stand, beg then give, beg then run on the same cards: each rule and the
equilibrium are scored on the same deals (paired). Per role and size: agreement with the
equilibrium (the share of the role's decisions where the rule takes the equilibrium's
action; a mixed entry counts its probability), the cost in net points per eldest decision
deal (the equilibrium's value minus the rule's, for the rule's side, the equilibrium
opponent on the other role) and, with two sides, the cost in match-win probability of one
deal played from 0:0 (a second fresh tensor scored by the match-equity table). 95% CIs by
batch means over the tensor's seeded chunks (ratio estimator).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...engine.bidding import LINES, TS_DEALER_SUM, TS_N, TS_SUM
from ...engine.evaluator import CLASS_ACE, CLASS_JACK, CLASS_LOW, class_key, decode_class, hand_features, \
    possible_classes
from ...game.rules import RuleSet
from ...record.vocabulary import ROLE
from ..stats import Z95
from .equity import EquityTable
from .equilibrium import EquilibriumResult, Game, Tensor, payoff_tensor
from .strategy import side_scores

FORMAT = "allfours-rules-of-thumb/1"
SIZES = (1, 2, 3, 4)         # lines, the default line included
CLOSE_ENOUGH = 0.01          # net points per deal: a card takes the smallest size this close to the equilibrium
CARD_FALLBACK = 3            # ... or the best list of this size
MEASURE_STREAM = 4000        # measure_seed: the measuring deals' seed is drawn from SeedSequence(seed, (this,))
MEASURE_DEALS = 1_000_000
NEAR_TARGET = 2              # "near the target": a side needing this many points or fewer
TIE = 1e-12                  # payoff mass: a longer list must beat a shorter one by more than this
CLASSES = possible_classes() # the 28 hand classes, in the tensor's row order
Progress = Callable[[int], None]


# ---- rules as data ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Hand:
    """What a rule sees: trumps held (4 = four or more) and the trump honours."""

    trumps: int
    ace: bool
    jack: bool
    low: bool

    @classmethod
    def of_class(cls, code: int) -> Hand:
        trumps, flags = decode_class(code)
        return cls(trumps, bool(flags & CLASS_ACE), bool(flags & CLASS_JACK), bool(flags & CLASS_LOW))

    @classmethod
    def of_cards(cls, cards: Any, trump: Any) -> Hand:
        """A real hand (cards as names, ints or a mask) with `trump` (0..3 or S H D C)."""
        return cls.of_class(int(hand_features(cards, trump)["hand_class"]))


FLAG_WORDS = {"ace": "the ace of trump", "jack": "the jack of trump", "low": "a low trump (2 to 5)"}
LACK_WORDS = {"ace": "no ace of trump", "jack": "no jack of trump", "low": "no low trump"}
COUNT_WORDS = {0: "no trump", 1: "one trump", 2: "2 trumps", 3: "3 trumps", 4: "4 or more trumps"}


@dataclasses.dataclass(frozen=True)
class Atom:
    """One test of one feature: ``trumps`` with op ``==``, ``>=`` or ``<=`` and a count; ``ace``, ``jack`` or
    ``low`` with op ``has`` or ``lacks``."""

    feature: str
    op: str
    value: int = 0

    def test(self, hand: Hand) -> bool:
        if self.feature == "trumps":
            return {"==": hand.trumps == self.value, ">=": hand.trumps >= self.value,
                    "<=": hand.trumps <= self.value}[self.op]
        held = bool(getattr(hand, self.feature))
        return held if self.op == "has" else not held

    def words(self) -> str:
        if self.feature != "trumps":
            return (FLAG_WORDS if self.op == "has" else LACK_WORDS)[self.feature]
        if self.op == "==" or (self.op == ">=" and self.value == 4) or (self.op == "<=" and self.value == 0):
            return COUNT_WORDS[self.value] if self.op != "==" or self.value in (0, 4) else \
                f"exactly {COUNT_WORDS[self.value]}"
        if self.op == ">=":
            return "any trump" if self.value == 1 else f"{self.value} or more trumps"
        return "at most one trump" if self.value == 1 else f"at most {self.value} trumps"

    def to_json(self) -> list[Any]:
        return [self.feature, self.op, self.value]


@dataclasses.dataclass(frozen=True)
class Condition:
    atoms: tuple[Atom, ...]
    join: str = "and"  # "and" | "or"

    def test(self, hand: Hand) -> bool:
        tests = (a.test(hand) for a in self.atoms)
        return all(tests) if self.join == "and" else any(tests)

    def words(self) -> str:
        return f" {self.join} ".join(a.words() for a in self.atoms)

    def to_json(self) -> dict[str, Any]:
        return {"join": self.join, "atoms": [a.to_json() for a in self.atoms]}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Condition:
        return cls(tuple(Atom(str(f), str(o), int(v)) for f, o, v in doc["atoms"]), str(doc["join"]))


@dataclasses.dataclass(frozen=True)
class RuleList:
    """A decision list for one role: the first line whose condition holds decides, else the default."""

    role: str
    lines: tuple[tuple[Condition, str], ...]
    default: str

    def __post_init__(self) -> None:
        options = ROLE[self.role].options
        if any(action not in options for _, action in self.lines) or self.default not in options:
            raise ValueError(f"a {self.role} rule's actions are {' or '.join(options)}")

    @property
    def size(self) -> int:
        """Lines as printed, the default (or 'always') line included."""
        return len(self.lines) + 1

    def apply(self, hand: Hand) -> str:
        for condition, action in self.lines:
            if condition.test(hand):
                return action
        return self.default

    def describe(self) -> list[str]:
        """One sentence per line, read off the same conditions `apply` tests."""
        if not self.lines:
            return [f"Always {self.default}."]
        return [f"With {c.words()}: {a}." for c, a in self.lines] + [f"Otherwise: {self.default}."]

    def text(self) -> str:
        return " ".join(self.describe())

    def table(self) -> dict[str, str]:
        """The action for every hand class (its key)."""
        return {class_key(code): self.apply(Hand.of_class(code)) for code in CLASSES}

    def flags(self) -> np.ndarray:
        """float64[28]: 1 where the rule takes the role's option 1 (beg, give), per class in CLASSES order."""
        one = ROLE[self.role].option1
        return np.array([float(self.apply(Hand.of_class(code)) == one) for code in CLASSES])

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "lines": [{"if": c.to_json(), "then": a} for c, a in self.lines],
                "default": self.default}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> RuleList:
        return cls(str(doc["role"]), tuple((Condition.from_json(x["if"]), str(x["then"])) for x in doc["lines"]),
                   str(doc["default"]))


def atoms() -> list[Atom]:
    """Every atom, the simplest first."""
    counts = ([Atom("trumps", "==", 0)] + [Atom("trumps", ">=", k) for k in (1, 2, 3, 4)]
              + [Atom("trumps", "<=", k) for k in (1, 2, 3)] + [Atom("trumps", "==", k) for k in (1, 2, 3)])
    flags = [Atom(f, op) for op in ("has", "lacks") for f in ("ace", "jack", "low")]
    return flags[:3] + counts + flags[3:]


def conditions() -> tuple[list[Condition], np.ndarray]:
    """The distinct conditions (by the classes they hold for), the simplest first, and their masks
    bool[condition, class]: one atom, then two of different features joined by and / or. A condition true of
    no class or of every class is left out (an always-line is the default)."""
    single = [Condition((a,)) for a in atoms()]
    counts = [a for a in atoms() if a.feature == "trumps"]
    flags = [a for a in atoms() if a.feature != "trumps"]
    two = [(a, b) for a in counts for b in flags] + [(a, b) for a, b in itertools.combinations(flags, 2)
                                                      if a.feature != b.feature]
    pairs = [Condition(pair, join) for join in ("and", "or") for pair in two]
    hands = [Hand.of_class(code) for code in CLASSES]
    seen: set[bytes] = set()
    kept, masks = [], []
    for c in single + pairs:
        mask = np.array([c.test(h) for h in hands])
        if mask.all() or not mask.any() or mask.tobytes() in seen:
            continue
        seen.add(mask.tobytes())
        kept.append(c)
        masks.append(mask)
    return kept, np.array(masks)


# ---- fitting on the equilibrium's game ---------------------------------------------------------------


@dataclasses.dataclass
class FitInput:
    """The fitting data: the equilibrium run's game (its own deals) and its strategies, per class in CLASSES
    order (NaN: a class it never sampled)."""

    game: Game
    b: np.ndarray
    g: np.ndarray
    play: str
    seed: int
    deals: int
    source: str

    @classmethod
    def of_result(cls, eq: EquilibriumResult, source: str = "") -> FitInput:
        if eq.scheme != "coarse" or list(eq.tensor.codes) != CLASSES:
            raise ValueError("rules of thumb are fitted to a coarse-class equilibrium")
        return cls(eq.game, np.asarray(eq.b, float), np.asarray(eq.g, float), eq.play, eq.seed, eq.deals,
                   source or str(eq.out_dir or "equilibrium"))

    @classmethod
    def of_run(cls, folder: Path) -> FitInput:
        """A written equilibrium run folder (``equilibrium --out``): tensor.csv, eldest.csv, dealer.csv."""
        folder = Path(folder)
        doc = json.loads((folder / "equilibrium.json").read_text(encoding="utf-8"))
        if doc.get("classes") != "coarse" or doc.get("measure") != "net points":
            raise ValueError(f"{folder}: rules of thumb need a coarse, net-points equilibrium run")
        tensor = pd.read_csv(folder / "tensor.csv")
        index = {class_key(c): i for i, c in enumerate(CLASSES)}
        shape = (len(CLASSES), len(CLASSES))
        prob, lines = np.zeros(shape), {k: np.zeros(shape) for k in LINES}  # stand, beg-give, beg-run
        three = f"dealer_{LINES[0]}" in tensor.columns
        dealer = {k: np.zeros(shape) for k in LINES}
        e = tensor["eldest_class"].map(index).to_numpy()
        d = tensor["dealer_class"].map(index).to_numpy()
        prob[e, d] = tensor["deals"] / tensor["deals"].sum()
        for k in lines:
            lines[k][e, d] = tensor[k]
            if three:
                dealer[k][e, d] = tensor[f"dealer_{k}"]
        stand, give, run = (lines[k] for k in LINES)
        game = Game.from_means(prob, stand, give, run,
                               (dealer["stand"], dealer["give"], dealer["run"]) if three else None)
        strategy = {}
        for role in ("eldest", "dealer"):
            p = np.full(len(CLASSES), np.nan)
            for entry in doc[role]:
                p[index[entry["class"]]] = float(entry[f"p_{ROLE[role].option1}"])
            strategy[role] = p
        return cls(game, strategy["eldest"], strategy["dealer"], str(doc["play"]), int(doc["seed"]),
                   int(doc["deals"]), str(folder))


def class_gains(game: Game, b: np.ndarray, g: np.ndarray, role: str) -> np.ndarray:
    """Per class of `role`: the role's gain from option 1 over option 0 against the other role's equilibrium
    strategy, as payoff mass per eldest decision deal (0 for a class never sampled)."""
    b, g = np.nan_to_num(b), np.nan_to_num(g)
    if role == "eldest":
        return ((game.give * g + game.run * (1 - g)).sum(axis=1) - game.stand.sum(axis=1))
    return (b[:, None] * (game.d_give - game.d_run)).sum(axis=0)


def search(gains: np.ndarray, role: str, max_lines: int = max(SIZES)) -> dict[int, RuleList]:
    """The best list of at most k lines for each k in 1..max_lines (exhaustive; module docstring)."""
    conds, masks = conditions()
    a0, a1 = ROLE[role].options
    w = np.asarray(gains, float)
    every = np.ones(len(CLASSES), bool)
    mask_w = masks.astype(float)

    def default(rest_w: float) -> str:
        return a1 if rest_w > 0 else a0

    best: dict[int, tuple[float, RuleList]] = {}
    total = float(w.sum())
    best[1] = (max(total, 0.0), RuleList(role, (), default(total)))

    prefixes: list[tuple[tuple[tuple[int, str], ...], np.ndarray, float]] = [((), every, 0.0)]
    upper = float(np.maximum(w, 0.0).sum())  # every class on its better option: no list does better
    for k in range(2, max_lines + 1):
        best[k] = best[k - 1]
        if best[k][0] >= upper - TIE:
            continue
        grown: dict[bytes, tuple[tuple[tuple[int, str], ...], np.ndarray, float]] = {}
        for lines, rem, acc in prefixes:
            cover = masks & rem                      # [condition, class]: what a new line would decide
            cover_w = (mask_w * (w * rem)).sum(axis=1)
            rest_w = float((w * rem).sum()) - cover_w
            useful = cover.any(axis=1) & (cover.sum(axis=1) < rem.sum())
            for action in (a1, a0):
                value = acc + (cover_w if action == a1 else 0.0) + np.maximum(rest_w, 0.0)
                value = np.where(useful, value, -np.inf)
                i = int(np.argmax(value))
                if np.isfinite(value[i]):
                    if float(value[i]) > best[k][0] + TIE:
                        chosen = lines + ((i, action),)
                        best[k] = (float(value[i]), RuleList(role, tuple((conds[j], a) for j, a in chosen),
                                                             default(float(rest_w[i]))))
                if k < max_lines:
                    for j in np.nonzero(useful)[0]:
                        left = rem & ~masks[j]
                        gained = acc + (float(cover_w[j]) if action == a1 else 0.0)
                        # Prefixes leaving the same classes undecided: only the best (the first, on a tie) can win.
                        if left.tobytes() not in grown or gained > grown[left.tobytes()][2] + TIE:
                            grown[left.tobytes()] = (lines + ((int(j), action),), left, gained)
        prefixes = list(grown.values())
    return {k: rule for k, (_, rule) in best.items()}


def fit_loss(gains: np.ndarray, eq_p: np.ndarray, rule: RuleList) -> float:
    """The equilibrium's value minus the rule's on the fitting game, per eldest decision deal."""
    p = np.where(np.isnan(eq_p), rule.flags(), eq_p)
    return float(((p - rule.flags()) * gains).sum())


# ---- measuring on fresh deals ---------------------------------------------------------------------


def measure_seed(seed: int) -> int:
    """The seed of the measuring deals: drawn from the fitting seed, never equal to it."""
    drawn = int(np.random.SeedSequence(seed, spawn_key=(MEASURE_STREAM,)).generate_state(1, np.uint32)[0])
    return drawn if drawn != seed else drawn + 1


def ratio_ci(x: np.ndarray, n: np.ndarray) -> tuple[float, float, float]:
    """(mean, standard error, total n) of sum(x) / sum(n) over the chunks: the ratio estimator, each chunk one
    batch (the chunks are independent seeded streams)."""
    total = float(n.sum())
    mean = float(x.sum()) / total
    k = len(x)
    resid = x - mean * n
    se = math.sqrt(k / max(k - 1, 1) * float((resid * resid).sum())) / total
    return mean, se, total


def estimate(x: np.ndarray, n: np.ndarray) -> dict[str, Any]:
    mean, se, _ = ratio_ci(x, n)
    return {"mean": mean, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se]}


def paired_costs(tensor: Tensor, b: np.ndarray, g: np.ndarray, role: str,
                 flags: np.ndarray) -> tuple[dict[str, Any], dict[str, Any]]:
    """(agreement, cost) of the rule `flags` against the equilibrium (b, g) on the tensor's deals, per chunk."""
    c = tensor.chunks
    n = c[..., TS_N]
    line = [c[..., TS_SUM + k] for k in range(3)]
    own = [c[..., TS_DEALER_SUM + k] for k in range(3)] if tensor.three else [-x for x in line]
    eq = np.where(np.isnan(b if role == "eldest" else g), flags, b if role == "eldest" else g)
    b, g = np.nan_to_num(b), np.nan_to_num(g)
    deals = n.sum(axis=(1, 2))
    if role == "eldest":
        gain = ((line[1] * g + line[2] * (1 - g)) - line[0]).sum(axis=2)   # [chunk, e]
        decisions = n.sum(axis=2)
    else:
        gain = (b[None, :, None] * (own[1] - own[2])).sum(axis=1)          # [chunk, d]
        decisions = (b[None, :, None] * n).sum(axis=1)
    agree = flags * eq + (1 - flags) * (1 - eq)
    return estimate((decisions * agree).sum(axis=1), decisions.sum(axis=1)), \
        estimate(((eq - flags) * gain).sum(axis=1), deals)


def fresh_tensor(rules: RuleSet, play: str, seed: int, deals: int, equity: EquityTable | None,
                 executor: Any, progress: Progress | None) -> Tensor:
    scores = side_scores(rules, (0,) * rules.sides if equity is not None else None)
    return payoff_tensor(rules, play, scores, equity, "coarse", deals, measure_seed(seed), executor, progress)


# ---- the whole job ----------------------------------------------------------------------------


@dataclasses.dataclass
class RulesOfThumb:
    rules: RuleSet
    fit: FitInput
    measured_deals: int
    rows: list[dict[str, Any]]          # one per role and size
    chosen: dict[str, int]              # the size a card shows, per role
    near_target: list[dict[str, Any]]   # how the chosen rules shift near the target (empty: no by-score run)

    def rule(self, role: str, size: int) -> RuleList:
        row = next(r for r in self.rows if r["role"] == role and r["size"] == size)
        return RuleList.from_json(row["rule"])

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "rules": self.rules.as_log_dict(),
                "fit": {"source": self.fit.source, "seed": self.fit.seed, "deals": self.fit.deals,
                        "play": self.fit.play, "opponent": "the equilibrium on the other role"},
                "measure": {"seed": measure_seed(self.fit.seed), "deals": self.measured_deals,
                            "note": "fresh deals (not the fitting ones), every deal played stand, beg-give, "
                                    "beg-run; costs per eldest decision deal; 95% CIs by batch means over chunks"},
                "close_enough": CLOSE_ENOUGH, "chosen": self.chosen, "sizes": self.rows,
                "near_target": self.near_target}

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "role": r["role"], "size": r["size"], "lines": r["lines"], "rule": " ".join(r["text"]),
            "fit loss": r["fit_loss"], "agreement": r["agreement"]["mean"],
            "agreement lo": r["agreement"]["ci95"][0], "agreement hi": r["agreement"]["ci95"][1],
            "cost (net points/deal)": r["cost_points"]["mean"], "cost lo": r["cost_points"]["ci95"][0],
            "cost hi": r["cost_points"]["ci95"][1],
            "cost (match-win)": None if r["cost_win"] is None else r["cost_win"]["mean"],
            "cost (match-win) lo": None if r["cost_win"] is None else r["cost_win"]["ci95"][0],
            "cost (match-win) hi": None if r["cost_win"] is None else r["cost_win"]["ci95"][1],
            "chosen": r["size"] == self.chosen[r["role"]]} for r in self.rows])


def choose(rows: list[dict[str, Any]], role: str) -> int:
    """The smallest size whose measured cost is within CLOSE_ENOUGH of the equilibrium, else CARD_FALLBACK."""
    for r in sorted((r for r in rows if r["role"] == role), key=lambda r: r["size"]):
        if r["cost_points"]["mean"] <= CLOSE_ENOUGH:
            return int(r["size"])
    return CARD_FALLBACK


def fit_and_measure(rules: RuleSet, fit: FitInput, deals: int = MEASURE_DEALS, equity: EquityTable | None = None,
                    scores: pd.DataFrame | None = None, executor: Any = None,
                    progress: Progress | None = None, say: Callable[[str], None] = lambda m: None) -> RulesOfThumb:
    """Fit the lists of every size on `fit`, measure them on fresh deals (a second fresh tensor scored by
    `equity` for the match-win cost, two sides only), and read how the chosen rules shift near the target from
    `scores` (an at-every-score run's scores.csv)."""
    from ...work.executor import LocalExecutor

    executor = executor if executor is not None else LocalExecutor()
    fitted = {role: search(class_gains(fit.game, fit.b, fit.g, role), role) for role in ("eldest", "dealer")}
    say(f"rules of thumb: measuring on {deals:,} fresh deals (seed {measure_seed(fit.seed)})")
    points = fresh_tensor(rules, fit.play, fit.seed, deals, None, executor, progress)
    win = None
    if equity is not None:
        say(f"rules of thumb: match-win cost, {deals:,} more fresh deals scored from 0:0")
        win = fresh_tensor(rules, fit.play, fit.seed, deals, equity, executor, progress)
    rows = []
    for role, lists in fitted.items():
        gains = class_gains(fit.game, fit.b, fit.g, role)
        eq_p = fit.b if role == "eldest" else fit.g
        for size in SIZES:
            rule = lists[size]
            agreement, cost = paired_costs(points, fit.b, fit.g, role, rule.flags())
            cost_win = None if win is None else paired_costs(win, fit.b, fit.g, role, rule.flags())[1]
            rows.append({"role": role, "size": size, "lines": rule.size, "rule": rule.to_json(),
                         "text": rule.describe(), "table": rule.table(), "fit_loss": fit_loss(gains, eq_p, rule),
                         "agreement": agreement, "cost_points": cost, "cost_win": cost_win})
    chosen = {role: choose(rows, role) for role in fitted}
    result = RulesOfThumb(rules, fit, deals, rows, chosen, [])
    if scores is not None:
        result.near_target = near_target(result, scores)
    return result


def near_target(result: RulesOfThumb, scores: pd.DataFrame) -> list[dict[str, Any]]:
    """Per role and zone (the deciding side, or the other, needs NEAR_TARGET points or fewer): the equilibrium's
    actions there (deal-weighted P over the zone's scores, match-win payoff) summed up as a rule of the card's
    size, the list that agrees with them on the most hands (``search`` with each class's deals times 2P - 1 as
    its gain), beside how often the card's own rule agrees there."""
    t = result.rules.target
    index = {class_key(c): i for i, c in enumerate(CLASSES)}
    out = []
    for role in ("eldest", "dealer"):
        card = result.rule(role, result.chosen[role])
        frame = scores[scores["role"] == role]
        mine, theirs = ("eldest_score", "dealer_score") if role == "eldest" else ("dealer_score", "eldest_score")
        for zone, who in ((frame[mine] >= t - NEAR_TARGET, "you"), (frame[theirs] >= t - NEAR_TARGET, "they")):
            part = frame[zone]
            n = np.zeros(len(CLASSES))
            p = np.zeros(len(CLASSES))
            grouped = part.assign(w=part["p"] * part["deals"]).groupby("class")[["w", "deals"]].sum()
            for key, row in grouped.iterrows():
                n[index[str(key)]], p[index[str(key)]] = row["deals"], row["w"] / max(row["deals"], 1.0)
            gains = n * (2 * p - 1)
            zone_rule = search(gains, role, card.size)[card.size]

            def agreement(rule: RuleList) -> float:
                x = rule.flags()
                return float((n * (x * p + (1 - x) * (1 - p))).sum() / max(n.sum(), 1.0))

            out.append({"role": role, "zone": who, "needing": NEAR_TARGET, "scores": int(part[[mine, theirs]]
                                                                                          .drop_duplicates().shape[0]),
                        "rule": zone_rule.to_json(), "text": zone_rule.describe(),
                        "same_as_card": zone_rule.table() == card.table(), "agreement": agreement(zone_rule),
                        "card_agreement": agreement(card)})
    return out


def write(result: RulesOfThumb, folder: Path) -> Path:
    """rules.json (everything) and rules.csv (the table of sizes) into `folder`; returns rules.json's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    result.frame().to_csv(folder / "rules.csv", index=False)
    path = folder / "rules.json"
    path.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    return path


def edition_equity(rules: RuleSet, folder: Path) -> EquityTable | None:
    """The match-equity table a report folder holds for the policy its score parts play (the equilibrium's
    bids, ``folder/equilibrium``; an edition made before the report led with the equilibrium: its tuned policy,
    ``folder/strategy``), with the most deals per cell; None with three players or none there. Matched on rules
    and policy, not on the engine's digest: a shipped edition is read as it was made (its policy row may be
    shorter: parameters added to the layout since are appended, so the row is compared on the length it has)."""
    from .equity import cache_key, load_table

    if rules.sides != 2:
        return None
    for policy, needs in ((f"equilibrium:{folder / 'equilibrium'}", folder / "equilibrium" / "equilibrium.json"),
                          (f"tuned:{folder / 'strategy'}", folder / "strategy" / "tuned.json")):
        if not needs.is_file():
            continue
        key = cache_key(rules, policy)
        best: tuple[int, int, Path] | None = None
        for meta_path in sorted((folder / "equity").glob("*.json")):
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            row = list(meta.get("policy_params") or [])
            if (meta.get("rules") != key["rules"] or meta.get("policy_kind") != key["policy_kind"] or not row
                    or row != key["policy_params"][:len(row)] or not meta_path.with_suffix(".parquet").is_file()):
                continue
            if best is None or int(meta["deals_per_cell"]) > best[0]:
                best = (int(meta["deals_per_cell"]), int(meta["seed"]), meta_path.with_suffix(".parquet"))
        if best is not None:
            return load_table(best[2], rules, policy, best[0], best[1])
    return None
