"""Numba kernels on ints and bitmasks (no objects, no I/O).

Numba's on-disk cache only notices changes to the file that defines a function,
not to the kernels it inlines from other files. So the cache lives in a folder
named after a hash of every engine source: any edit gets a fresh cache, and an
unchanged engine starts from the cache in well under a second.

Hot kernels are compiled with ``_nrt=False``. With numba's runtime on, every call
to a jitted function increfs and decrefs each array argument with an atomic
instruction; in the trick loop that was 40% of the time. Such kernels cannot
allocate or copy overlapping slices: their callers pass scratch arrays in, and
copies are explicit loops.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

import numba

from ..work.cache import cache_root


def _cache_dir() -> str:
    digest = hashlib.sha256()
    engine = Path(__file__).parent
    for path in sorted(engine.rglob("*.py")):  # the solver's package too
        digest.update(path.relative_to(engine).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    # bits.py picks a kernel by processor (PDEP or a loop): keep their caches apart.
    digest.update((os.environ.get("NUMBA_CPU_NAME", "") + os.environ.get("ALLFOURS_NO_PDEP", "")).encode())
    try:
        import llvmlite.binding as llvm

        digest.update(llvm.get_host_cpu_name().encode())
    except Exception:  # no host information: the hash of the sources alone
        pass
    return str(cache_root() / ("numba-" + digest.hexdigest()[:16]))


def cache_is_cold(folder: str | os.PathLike[str] | None = None) -> bool:
    """True when the kernel cache (`folder`, by default numba's cache folder as set here or by
    ``NUMBA_CACHE_DIR``) is missing or holds no file: the first call of every kernel compiles it."""
    where = folder if folder is not None else numba.config.CACHE_DIR  # type: ignore[attr-defined]
    if not where:  # numba's own __pycache__ folders beside the sources: nothing to tell by
        return False
    root = Path(where)
    if not root.is_dir():
        return True
    return next((p for p in root.rglob("*") if p.is_file()), None) is None


def cache_folder() -> Path | None:
    """Where the kernels are kept: numba's cache folder as set here or by ``NUMBA_CACHE_DIR``; None when numba
    keeps them in ``__pycache__`` beside the sources (a cache folder set to empty)."""
    where = numba.config.CACHE_DIR  # type: ignore[attr-defined]
    return Path(where) if where else None


def missing_kernels(names: Iterable[str], folder: str | os.PathLike[str] | None = None) -> list[str]:
    """Which of the kernels `names` (``"module.function"``, e.g. ``"solve.solve_value"``) have no compiled
    copy in the kernel cache (`folder`, by default `cache_folder()`): the first call of each compiles it."""
    root = Path(folder) if folder is not None else cache_folder()
    if root is None:
        root = Path(__file__).parent / "__pycache__"
    found = {p.name.rpartition("-")[0] for p in root.rglob("*.nbi")} if root.is_dir() else set()
    return [name for name in names if name not in found]


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()  # type: ignore[attr-defined]
