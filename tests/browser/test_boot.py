"""Boot, adapter judgement, and the elementwise goldens on WebGPU in real Chromium."""
from __future__ import annotations

from borch_webgpu.webgpu import is_software


def test_boot_reports_adapter_honestly(browser, summary_line):
    gpu = browser.boot["gpu"]
    assert gpu["available"], f"no WebGPU adapter in Chromium: {gpu['reason']}"
    a = gpu["adapter"]
    # the runner's judgement must agree with what the adapter says about itself
    assert a["is_software"] == is_software(a)
    if a["architecture"] == "swiftshader" or a["vendor"] == "google" and not a["architecture"]:
        assert a["is_software"], "a SwiftShader adapter was reported as a GPU"
    summary_line(f"adapter info: {a}")


def test_swiftshader_is_never_a_gpu_vendor():
    assert is_software({"vendor": "google", "architecture": "swiftshader"})
    assert is_software({"vendor": "", "architecture": "", "description": "SwiftShader Device (Subzero)"})
    assert not is_software({"vendor": "nvidia", "architecture": "hopper"})


def test_tensor_ops_on_webgpu(browser):
    code, out, err = browser.run("""
import borch_webgpu as torch
t = (torch.ones(2, 3) * 2)
assert t.device.type == "webgpu", t.device
print(t.sum().item())
print(torch.tensor([[1., 2.], [3., 4.]]) / torch.tensor([2, 4]))
print(torch.arange(5) + 1, torch.tensor([True, False]).tolist())
""")
    assert code == 0, err
    assert out.splitlines()[0] == "12.0"
    assert "tensor([[0.5000, 0.5000],\n        [1.5000, 1.0000]])" in out
    assert "tensor([1, 2, 3, 4, 5]) [True, False]" in out


def test_golden_suite_on_webgpu(replay_on_webgpu):
    """Every frozen PyTorch case, forward and backward, replayed on WebGPU in Chromium."""
    replay_on_webgpu("replay.py", "golden:")


def test_bad_input_raises_pytorchs_exception_types_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_errors.py", "errors:")


def test_writes_into_expanded_tensors_as_pytorch_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_overlap.py", "overlap:")


def test_autograd_scenarios_match_pytorch_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_autograd.py", "autograd:")


def test_blocking_read_where_the_browser_cannot_block_says_what_to_do(browser):
    # pyodide.runPython (synchronous) cannot use run_sync: .item() must explain, not hang or crash
    msg = browser.sess.page.evaluate("""() => {
        try {
            window.borchPyodide.runPython("import borch_webgpu as torch; torch.ones(2).sum().item()");
            return "no error";
        } catch (e) { return String(e.message); }
    }""")
    assert "RuntimeError" in msg or "BlockingNotAvailable" in msg, msg
    assert "item_async()" in msg and "runPythonAsync" in msg, msg
    # the async form works where blocking cannot
    val = browser.sess.page.evaluate("""async () => await window.borchPyodide.runPythonAsync(
        "import borch_webgpu as torch\\nawait (torch.ones(2, 3) * 2).sum().item_async()")""")
    assert val == 12.0
