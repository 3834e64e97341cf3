"""Output paths: checked before any work, never replaced silently, created where missing, and written last.

* An output that exists is refused (exit 2) before any work, unless --force replaces it; an output that cannot be
  written (a file in the way of a folder, a folder that cannot be made, a chart type matplotlib cannot write) fails
  at once, every command checking its --out the same way.
* An output path in a folder that is not there yet: every command creates the missing folders, whether its output
  is a file (`card --out x.png`, `simulate --log`) or a folder (`analyse --out`), and says where it wrote.
* The answer is printed before any file is written, and a write that still fails is one line after it (exit 1).
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from conftest import TYPED, disk_full, error_lines

HAND = "AS JS 4H 7D 9C TC"
# A quick what-if: matches played out (no equity table), few deals.
WHATIF = ["whatif", "--hand", HAND, "--turnup", "KS", "--win-by", "playout", "--max-deals", "200", "--threads", "1"]
# The functions that do each command's work: none may start before the outputs are checked.
WORK = ("analyser.analysis.runner.run", "analyser.analysis.bidding.strategy.run_strategy",
        "analyser.analysis.bidding.equilibrium.run_equilibrium", "analyser.analysis.bidding.advice.check_advice",
        "analyser.analysis.play.analyse.analyse", "analyser.report.build.build_report",
        "analyser.analysis.bidding.whatif.what_if", "analyser.analysis.bidding.equity.equity_table")
runner = CliRunner()


def no_work(monkeypatch, *names: str) -> None:
    """Make the functions that would do the work fail the test if they are reached (their modules are all imported
    first: one imported while another is patched would keep the patch for good)."""
    modules = {name: importlib.import_module(name.rpartition(".")[0]) for name in names}
    for name, module in modules.items():
        monkeypatch.setattr(module, name.rpartition(".")[2],
                            lambda *a, **k: pytest.fail("work started before the output was checked"))


# --- an existing output is refused; --force replaces it ------------------------------------------

REFUSED = [
    (["simulate", "--deals", "10", "--log", "{file}"], "--log", "file"),
    (["simulate", "--deals", "10", "--out", "{folder}"], "--out", "folder"),
    (["strategy", "--deals", "100", "--rounds", "2", "--out", "{folder}"], "--out", "folder"),
    (["check-advice", "--deals", "100", "--out", "{folder}"], "--out", "folder"),
    (["report", "--deals", "2000", "--out", "{folder}"], "--out", "folder"),
    (["whatif", "--hand", HAND, "--turnup", "KS", "--win-by", "playout", "--plot", "{file}"], "--plot", "file"),
    (["equity", "--players", "2", "--out", "{folder}", "--plot", "{file}"], "--plot", "file"),
]


@pytest.mark.parametrize("args,option,kind", REFUSED, ids=[f"{a[0]} {o}" for a, o, _ in REFUSED])
def test_an_existing_output_is_refused_before_any_work(tmp_path, monkeypatch, args, option, kind):
    monkeypatch.chdir(tmp_path)
    folder, file = tmp_path / "earlier", tmp_path / ("earlier.png" if option == "--plot" else "earlier.txt")
    folder.mkdir()
    (folder / "kept.txt").write_text("an earlier run\n")
    file.write_text("an earlier run\n")
    no_work(monkeypatch, *WORK)
    words = [w.format(folder=folder, file=file) for w in args]
    result = runner.invoke(app, words)
    target = file if kind == "file" else folder
    assert result.exit_code == 2, result.output
    assert error_lines(result) == [f"error: {option} {target}: this {kind} already exists and is not empty; add --force "
                                   f"to replace it," + (f" --resume {target} to finish it," if words[0] == "simulate"
                                                        and option == "--out" else "") + f" or give another {option}"]
    assert (folder / "kept.txt").read_text() == file.read_text() == "an earlier run\n"


def test_force_replaces_a_log_and_a_run_folder(tmp_path):
    log, run = tmp_path / "deals.jsonl", tmp_path / "run"
    log.write_text("old\n")
    assert runner.invoke(app, ["simulate", "--deals", "10", "--threads", "1", "--log", str(log), "--force"]).exit_code == 0
    assert len(log.read_text().splitlines()) == 10
    for deals in (20, 30):  # the second run replaces the first one's files
        result = runner.invoke(app, ["simulate", "--deals", str(deals), "--threads", "1", "--out", str(run), "--force"])
        assert result.exit_code == 0, result.output
    assert json.loads((run / "meta.json").read_text())["deals"] == 30
    assert json.loads((run / "summary.json").read_text())["deals"] == 30


# --- an output that cannot be written fails before any work ----------------------------------


@pytest.mark.parametrize("where", ["/proc/nope", "{tmp}/a-file/below"])
def test_an_output_that_cannot_be_written_fails_at_once(tmp_path, monkeypatch, where):
    """--equity-dir /proc/nope used to build the whole table, then fail."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("x")
    path = where.format(tmp=tmp_path)
    monkeypatch.setattr("analyser.analysis.bidding.equity.equity_table",
                        lambda *a, **k: pytest.fail("a table was built before the folder was checked"))
    result = runner.invoke(app, ["whatif", "--hand", HAND, "--turnup", "KS", "--equity-dir", path])
    assert result.exit_code == 2
    (line,) = error_lines(result)
    if "a-file" in path:  # a file where a folder should be: named
        assert line == f"error: --equity-dir {path}: {tmp_path / 'a-file'} is a file, not a folder"
    else:
        assert line.startswith(f"error: --equity-dir {path}: cannot write this folder (")


