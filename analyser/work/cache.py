"""Where allfours keeps what it can make again: the engine's compiled kernels and match-equity tables.

``$ALLFOURS_CACHE_DIR`` if it is set, else ``$XDG_CACHE_HOME/allfours``, else
``~/.cache/allfours``: a folder of the user's, never the working folder or the
source tree, so running the tool leaves a checkout as it was. ``make clean-cache``
empties the default one.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The cache folder, as the environment names it now (it need not exist yet)."""
    root = os.environ.get("ALLFOURS_CACHE_DIR")
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "allfours"
