"""The HTML shell of the generated pages (api/, models/, vision/): head, favicon, the site's header
with the ways in (the benchmark page too), and small helpers to write a page."""
from __future__ import annotations

import html
from pathlib import Path

NAV = (("Lessons", "lessons/"), ("Tutorials", "tutorials/"), ("Models", "models/"), ("Vision", "vision/"),
       ("API", "api/"), ("Playground", "playground/"), ("Benchmark", "bench/"))


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def page(title: str, body: str, *, root: str = "../", active: str = "", scripts: tuple[str, ...] = (),
         wide: bool = False) -> str:
    """A whole page. ``root``: the relative path to the site root (``../`` from api/index.html)."""
    active_attr = ' class="active"'
    nav = "".join(f'<a href="{root}{href}"{active_attr if label == active else ""}>{label}</a>'
                  for label, href in NAV)
    js = "".join(f'<script type="module" src="{esc(s)}"></script>' for s in scripts)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} - borch_webgpu</title>
<link rel="icon" href="{root}favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{root}css/site.css">
</head>
<body>
<header class="top"><a class="brand" href="{root}">borch_webgpu</a><nav>{nav}</nav></header>
<main{' class="wide"' if wide else ''}>
{body}
</main>
{js}
</body>
</html>
"""


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def fmt_tol(rtol: float, atol: float) -> str:
    if rtol == 0 and atol == 0:
        return "exact (rtol 0, atol 0)"
    return f"rtol {rtol:g}, atol {atol:g}"


def grouped(n: int) -> str:
    return f"{n:,}"
