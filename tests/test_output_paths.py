"""An output path in a folder that is not there yet: every command creates the missing folders, whether its
output is a file (`card --out x.png`, `simulate --log`) or a folder (`analyse --out`), and says where it wrote."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app

ROOT = Path(__file__).resolve().parent.parent
TYPED = ROOT / "tests" / "logs" / "typed-trinidad.jsonl"
runner = CliRunner()


def test_card_out_in_missing_folders_is_written_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["card", "--out", "missing/dir/x.png"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "missing" / "dir" / "x.png").read_bytes().startswith(b"\x89PNG")
    assert "card written to missing/dir/x.png" in result.stderr


def test_analyse_out_in_missing_folders_is_written_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["analyse", str(TYPED), "--out", "missing/dir", "--worlds", "4", "--bid-deals", "200",
                                 "--threads", "1"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "missing" / "dir" / "index.html").is_file()
    assert "wrote missing/dir/index.html" in result.stderr


def test_a_log_in_missing_folders_is_written_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "--deals", "3", "--log", "missing/dir/deals.jsonl"])
    assert result.exit_code == 0, result.output
    assert len((tmp_path / "missing" / "dir" / "deals.jsonl").read_text(encoding="utf-8").splitlines()) == 3


@pytest.mark.parametrize("args", [["card", "--out", "{f}/x.png"], ["analyse", str(TYPED), "--out", "{f}/dir"]],
                         ids=["card", "analyse"])
def test_a_file_in_the_way_of_a_folder_is_the_same_one_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "a-file").write_text("x")
    words = [w.format(f=tmp_path / "a-file") for w in args]
    result = runner.invoke(app, words)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines()[-1] == (f"error: --out {words[-1]}: {tmp_path / 'a-file'} is a file, "
                                                      "not a folder")
