"""A small report document: headings, paragraphs, tables and charts, rendered
twice from the same blocks — as Markdown (REPORT.md) and as one static HTML page
(report.html, charts embedded) — so the two always say the same thing.

>>> doc = Document("Title")
>>> doc.paragraph("Hello *world*.")
>>> "<h1>Title</h1>" in doc.html() and doc.markdown().startswith("# Title")
True
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


def save_table(frame: pd.DataFrame, out: Path, name: str, written: list[str] | None = None) -> str:
    """`frame` as CSV and Parquet under out/tables/; returns the CSV's path relative to `out` (as a report
    cites it). The two files' relative paths are appended to `written` if given (for a manifest)."""
    folder = out / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / f"{name}.csv", index=False)
    frame.to_parquet(folder / f"{name}.parquet", index=False)
    if written is not None:
        written.extend([f"tables/{name}.csv", f"tables/{name}.parquet"])
    return f"tables/{name}.csv"


@dataclass
class Block:
    kind: str          # heading, paragraph, bullets, table, image, code
    text: str = ""
    level: int = 2
    items: list[str] = field(default_factory=list)
    frame: pd.DataFrame | None = None
    path: str = ""     # image or table file, relative to the report folder


def _inline_html(text: str) -> str:
    """Escape, then the two Markdown marks the report uses: **bold** and `code`."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"`(.+?)`", r"<code>\1</code>", out)
    return re.sub(r"\*(.+?)\*", r"<em>\1</em>", out)


class Document:
    def __init__(self, title: str):
        self.title = title
        self.blocks: list[Block] = []

    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(Block("heading", text, level))

    def paragraph(self, text: str) -> None:
        self.blocks.append(Block("paragraph", text))

    def bullets(self, items: list[str]) -> None:
        self.blocks.append(Block("bullets", items=list(items)))

    def code(self, text: str) -> None:
        self.blocks.append(Block("code", text))

    def table(self, frame: pd.DataFrame, caption: str, path: str = "") -> None:
        """A table shown in the report; `path` names the CSV/Parquet files holding it in full."""
        self.blocks.append(Block("table", caption, frame=frame, path=path))

    def image(self, path: str, caption: str) -> None:
        self.blocks.append(Block("image", caption, path=path))

    def markdown(self) -> str:
        out = [f"# {self.title}", ""]
        for b in self.blocks:
            if b.kind == "heading":
                out += ["#" * b.level + " " + b.text, ""]
            elif b.kind == "paragraph":
                out += [b.text, ""]
            elif b.kind == "bullets":
                out += [f"- {item}" for item in b.items] + [""]
            elif b.kind == "code":
                out += ["```", b.text, "```", ""]
            elif b.kind == "table":
                assert b.frame is not None
                out += [f"*{b.text}*" + (f" (full table: `{b.path}`)" if b.path else ""), ""]
                out += [_markdown_table(b.frame), ""]
            elif b.kind == "image":
                out += [f"![{b.text}]({b.path})", "", f"*{b.text}*", ""]
        return "\n".join(out).rstrip() + "\n"

    def html(self, folder: Path | None = None) -> str:
        """One static page; charts are embedded (base64) when `folder` holds them."""
        body = [f"<h1>{html.escape(self.title)}</h1>"]
        for b in self.blocks:
            if b.kind == "heading":
                body.append(f"<h{b.level}>{html.escape(b.text)}</h{b.level}>")
            elif b.kind == "paragraph":
                body.append(f"<p>{_inline_html(b.text)}</p>")
            elif b.kind == "bullets":
                body.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in b.items) + "</ul>")
            elif b.kind == "code":
                body.append(f"<pre><code>{html.escape(b.text)}</code></pre>")
            elif b.kind == "table":
                assert b.frame is not None
                note = f" (full table: <code>{html.escape(b.path)}</code>)" if b.path else ""
                body.append(f"<figure><figcaption>{_inline_html(b.text)}{note}</figcaption>"
                            + _blank_missing(b.frame).to_html(index=False, border=0, classes="data", na_rep="")
                            + "</figure>")
            elif b.kind == "image":
                src = b.path
                if folder is not None and (folder / b.path).is_file():
                    data = base64.b64encode((folder / b.path).read_bytes()).decode("ascii")
                    src = f"data:image/png;base64,{data}"
                body.append(f'<figure><img src="{src}" alt="{html.escape(b.text)}">'
                            f"<figcaption>{_inline_html(b.text)}</figcaption></figure>")
        return _PAGE.format(title=html.escape(self.title), body="\n".join(body))


def splice_sections(folder: Path, doc: Document, first: str, last: str, before: str = "") -> None:
    """Put `doc`'s blocks (its title left out) in place of the sections of the finished report in `folder`
    from the heading `first` through the section of the heading `last` (up to the next heading of its
    level), in REPORT.md and report.html alike: a part redone without rerunning the rest. With no `first`
    section in a file and `before` given, the blocks are inserted just before the heading `before` instead."""
    path = folder / "REPORT.md"
    page = path.read_text(encoding="utf-8")
    begin, end = _section_span(page, f"## {first}\n", f"## {last}\n", "\n## ", path,
                               before=f"## {before}\n" if before else "")
    md = doc.markdown().split("\n", 2)[2]  # without the title line
    path.write_text(page[:begin] + md + ("\n" + page[end:] if end < len(page) else ""), encoding="utf-8")
    path = folder / "report.html"
    page = path.read_text(encoding="utf-8")
    begin, end = _section_span(page, f"<h2>{html.escape(first)}</h2>", f"<h2>{html.escape(last)}</h2>", "<h2>",
                               path, stop="\n</body>", before=f"<h2>{html.escape(before)}</h2>" if before else "")
    body = doc.html(folder).split("<body>\n", 1)[1].split("\n</body>", 1)[0].split("\n", 1)[1]  # without <h1>
    path.write_text(page[:begin] + body + "\n" + page[end:].lstrip("\n"), encoding="utf-8")


def splice_section_end(folder: Path, doc: Document, section: str, starts: list[str]) -> None:
    """Put `doc`'s blocks (its title left out) in place of the end of the finished report's section `section`:
    from the first of `starts` found in it (Markdown: a ``### `` subheading, or the first words of a paragraph)
    to the section's end, in REPORT.md and report.html alike."""
    path = folder / "REPORT.md"
    page = path.read_text(encoding="utf-8")
    begin, end = _end_span(page, f"## {section}\n", [s if s.startswith("#") else "\n" + s for s in starts],
                           "\n## ", path)
    begin += 0 if page[begin] == "#" else 1  # (a paragraph's start was found after its newline)
    md = doc.markdown().split("\n", 2)[2]
    path.write_text(page[:begin] + md + ("\n" + page[end:] if end < len(page) else ""), encoding="utf-8")
    path = folder / "report.html"
    page = path.read_text(encoding="utf-8")
    marks = [f"<h3>{html.escape(s[4:])}</h3>" if s.startswith("### ") else f"<p>{_inline_html(s)}" for s in starts]
    begin, end = _end_span(page, f"<h2>{html.escape(section)}</h2>", marks, "<h2>", path, stop="\n</body>")
    body = doc.html(folder).split("<body>\n", 1)[1].split("\n</body>", 1)[0].split("\n", 1)[1]
    path.write_text(page[:begin] + body + "\n" + page[end:].lstrip("\n"), encoding="utf-8")


def _end_span(page: str, section: str, starts: list[str], heading: str, path: Path,
              stop: str = "") -> tuple[int, int]:
    """Where the end of `section` from the first of `starts` in it begins, and where the section ends."""
    if section not in page:
        raise ValueError(f"{path}: no {section.strip()!r} section")
    top = page.index(section) + len(section)
    end = page.find(heading, top)
    if end < 0:
        end = page.index(stop, top) if stop and stop in page[top:] else len(page)
    elif heading.startswith("\n"):
        end += 1
    for start in starts:
        at = page.find(start, top, end)
        if at >= 0:
            return at, end
    raise ValueError(f"{path}: none of {[s.strip() for s in starts]} in the section {section.strip()!r}")


def _section_span(page: str, first: str, last: str, heading: str, path: Path, stop: str = "",
                  before: str = "") -> tuple[int, int]:
    """Where the sections from `first` through `last` begin and end in `page`; with no `first` and a `before`,
    the empty span just before `before`."""
    if before and first not in page:
        if before not in page:
            raise ValueError(f"{path}: no {before.strip()!r} to place the section before")
        at = page.index(before)
        return at, at
    for mark in (first, last):
        if mark not in page:
            raise ValueError(f"{path}: no {mark.strip()!r} section to replace")
    begin = page.index(first)
    after = page.index(last, begin) + len(last)
    end = page.find(heading, after)
    if end < 0:
        end = page.index(stop, after) if stop and stop in page[after:] else len(page)
    elif heading.startswith("\n"):
        end += 1  # the heading's own line starts after the newline
    return begin, end


def _blank_missing(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with the missing values of its nullable integer columns blank: to_html's na_rep does not reach
    them (it writes <NA>)."""
    nullable = [c for c in frame.columns if isinstance(frame[c].dtype, pd.Int64Dtype) and frame[c].isna().any()]
    if not nullable:
        return frame
    frame = frame.copy()
    for c in nullable:
        frame[c] = frame[c].astype(object).where(frame[c].notna(), "")
    return frame


def _markdown_table(frame: pd.DataFrame) -> str:
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join("" if pd.isna(v) else str(v) for v in row) + " |")
    return "\n".join(lines)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: Georgia, serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #111; }}
h1, h2, h3 {{ font-family: Helvetica, Arial, sans-serif; }}
table.data {{ border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0 1.5rem; }}
table.data th, table.data td {{ border-bottom: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: right; }}
figure {{ margin: 1rem 0; }} img {{ max-width: 100%; }}
figcaption {{ font-style: italic; margin-bottom: 0.3rem; }}
code, pre {{ font-family: Menlo, Consolas, monospace; font-size: 0.85rem; }}
pre {{ background: #f4f4f4; padding: 0.6rem; overflow-x: auto; }}
@media print {{ body {{ max-width: none; }} }}
</style></head>
<body>
{body}
</body></html>
"""
