"""Site step: the API reference (api/*.html + api/index.json) and "what exists and what doesn't"
(api/coverage.html + api/coverage.json), generated from the package itself in CPython.

Every public name (found by following ``__all__``, see _api_collect.py) gets its signature, its
docstring rendered, its kind, the PyTorch page of the name it mirrors and, for registry ops, the
tolerance against PyTorch. The search on every API page is web/api/api.mjs over api/index.json.
"""
from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from _api_collect import VISION_DOCS, Entry, collect, namespace_docs, torch_names  # noqa: E402
from _api_coverage import compare, generator  # noqa: E402
from _api_docstring import inline, render  # noqa: E402
from _api_html import esc, fmt_tol, grouped, page, write  # noqa: E402
from _api_upstream import compare as compare_upstream, section_html as upstream_html  # noqa: E402

KIND_ORDER = {"class": 0, "function": 1, "attribute": 2}
SEARCH = ('<div class="api-search"><input id="api-search" type="search" placeholder="Search names: Conv2d, '
          'cross_entropy, Tensor.view ..." autocomplete="off" spellcheck="false" aria-label="Search the API">'
          '<span id="api-count" class="muted"></span></div><ol id="api-results" class="api-results" hidden></ol>')


def plain(summary: str) -> str:
    """reST summary -> plain text for the JSON index."""
    s = re.sub(r":\w+:`~?([^`]+)`", r"\1", summary)
    return s.replace("``", "").replace("`", "")


def _qual_html(e: Entry) -> str:
    prefix = e.qualname[: -len(e.name)]
    return f'<span class="ns">{esc(prefix)}</span><b>{esc(e.name)}</b>'


def _meta(e: Entry, compared: set[str]) -> str:
    bits = []
    if e.mirrors:
        bits.append(f'PyTorch: <a href="{esc(e.torch_url)}" rel="noreferrer">{esc(e.mirrors)}</a>')
    elif (e.member_of or e.namespace) in compared:
        bits.append('<span class="only">borch_webgpu only (PyTorch has no such name)</span>')
    elif e.namespace in VISION_DOCS and not e.member_of:
        bits.append(f'torchvision: <a href="{VISION_DOCS[e.namespace]}" rel="noreferrer">'
                    f'{esc(e.namespace.replace("torch.vision", "torchvision"))}</a>')
    if e.op:
        op = e.op
        tol = fmt_tol(op["rtol"], op["atol"])
        where = f'WGSL <code>{esc(op["wgsl"])}</code>' if op["wgsl"] else "composed of other ops"
        cases = f', {grouped(op["cases"])} golden cases' if op["cases"] else ""
        if op["family"] == "random":
            check = "random draws: shape and dtype checked against PyTorch (not PyTorch's random stream)"
        else:
            check = f"vs PyTorch (float32): {tol}"
            if op["random"]:
                cases += " (the random ones: not PyTorch's random stream)"
        bits.append(f'<span class="tol" data-op="{esc(op["name"])}">{esc(check)}</span> &middot; {where}{cases}')
    bits.append(f'<span class="muted">{esc(e.defined_in)}</span>')
    return " &middot; ".join(bits)


def entry_html(e: Entry, by_name: dict[str, Entry], members: dict[str, list[Entry]], compared: set[str],
               level: int = 3) -> str:
    sig = f'<code class="sig">{esc(e.signature)}</code>' if e.signature and e.kind != "attribute" else ""
    value = f' <code class="sig">= {esc(e.signature)}</code>' if e.kind == "attribute" else ""
    out = [f'<section class="api-entry kind-{e.kind}" id="{esc(e.qualname)}">',
           f'<h{level}><span class="kind">{e.kind}</span> <a class="anchor" href="#{esc(e.qualname)}">'
           f'<code class="qual">{_qual_html(e)}</code></a>{sig}{value}</h{level}>',
           f'<div class="meta">{_meta(e, compared)}</div>']
    if e.doc:
        out.append(f'<div class="doc">{render(e.doc)}</div>')
    elif e.doc_from:
        src = by_name[e.doc_from]
        inplace = e.name.endswith("_") and not e.doc_from.endswith("_")
        lead = f"In-place version of <code>{esc(e.name[:-1])}</code>; the same as" if inplace else "The same as"
        out.append(f'<div class="doc"><p>{lead} <a href="{esc(src.page)}#{esc(src.qualname)}">'
                   f'<code>{esc(src.qualname)}</code></a> with this tensor as the first argument: '
                   f'{inline(src.doc.split(chr(10) + chr(10))[0])}</p></div>')
    kids = members.get(e.qualname, [])
    if kids and e.qualname != "torch.Tensor":
        out.append(f'<details class="members"><summary>{len(kids)} members of <code>{esc(e.name)}</code></summary>')
        out.extend(entry_html(k, by_name, members, compared, level=4) for k in kids)
        out.append("</details>")
    elif kids:
        out.append(f'<p><a href="torch.Tensor.html">All {len(kids)} methods and properties of '
                   f'<code>torch.Tensor</code></a></p>')
    out.append("</section>")
    return "".join(out)


