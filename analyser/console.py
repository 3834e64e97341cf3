"""The console script ``allfours`` (and ``python -m analyser``): the command line, loaded only once
Ctrl-C can be caught, so that an interrupt while numpy, numba and the commands load (the first second
or two) is one line and exit 130, as it is later."""

from __future__ import annotations

import importlib
import sys


def main() -> None:
    try:
        cli = importlib.import_module("analyser.cli")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    cli.main()
