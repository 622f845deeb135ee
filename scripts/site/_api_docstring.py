"""A docstring as readable HTML: paragraphs, PyTorch's sections (Args, Shape, Returns, Example, ...)
as headed blocks, ``name (type): text`` items as a definition list, ``>>>`` examples and ``::``
literal blocks as code, inline reST (````code````, ``:class:`~a.B```, ``:math:`x```) as <code>."""
from __future__ import annotations

import html
import inspect
import re

SECTION = re.compile(r"^(Args|Arguments|Parameters|Keyword [Aa]rgs|Keyword [Aa]rguments|Returns?|Yields?|Raises|"
                     r"Shape|Examples?|Attributes|Notes?|Warnings?|See [Aa]lso|Inputs?|Outputs?|Variables|"
                     r"References?)\s*(:{1,2})\s*$")
ITEM_SECTIONS = {"Args", "Arguments", "Parameters", "Keyword args", "Keyword Args", "Keyword arguments",
                 "Keyword Arguments", "Attributes", "Raises", "Variables", "Inputs", "Input", "Outputs", "Output"}
CODE_SECTIONS = {"Example", "Examples"}
ITEM = re.compile(r"^(\*{0,2}[A-Za-z_][\w, *]*?)\s*(\(([^)]*)\))?\s*:\s+(.*)$")
BULLET = re.compile(r"^[-*]\s+")


def inline(text: str) -> str:
    """Escape, then turn reST inline markup into HTML."""
    s = html.escape(text, quote=False)
    s = re.sub(r"``(.+?)``", lambda m: f"<code>{m.group(1)}</code>", s)
    s = re.sub(r":(?:class|func|meth|attr|mod|obj|data|exc|ref):`~?([^`]+)`",
               lambda m: f"<code>{_short_ref(m.group(0), m.group(1))}</code>", s)
    s = re.sub(r":math:`([^`]+)`", lambda m: f"<code>{m.group(1)}</code>", s)
    s = re.sub(r"(?<![\w`>])`([^`]+)`(?!`)", lambda m: f"<code>{m.group(1)}</code>", s)
    s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
    return s


def _short_ref(whole: str, target: str) -> str:
    return target.rsplit(".", 1)[-1] if "`~" in whole else target


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _dedent(lines: list[str]) -> list[str]:
    pad = min((_indent(x) for x in lines if x.strip()), default=0)
    return [x[pad:] for x in lines]


def _take_block(lines: list[str], i: int, base: int) -> tuple[list[str], int]:
    """Lines from i that are blank or indented deeper than ``base``; stops at the first that is not."""
    out = []
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
        out.append(lines[i])
        i += 1
    while out and not out[-1].strip():
        out.pop()
    return out, i


def _code(lines: list[str], cls: str = "code") -> str:
    body = "\n".join(_dedent(lines)).strip("\n")
    return f'<pre class="{cls}"><code>{html.escape(body, quote=False)}</code></pre>'


def _items(lines: list[str]) -> str:
    """``name (type): text`` entries, continuation lines indented; anything else as paragraphs."""
    lines = _dedent(lines)
    entries: list[list[str]] = []
    for line in lines:
        if line.strip() and _indent(line) == 0:
            entries.append([line.strip()])
        elif entries and line.strip():
            entries[-1].append(line.strip())
    if not entries or not all(ITEM.match(e[0]) for e in entries):
        return blocks(lines)
    out = ['<dl class="items">']
    for e in entries:
        m = ITEM.match(e[0])
        name, typ, text = m.group(1), m.group(3), " ".join([m.group(4), *e[1:]])
        typ_html = f' <span class="type">({inline(typ)})</span>' if typ else ""
        out.append(f"<dt><code>{html.escape(name)}</code>{typ_html}</dt><dd>{inline(text)}</dd>")
    out.append("</dl>")
    return "".join(out)


def blocks(lines: list[str]) -> str:
    """Render a list of lines (one indentation level) as HTML blocks."""
    lines = _dedent(lines)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if not s:
            i += 1
            continue
        sec = SECTION.match(s)
        if sec:
            title = sec.group(1)
            body, i = _take_block(lines, i + 1, _indent(line))
            out.append(f'<h4 class="doc-section">{html.escape(title)}</h4>')
            if sec.group(2) == "::" or (title in CODE_SECTIONS and body and body[0].strip().startswith(">>>")):
                out.append(_code(body, "code example") if sec.group(2) == "::" else blocks(body))
            elif title in ITEM_SECTIONS:
                out.append(_items(body))
            else:
                out.append(blocks(body))
            continue
        if s.startswith(">>>"):
            chunk = []
            while i < len(lines) and lines[i].strip():
                chunk.append(lines[i])
                i += 1
            out.append(_code(chunk, "code example"))
            continue
        if BULLET.match(s):
            items: list[str] = []
            base = _indent(line)
            while i < len(lines) and lines[i].strip():
                if _indent(lines[i]) == base and BULLET.match(lines[i].strip()):
                    items.append(BULLET.sub("", lines[i].strip()))
                else:
                    items[-1] += " " + lines[i].strip()
                i += 1
            out.append("<ul>" + "".join(f"<li>{inline(x)}</li>" for x in items) + "</ul>")
            continue
        base = _indent(line)
        para = []
        while i < len(lines) and lines[i].strip() and _indent(lines[i]) <= base + 4 \
                and not lines[i].strip().startswith(">>>") and not SECTION.match(lines[i].strip()):
            para.append(lines[i].strip())
            i += 1
        text = " ".join(para)
        literal = text.endswith("::")
        if literal:
            text = text[:-1]
        if text.strip(":"):
            out.append(f"<p>{inline(text)}</p>")
        if literal:
            body, i = _take_block(lines, i, base)
            out.append(_code(body))
    return "".join(out)


def render(doc: str | None) -> str:
    """The HTML of a docstring ("" for none)."""
    if not doc:
        return ""
    return blocks(inspect.cleandoc(doc).splitlines())


def summary(doc: str | None) -> str:
    """The first sentence-paragraph of a docstring, as plain text."""
    if not doc:
        return ""
    para = []
    for line in inspect.cleandoc(doc).splitlines():
        if not line.strip() or SECTION.match(line.strip()):
            break
        para.append(line.strip())
    text = " ".join(para)
    return text[:-1] if text.endswith("::") else text