def toc(items: list[Entry]) -> str:
    groups: dict[str, list[Entry]] = defaultdict(list)
    for e in items:
        groups[e.kind].append(e)
    out = ['<div class="api-toc">']
    for kind in sorted(groups, key=lambda k: KIND_ORDER.get(k, 3)):
        links = " ".join(f'<a href="#{esc(e.qualname)}"><code>{esc(e.name)}</code></a>' for e in groups[kind])
        out.append(f'<p><strong>{kind}{"es" if kind == "class" else "s"}</strong> ({len(groups[kind])}): {links}</p>')
    out.append("</div>")
    return "".join(out)


def namespace_page(ns: str, items: list[Entry], by_name, members, compared, about: str) -> str:
    title = ns
    lead = f'<p class="lead">{inline(about)}</p>' if about else ""
    pt = ""
    if ns in compared:
        pt = f' <a href="coverage.html#{esc(ns)}">What {esc(ns)} has and lacks compared with PyTorch</a>.'
    elif ns in VISION_DOCS:
        pt = f' The counterpart: <a href="{VISION_DOCS[ns]}" rel="noreferrer">torchvision\'s documentation</a>.'
    body = [f'<p class="crumbs"><a href="index.html">API</a> &rsaquo; {esc(ns)}</p>', SEARCH,
            f'<div id="api-content"><h1><code>{esc(title)}</code></h1>{lead}'
            f'<p class="muted">{len(items)} names.{pt}</p>', toc(items)]
    body.extend(entry_html(e, by_name, members, compared) for e in items)
    body.append("</div>")
    return page(ns, "".join(body), active="API", scripts=("api.mjs",), wide=True)


def index_page(by_ns: dict[str, list[Entry]], about: dict[str, str], rows: list[dict], total: int,
               undocumented: int) -> str:
    table = ['<table class="api-table"><thead><tr><th>namespace</th><th>names</th><th>about</th></tr></thead><tbody>']
    for ns, items in by_ns.items():
        table.append(f'<tr><td><a href="{esc(ns)}.html"><code>{esc(ns)}</code></a></td><td>{len(items)}</td>'
                     f'<td>{inline(about.get(ns, ""))}</td></tr>')
    table.append("</tbody></table>")
    have = sum(len(r["have"]) for r in rows)
    theirs = sum(r["torch_total"] for r in rows)
    lists = []
    for ns, items in by_ns.items():
        links = " ".join(f'<a href="{esc(e.page)}#{esc(e.qualname)}">{esc(e.name)}</a>' for e in items)
        lists.append(f'<h3><code>{esc(ns)}</code></h3><p class="api-all">{links}</p>')
    body = f"""<div id="api-content-lead"><h1>API reference</h1>
<p class="lead">Every public name of <code>borch_webgpu</code>, generated from the code itself: signature,
documentation, the PyTorch name it mirrors (with a link to PyTorch's page) and, for ops with a WGSL kernel or
a composite rule, the tolerance their results are checked to against PyTorch. Names are written the way a
program uses them after <code>import torch</code> (which runs borch_webgpu in this site's Python) or
<code>import borch_webgpu as torch</code>.</p></div>
{SEARCH}
<div id="api-content">
<p><a href="coverage.html"><strong>What exists and what doesn't</strong></a>: {grouped(have)} of PyTorch
2.13's {grouped(theirs)} public names in the {len(rows)} namespaces compared are here.</p>
{"".join(table)}
<p class="muted">{grouped(total)} entries, including class members;
{"every public function and class has a docstring" if not undocumented else f"{undocumented} without a docstring"}.
The index as data: <a href="index.json">index.json</a>.</p>
<h2>All names</h2>
{"".join(lists)}
</div>"""
    return page("API reference", body, active="API", scripts=("api.mjs",), wide=True)


