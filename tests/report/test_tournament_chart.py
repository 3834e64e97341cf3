"""`tournaments.png`: every label stays readable, clear of the 95% CI bars (issue 28, item 11)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from analyser.report import charts

# Narrow and wide CIs, rates near 0, 50 and 100%: the whiskers reach past the bars' ends both ways.
FRAME = pd.DataFrame({
    "a": ["heuristic", "tuned", "pimc", "oracle", "pimc", "random"],
    "b": ["random", "heuristic", "heuristic", "heuristic", "random", "oracle"],
    "a_win_rate": [0.8269, 0.5143, 0.596, 0.6615, 0.975, 0.02],
    "ci_lo": [0.8221, 0.5099, 0.5828, 0.5470, 0.93, 0.0],
    "ci_hi": [0.8317, 0.5187, 0.6092, 0.7760, 1.0, 0.08],
})


@pytest.fixture
def drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The chart's figure as it was saved (its layout done), and the PNG."""
    figures = []
    save = charts._save

    def keep(fig, path):
        figures.append(fig)
        return save(fig, path)

    monkeypatch.setattr(charts, "_save", keep)
    path = charts.tournament_chart(FRAME, tmp_path / "tournaments.png", "Duplicate-deal matches: trinidad, 4 players")
    assert path.is_file() and path.stat().st_size > 10_000
    fig = figures[0]
    return fig, fig.canvas.get_renderer()


def error_bar_boxes(fig, renderer) -> list[Bbox]:
    """Each CI whisker segment and each cap, in display coordinates."""
    (ax,) = fig.axes
    boxes = []
    for collection in ax.collections:
        if isinstance(collection, LineCollection):
            to_display = collection.get_transform()
            for segment in collection.get_segments():
                boxes.append(Bbox(to_display.transform(segment)))
    for line in ax.lines:
        if isinstance(line, Line2D) and line.get_marker() not in (None, "None", "", " "):  # the caps
            boxes.append(line.get_window_extent(renderer))
    return boxes


def labels(fig, renderer) -> list[tuple[str, Bbox]]:
    """Every piece of text in the figure (texts, tick labels, axis labels, title) that shows something."""
    found = []
    for artist in fig.findobj(Text):
        if artist.get_visible() and artist.get_text().strip():
            found.append((artist.get_text(), artist.get_window_extent(renderer)))
    return found


def test_the_error_bars_are_drawn(drawn):
    fig, renderer = drawn
    assert len(error_bar_boxes(fig, renderer)) >= len(FRAME)


def test_no_label_is_covered_by_a_ci_bar(drawn):
    fig, renderer = drawn
    bars = error_bar_boxes(fig, renderer)
    covered = [text for text, box in labels(fig, renderer) if any(box.overlaps(bar) for bar in bars)]
    assert not covered, f"CI bars drawn over {covered}"


def test_each_pairing_shows_its_rate_and_ci_and_every_label_is_inside_the_picture(drawn):
    fig, renderer = drawn
    texts = labels(fig, renderer)
    shown = " ".join(text for text, _ in texts)
    for rate, lo, hi in zip(FRAME["a_win_rate"], FRAME["ci_lo"], FRAME["ci_hi"]):
        assert f"{100 * rate:.1f}%" in shown and f"{100 * lo:.1f}" in shown and f"{100 * hi:.1f}" in shown
    picture = fig.bbox
    outside = [text for text, box in texts if not (picture.x0 - 1 <= box.x0 and box.x1 <= picture.x1 + 1
                                                  and picture.y0 - 1 <= box.y0 and box.y1 <= picture.y1 + 1)]
    assert not outside, f"cut off: {outside}"
    boxes = [box.padded(-1) for _, box in texts]  # a pixel's touch (an axis label on its tick labels) is no overlap
    overlapping = [(texts[i][0], texts[j][0]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
                   if boxes[i].overlaps(boxes[j])]
    assert not overlapping, f"labels on top of each other: {overlapping}"
