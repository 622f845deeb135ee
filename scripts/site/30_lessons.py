"""Lessons and tutorials: web/lessons/*.md and web/tutorials/*.md rendered to static HTML pages.

A page is Markdown with a small front matter (``title:``, ``summary:``) between ``---`` lines.
Code fences choose what a block becomes:

    ```python run        a runnable block: editable, with a Run button; output appears under it
    ```python exercise   the exercise: editable, with Run, Check and "Show a solution"
    ```python check      hidden code run against the page's namespace by Check (follows the exercise)
    ```python solution   a reference solution (follows the exercise; shown on request, used by the tests)
    ```python            code shown, not run (```text, ```bash, ... likewise)

The blocks of one page share one Python namespace (web/js/lesson.mjs runs them with PyWorker.cell).
Pages are ordered by file name (``01-tensors.md``); each section gets an index page.
"""

import html
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import markdown

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _api_html import header  # noqa: E402  (the site-wide header, shared with api/, models/, vision/)

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = {
    "lessons": ("Lessons", "Lesson", "Eight short lessons, from a first tensor to a convolutional network trained "
                "well. Each page is a notebook: its code blocks run here, in your browser, and share their variables. "
                "Each lesson ends with an exercise that checks your answer."),
    "tutorials": ("Tutorials", "Tutorial", "Longer walk-throughs that put the lessons together: a digit classifier "
                  "from data to saved model, a small ResNet with data augmentation, and fine-tuning a saved model "
                  "on a new task."),
}
FENCE = re.compile(r"^```\s*([A-Za-z0-9_+-]*)\s*([A-Za-z]*)\s*$")
CODE_KINDS = {"run", "exercise", "check", "solution"}


class LessonError(ValueError):
    pass


@dataclass
class Cell:
    kind: str              # "run" or "exercise"
    code: str
    check: str | None = None
    solution: str | None = None


@dataclass
class Page:
    section: str
    stem: str
    number: int
    title: str
    summary: str
    source: Path
    body: str = ""
    cells: list[Cell] = field(default_factory=list)

    @property
    def href(self) -> str:
        return f"{self.stem}.html"


def parse_front_matter(text: str, path: Path) -> tuple[dict, str]:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise LessonError(f"{path}: must start with a front matter block (---, title: ..., summary: ..., ---)")
    meta = {}
    for i, line in enumerate(lines[1:], 1):
        if line.strip() == "---":
            body = "\n" * (i + 1) + "\n".join(lines[i + 1:])  # keep line numbers for error messages
            break
        key, sep, value = line.partition(":")
        if not sep:
            raise LessonError(f"{path}:{i + 1}: front matter lines are 'key: value', got {line!r}")
        meta[key.strip()] = value.strip()
    else:
        raise LessonError(f"{path}: the front matter is not closed with ---")
    for key in ("title", "summary"):
        if not meta.get(key):
            raise LessonError(f"{path}: the front matter needs {key}:")
    return meta, body


def split_fences(body: str, path: Path) -> list[tuple[str, str, str]]:
    """[("md", text, ""), ("code", source, "lang kind"), ...] in page order."""
    parts, md, i = [], [], 0
    lines = body.splitlines()
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            md.append(lines[i])
            i += 1
            continue
        lang, kind = m.group(1).lower(), m.group(2).lower()
        start = i
        i += 1
        code = []
        while i < len(lines) and lines[i].rstrip() != "```":
            code.append(lines[i])
            i += 1
        if i == len(lines):
            raise LessonError(f"{path}:{start + 1}: code fence is never closed")
        i += 1
        if kind and kind not in CODE_KINDS:
            raise LessonError(f"{path}:{start + 1}: unknown block kind {kind!r} (use one of {sorted(CODE_KINDS)})")
        if kind and lang != "python":
            raise LessonError(f"{path}:{start + 1}: only python blocks can be {kind!r}")
        parts.append(("md", "\n".join(md), ""))
        md = []
        parts.append(("code", "\n".join(code).rstrip() + "\n", f"{lang} {kind}".strip()))
    parts.append(("md", "\n".join(md), ""))
    return parts


