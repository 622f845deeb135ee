// The catalog table's "build and run" buttons: each builds its architecture in the page's Python worker
// (models.create_model with the row's arguments, random weights), on WebGPU when the browser has it, runs
// one forward on a random input of the row's small shape, and shows the build time, the forward time,
// the pipelines this build created (the page's worker keeps the ones earlier builds compiled) and the
// output shape. setupBuild gets the page's worker helpers from models.mjs.
const BUILD = (name, args, shape) => `
import json, time
import borch_webgpu as torch
from borch_webgpu import models
def _run():
    dev = "webgpu" if torch.webgpu.is_available() else "cpu"
    def pipes():
        if dev != "webgpu":
            return None
        torch.webgpu.synchronize()
        return int(torch.webgpu.stats()["pipelinesCreated"])
    p0 = pipes()
    t0 = time.perf_counter()
    lib, factory = ${JSON.stringify(name)}.split("/")
    m = models.create_model(lib, factory, **json.loads(${JSON.stringify(JSON.stringify(args))})).to(dev).eval()
    built = time.perf_counter() - t0
    x = torch.randn(*${JSON.stringify(shape)}, device=dev)
    t1 = time.perf_counter()
    with torch.no_grad():
        y = m(x)
        finite = bool(torch.isfinite(y).all().item())
    ran = time.perf_counter() - t1
    p1 = pipes()
    return {"name": ${JSON.stringify(name)}, "device": str(y.device), "input": list(x.shape), "output": list(y.shape),
            "finite": finite, "build_s": built, "forward_s": ran, "params": sum(p.numel() for p in m.parameters()),
            "pipelines": None if p0 is None else p1 - p0, "pipelines_total": p1}
try:
    print("BUILD_OK " + json.dumps(_run()))
except Exception as e:
    print("BUILD_FAIL " + json.dumps([type(e).__name__, str(e)]))
`;

export function setupBuild({ run, tagged, state }) {
  state.builds = [];
  const buttons = [...document.querySelectorAll("button.build-run")];
  const show = (btn, text, cls) => {
    const out = btn.parentElement.querySelector(".build-out");
    out.textContent = text;
    out.className = "build-out " + (cls || "");
  };
  for (const btn of buttons) {
    btn.onclick = async () => {
      buttons.forEach((b) => { b.disabled = true; });
      show(btn, "building…", "muted");
      const { lines } = await run(BUILD(btn.dataset.name, JSON.parse(btn.dataset.args), JSON.parse(btn.dataset.input)),
                                  "catalog");
      const ok = tagged(lines, "BUILD_OK"), fail = tagged(lines, "BUILD_FAIL");
      if (ok) {
        const pipes = ok.pipelines == null ? "" : `\n${ok.pipelines} pipelines created (${ok.pipelines_total} in this page)`;
        show(btn, `built in ${ok.build_s.toFixed(2)} s on ${ok.device}${pipes}\nforward ${ok.forward_s.toFixed(2)} s\n` +
                  `output ${ok.output.join(" x ")}${ok.finite ? "" : " (NOT finite)"}`, ok.finite ? "ok" : "bad");
      } else show(btn, fail ? `${fail[0]}: ${fail[1]}` : lines.join("\n"), "bad");
      state.builds.push(ok || { name: btn.dataset.name, error: fail || lines });
      buttons.forEach((b) => { b.disabled = false; });
    };
    btn.disabled = false;
  }
}
