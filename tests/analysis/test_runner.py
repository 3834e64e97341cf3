"""Parallel, resumable runs: same seed same summary on any thread count, resume, interruption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.analysis import runner
from analyser.cli import app
from analyser.game.rules import make_rules

DEALS, CHUNK = 9_000, 2_000  # five chunks, the last one short


def spec(policy: str = "random", seed: int = 7) -> runner.RunSpec:
    return runner.RunSpec.new(make_rules("trinidad"), [policy], seed, DEALS, CHUNK)


def invoke(*args: str):
    result = CliRunner().invoke(app, ["simulate", *args])
    return result, result.output + (result.stderr if result.stderr_bytes is not None else "")


def test_same_seed_same_summary_files_on_1_and_2_threads(tmp_path: Path) -> None:
    for threads in ("1", "2"):
        result, _ = invoke("--deals", str(DEALS), "--chunk-size", str(CHUNK), "--seed", "7", "--threads", threads,
                           "--out", str(tmp_path / threads), "--json")
        assert result.exit_code == 0, result.output
    for name in ("summary.json", "summary.csv"):
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes()
    assert len(list((tmp_path / "1" / "chunks").glob("chunk-*.parquet"))) == 5
    meta = json.loads((tmp_path / "1" / "meta.json").read_text())
    assert (meta["seed"], meta["deals"], meta["chunk_size"], meta["chunks"]) == (7, DEALS, CHUNK, 5)


def test_summary_without_a_run_folder_matches_the_folder_one(tmp_path: Path) -> None:
    with_folder = runner.run(spec(), 2, tmp_path / "run")
    assert runner.summary_json(runner.run(spec(), 1)) == runner.summary_json(with_folder)
    assert runner.summary_json(with_folder) == (tmp_path / "run" / "summary.json").read_text()


def test_resume_after_lost_chunks_gives_the_same_summary(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    runner.run(spec(), 2, run_dir)
    whole = (run_dir / "summary.json").read_bytes(), (run_dir / "summary.csv").read_bytes()
    for name in ("summary.json", "summary.csv", "chunks/chunk-000001.parquet", "chunks/chunk-000004.parquet"):
        (run_dir / name).unlink()
    result, output = invoke("--resume", str(run_dir), "--threads", "2")
    assert result.exit_code == 0, output
    assert ((run_dir / "summary.json").read_bytes(), (run_dir / "summary.csv").read_bytes()) == whole


def test_interrupted_run_keeps_only_complete_chunks_and_resumes(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    finished = []

    def interrupt(chunk: runner.ChunkResult) -> None:
        finished.append(chunk.index)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(spec(), 2, run_dir, on_chunk=interrupt)
    files = sorted((run_dir / "chunks").iterdir())
    assert finished and len(files) < 5 and not (run_dir / "summary.json").exists()
    sizes = spec().sizes()
    for path in files:  # every file left is a whole chunk of this run; no temp files
        chunk = runner.read_chunk(path)
        assert path == runner.chunk_path(run_dir, chunk.index) and chunk.counts[0] == sizes[chunk.index]
    resumed = runner.run(spec(), 1, run_dir, resume=True)
    assert runner.summary_json(resumed) == runner.summary_json(runner.run(spec(), 1))


def test_counters_agree_with_facts() -> None:
    summary = runner.run(spec("random:beg=0"), 2)
    totals = summary["totals"]
    assert totals["lines"] == DEALS
    assert sum(totals[f"runs_hist_{k}"] for k in range(8)) == totals["lines"]
    assert totals["begs"] == totals["gives"] == totals["runs"] == totals["exhausted"] == 0
    assert totals["deals"] == DEALS and totals["other_points_gift"] == 0
    assert totals["dealer_points"] == sum(totals[f"dealer_points_{w}"] for w in
                                          ("kick", "gift", "jack_bonus", "high", "low", "jack", "hang_jack", "game"))
    assert totals["net_sum"] == totals["dealer_points"] - totals["other_points"]
    net = summary["rates"]["net_points_per_deal"]
    assert net["se"] > 0 and net["ci95"][0] < net["estimate"] < net["ci95"][1]
    assert summary["rates"]["beg_rate"]["estimate"] == 0.0


def test_existing_run_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "notes.txt").write_text("mine")
    result, output = invoke("--deals", "100", "--out", str(tmp_path / "run"))
    assert result.exit_code == 2 and "not empty" in output and "Traceback" not in output


def test_bad_resume_folder_is_refused(tmp_path: Path) -> None:
    result, output = invoke("--resume", str(tmp_path))
    assert result.exit_code == 2 and "not a run folder" in output
    (tmp_path / "meta.json").write_text("{not json")
    result, output = invoke("--resume", str(tmp_path))
    assert result.exit_code == 2 and "meta.json" in output


def test_resume_with_conflicting_options_is_refused(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    runner.create_run(run_dir, spec())
    result, output = invoke("--resume", str(run_dir), "--seed", "8", "--policy", "random:beg=0")
    assert result.exit_code == 2 and "--seed 8" in output and "--policy" in output
    result, output = invoke("--resume", str(run_dir), "--seed", "7", "--deals", str(DEALS), "--json")
    assert result.exit_code == 0, output
    assert json.loads(result.stdout)["totals"]["lines"] == DEALS


def test_log_and_out_together(tmp_path: Path) -> None:
    log = tmp_path / "deals.jsonl"
    result, output = invoke("--deals", "30", "--seed", "3", "--log", str(log), "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, output
    assert len(log.read_text().splitlines()) == 30
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["totals"]["lines"] == 30
