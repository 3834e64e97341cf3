"""Redraw the shipped editions' charts from the numbers each edition folder keeps (nothing is computed again).

    .venv/bin/python scripts/redraw_charts.py                       (every edition under results/, and the
                                                                     heatmaps of the tables in results/equity/)
    .venv/bin/python scripts/redraw_charts.py results/trinidad-4p   (one or more report folders)

For a change to how the charts are drawn only: the score what-ifs (``score-eldest.png``, ``score-dealer.png``),
the match-equity heatmap, the by-score equilibrium heatmaps and the strategy tables' class charts, each as the
report build draws it (``analyser.report.redraw``). Not ``card.png`` nor ``tournaments.png``. Prints each file drawn.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyser.report.redraw import redraw_charts, redraw_equity_heatmaps  # noqa: E402
from analyser.report.folder import ReportFolderError, finished_reports  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="report folders (default: every edition under results/)")
    args = parser.parse_args(argv)
    try:
        folders = finished_reports(args.folders, ROOT / "results")
    except ReportFolderError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    drawn = [path for folder in folders for path in redraw_charts(folder)]
    if not args.folders:
        drawn += redraw_equity_heatmaps(ROOT / "results" / "equity")
    for path in drawn:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
