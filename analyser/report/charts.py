"""Charts only the report draws: how a decision's value moves with the score, and
how strong the simulated players are. Every estimate is drawn with its 95% CI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..analysis.charts import score_order


def _save(fig: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def score_shift_chart(frame: pd.DataFrame, path: Path, title: str) -> Path:
    """Horizontal bars of (better option minus the other) in match-win percentage points
    per score, with 95% CI error bars; the option each bar favours is written on it. The scores
    (``a:b``, or ``a:b:c`` with three players) are as ``--score`` takes them: the axis says whose
    comes first."""
    fig = Figure(figsize=(8, 0.55 * len(frame) + 1.6))
    ax = fig.add_subplot()
    y = np.arange(len(frame))[::-1]
    diff = 100 * frame["win_diff"].to_numpy()
    half = 100 * (frame["win_diff_hi"].to_numpy() - frame["win_diff_lo"].to_numpy()) / 2
    ax.barh(y, diff, xerr=half, color="0.75", edgecolor="black", hatch="//", capsize=4,
            error_kw={"elinewidth": 1.2})
    ax.axvline(0, color="black", lw=0.9)
    ax.set_yticks(y, [f"{s}\n{lbl}" for s, lbl in zip(frame["score"], frame["score_label"])], fontsize=8)
    parts = str(frame["score"].iloc[0]).count(":") + 1 if len(frame) else 2
    ax.set_ylabel(f"score before the deal\n({score_order(parts)})", fontsize=9)
    for yi, d, h, text in zip(y, diff, half, frame["favours"]):
        end = d + h if d >= 0 else d - h  # beyond the error bar, so the words never cover it
        ax.text(end, yi, f"  {text}  ", va="center", ha="left" if d >= 0 else "right", fontsize=8)
    ax.set_xlabel(f"{frame['first'].iloc[0]} minus {frame['second'].iloc[0]}: match-win probability, "
                  "percentage points (bars: 95% CI)")
    lim = max(5.0, float(np.max(np.abs(diff) + half)) * 1.35)
    ax.set_xlim(-lim, lim)
    ax.set_title("\n".join(textwrap.wrap(title, 80)), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def tournament_chart(frame: pd.DataFrame, path: Path, title: str) -> Path:
    """A's match-win rate in each pairing, with its 95% CI; the 50% line is an even match.
    The numbers stand in a column of their own right of the plot, so no CI bar crosses them."""
    fig = Figure(figsize=(8.5, 0.7 * len(frame) + 1.6))
    ax = fig.add_subplot()
    y = np.arange(len(frame))[::-1]
    rate = 100 * frame["a_win_rate"].to_numpy()
    lo = 100 * frame["ci_lo"].to_numpy()
    hi = 100 * frame["ci_hi"].to_numpy()
    ax.barh(y, rate, xerr=[rate - lo, hi - rate], color="0.8", edgecolor="black", capsize=4)
    column = ax.get_yaxis_transform()  # x in axes fractions (right of the plot), y in rows
    for yi, r, a, b in zip(y, rate, lo, hi):
        ax.text(1.03, yi, f"{r:.1f}%  [{a:.1f}, {b:.1f}]", transform=column, va="center", ha="left", fontsize=9)
    ax.text(1.03, 1.01, "won  [95% CI]", transform=ax.transAxes, va="bottom", ha="left", fontsize=9,
            fontweight="bold")
    ax.axvline(50, color="black", lw=0.9, ls="--")
    ax.set_yticks(y, [f"{a} vs {b}" for a, b in zip(frame["a"], frame["b"])])
    ax.set_xlim(0, 100)
    ax.set_xlabel("matches won by the first player, % (bars: 95% CI; dashed: even)")
    ax.set_title(title, fontsize=10)
    return _save(fig, path)
