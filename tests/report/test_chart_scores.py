"""Charts that show a score say whose score comes first, inside the image; the by-score equilibrium heatmaps
mark the cells known not to be settled; ``redraw_charts`` draws a finished report's charts exactly as its
build did, from the numbers the folder keeps."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from analyser.analysis import charts as base_charts
from analyser.analysis.bidding import strategy
from analyser.analysis.bidding.equilibrium import (
    SCORES_MARK, SCORES_MARK_MIXING, draw_score_heatmaps, unsettled_by_score,
)
from analyser.analysis.bidding.equity import EquityTable, save_table
from analyser.report import charts as report_charts
from analyser.report.redraw import redraw_charts, redraw_equity_heatmaps
from analyser.game.rules import make_rules
from conftest import ROOT


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """Every figure the chart modules save, as saved."""
    kept: list[Figure] = []
    for module in (base_charts, report_charts):
        save = module._save

        def keep(fig, path, save=save):
            kept.append(fig)
            return save(fig, path)

        monkeypatch.setattr(module, "_save", keep)
    return kept


def texts(fig: Figure) -> list[str]:
    """Every visible piece of text in the figure: titles, axis and tick labels, cell texts."""
    return [t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def shifts(scores: list[str]) -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame({"seat": ["eldest"] * n, "situation": ["eldest with no trump"] * n, "score": scores,
                         "score_label": [f"label {k}" for k in range(n)], "first": ["stand"] * n,
                         "second": ["beg"] * n, "win_diff": np.linspace(-0.05, 0.03, n),
                         "win_diff_lo": np.linspace(-0.06, 0.02, n), "win_diff_hi": np.linspace(-0.04, 0.04, n),
                         "favours": ["beg"] * n})


@pytest.mark.parametrize(("scores", "order"), [(["0:0", "9:12", "12:9"], "the eldest's side first"),
                                               (["0:0:0", "0:10:0", "10:0:0"], "the eldest first, the dealer last")])
def test_the_score_what_if_chart_says_whose_score_comes_first(tmp_path, figures, scores, order):
    report_charts.score_shift_chart(shifts(scores), tmp_path / "score-eldest.png", "eldest with no trump: test")
    (fig,) = figures
    (ax,) = fig.axes
    assert order in ax.get_ylabel()
    assert [t.get_text().split("\n")[0] for t in ax.get_yticklabels()] == scores  # each bar its score, as given


def test_the_equity_heatmap_says_whose_score_each_axis_is_and_how_a_score_reads(tmp_path, figures):
    rules = make_rules("trinidad", 4, {"target": 3})
    p = np.array([[0.5, 0.3, 0.1], [0.7, 0.5, 0.3], [0.9, 0.7, 0.5]])
    base_charts.equity_heatmap(EquityTable(rules, "heuristic", 100, 1, p, np.full((3, 3), 0.01)), tmp_path / "e.png")
    (fig,) = figures
    ax = fig.axes[0]
    assert "dealer's side's score" in ax.get_ylabel()
    assert "the eldest's side's) score" in ax.get_xlabel()
    assert "a score a:b (the eldest's side first) is the cell in row b, column a" in ax.get_title()


def test_the_class_charts_title_says_whose_score_comes_first(tmp_path, figures):
    final = pd.DataFrame({"class_code": [0, 8], "n": [100, 50], "diff_mean": [0.4, -0.2], "diff_ci_lo": [0.3, -0.5],
                          "diff_ci_hi": [0.5, 0.1], "recommend": ["beg", "stand"], "round": [2, 2]})
    strategy.draw_class_charts({"eldest": final, "dealer": final.assign(recommend=["give", "run"])},
                               make_rules("trinidad", 4), (3, 5), 150, 7, tmp_path)
    assert len(figures) == 2
    for fig in figures:
        assert "score 3:5 (the eldest's side first)" in fig.axes[0].get_title()


def test_a_best_response_class_that_changed_in_the_last_round_is_hatched_and_says_unsettled(tmp_path, figures):
    final = pd.DataFrame({"class_code": [0, 8, 9], "n": [100, 50, 40], "diff_mean": [0.4, -0.2, 0.1],
                          "diff_ci_lo": [0.3, -0.5, 0.05], "diff_ci_hi": [0.5, 0.1, 0.15],
                          "recommend": ["beg", "stand", "beg"], "changed": [False, True, False], "round": [3, 3, 3]})
    base_charts.class_difference_heatmap(final, "eldest", tmp_path / "c.png", "title")
    hatched = [p for p in figures[-1].axes[0].patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert [(p.get_x() + 0.5, p.get_y() + 0.5) for p in hatched] == [base_charts.class_cell(8)[::-1]]
    words = texts(figures[-1])
    assert sum("unsettled" in t for t in words if t.startswith(("+", "-"))) == 1
    assert any("changed in this round" in t for t in words)
    base_charts.class_difference_heatmap(final.drop(columns="changed"), "eldest", tmp_path / "d.png", "title")
    assert not [p for p in figures[-1].axes[0].patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert not any("unsettled" in t for t in texts(figures[-1]))


def test_a_mixed_cell_is_the_one_known_unsettled():
    matrix = np.array([[0.0, 0.05, 0.0501, 0.5], [0.9499, 0.95, 1.0, np.nan]])
    assert unsettled_by_score(matrix).tolist() == [[False, False, True, True], [True, False, False, False]]


def test_with_the_bootstrap_every_met_cell_it_does_not_settle_is_marked():
    """A pure P whose interval is wide is marked too; a class not met at a score is not."""
    matrix = np.array([[0.0, 0.0, 1.0, np.nan]])
    settled = np.array([[True, False, True, False]])
    assert unsettled_by_score(matrix, settled).tolist() == [[False, True, False, False]]


def test_the_by_score_heatmaps_say_whose_score_comes_first_and_mark_the_unsettled_cells(tmp_path, figures):
    """A hand-made 3-point table: the eldest's T1 mixes at 1:2 (P 0.4) and the dealer's T2 at 2:0 (0.7);
    every other cell is pure. Exactly those two cells are hatched, "?" after their value, and the figure
    says what the mark means and how to read a score."""
    rules = make_rules("trinidad", 4, {"target": 3})
    rows = []
    for a in range(3):
        for b in range(3):
            rows.append({"eldest_score": a, "dealer_score": b, "role": "eldest", "class": "T1", "deals": 10,
                         "p": 0.4 if (a, b) == (1, 2) else 0.0, "heuristic_p": 1.0})
            rows.append({"eldest_score": a, "dealer_score": b, "role": "dealer", "class": "T2", "deals": 10,
                         "p": 0.7 if (a, b) == (2, 0) else 1.0, "heuristic_p": 1.0})
    draw_score_heatmaps(pd.DataFrame(rows), rules, "heuristic", 90, tmp_path)
    assert (tmp_path / "scores-eldest.png").is_file() and (tmp_path / "scores-dealer.png").is_file()
    for fig, (a, b), value in zip(figures, [(1, 2), (2, 0)], ["40?", "70?"]):
        ax = fig.axes[0]
        hatched = [(r.get_x() + 0.5, r.get_y() + 0.5) for r in ax.patches if isinstance(r, Rectangle) and r.get_hatch()]
        assert hatched == [(b, a)]  # column: the dealer's side's score, row: the eldest's side's
        marked = [(t.get_position(), t.get_text()) for t in ax.texts if "?" in t.get_text()]
        assert marked == [((b, a), value)]
        assert len(ax.texts) == 9  # every other cell written plain
        assert " ".join(fig.get_supxlabel().split("\n")) == SCORES_MARK_MIXING
        assert "No 95% CI was kept per score" in SCORES_MARK_MIXING and "not settled" in SCORES_MARK_MIXING
        assert "(a score a:b, the eldest's side first, is row a, column b)" in fig.get_suptitle()
        assert ax.get_ylabel() == "eldest's side's score" and ax.get_xlabel() == "dealer's side's score"


def test_the_by_score_heatmaps_mark_what_the_bootstrap_did_not_settle(tmp_path, figures):
    """With the bootstrap's columns (p_low, p_high, settled): the eldest's T1 is pure (P 0) everywhere but
    its interval reaches 0.3 at 0:1, so that cell is hatched though it does not mix; the legend names the
    resamples and chunks and says a cell not hatched is settled."""
    rules = make_rules("trinidad", 4, {"target": 2})
    rows = []
    for a in range(2):
        for b in range(2):
            wide = (a, b) == (0, 1)
            rows.append({"eldest_score": a, "dealer_score": b, "role": "eldest", "class": "T1", "deals": 10,
                         "p": 0.0, "p_low": 0.0, "p_high": 0.3 if wide else 0.0, "settled": not wide,
                         "heuristic_p": 1.0})
            rows.append({"eldest_score": a, "dealer_score": b, "role": "dealer", "class": "T2", "deals": 10,
                         "p": 1.0, "p_low": 1.0, "p_high": 1.0, "settled": True, "heuristic_p": 1.0})
    draw_score_heatmaps(pd.DataFrame(rows), rules, "heuristic", 40, tmp_path, resamples=200, chunks=16)
    eldest, dealer = figures
    hatched = [(r.get_x() + 0.5, r.get_y() + 0.5) for r in eldest.axes[0].patches
               if isinstance(r, Rectangle) and r.get_hatch()]
    assert hatched == [(1, 0)]
    assert [t.get_text() for t in eldest.axes[0].texts if "?" in t.get_text()] == ["<1?"]
    assert not [r for r in dealer.axes[0].patches if isinstance(r, Rectangle) and r.get_hatch()]
    legend = " ".join(eldest.get_supxlabel().split("\n"))
    assert legend == SCORES_MARK.format(resamples=200, chunks=16)
    assert "200 bootstrap resamples of 16 chunks" in legend and "A cell not hatched is settled" in legend


def test_a_heatmap_with_no_marks_hatches_nothing(tmp_path, figures):
    base_charts.score_strategy_heatmaps([np.array([[0.0, 0.5], [1.0, np.nan]])], ["T0"], tmp_path / "s.png", "t")
    (fig,) = figures
    assert not [p for p in fig.axes[0].patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert not any("?" in t for t in texts(fig)) and fig.get_supxlabel() == ""


REDRAWN = ["score-eldest.png", "score-dealer.png", "equity-heatmap.png", "equilibrium-scores/scores-eldest.png",
           "equilibrium-scores/scores-dealer.png", "strategy/beg-minus-stand.png", "strategy/give-minus-run.png"]


def test_redraw_draws_each_chart_byte_for_byte_as_the_build_did(report_dir, tmp_path):
    """The small classic-2p report: its charts, deleted and redrawn from the folder's numbers, are the
    build's PNGs to the byte."""
    folder = tmp_path / "classic-2p"
    shutil.copytree(report_dir, folder)
    for name in REDRAWN:
        (folder / name).unlink()
    drawn = redraw_charts(folder)
    assert sorted(p.relative_to(folder).as_posix() for p in drawn) == sorted(REDRAWN)
    for name in REDRAWN:
        assert (folder / name).read_bytes() == (report_dir / name).read_bytes(), name


