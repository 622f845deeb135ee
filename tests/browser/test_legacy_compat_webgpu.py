"""``torch.autograd.Variable`` and ``torch.cuda.*Tensor`` on WebGPU, in Chromium: every case of
tests/golden/legacy_compat.json (PyTorch 2.13's results) with tensors on the webgpu device, except those that hold
only without a GPU; and ``torch.cuda.FloatTensor/LongTensor/DoubleTensor(data)`` give PyTorch's values for that
data on the WebGPU device (``'cuda'`` here), pass ``isinstance`` for their type, and a cpu copy does not."""
from __future__ import annotations

import json
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

from legacy_compat_cases import GPU_CASES  # noqa: E402

SCRIPT = '''
import json, sys
sys.path.insert(0, "/home/pyodide/tests/golden")
import replay_legacy_compat as r
import borch_webgpu as torch
rc = r.main(["--device", "webgpu"])
x = torch.cuda.FloatTensor([1, 2])
v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
print(json.dumps({"rc": rc, "gpu": torch.webgpu.is_available(), "cuda_device": str(x.device),
                  "variable_device": str(v.device), "dcgan_check": isinstance(x.data, torch.cuda.FloatTensor)}))
'''


def test_legacy_compat_cases_on_webgpu(browser, summary_line):
    cases = json.loads((GOLDEN / "legacy_compat.json").read_text())["cases"]
    browser.mount_golden()
    code, out, err = browser.run(SCRIPT)
    line = [x for x in out.splitlines() if x.startswith("legacy_compat:")]
    summary_line("webgpu " + "; ".join(line))
    n = sum(not c["no_gpu"] for c in cases) + len(GPU_CASES)
    assert code == 0 and line == [f"legacy_compat: webgpu: {n} passed, 0 failed"], out[-6000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r == {"rc": 0, "gpu": True, "cuda_device": "webgpu:0", "variable_device": "webgpu:0", "dcgan_check": True}
