"""Charts as PNG files (matplotlib's Agg canvas: no display needed, no global state).

``equity_heatmap`` draws a match-equity table with every cell's value written in it
(readable in print without colour); ``convergence_plot`` draws a running estimate
with its 95% band, to see a what-if settle; ``class_difference_heatmap`` draws a
strategy table (beg - stand or give - run by hand class: rows the trumps held,
columns the flags A, J, lo), each cell with its value, 95% CI half-width and the
recommended option written in it; ``score_strategy_heatmaps`` draws the equilibrium's
probabilities by score for a few hand classes, one panel each, hatching the cells known not to be settled.
Every chart that shows a score says whose score comes first (``score_order``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..engine.evaluator import decode_class
from ..players.policy import policy_label
from .stats import Z95, running_estimates
from ..record.vocabulary import ROLE

if TYPE_CHECKING:  # a type only: the base imports nothing from the questions above it
    from .bidding.equity import EquityTable


def _save(fig: Figure, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    fig.savefig(path, dpi=120)
    return path


def score_order(parts: int) -> str:
    """Whose score comes first in a score written ``a:b`` (two sides) or ``a:b:c`` (three players), as
    ``--score`` takes it.

    >>> score_order(2), score_order(3)
    ("the eldest's side first", 'the eldest first, the dealer last')
    """
    return "the eldest's side first" if parts <= 2 else "the eldest first, the dealer last"


def cell_label(percent: float) -> str:
    """A cell's value in whole %, never rounding a possible outcome to a certain one."""
    if percent > 99.5:
        return ">99"
    if percent < 0.5:
        return "<1"
    return f"{percent:.0f}"