@pytest.mark.parametrize("command", [["check-advice", "--deals", "100"], ["strategy", "--deals", "100"],
                                     ["report", "--deals", "2000"]])
def test_a_file_in_the_way_of_an_output_folder(tmp_path, command):
    """Used to be "[Errno 17] File exists" (or "File exists") after the work was done."""
    path = tmp_path / "taken"
    path.write_text("x")
    result = runner.invoke(app, [*command, "--out", str(path)])
    assert result.exit_code == 2
    assert error_lines(result) == [f"error: --out {path} is a file, not a folder: give a folder with --out"]


@pytest.mark.parametrize("args", [[*WHATIF, "--plot", "{tmp}/x.txt"], [*WHATIF, "--plot", "{tmp}/noext"],
                                  ["equity", "--players", "2", "--out", "{tmp}/eq", "--plot", "{tmp}/x.txt"]],
                         ids=["whatif x.txt", "whatif noext", "equity x.txt"])
def test_a_chart_name_matplotlib_cannot_write_is_refused_before_any_work(tmp_path, monkeypatch, args):
    """`whatif --plot x.txt` ran the whole what-if, then ended in a matplotlib traceback; `--plot noext`
    silently wrote noext.png."""
    no_work(monkeypatch, "analyser.analysis.bidding.whatif.what_if", "analyser.analysis.bidding.equity.equity_table")
    words = [w.format(tmp=tmp_path) for w in args]
    result = runner.invoke(app, words)
    assert result.exit_code == 2, result.output
    (line,) = error_lines(result)
    plot = words[words.index("--plot") + 1]
    assert line.startswith(f"error: --plot {plot}: give a file name ending in .png or another image type ")
    assert ".pdf" in line and ".svg" in line and "Traceback" not in result.output
    assert not list(tmp_path.glob("x*")) and not list(tmp_path.glob("noext*"))


OUT_FOLDERS = {"simulate": ["simulate", "--deals", "10"], "strategy": ["strategy", "--deals", "100"],
               "equilibrium": ["equilibrium", "--deals", "100"], "check-advice": ["check-advice", "--deals", "100"],
               "analyse": ["analyse", str(TYPED)], "report": ["report", "--deals", "2000"],
               "equity": ["equity", "--players", "2"]}


