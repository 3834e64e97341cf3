"""scripts/play_positions.py at the smallest size: every row a real decision with its values, and the same table
however the run is cut into chunks or threads, or resumed after losing a chunk."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import play_positions  # noqa: E402

from analyser.engine.playrules import ACTIONS, FEATURES  # noqa: E402


def table_of(out, chunk: int, threads: int) -> pd.DataFrame:
    assert play_positions.main(["--deals", "2", "--worlds", "3", "--chunk", str(chunk), "--threads", str(threads),
                                "--out", str(out)]) == 0
    return pd.read_parquet(out / "positions.parquet").sort_values(["table", "deal", "event"]).reset_index(drop=True)


def test_the_table_is_the_same_however_it_is_cut_and_every_row_is_a_decision(tmp_path):
    one = table_of(tmp_path / "a", 1, 1)
    assert set(one["table"]) == {"self", "heuristic"} and set(one["deal"]) == {0, 1}
    assert {f"f_{n}" for n in FEATURES} | {f"a_{n}" for n in ACTIONS} <= set(one.columns)
    for row in one.itertuples():
        legal = list(row.legal)
        assert len(legal) >= 2 and len(row.value) == len(legal) == len(row.value_se)
        assert row.chosen in legal and row.best in legal and row.heuristic in legal
        assert row.value[legal.index(row.best)] == max(row.value)
        assert all(getattr(row, f"a_{n}") in (-1, *legal) for n in ACTIONS)
        assert row.player == ("pimc" if row.table == "self" or row.seat % 2 == 0 else "heuristic")
    two = table_of(tmp_path / "b", 2, 2)
    pd.testing.assert_frame_equal(one, two)
    lost = sorted((tmp_path / "b" / "parts").glob("heuristic-*.parquet"))[0]
    lost.unlink()
    pd.testing.assert_frame_equal(one, table_of(tmp_path / "b", 2, 2))
    assert np.isfinite(np.concatenate(one["value"].to_numpy())).all()