def _cell_html(n: int, cell: Cell) -> str:
    code = html.escape(cell.code)
    if cell.kind == "run":
        return (f'<div class="cell" data-kind="run" data-cell="{n}" id="cell-{n}">'
                f'<div class="cell-bar"><span class="cell-label">[{n}]</span>'
                f'<button type="button" class="run" title="Run (Shift+Enter)">Run</button>'
                f'<span class="cell-status" aria-live="polite"></span></div>'
                f'<textarea class="code" spellcheck="false" autocapitalize="off" aria-label="code block {n}">'
                f'{code}</textarea><div class="cell-out" hidden><pre class="out"></pre></div></div>')
    return (f'<div class="cell exercise" data-kind="exercise" data-cell="{n}" id="cell-{n}">'
            f'<div class="cell-bar"><span class="cell-label">Exercise</span>'
            f'<button type="button" class="run secondary" title="Run (Shift+Enter)">Run</button>'
            f'<button type="button" class="check">Check</button>'
            f'<button type="button" class="show-solution secondary">Show a solution</button>'
            f'<button type="button" class="reset-code secondary">Reset code</button>'
            f'<span class="cell-status" aria-live="polite"></span></div>'
            f'<textarea class="code" spellcheck="false" autocapitalize="off" aria-label="exercise code">'
            f'{code}</textarea><div class="cell-out" hidden><pre class="out"></pre></div>'
            f'<div class="check-result" role="status" hidden></div>'
            f'<div class="solution" hidden><p class="muted">One solution (yours may differ and still pass):</p>'
            f'<pre class="code static"><code>{html.escape(cell.solution or "")}</code></pre></div></div>')


def render_page(page: Page) -> None:
    meta, body = parse_front_matter(page.source.read_text(encoding="utf-8"), page.source)
    page.title, page.summary = meta["title"], meta["summary"]
    chunks, cells, raw = [], [], {}
    for what, text, info in split_fences(body, page.source):
        if what == "md":
            chunks.append(text)
            continue
        lang, _, kind = info.partition(" ")
        if kind in ("run", "exercise"):
            cells.append(Cell(kind, text))
            chunks.append(f"\n\nBORCHCELL{len(cells) - 1}\n\n")
        elif kind in ("check", "solution"):
            if not cells or cells[-1].kind != "exercise" or getattr(cells[-1], kind) is not None:
                raise LessonError(f"{page.source}: a {kind} block must follow its exercise block (one each)")
            setattr(cells[-1], kind, text)
        else:  # shown, not run
            token = f"BORCHRAW{len(raw)}"
            cls = f' class="language-{html.escape(lang)}"' if lang else ""
            raw[token] = f'<pre class="code static"><code{cls}>{html.escape(text)}</code></pre>'
            chunks.append(f"\n\n{token}\n\n")
    for c in cells:
        if c.kind == "exercise" and (c.check is None or c.solution is None):
            raise LessonError(f"{page.source}: every exercise needs a ```python check and a ```python solution block")
    out = markdown.markdown("".join(chunks), extensions=["tables", "sane_lists", "toc"], output_format="html")

    def sub(m: re.Match) -> str:
        token = m.group(1)
        if token.startswith("BORCHCELL"):
            i = int(token[len("BORCHCELL"):])
            return _cell_html(i + 1, cells[i])
        return raw[token]

    page.body = re.sub(r"<p>(BORCH(?:CELL|RAW)\d+)</p>", sub, out)
    if "BORCHCELL" in page.body or "BORCHRAW" in page.body:
        raise LessonError(f"{page.source}: a code block ended up inside other markup (keep fences at the top level)")
    page.cells = cells


def _head(title: str) -> str:
    return ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{html.escape(title)} - borch_webgpu</title>\n'
            '<link rel="stylesheet" href="../css/site.css">\n<link rel="stylesheet" href="../css/lessons.css">\n'
            '</head>\n')


