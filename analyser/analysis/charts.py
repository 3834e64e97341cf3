"""Charts as PNG files (matplotlib's Agg canvas: no display needed, no global state).

``equity_heatmap`` draws a match-equity table with every cell's value written in it
(readable in print without colour); ``convergence_plot`` draws a running estimate
with its 95% band, to see a what-if settle.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .equity import EquityTable
from .stats import Z95, running_estimates


def _save(fig: Figure, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    fig.savefig(path, dpi=120)
    return path


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
    ax.set_xlabel("opponents' score before the deal")
    ax.set_ylabel("dealer's side's score before the deal")
    rules = table.rules
    ax.set_title(f"Match equity: {rules.preset}, {rules.players} players, target {t}, policy {table.policy}\n"
                 f"{table.deals_per_cell:,} deals per cell; every 95% CI within \u00b1{half.max():.1f} percentage points",
                 fontsize=9)
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