def test_a_cached_equity_tables_heatmap_is_redrawn_as_allfours_equity_draws_it(tmp_path):
    rules = make_rules("classic", 2, {"target": 4})
    p = np.linspace(0.05, 0.95, 16).reshape(4, 4)
    table = EquityTable(rules, "heuristic:beg_trumps=2", 300, 5, p, np.full((4, 4), 0.02))
    path = save_table(table, tmp_path)
    first = base_charts.equity_heatmap(table, tmp_path / "drawn.png").read_bytes()
    (tmp_path / f"{path.stem}-heatmap.png").write_bytes(b"old")
    (tmp_path / "no-heatmap.json").write_text("{}")  # a record without a table or a heatmap is passed over
    assert redraw_equity_heatmaps(tmp_path) == [tmp_path / f"{path.stem}-heatmap.png"]
    assert (tmp_path / f"{path.stem}-heatmap.png").read_bytes() == first


def test_the_equity_heatmap_names_a_run_folder_by_its_name_not_its_path(tmp_path, figures):
    """A report's equity is estimated while its folder is OUT.partial: the title must not keep that path."""
    rules = make_rules("trinidad", 4, {"target": 2})
    table = EquityTable(rules, "equilibrium:/tmp/x/trinidad-4p.partial/equilibrium", 10, 1, np.full((2, 2), 0.5),
                        np.full((2, 2), 0.1))
    base_charts.equity_heatmap(table, tmp_path / "e.png")
    title = figures[0].axes[0].get_title()
    assert "policy equilibrium:equilibrium\n" in title and "partial" not in title