def coverage_page(rows: list[dict], frozen: dict, by_name: dict[str, Entry], upstream: dict) -> str:
    head = ('<table class="api-table coverage"><thead><tr><th>namespace</th><th>here / PyTorch</th><th>share</th>'
            '<th>only here</th></tr></thead><tbody>')
    trs, sections = [], []
    for r in rows:
        ns, have, total, extra = r["namespace"], len(r["have"]), r["torch_total"], len(r["extra"])
        pct = 100.0 * have / total if total else 100.0
        trs.append(f'<tr data-ns="{esc(ns)}" data-have="{have}" data-torch="{total}" data-extra="{extra}" '
                   f'data-missing="{len(r["missing"])}"><td><a href="#{esc(ns)}"><code>{esc(ns)}</code></a></td>'
                   f'<td class="num">{have} / {total}</td><td class="num"><svg class="bar" aria-hidden="true">'
                   f'<rect height="100%" width="{pct:.1f}%"/></svg> {pct:.0f}%</td><td class="num">{extra}</td></tr>')
        missing = " ".join(f'<a href="{_torch_doc(ns, n)}" rel="noreferrer"><code>{esc(n)}</code></a>'
                           for n in r["missing"])
        extras = " ".join(_our_link(ns, n, by_name) for n in r["extra"])
        dropped = ", ".join(f"{v} {k}" for k, v in r["excluded"].items())
        sections.append(
            f'<section class="cov-ns" id="{esc(ns)}"><h2><code>{esc(ns)}</code>: {have} of {total}</h2>'
            f'<p class="muted">PyTorch names counted: {total}'
            f'{f" (left out as noise: {esc(dropped)})" if dropped else ""}.</p>'
            f'<h3>Missing here ({len(r["missing"])})</h3><p class="names">{missing or "nothing"}</p>'
            f'<h3>Only in borch_webgpu ({extra})</h3><p class="names">{extras or "nothing"}</p></section>')
    have = sum(len(r["have"]) for r in rows)
    theirs = sum(r["torch_total"] for r in rows)
    body = f"""<p class="crumbs"><a href="index.html">API</a> &rsaquo; coverage</p>
<h1>What exists and what doesn't</h1>
<p class="lead">borch_webgpu's public names against PyTorch {esc(frozen["torch_version"])}'s, namespace by
namespace: {grouped(have)} of {grouped(theirs)} are here. A name being here means the function or class exists
with PyTorch's name; how closely each one matches is in its <a href="index.html">reference entry</a>
(tolerances, golden cases) and in the tests.</p>
<p class="muted">How names are counted: PyTorch's list is frozen from real PyTorch by
<code>tests/golden/generate_torch_names.py</code>: public (no leading underscore) functions, builtins and classes
defined inside the package, without submodules, constants and dtypes, imports from other namespaces, TorchScript
internals, legacy typed tensor classes, backend kernels (<code>cudnn_*</code>, <code>mkldnn_*</code>, ...) and
dispatch helpers; <code>torch.Tensor</code> counts every public method and property. Ours is counted with the same
filter (limited to each module's <code>__all__</code>) when this page is built, so the numbers cannot drift from
the code.</p>
<p><a href="#upstream">Used by upstream examples</a>: {len(upstream["present"])} of {upstream["total"]} of the
names that PyTorch's own examples and beginner tutorials use are here.</p>
{head}{"".join(trs)}</tbody></table>
{upstream_html(upstream)}
{"".join(sections)}"""
    return page("What exists", body, active="API", wide=True)


def _torch_doc(ns: str, name: str) -> str:
    from _api_collect import torch_url
    return esc(torch_url(f"{ns}.{name}"))


def _our_link(ns: str, name: str, by_name: dict[str, Entry]) -> str:
    e = by_name.get(f"{ns}.{name}")
    if e is None:
        return f"<code>{esc(name)}</code>"
    return f'<a href="{esc(e.page)}#{esc(e.qualname)}"><code>{esc(name)}</code></a>'


def build(site_dir: Path) -> None:
    out = Path(site_dir) / "api"
    out.mkdir(parents=True, exist_ok=True)
    entries = collect()
    by_name = {e.qualname: e for e in entries}
    members: dict[str, list[Entry]] = defaultdict(list)
    by_ns: dict[str, list[Entry]] = {}
    for e in entries:
        if e.member_of:
            members[e.member_of].append(e)
        else:
            by_ns.setdefault(e.namespace, []).append(e)
    for items in by_ns.values():
        items.sort(key=lambda e: (KIND_ORDER.get(e.kind, 3), e.name.lower()))
    frozen = torch_names()
    rows = compare(frozen)
    compared = set(generator().NAMESPACES)
    about = namespace_docs()
    for ns, items in by_ns.items():
        write(out / f"{ns}.html", namespace_page(ns, items, by_name, members, compared, about.get(ns, "")))
    tensor_members = members.get("torch.Tensor", [])
    write(out / "torch.Tensor.html", namespace_page(
        "torch.Tensor", tensor_members, by_name, members, compared,
        "The methods and properties of ``torch.Tensor``. A method without its own text does what the function "
        "of the same name does, with the tensor as its first argument."))
    from _api_collect import undocumented
    missing_docs = undocumented(entries)
    write(out / "index.html", index_page(by_ns, about, rows, len(entries), len(missing_docs)))
    upstream = compare_upstream()
    write(out / "coverage.html", coverage_page(rows, frozen, by_name, upstream))
    index = {"version": __import__("borch_webgpu").__version__, "torch_version": frozen["torch_version"],
             "entries": []}
    for e in entries:
        d = e.as_json()
        d["summary"] = plain(d.get("summary", ""))
        d.pop("defined_in", None)
        index["entries"].append(d)
    write(out / "index.json", json.dumps(index, separators=(",", ":")))
    write(out / "coverage.json", json.dumps(
        {"torch_version": frozen["torch_version"],
         "namespaces": [{"namespace": r["namespace"], "have": len(r["have"]), "torch": r["torch_total"],
                         "extra": r["extra"], "missing": r["missing"]} for r in rows],
         "upstream": {"present": len(upstream["present"]), "total": upstream["total"],
                      "missing": sorted(upstream["missing"])}}, indent=1))
