"""The models page's catalog table and hub section, read from the code and the published manifests at
build time (never a hand copy): every name of ``borch_webgpu.models.list_models()`` with its arguments,
parameter count and input size; every manifest of ``web/hub/index.json`` with its architecture, bytes,
full sha256, accuracy, data set and license; and the "download and verify" widget (web/js/models.mjs)."""
from __future__ import annotations

import json
from pathlib import Path

from _api_docstring import inline, summary  # noqa: E402
from _api_html import esc, grouped  # noqa: E402


def _example_args(entry) -> dict:
    """The arguments the table builds a name with: timm's documented defaults for timm names; for
    borchvision names 10 classes and the channels of the configured input."""
    if entry.timm_defaults is not None:
        return dict(entry.timm_defaults)
    want = {"num_classes": 10, "in_chans": entry.pretrained_cfg.get("input_size", (3,))[0]}
    return {a.name: want[a.name] for a in entry.args}


def catalog_section(manifests: list[dict]) -> str:
    from borch_webgpu import models
    published: dict[str, list[str]] = {}
    for m in manifests:
        published.setdefault(f"{m['model']['library']}/{m['model']['factory']}", []).append(m["name"])
    rows = []
    for name in models.list_models():
        e = models._registry.entry(*name)
        args = _example_args(e)
        model = models.create_model(*name, **args)
        params = sum(p.numel() for p in model.parameters())
        del model
        size = " x ".join(map(str, e.pretrained_cfg.get("input_size", ())))
        weights = ", ".join(f'<a href="#hub-{esc(n)}">{esc(n)}</a>' for n in published.get(str(name), [])) or "-"
        shown = ", ".join(f"{k}={v}" for k, v in args.items())
        rows.append(f'<tr id="catalog-{esc(str(name))}" data-params="{params}"><td><code>{esc(str(name))}</code></td>'
                    f'<td><code>{esc(", ".join(a.name for a in e.args))}</code></td><td class="num">{grouped(params)}'
                    f'<br><small class="muted">{esc(shown)}</small></td><td class="num">{esc(size)}</td>'
                    f'<td>{weights}</td><td>{inline(summary(e.fn.__doc__))}</td></tr>')
    return f"""<h2 id="catalog">The catalog: <code>borch_webgpu.models</code></h2>
<p>{len(rows)} architectures, called by two-part name; every argument is required
(<code>models.create_model("borchvision", "mnist_cnn", num_classes=10, in_chans=1)</code>). Read from
<code>models.list_models()</code> when the site was built; each name has a parity test against timm or PyTorch.</p>
<table class="facts grid" id="catalog-table"><thead><tr><th>name</th><th>arguments</th><th>parameters</th>
<th>input</th><th>published weights</th><th>what it is</th></tr></thead><tbody>{"".join(rows)}</tbody></table>"""


def load_manifests(site_dir: Path) -> list[dict]:
    folder = Path(site_dir) / "hub"
    index = json.loads((folder / "index.json").read_text())
    return [json.loads((folder / n).read_text()) for n in index["manifests"]]


def hub_section(manifests: list[dict]) -> str:
    rows, options = [], []
    for m in manifests:
        w, p = m["weights"], m["provenance"]
        rows.append(f'<tr id="hub-{esc(m["name"])}"><td><code>{esc(m["name"])}</code></td>'
                    f'<td><code>{esc(m["model"]["library"])}/{esc(m["model"]["factory"])}</code><br><small class='
                    f'"muted">{esc(", ".join(f"{k}={v}" for k, v in m["model"]["args"].items()))}</small></td>'
                    f'<td class="num">{grouped(w["bytes"])} B</td><td><code class="hash">{esc(w["sha256"])}</code>'
                    f'</td><td class="num">{100 * p["test_accuracy"]:.1f}%</td><td>{esc(p["dataset"])}</td>'
                    f'<td>{esc(m["license"])}</td></tr>')
        options.append(f'<option value="{esc(m["name"])}">{esc(m["name"])}</option>')
    return f"""<h2 id="hub">Published weights: <code>borch_webgpu.hub</code></h2>
<p>Weights we trained with PyTorch (<code>tests/golden/train_hub_models.py</code>, deterministic) and serve
from this site, each with a manifest: the catalog name, the byte count, the full sha256, the limits the
adapter must meet, and eight test images with the logits PyTorch computed for them.
<code>hub.load(url)</code> returns the model only after this browser reproduced those logits.</p>
<table class="facts grid" id="hub-table"><thead><tr><th>manifest</th><th>architecture</th><th>bytes</th>
<th>sha256</th><th>test accuracy</th><th>data</th><th>license</th></tr></thead><tbody>{"".join(rows)}</tbody></table>
<div id="hub-demo" class="hub-demo">
<p><label>Model <select id="hub-model">{"".join(options)}</select></label>
<label>Device <select id="hub-device"><option value="webgpu">webgpu</option><option value="cpu">cpu</option></select>
</label> <button id="hub-load" disabled>Download and verify</button>
<progress id="hub-progress" max="1" value="0"></progress> <span id="hub-status" class="muted"></span></p>
<pre id="hub-result" class="code" hidden></pre>
<div id="hub-try" hidden>
<p>Draw a digit, or pick one of the manifest's test images.</p>
<div class="hub-row"><canvas id="hub-canvas" width="224" height="224"></canvas>
<div><button id="hub-predict">Predict</button> <button id="hub-clear">Clear</button>
<div id="hub-samples"></div><div id="hub-pred"></div></div></div>
</div>
</div>
<pre class="code"><code>from borch_webgpu import hub
model = hub.load("/hub/lenet5-mnist.json")     # raises a HubError subclass unless every check passes
print(model.hub_verified)</code></pre>"""
