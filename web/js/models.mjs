// The models page's hub widget: Python in a worker (client.mjs) runs borch_webgpu.hub.load on the chosen
// manifest with a progress callback, shows what was verified (or which check refused the file), then
// classifies a digit drawn on the canvas or one of the manifest's own test images, on webgpu or cpu. The
// catalog table's "build and run" buttons (models_build.mjs) share the worker.
import { PyWorker } from "./client.mjs";
import { setupBuild } from "./models_build.mjs";

const $ = (id) => document.getElementById(id);
const status = (text) => { $("hub-status").textContent = text; };
const state = { loaded: null, manifest: null, device: null, lines: [] };
window.borchModels = state;

const onStdout = (text) => {
  for (const line of text.split("\n")) {
    if (line.startsWith("HUB_PROGRESS ")) {
      const [done, total] = JSON.parse(line.slice(13));
      $("hub-progress").max = total || 1;
      $("hub-progress").value = done;
      status(`downloading ${(done / 1000).toFixed(1)} / ${((total || done) / 1000).toFixed(1)} kB`);
    } else if (line.trim()) state.lines.push(line);
  }
};
// Python starts on the first "Download and verify" (reading the page costs no 10 MB runtime)
let py = null;
async function python() {
  if (!py) {
    status("starting Python…");
    py = new PyWorker({ onStdout, onStderr: (t) => state.lines.push(t) });
    const { gpu } = await py.ready;
    state.gpu = gpu.available;
    if (!gpu.available) {
      $("hub-device").value = "cpu";
      $("hub-device").querySelector('option[value="webgpu"]').disabled = true;
    }
  }
  return py;
}

const LOAD = (url, device) => `
import dataclasses, json
import borch_webgpu as torch
from borch_webgpu import hub
def _progress(done, total):
    print("HUB_PROGRESS " + json.dumps([done, total]))
try:
    model = hub.load(${JSON.stringify(url)}, device=${JSON.stringify(device)}, progress=_progress)
    print("HUB_OK " + json.dumps(dataclasses.asdict(model.hub_verified)))
except hub.HubError as e:
    model = None
    print("HUB_FAIL " + json.dumps([type(e).__name__, str(e)]))
`;
const PREDICT = (pixels, size, device) => `
x = torch.tensor(${JSON.stringify(pixels)}, dtype=torch.float32).reshape(1, ${size.join(", ")})
with torch.no_grad():
    p = model(x.to(${JSON.stringify(device)})).softmax(-1)[0].tolist()
print("HUB_PRED " + json.dumps(p))
`;

async function run(code, ns = "models") {
  const worker = await python();
  state.lines = [];
  const { exitCode } = await worker.cell(code, ns, ns);
  return { exitCode, lines: state.lines };
}
const tagged = (lines, tag) => {
  const line = lines.find((l) => l.startsWith(tag + " "));
  return line ? JSON.parse(line.slice(tag.length + 1)) : null;
};

function decode(spec) {   // a manifest's base64 float32 array
  const raw = Uint8Array.from(atob(spec.data), (c) => c.charCodeAt(0));
  return new Float32Array(raw.buffer);
}

function sampleImages(m) {
  const [c, h, w] = m.input.size;
  const all = decode(m.sample.input);
  const box = $("hub-samples");
  box.textContent = "";
  m.sample.labels.forEach((label, i) => {
    const cv = document.createElement("canvas");
    cv.width = w; cv.height = h; cv.title = `test image, label ${label}`;
    cv.className = "hub-sample";
    const img = cv.getContext("2d").createImageData(w, h);
    for (let k = 0; k < h * w; k++) {
      const v = Math.max(0, Math.min(255, 255 * (all[i * c * h * w + k] * m.input.std[0] + m.input.mean[0])));
      img.data.set([v, v, v, 255], 4 * k);
    }
    cv.getContext("2d").putImageData(img, 0, 0);
    cv.onclick = () => predict(Array.from(all.slice(i * c * h * w, (i + 1) * c * h * w)), `test image ${i} (label ${label})`);
    box.appendChild(cv);
  });
}

