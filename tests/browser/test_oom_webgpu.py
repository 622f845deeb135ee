"""Issue 12 item 6, out of memory on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU): a tensor larger
than the adapter's largest buffer raises ``torch.OutOfMemoryError`` (also ``torch.cuda.OutOfMemoryError``,
a RuntimeError, as PyTorch's) naming the request and the adapter's limit, and the runtime goes on working:
nothing the user made before is lost. Both tests run their script in a browser of their own (the runner),
so the shared test page is left as it was."""
from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = r"""
import json
import borch_webgpu as torch
from borch_webgpu.device.gpu_backend import backend
keep = torch.arange(6.0).reshape(2, 3)
limit = backend().rt.max_buffer
out = {"limit": limit}
try:
    torch.empty(limit // 4 + 1024)          # float32: past maxBufferSize by 4 KiB
    out["raised"] = None
except torch.cuda.OutOfMemoryError as e:
    out["raised"] = [type(e).__name__, isinstance(e, RuntimeError), str(e)]
out["after"] = (keep * 2).sum().item()
out["new"] = torch.ones(1000).sum().item()
print(json.dumps(out))
"""


def _run_alone(tmp_path, name: str, source: str) -> dict:
    """The script through the runner, in a browser of its own: the shared test page keeps its state."""
    script = tmp_path / name
    script.write_text(source)
    r = subprocess.run([sys.executable, "-m", "borch_webgpu.run", "--timeout", "120", str(script)],
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_out_of_memory_names_the_request_and_the_runtime_goes_on(tmp_path):
    r = _run_alone(tmp_path, "oom.py", SCRIPT)
    name, is_runtime, msg = r["raised"]
    assert name == "OutOfMemoryError" and is_runtime, r
    assert f"({r['limit'] // 4 * 4 + 4096} bytes)" in msg and "maxBufferSize" in msg, msg
    assert r["after"] == 30.0 and r["new"] == 1000.0, r


LOST = r"""
import json
import borch_webgpu as torch
from borch_webgpu.device.gpu_backend import backend
x = torch.ones(100)
out = {"before": (x * 2).sum().item()}
backend().rt.js.state.device.destroy()      # what a driver reset does to the page's device
for what in ("item", "again", "new tensor"):
    try:
        y = torch.ones(10) if what == "new tensor" else x * 3
        out[what] = y.sum().item()
    except Exception as e:
        out[what] = [type(e).__name__, isinstance(e, RuntimeError), str(e), e.__context__ is None or e.__suppress_context__]
print(json.dumps(out))
"""


def test_a_lost_device_gives_a_clear_runtime_error_and_nothing_hangs(tmp_path):
    """Issue 12 item 6: after GPUDevice.destroy() every read raises a RuntimeError that says the device
    was lost and what to do, at once (no hang), never a raw JavaScript error. It runs in a browser of its
    own (the runner): the shared test page must keep its device."""
    out = _run_alone(tmp_path, "lost.py", LOST)
    assert out["before"] == 200.0
    for what in ("item", "again", "new tensor"):
        name, is_runtime, msg, no_js_context = out[what]
        assert is_runtime and msg.startswith("Tensor.item(): the WebGPU device was lost ("), (what, out[what])
        assert "torch.webgpu.reset()" in msg and "reload the page" in msg and no_js_context, (what, out[what])


RESET = r"""
import json
import borch_webgpu as torch
from borch_webgpu.device.gpu_backend import backend
x = torch.ones(100)
w = torch.arange(6.0).reshape(2, 3)
out = {"before": (x * 2).sum().item()}
backend().rt.js.state.device.destroy()      # the device is lost
try:
    x.sum().item()
except RuntimeError as e:
    out["lost"] = str(e)
torch.webgpu.reset()                        # a new device in the same page
out["new"] = (torch.ones(10) * 3).sum().item()
out["matmul"] = (torch.arange(6.0).reshape(2, 3) @ torch.ones(3, 2)).tolist()
for what, fn in (("read", lambda: x.tolist()), ("op", lambda: (w * 2).sum().item()), ("write", lambda: x.fill_(1.0).sum().item())):
    try:
        out[what] = fn()
    except RuntimeError as e:
        out[what] = str(e)
keep = torch.ones(4)
torch.webgpu.reset()                        # a device that still lives is destroyed and replaced
try:
    out["live"] = keep.sum().item()
except RuntimeError as e:
    out["live"] = str(e)
out["after"] = torch.full((5,), 2.0).sum().item()
print(json.dumps(out))
"""


def test_reset_starts_a_new_device_and_old_tensors_refuse_clearly(tmp_path):
    """Issue 12 item 6: ``torch.webgpu.reset()`` after a loss gives a working device in the same page;
    a tensor of the old device raises a RuntimeError saying so (its buffer id is never another tensor's)."""
    out = _run_alone(tmp_path, "reset.py", RESET)
    assert out["before"] == 200.0 and "torch.webgpu.reset()" in out["lost"], out
    assert out["new"] == 30.0 and out["matmul"] == [[3.0, 3.0], [12.0, 12.0]], out
    for what in ("read", "op", "write", "live"):
        assert isinstance(out[what], str) and "torch.webgpu.reset() replaced" in out[what], (what, out[what])
    assert out["after"] == 10.0, out