def test_redraw_puts_the_new_charts_in_the_page(report_dir, tmp_path):
    """report.html embeds the charts: a chart drawn otherwise before (here: other bytes) is swapped in the page
    for the one redrawn, and nothing else in the page changes."""
    import base64

    folder = tmp_path / "classic-2p"
    shutil.copytree(report_dir, folder)
    page = folder / "report.html"
    built = page.read_text(encoding="utf-8")
    for name in ("score-eldest.png", "equilibrium-scores/scores-dealer.png"):
        now = base64.b64encode((folder / name).read_bytes()).decode("ascii")
        assert now in built, name
        old = (folder / name).read_bytes() + name.encode()  # a PNG that reads the same but is not these bytes
        (folder / name).write_bytes(old)
        page.write_text(page.read_text(encoding="utf-8").replace(now, base64.b64encode(old).decode("ascii")),
                        encoding="utf-8")
    assert page.read_text(encoding="utf-8") != built
    redraw_charts(folder)
    assert page.read_text(encoding="utf-8") == built


def test_redraw_refuses_a_folder_that_is_not_a_report(tmp_path):
    with pytest.raises(FileNotFoundError, match="no report.json"):
        redraw_charts(tmp_path)


def test_the_script_redraws_the_folders_it_is_given(report_dir, tmp_path, capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location("redraw_charts", ROOT / "scripts" /
                                                  "redraw_charts.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    folder = tmp_path / "classic-2p"
    shutil.copytree(report_dir, folder)
    (folder / "score-eldest.png").unlink()
    assert script.main([str(folder)]) == 0
    assert (folder / "score-eldest.png").read_bytes() == (report_dir / "score-eldest.png").read_bytes()
    assert str(folder / "score-eldest.png") in capsys.readouterr().out
    assert script.main([str(tmp_path / "nothing")]) == 2
    assert "no report.json" in capsys.readouterr().err