def equity_heatmap(table: EquityTable, path: Path) -> Path:
    """P(dealer's side wins the match), in %, by the two sides' scores before a deal."""
    t = table.target
    size = max(5.0, 0.48 * t + 2.5)
    fig = Figure(figsize=(size + 1.2, size))
    ax = fig.add_subplot()
    image = ax.imshow(100 * table.p, origin="lower", cmap="RdBu", vmin=0, vmax=100, aspect="equal")
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label("P(dealer's side wins the match), %")
    half = 100 * Z95 * table.se
    font = 8 if t <= 14 else 6
    for a in range(t):
        for b in range(t):
            value = 100 * table.p[a, b]
            colour = "white" if abs(value - 50) > 30 else "black"
            ax.text(b, a, cell_label(value), ha="center", va="center", fontsize=font, color=colour)
    ax.set_xticks(range(t))
    ax.set_yticks(range(t))
    ax.set_xlabel("opponents' (the eldest's side's) score before the deal")
    ax.set_ylabel("dealer's side's score before the deal")
    rules = table.rules
    ax.set_title(f"Match equity: {rules.preset}, {rules.players} players, target {t}, policy {policy_label(table.policy)}\n"
                 f"{table.deals_per_cell:,} deals per cell; every 95% CI within \u00b1{half.max():.1f} percentage points\n"
                 f"a score a:b ({score_order(2)}) is the cell in row b, column a", fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def convergence_plot(values: np.ndarray, path: Path, title: str, ylabel: str) -> Path:
    """Running mean of per-deal `values` against deals played, with its 95% CI band."""
    n = values.shape[0]
    deals, mean, se = running_estimates(values, every=max(1, n // 500))
    fig = Figure(figsize=(7.5, 4.5))
    ax = fig.add_subplot()
    ax.fill_between(deals, mean - Z95 * se, mean + Z95 * se, color="tab:blue", alpha=0.25, label="95% CI")
    ax.plot(deals, mean, color="tab:blue", lw=1.2, label="running mean")
    ax.axhline(0.0, color="black", lw=0.8, ls="--")
    ax.set_xlabel("deals played")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return _save(fig, path)


CLASS_ROWS = ("T0", "T1", "T2", "T3", "T4+")
CLASS_COLUMNS = ("none", "lo", "J", "J,lo", "A", "A,lo", "A,J", "A,J,lo")  # flag bits A=4, J=2, lo=1


def class_cell(code: int) -> tuple[int, int]:
    """(row, column) of a hand class code in the class heatmap: its trumps and its flag bits."""
    return decode_class(code)


def class_difference_heatmap(table: pd.DataFrame, role: str, path: Path, title: str) -> Path:
    """One round's strategy table as a heatmap of diff_mean by hand class (net points per deal).

    Needs the columns class_code, n, diff_mean, diff_ci_lo, diff_ci_hi and recommend. Cells
    show the mean, "± the 95% CI half-width" and the recommended option (with "?" when the
    CI includes 0); classes no hand
    can have are blank, classes the sample never met say "no deals". The colour map is
    diverging and centred at 0 (blue: option 1 better, red: option 0 better). With a ``changed``
    column (a best-response round's table), a class whose choice changed in this round is hatched and
    says "unsettled": the rounds had not settled it."""
    diff = ROLE[role].diff
    values = np.full((len(CLASS_ROWS), len(CLASS_COLUMNS)), np.nan)
    fig = Figure(figsize=(10.5, 5.2))
    ax = fig.add_subplot()
    texts: list[tuple[int, int, str, float]] = []
    changed: list[tuple[int, int]] = []
    for rec in table.itertuples(index=False):
        row, col = class_cell(int(rec.class_code))
        if rec.n > 0:
            values[row, col] = rec.diff_mean
            half = (rec.diff_ci_hi - rec.diff_ci_lo) / 2
            spread = f"\u00b1{half:.2f}" if np.isfinite(half) else "\u00b1?"
            unsure = "?" if not (rec.diff_ci_lo > 0 or rec.diff_ci_hi < 0) else ""
            moved = bool(getattr(rec, "changed", False))
            if moved:
                changed.append((row, col))
            texts.append((row, col, f"{rec.diff_mean:+.2f}\n{spread}\n{rec.recommend}{unsure}"
                          + ("\nunsettled" if moved else ""), rec.diff_mean))
        else:
            texts.append((row, col, "no deals", 0.0))
    finite = values[np.isfinite(values)]
    limit = max(float(np.abs(finite).max()) if finite.size else 1.0, 1e-6)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", norm=TwoSlopeNorm(0.0, -limit, limit),
                      aspect="auto")
    ax.set_facecolor("white")
    for row, col in changed:
        ax.add_patch(Rectangle((col - 0.5, row - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.35", lw=0.8))
    for row, col, text, value in texts:
        colour = "white" if abs(value) > 0.6 * limit else "black"
        if (row, col) in changed:  # on a plain patch, so the hatching never hides the numbers
            ax.text(col, row, text, ha="center", va="center", fontsize=7, color="black",
                    bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none", "pad": 1.0})
        else:
            ax.text(col, row, text, ha="center", va="center", fontsize=7.5, color=colour)
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label(f"{diff}, net points per deal")
    ax.set_xticks(range(len(CLASS_COLUMNS)), CLASS_COLUMNS)
    ax.set_yticks(range(len(CLASS_ROWS)), CLASS_ROWS)
    ax.set_xlabel("trump honours held: A = ace, J = jack, lo = a trump from 2 to 5")
    ax.set_ylabel("trumps held")
    ax.set_title(title + f"\ncell: mean {diff}, \u00b1 95% CI half-width, recommended option (? the CI includes 0);"
                 " blank: no hand has this class"
                 + ("\nhatched, \"unsettled\": the class's choice changed in this round (the rounds had not settled it)"
                    if changed else ""), fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def score_strategy_heatmaps(matrices: list[np.ndarray], classes: list[str], path: Path, title: str,
                            unsettled: list[np.ndarray] | None = None, legend: str | None = None) -> Path:
    """Small multiples: one class's probability (of begging or giving) by score per panel, rows the
    eldest's side's score before the deal, columns the dealer's side's, each cell's value in % written in it;
    blank where the class was never met at that score. `unsettled` (one boolean matrix per panel): the cells
    known not to be settled, hatched with a "?" after their value; `legend` is written under the panels to
    say what the mark means."""
    k = max(1, len(matrices))
    cols = min(3, k)
    rows = -(-k // cols)
    t = matrices[0].shape[0] if matrices else 1
    side = max(3.2, 0.3 * t + 1.2)
    width = cols * side + 1.0
    legend_lines = textwrap.wrap(legend, int(width * 13)) if legend else []  # about 13 characters an inch at 8 pt
    fig = Figure(figsize=(width, rows * side + 1.0 + 0.17 * len(legend_lines)), layout="constrained")
    font = 6 if t > 10 else 7
    image = None
    marks = unsettled if unsettled is not None else [np.zeros((t, t), dtype=bool)] * len(matrices)
    for i, (matrix, cls, mark) in enumerate(zip(matrices, classes, marks)):
        ax = fig.add_subplot(rows, cols, i + 1)
        image = ax.imshow(np.ma.masked_invalid(100 * matrix), origin="lower", cmap="RdBu", vmin=0, vmax=100,
                          aspect="equal")
        for a in range(t):
            for b in range(t):
                if np.isfinite(matrix[a, b]):
                    value = 100 * matrix[a, b]
                    colour = "white" if abs(value - 50) > 30 else "black"
                    text = cell_label(value)
                    box = None
                    if mark[a, b]:  # hatched, outlined, the value on a plain patch so the hatching never hides it
                        ax.add_patch(Rectangle((b - 0.5, a - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.15",
                                               linewidth=1.2))
                        text += "?"
                        colour = "black"
                        box = {"boxstyle": "round,pad=0.12", "facecolor": "white", "edgecolor": "none", "alpha": 0.85}
                    ax.text(b, a, text, ha="center", va="center", fontsize=font, color=colour, bbox=box)
        ax.set_title(cls, fontsize=9)
        ax.set_xticks(range(0, t, 2 if t > 10 else 1))
        ax.set_yticks(range(0, t, 2 if t > 10 else 1))
        ax.tick_params(labelsize=7)
        ax.set_xlabel("dealer's side's score", fontsize=8)
        ax.set_ylabel("eldest's side's score", fontsize=8)
    if image is not None:
        bar = fig.colorbar(image, ax=fig.axes, fraction=0.03, pad=0.02)
        bar.set_label("probability, %")
    fig.suptitle(f"{title}\nrows: the eldest's side's score before the deal, columns: the dealer's side's "
                 f"(a score a:b, {score_order(2)}, is row a, column b)", fontsize=9)
    if legend_lines:
        fig.supxlabel("\n".join(legend_lines), fontsize=8)
    return _save(fig, path)