def _json_script(obj) -> str:
    # safe inside <script>: no "</" can close the element early
    return json.dumps(obj).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_html(page: Page, pages: list[Page], site: Path) -> str:
    name, noun, _ = SECTIONS[page.section]
    i = pages.index(page)
    prev = pages[i - 1] if i > 0 else None
    nxt = pages[i + 1] if i + 1 < len(pages) else None
    prev_a = (f'<a class="prev" href="{prev.href}">&larr; {prev.number}. {html.escape(prev.title)}</a>' if prev
              else f'<a class="prev" href="./">&larr; All {name.lower()}</a>')
    if nxt:
        next_a = f'<a class="next" href="{nxt.href}">{nxt.number}. {html.escape(nxt.title)} &rarr;</a>'
    elif page.section == "lessons":
        next_a = '<a class="next" href="../tutorials/">On to the tutorials &rarr;</a>'
    else:
        next_a = f'<a class="next" href="./">All {name.lower()} &rarr;</a>'
    data = {"ns": f"{page.section}/{page.stem}", "section": page.section, "stem": page.stem,
            "exercises": {str(n): {"check": c.check, "solution": c.solution}
                          for n, c in enumerate(page.cells, 1) if c.kind == "exercise"}}
    return (_head(f"{noun} {page.number}: {page.title}") +
            f'<body class="lesson-page">\n{header("../", name)}\n'
            '<div class="runtime-bar" id="runtime-bar"><span id="rt-dot" class="dot wait"></span>'
            '<span id="rt-status">Starting Python and WebGPU&hellip;</span>'
            '<span class="rt-actions"><button type="button" id="rt-run-all" class="secondary">Run all</button>'
            '<button type="button" id="rt-stop" class="secondary" disabled>Stop</button>'
            '<button type="button" id="rt-reset" class="secondary" title="Forget every variable and start the page '
            'over">Restart</button></span></div>\n'
            f'<main class="lesson">\n<p class="crumb"><a href="./">{name}</a> &middot; {noun} {page.number} of '
            f'{len(pages)}</p>\n<h1>{html.escape(page.title)}</h1>\n<p class="lead">{html.escape(page.summary)}</p>\n'
            '<p class="how">The code blocks on this page run in your browser, on your GPU when it has WebGPU, and share '
            'their variables like a notebook. Edit any block and press <b>Run</b> (or Shift+Enter): blocks above it '
            'that have not run yet run first, in order. <b>Restart</b> forgets every variable.</p>\n'
            f'{page.body}\n<nav class="pager">{prev_a}{next_a}</nav>\n</main>\n'
            f'<script type="application/json" id="lesson-data">{_json_script(data)}</script>\n'
            '<script type="module" src="../js/lesson.mjs"></script>\n</body>\n</html>\n')


def index_html(section: str, pages: list[Page], site: Path) -> str:
    name, noun, blurb = SECTIONS[section]
    other = "tutorials" if section == "lessons" else "lessons"
    items = []
    for p in pages:
        n_run = sum(c.kind == "run" for c in p.cells)
        n_ex = sum(c.kind == "exercise" for c in p.cells)
        extra = f"{n_run} code blocks" + (f", {n_ex} exercise" + ("s" if n_ex > 1 else "") if n_ex else "")
        items.append(f'<li><a href="{p.href}"><span class="num">{p.number}</span><span class="t">'
                     f'{html.escape(p.title)}</span><small>{html.escape(p.summary)}</small>'
                     f'<small class="meta">{extra}</small></a></li>')
    return (_head(name) + f'<body>\n{header("../", name)}\n<main>\n<h1>{name}</h1>\n<p class="lead">{blurb}</p>\n'
            f'<ol class="lesson-list">{"".join(items)}</ol>\n'
            f'<p class="muted">See also the <a href="../{other}/">{SECTIONS[other][0].lower()}</a>.</p>\n'
            '</main>\n</body>\n</html>\n')


def load_section(section: str, src: Path) -> list[Page]:
    pages = []
    for path in sorted(src.glob("*.md")):
        m = re.match(r"(\d+)-[a-z0-9-]+$", path.stem)
        if not m:
            raise LessonError(f"{path}: name pages NN-some-words.md (the number orders them)")
        page = Page(section, path.stem, int(m.group(1)), "", "", path)
        render_page(page)
        pages.append(page)
    return pages


def build(site_dir: Path) -> dict[str, list[Page]]:
    site_dir = Path(site_dir)
    out = {}
    for section in SECTIONS:
        src = ROOT / "web" / section
        dest = site_dir / section
        pages = load_section(section, src) if src.is_dir() else []
        dest.mkdir(parents=True, exist_ok=True)
        for md in dest.glob("*.md"):  # the sources were copied with web/; only the pages are served
            md.unlink()
        for p in pages:
            (dest / p.href).write_text(page_html(p, pages, site_dir), encoding="utf-8")
        (dest / "index.html").write_text(index_html(section, pages, site_dir), encoding="utf-8")
        out[section] = pages
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "site"
    for sec, ps in build(target).items():
        print(f"{sec}: {len(ps)} pages")
