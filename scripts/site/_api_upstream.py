"""The coverage page's "used by upstream examples" section: the torch names that PyTorch's own
examples and beginner tutorials use (scripts/site/upstream_names.json, written by
scripts/scan_upstream.py from those files), against our namespace as it is when the site is built.

A name is present when borch_webgpu resolves it: ``torch.nn.functional.relu`` is present if
``borch_webgpu.nn.functional.relu`` can be reached by attribute access (importing submodules on the
way), whatever the name is.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path

from _api_html import esc

UPSTREAM = Path(__file__).resolve().parent / "upstream_names.json"


def resolves(name: str) -> bool:
    """Whether ``torch.a.b`` exists as ``borch_webgpu.a.b``."""
    parts = ["borch_webgpu"] + name.split(".")[1:]
    try:
        obj = importlib.import_module(parts[0])
        for i in range(1, len(parts)):
            if hasattr(obj, parts[i]):
                obj = getattr(obj, parts[i])
            else:
                obj = importlib.import_module(".".join(parts[: i + 1]))
    except Exception:  # ImportError, or a lazy attribute that raises: not here
        return False
    return True


def compare(path: Path = UPSTREAM) -> dict:
    """present / missing (name -> the files that use it), out of scope, and the scan's facts."""
    data = json.loads(Path(path).read_text())
    names = data["names"]
    present = sorted(n for n in names if resolves(n))
    missing = sorted(n for n in names if n not in present)
    return {"total": len(names), "present": present, "missing": {n: names[n] for n in missing},
            "out_of_scope": data.get("out_of_scope", {}), "out_of_scope_prefixes": data["out_of_scope_prefixes"],
            "min_files": data["min_files"], "scanned_on": data["scanned_on"], "torch_version": data["torch_version"],
            "files": {repo: len(src["files"]) for repo, src in data["sources"].items()},
            "selection": {repo: src.get("selection", "") for repo, src in data["sources"].items()}}


def section_html(cmp: dict) -> str:
    from _api_collect import torch_url
    have, total = len(cmp["present"]), cmp["total"]
    missing = " ".join(
        f'<a href="{esc(torch_url(n))}" rel="noreferrer" title="used by {len(f)} files: {esc(", ".join(f))}">'
        f'<code>{esc(n)}</code></a>' for n, f in cmp["missing"].items())
    files = ", ".join(f"{n} files of <code>{esc(repo)}</code>" for repo, n in cmp["files"].items())
    chosen = "".join(f"<li><code>{esc(repo)}</code>: {esc(text)}</li>" for repo, text in cmp["selection"].items())
    scope = ", ".join(f"<code>{esc(p)}</code>" for p in cmp["out_of_scope_prefixes"])
    return f"""<section class="cov-upstream" id="upstream" data-present="{have}" data-total="{total}"
data-missing="{len(cmp["missing"])}">
<h2>Used by upstream examples: {have} of {total} present</h2>
<p>Every <code>torch.*</code> name that {cmp["min_files"]} or more files of PyTorch's own examples and beginner
tutorials use ({files}; scanned on {esc(cmp["scanned_on"])}, names classified with PyTorch
{esc(cmp["torch_version"])}), checked against this build's namespace: {have} of {total} are here.</p>
<h3>Missing here ({len(cmp["missing"])})</h3><p class="names">{missing or "nothing"}</p>
<p class="muted">How it is counted (<code>scripts/scan_upstream.py</code>, its result in
<code>scripts/site/upstream_names.json</code>): attribute chains on <code>torch</code> and on the names the
import lines bind (<code>nn</code>, <code>F</code>, <code>optim</code>, any alias), cut after the first attribute
past the last module (<code>torch.Tensor.view</code> counts as <code>torch.Tensor</code>), and the names of
<code>from torch... import</code> lines; comments and strings are skipped. <code>Tensor</code> methods called
on values (<code>x.view()</code>, <code>loss.backward()</code>) are not counted: which class a variable holds is
not known without running the code. Distributed training ({scope}) is out of scope here and not counted
({len(cmp["out_of_scope"])} such names met the threshold). The files:</p><ul class="muted">{chosen}</ul>
</section>"""
