"""Write each shipped edition's quotable page, QUOTE.md, from the numbers its folder keeps (nothing is computed).

    .venv/bin/python scripts/quote_pages.py                       (every edition under results/)
    .venv/bin/python scripts/quote_pages.py results/trinidad-4p   (one or more report folders)
    .venv/bin/python scripts/quote_pages.py --check               (write nothing; exit 1 if a page is stale)

The page (``analyser.report.quote``): the bidding rules with their cost against the equilibrium, what the score
changes, each published-advice verdict with the comparison it makes, the play tips and what card play is worth
against bidding, each number with its conditions and the command that reproduces it. Prints each page written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyser.report.quote import QUOTE_FILE, quote_page, write_quote_page  # noqa: E402
from analyser.report.folder import ReportFolderError, finished_reports  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="report folders (default: every edition under results/)")
    parser.add_argument("--check", action="store_true", help="write nothing; list the pages that differ from what "
                                                             "would be written, exit 1 if any")
    args = parser.parse_args(argv)
    try:
        folders = finished_reports(args.folders, ROOT / "results")
    except ReportFolderError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.check:
        stale = [folder / QUOTE_FILE for folder in folders if not (folder / QUOTE_FILE).is_file()
                 or (folder / QUOTE_FILE).read_text(encoding="utf-8") != quote_page(folder)]
        for path in stale:
            print(f"stale: {path}")
        return 1 if stale else 0
    for folder in folders:
        print(write_quote_page(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
