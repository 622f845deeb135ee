"""The models page's catalog table, read from the code and the committed parity records at build time
(never a hand copy): every name of ``borch_webgpu.models.list_models()`` with its arguments, parameter
count (from building it) and input size; its parity status on cpu and on WebGPU with the logits' errors,
and the pipelines, build and forward times of its WebGPU replay, all from tests/golden/catalog_parity.json
(written by tests/golden/record_parity.py from the replays' own output); and a "build and run" button
per name (web/js/models_build.mjs) that builds it in the page's Python at a small resolution."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from _api_docstring import inline, summary  # noqa: E402
from _api_html import esc, grouped  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
DEMO_SIZE = 64   # the "build and run" button's largest input side: small, so a software adapter copes


def _example_args(entry) -> dict:
    """The arguments the table builds a name with: timm's documented defaults for timm names; for
    borchvision names 10 classes and the channels of the configured input."""
    if entry.timm_defaults is not None:
        return dict(entry.timm_defaults)
    want = {"num_classes": 10, "in_chans": entry.pretrained_cfg.get("input_size", (3,))[0]}
    return {a.name: want[a.name] for a in entry.args}


def demo(entry) -> tuple[dict, list[int]]:
    """(arguments, input shape) of the "build and run" button: the table's arguments at a side of at
    most DEMO_SIZE (a ViT gets that as its ``img_size``), batch 1."""
    args = _example_args(entry)
    c, h, _ = entry.pretrained_cfg["input_size"]
    side = min(h, DEMO_SIZE)
    if "img_size" in args:
        args["img_size"] = side
    return args, [1, args.get("in_chans", c), side, side]


def load_parity() -> tuple[dict, dict]:
    """(records per device and case id, {case id: (spec, digest of spec and golden)})."""
    sys.path.insert(0, str(GOLDEN))
    try:
        import record_parity
        from catalog_cases import CASES
        from small_models_cases import CASES as SMALL
        digests = record_parity.golden_digests()
    finally:
        sys.path.remove(str(GOLDEN))
    records = json.loads((GOLDEN / "catalog_parity.json").read_text())["records"]
    return records, {c["id"]: (c, digests[c["id"]]) for c in [*CASES, *SMALL]}


def _status(rec: dict | None, digest: str, device: str, spec: dict) -> tuple[str, str]:
    """(cell HTML, status word) for one device's record of a name's parity case."""
    if rec is None:
        why = "not in the WebGPU browser tests (minutes on a software adapter)" if device == "webgpu" \
            and spec.get("webgpu") is False else "no record"
        return f'<span class="muted why">{esc(why)}</span>', "none"
    if rec["golden"] != digest:
        return '<span class="bad why">stale: the golden changed after this record</span>', "stale"
    if not rec["passed"]:
        return f'<span class="bad">FAILED ({rec["failures"]} checks)</span>', "failed"
    title = f'tolerance {rec["tol"]:.1e}; {rec["where"]}, {rec["date"]}'
    return (f'<span class="ok" title="{esc(title)}">pass</span> {rec["err"]:.1e}<br><small class="muted">'
            f'max |&Delta;| {rec["max_abs"]:.1e}</small>'), "pass"


def _webgpu_run(rec: dict | None) -> str:
    if not rec or not rec["passed"] or rec.get("kernels") is None:
        return "-"
    return (f'{rec["kernels"]}<br><small class="muted">build+load {rec["build_s"]:.2f} s, forward '
            f'{rec["forward_s"]:.2f} s</small>')


def catalog_section(manifests: list[dict]) -> str:
    from borch_webgpu import models
    records, cases = load_parity()
    published: dict[str, list[str]] = {}
    for m in manifests:
        published.setdefault(f"{m['model']['library']}/{m['model']['factory']}", []).append(m["name"])
    rows, places = [], set()
    for name in models.list_models():
        e = models._registry.entry(*name)
        args = _example_args(e)
        model = models.create_model(*name, **args)
        params = sum(p.numel() for p in model.parameters())
        del model
        size = " x ".join(map(str, e.pretrained_cfg.get("input_size", ())))
        weights = ", ".join(f'<a href="#hub-{esc(n)}">{esc(n)}</a>' for n in published.get(str(name), [])) or "-"
        shown = ", ".join(f"{k}={v}" for k, v in args.items())
        spec, digest = cases[str(name)]
        cpu, webgpu = (records.get(d, {}).get(str(name)) for d in ("cpu", "webgpu"))
        (cpu_html, cpu_s), (gpu_html, gpu_s) = _status(cpu, digest, "cpu", spec), _status(webgpu, digest, "webgpu", spec)
        places.update(r["where"] for r in (cpu, webgpu) if r)
        dargs, dshape = demo(e)
        rows.append(f'<tr id="catalog-{esc(str(name))}" data-params="{params}" data-cpu="{cpu_s}" data-webgpu="{gpu_s}">'
                    f'<td><code>{esc(str(name))}</code><br><small>{inline(summary(e.fn.__doc__))}</small></td>'
                    f'<td class="num">{grouped(params)}<br><small class="muted">{esc(shown)}</small></td>'
                    f'<td class="num">{esc(size)}<br><small class="muted">parity at<br>'
                    f'{esc(" x ".join(map(str, spec["input"])))}</small></td>'
                    f'<td class="parity">{cpu_html}</td><td class="parity">{gpu_html}</td><td>{_webgpu_run(webgpu)}</td>'
                    f'<td>{weights}</td><td class="build"><button class="build-run" data-name="{esc(str(name))}" '
                    f'data-args="{esc(json.dumps(dargs))}" data-input="{esc(json.dumps(dshape))}" disabled>Build and run'
                    f'</button><br><small class="muted">{esc(" x ".join(map(str, dshape)))}</small>'
                    f'<div class="build-out"></div></td></tr>')
    where = "".join(f"<li>{esc(w)}</li>" for w in sorted(places))
    return f"""<h2 id="catalog">The catalog: <code>borch_webgpu.models</code></h2>
<p>{len(rows)} architectures, called by two-part name; every argument is required
(<code>models.create_model("borchvision", "mnist_cnn", num_classes=10, in_chans=1)</code>). Read from
<code>models.list_models()</code> when the site was built. Parity: each name's case replayed against timm
1.0.31 (or PyTorch for the digit models) with deterministic formula weights, at the small input its case
uses; the relative error and the largest absolute difference of the logits, as the replay printed them
(<code>tests/golden/record_parity.py</code> writes <code>catalog_parity.json</code>). Pipelines: the
kernels the WebGPU forward used, with the build and forward times of that replay. "Build and run" builds
the architecture in this page's Python, on WebGPU when this browser has it, with random weights.</p>
<table class="facts grid" id="catalog-table"><thead><tr><th>name</th><th>parameters (arguments)</th>
<th>input</th><th>parity: cpu</th><th>parity: WebGPU</th><th>pipelines (WebGPU forward)</th>
<th>published weights</th><th>build and run</th></tr></thead><tbody>{"".join(rows)}</tbody></table>
<p class="muted">Where the records were made:</p><ul class="muted">{where}</ul>"""