// the drawing, MNIST-style: the ink's bounding box scaled to 20x20 (the whole 8x8 for Digits), centered
function drawnPixels(m) {
  const [, h, w] = m.input.size;
  const src = $("hub-canvas");
  const data = src.getContext("2d").getImageData(0, 0, src.width, src.height).data;
  let x0 = src.width, y0 = src.height, x1 = -1, y1 = -1;
  for (let y = 0; y < src.height; y++) for (let x = 0; x < src.width; x++) {
    if (data[4 * (y * src.width + x)] > 20) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  }
  if (x1 < 0) return null;
  const inner = h >= 28 ? Math.round(20 * h / 28) : h;   // MNIST's 20 of 28, at the model's size
  const scale = inner / Math.max(x1 - x0 + 1, y1 - y0 + 1);
  const dw = (x1 - x0 + 1) * scale, dh = (y1 - y0 + 1) * scale;
  const small = document.createElement("canvas");
  small.width = w; small.height = h;
  const ctx = small.getContext("2d");
  ctx.fillStyle = "#000"; ctx.fillRect(0, 0, w, h);
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(src, x0, y0, x1 - x0 + 1, y1 - y0 + 1, (w - dw) / 2, (h - dh) / 2, dw, dh);
  const px = ctx.getImageData(0, 0, w, h).data;
  const out = [];
  for (let k = 0; k < w * h; k++) out.push((px[4 * k] / 255 - m.input.mean[0]) / m.input.std[0]);
  return out;
}

async function predict(pixels, what) {
  if (!pixels) { $("hub-pred").textContent = "Draw a digit first."; return; }
  const { lines } = await run(PREDICT(pixels, state.manifest.input.size, state.device));
  const p = tagged(lines, "HUB_PRED");
  if (!p) { $("hub-pred").textContent = lines.join("\n"); return; }
  const best = p.indexOf(Math.max(...p));
  state.prediction = { what, best, p };
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text != null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const head = el("p");
  head.append(el("strong", String(state.manifest.input.classes[best])),
              ` for ${what} (${(100 * p[best]).toFixed(1)}%, on ${state.device})`);
  const bars = p.map((v, i) => {
    const bar = el("div", null, "hub-bar"), fill = el("i");
    fill.style.width = `${(100 * v).toFixed(1)}%`;   // through the CSSOM: the site's CSP refuses style attributes
    bar.append(el("span", String(state.manifest.input.classes[i])), fill);
    return bar;
  });
  $("hub-pred").replaceChildren(head, ...bars);
}

async function load() {
  $("hub-load").disabled = true;
  await python();
  const name = $("hub-model").value;
  const device = $("hub-device").value;
  $("hub-try").hidden = true;
  $("hub-result").hidden = true;
  $("hub-progress").value = 0;
  status("reading the manifest…");
  const url = `../hub/${name}.json`;
  state.manifest = await (await fetch(url)).json();
  const t0 = performance.now();
  const { lines } = await run(LOAD(url, device));
  const ok = tagged(lines, "HUB_OK"), fail = tagged(lines, "HUB_FAIL");
  $("hub-result").hidden = false;
  if (ok) {
    state.loaded = ok; state.device = device;
    status(`verified and loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    $("hub-result").textContent = `loaded ${ok.name} on ${ok.device} (bytes from the ${ok.source})\n` +
      `size     ${ok.bytes} bytes, as the manifest says\nsha256   ${ok.sha256} (all 64 digits match)\n` +
      `sample   ${state.manifest.sample.labels.length} test images reproduce PyTorch's logits: relative error ` +
      `${ok.sample_error.toExponential(2)} (tolerance ${ok.tolerance})`;
    sampleImages(state.manifest);
    $("hub-try").hidden = false;
  } else {
    state.loaded = null;
    status(fail ? `refused: ${fail[0]}` : "failed");
    $("hub-result").textContent = fail ? `${fail[0]}: ${fail[1]}` : lines.join("\n");
  }
  state.done = (state.done || 0) + 1;
  $("hub-load").disabled = false;
}

function setupCanvas() {
  const cv = $("hub-canvas");
  const ctx = cv.getContext("2d");
  const clear = () => { ctx.fillStyle = "#000"; ctx.fillRect(0, 0, cv.width, cv.height); };
  clear();
  let last = null;
  const at = (e) => { const r = cv.getBoundingClientRect(); return [(e.clientX - r.left) * cv.width / r.width, (e.clientY - r.top) * cv.height / r.height]; };
  cv.onpointerdown = (e) => { last = at(e); cv.setPointerCapture(e.pointerId); };
  cv.onpointermove = (e) => {
    if (!last) return;
    const p = at(e);
    ctx.strokeStyle = "#fff"; ctx.lineWidth = 16; ctx.lineCap = "round";
    ctx.beginPath(); ctx.moveTo(...last); ctx.lineTo(...p); ctx.stroke();
    last = p;
  };
  cv.onpointerup = () => { last = null; };
  $("hub-clear").onclick = clear;
  $("hub-predict").onclick = () => predict(drawnPixels(state.manifest), "your drawing");
}

setupCanvas();
setupBuild({ run, tagged, state });
$("hub-load").onclick = load;
state.ready = true;
$("hub-load").disabled = false;
status("");
