"""`allfours card`: the shipped trinidad card as text, PNG, SVG and PDF, looked at; bad input refused in one
line with nothing written."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.rules_of_thumb import RuleList
from analyser.cli import app
from analyser.report.card import A5, RESULTS, chosen_row

runner = CliRunner()
SHIPPED = json.loads((RESULTS / "trinidad-4p" / "rules-of-thumb" / "rules.json").read_text(encoding="utf-8"))


def invoke(*args: str):
    return runner.invoke(app, ["card", *args])


def test_text_card_prints_the_shipped_rules_and_the_claims():
    res = invoke("--rules", "trinidad", "--players", "4")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for role in ("eldest", "dealer"):
        row = chosen_row(SHIPPED, role)
        assert RuleList.from_json(row["rule"]).describe() == row["text"]
        for k, line in enumerate(row["text"], 1):
            assert f"{k}. {line}" in out
    advice = (RESULTS / "trinidad-4p" / "tables" / "advice.csv").read_text(encoding="utf-8")
    assert out.count("supported:") + out.count("contradicted:") + out.count("inconclusive:") == 4
    assert "Beg when missing the ace or the jack of trump." in out and "Beg when missing" in advice
    assert "NEAR THE TARGET" in out and "results/trinidad-4p/rules-of-thumb (shipped, seed 1)" in " ".join(out.split())


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_png_card_is_an_a5_page_with_text_on_it(tmp_path):
    from matplotlib.image import imread

    out = tmp_path / "card.png"
    res = invoke("--out", str(out))
    assert res.exit_code == 0, res.output
    width, height = png_size(out)
    assert height / width == pytest.approx(A5[1] / A5[0], rel=0.01) and width >= 1000  # A5 at 200 dpi
    pixels = imread(str(out))[..., :3]
    ink = (pixels < 0.5).any(axis=2)
    rows = ink.any(axis=1)
    # Text in the top, the rule lines and the advice: ink in each third's upper part, and many separate lines.
    assert ink[: height // 10].any() and ink[height // 10: height // 2].sum() > 2000
    starts = np.flatnonzero(rows[1:] & ~rows[:-1])
    assert len(starts) >= 15  # title, two rules, their costs, the near-target lines, four claims, the footer
    red = (pixels[..., 0] > 0.6) & (pixels[..., 1] < 0.3) & (pixels[..., 2] < 0.3)
    assert red[: height // 10].sum() > 50  # the red suits in the header


def test_svg_card_holds_the_rule_text(tmp_path):
    import matplotlib

    out = tmp_path / "card.svg"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text, so the words can be found
    try:
        res = invoke("--out", str(out))
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert res.exit_code == 0, res.output
    svg = out.read_text(encoding="utf-8")
    for role in ("eldest", "dealer"):
        for line in chosen_row(SHIPPED, role)["text"]:
            assert line in svg
    assert "#c8102e" in svg  # hearts and diamonds in red


def test_pdf_card_and_force(tmp_path):
    out = tmp_path / "card.pdf"
    assert invoke("--out", str(out)).exit_code == 0
    assert out.read_bytes()[:5] == b"%PDF-"
    before = out.read_bytes()
    res = invoke("--out", str(out))
    assert res.exit_code == 2 and "--force" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert out.read_bytes() == before
    assert invoke("--out", str(out), "--force").exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["--rules", "nosuch"], "--rules nosuch"),
    (["--players", "5"], "--players 5"),
    (["--rules", "partnership-seven", "--players", "2"], "players=2 is not allowed"),
    (["--out", "card.docx"], "matplotlib"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code == 2, res.output
    assert words in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_json_has_the_rules_and_the_claims():
    res = invoke("--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["rules_of_thumb"]["chosen"] == SHIPPED["chosen"] and len(doc["claims"]) == 4