@pytest.mark.parametrize("command", OUT_FOLDERS)
def test_every_output_folder_is_checked_the_same_way_before_any_work(tmp_path, monkeypatch, command):
    """equilibrium checked its --out its own way: a folder below a file failed only when written, after the work."""
    no_work(monkeypatch, *WORK)
    (tmp_path / "a-file").write_text("x")
    out = tmp_path / "a-file" / "below"
    result = runner.invoke(app, [*OUT_FOLDERS[command], "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert error_lines(result) == [f"error: --out {out}: {tmp_path / 'a-file'} is a file, not a folder"]


# --- missing folders are created -------------------------------------------------------------


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


def test_a_chart_in_a_folder_that_is_not_there_is_written_there(tmp_path):
    """The folders of an output file are created, as an output folder's are (above); a file
    in the way of one is refused before any work."""
    plot = tmp_path / "no-such-folder" / "x.png"
    result = runner.invoke(app, [*WHATIF, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.is_file()
    (tmp_path / "a-file").write_text("x")
    result = runner.invoke(app, ["simulate", "--deals", "10", "--log", str(tmp_path / "a-file" / "deals.jsonl")])
    assert result.exit_code == 2
    assert error_lines(result) == [f"error: --log {tmp_path / 'a-file' / 'deals.jsonl'}: {tmp_path / 'a-file'} is a "
                                   "file, not a folder"]


# --- the answer first, then the files --------------------------------------------------------


def test_the_answer_is_printed_before_a_chart_that_cannot_be_written(tmp_path, monkeypatch):
    plot = tmp_path / "diff.png"
    monkeypatch.setattr("analyser.analysis.charts.convergence_plot", disk_full(plot))
    result = runner.invoke(app, [*WHATIF, "--plot", str(plot)])
    assert result.exit_code == 1, result.output
    assert re.match(r"(Stand|Beg): with this hand|Too close to call", result.stdout.splitlines()[1])
    assert "P(win match)" in result.stdout and "Traceback" not in result.output
    assert error_lines(result) == [f"error: could not write {plot} (the disk is full); the result above is complete"]
    as_json = runner.invoke(app, [*WHATIF, "--plot", str(plot), "--json"])
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["best"] in ("stand", "beg")


def test_the_equity_table_is_printed_before_its_heatmap(tmp_path, monkeypatch):
    plot = tmp_path / "heat.svg"
    monkeypatch.setattr("analyser.analysis.charts.equity_heatmap", disk_full(plot))
    result = runner.invoke(app, ["equity", "--players", "2", "--deals-per-cell", "100", "--threads", "1",
                                 "--out", str(tmp_path / "eq"), "--plot", str(plot)])
    assert result.exit_code == 1, result.output
    assert "P(dealer's side wins the match)" in result.stdout and f"heatmap: {plot}" in result.stdout
    assert error_lines(result) == [f"error: could not write {plot} (the disk is full); the result above is complete"]


def test_check_advice_and_analyse_print_before_writing_their_files(tmp_path, monkeypatch):
    out = tmp_path / "advice"
    monkeypatch.setattr("analyser.cli.advice.write_out", disk_full(out / "advice.json"))
    advice = runner.invoke(app, ["check-advice", "--deals", "100", "--no-equilibrium", "--play-deals", "0",
                                 "--threads", "1", "--out", str(out)])
    assert advice.exit_code == 1, advice.output
    assert "Published advice" in advice.stdout and "[" in advice.stdout
    assert error_lines(advice) == [f"error: could not write {out / 'advice.json'} (the disk is full); the result above "
                                   "is complete"]
    page = tmp_path / "page"
    monkeypatch.setattr("analyser.analysis.play.analyse_html.write_page", disk_full(page / "index.html"))
    analysed = runner.invoke(app, ["analyse", str(TYPED), "--no-win-prob", "--worlds", "2", "--bid-deals", "100",
                                   "--max-cards", "2", "--threads", "1", "--out", str(page)])
    assert analysed.exit_code == 1, analysed.output
    assert "2 deals in 1 match" in analysed.stdout
    assert error_lines(analysed)[-1] == (f"error: could not write {page / 'index.html'} (the disk is full); the result "
                                         "above is complete")
