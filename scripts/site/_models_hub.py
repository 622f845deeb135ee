"""The models page's hub section, read from the published manifests at build time (never a hand copy):
every manifest of ``web/hub/index.json`` with its architecture, bytes, full sha256, accuracy, data set and
license; and the "download and verify" widget (web/js/models.mjs). The catalog table is _models_catalog.py."""
from __future__ import annotations

import json
from pathlib import Path

from _api_html import esc, grouped  # noqa: E402


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
