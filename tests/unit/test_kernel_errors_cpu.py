"""Bad indices and integer zero divisors on the cpu device raise PyTorch's exception and message at once (the same text the
WebGPU kernels' errors start with: tests/browser/test_kernel_errors.py); the error sites the WebGPU
runtime records (op, user's line), the launch-blocking variable and the sync debug mode's checks,
in CPython."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_kernel_errors  # noqa: E402

DOC = replay_kernel_errors.load()
CASES = DOC["cases"]


def test_every_case_is_frozen():
    import kernel_error_cases
    frozen = ([(c["id"], c["op"], c["snippet"]) for c in CASES], [(c["id"], c["snippet"]) for c in DOC["at_once"]],
              [(c["id"], c["snippet"]) for c in DOC["values"]])
    assert ([tuple(c) for c in kernel_error_cases.CASES], list(kernel_error_cases.AT_ONCE),
            list(kernel_error_cases.VALUES)) == frozen, \
        "kernel_error_cases.py changed: run python tests/golden/generate_kernel_errors.py (needs torch==2.13.0)"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cpu_raises_pytorchs_error_at_once(case):
    err = replay_kernel_errors.check(case, "cpu")
    assert err is None, err


@pytest.mark.parametrize("case", DOC["at_once"], ids=[c["id"] for c in DOC["at_once"]])
def test_cpu_refuses_a_python_zero_divisor_and_bool_division_as_pytorch(case):
    err = replay_kernel_errors.check_at_once(case, "cpu")
    assert err is None, err


@pytest.mark.parametrize("case", DOC["values"], ids=[c["id"] for c in DOC["values"]])
def test_cpu_divisions_that_must_not_raise_give_pytorchs_values(case):
    err = replay_kernel_errors.check_value(case, "cpu")
    assert err is None, err


class _FakeJS:
    """A JS backend that does nothing: enough to build a Runtime in CPython and record dispatches."""

    def __getattr__(self, name):
        return lambda *args: None


def _runtime():
    from borch_webgpu.device import webgpu
    return webgpu.Runtime(_FakeJS(), {"info": {}, "features": [], "limits": {
        "maxComputeWorkgroupsPerDimension": 65535, "maxStorageBufferBindingSize": 1 << 20, "maxBufferSize": 1 << 20}})


def test_error_sites_name_the_op_and_the_users_line_once_per_line():
    rt = _runtime()
    gather = next(c for c in CASES if c["id"] == "gather")
    msg = "index {index} is out of bounds for dimension 0 with size {size}"
    codes = [rt.error_code(RuntimeError, msg, "gather") for _ in range(100)]  # one line: one site
    line = sys._getframe().f_lineno - 1
    assert len(set(codes)) == 1 and len(rt.error_sites) == 1
    err = rt.kernel_error(codes[0], 5, 3, "Tensor.item()")
    assert type(err).__name__ == gather["type"]
    assert str(err) == (f"{gather['message']} (gather at {__file__}:{line}; found by a WebGPU kernel, raised at "
                        "Tensor.item())")
    assert rt.error_code(RuntimeError, msg, "gather") != codes[0]  # another line: another site


def test_error_sites_are_bounded(monkeypatch):
    from borch_webgpu.device import gpu_errors
    monkeypatch.setattr(gpu_errors, "MAX_SITES", 2)
    rt = _runtime()
    codes = [rt.error_code(IndexError, "index out of range in self", op) for op in ("a", "b", "c", "c")]
    assert codes[2] == codes[3] and len(rt.error_sites) == 3
    assert "(c at an unrecorded line;" in str(rt.kernel_error(codes[2], 9, 3, "x"))


def test_an_index_kernel_given_no_op_name_is_named_after_the_function_the_user_called():
    from borch_webgpu.device.gpu_errors import entry_function
    from borch_webgpu.ops import indexing
    assert entry_function() == "?"  # called from here: no borch_webgpu frame on the stack
    ns = {"entry_function": entry_function}
    # functions compiled as if they were part of borch_webgpu: the outermost one is the op
    exec(compile("def some_op():\n    return helper()\ndef helper():\n    return entry_function()\n",
                 indexing.__file__, "exec"), ns)
    assert ns["some_op"]() == "some_op"


def test_launch_blocking_from_the_environment_and_the_runner_passes_it_in():
    from borch_webgpu import run
    from borch_webgpu.device.gpu_errors import launch_blocking_from_env
    assert launch_blocking_from_env({"BORCH_WEBGPU_LAUNCH_BLOCKING": "1"})
    assert not launch_blocking_from_env({"BORCH_WEBGPU_LAUNCH_BLOCKING": "0"}) and not launch_blocking_from_env({})
    assert run.guest_env({"BORCH_WEBGPU_LAUNCH_BLOCKING": "1", "HOME": "/root"}) == {"BORCH_WEBGPU_LAUNCH_BLOCKING": "1"}
    assert run.guest_env({}) == {}


def test_sync_debug_mode_refuses_a_bad_mode_as_pytorch():
    import borch_webgpu as torch
    want = DOC["set_sync_debug_mode"]
    with pytest.raises(RuntimeError) as e:
        torch.webgpu.set_sync_debug_mode("loud")
    assert type(e.value).__name__ == want["type"] and str(e.value) == want["message"]
    assert torch.cuda.set_sync_debug_mode is torch.webgpu.set_sync_debug_mode


def test_sync_debug_mode_warns_or_raises_at_a_read():
    rt = _runtime()
    rt.sync_debug_mode = 1
    with pytest.warns(UserWarning, match="called a synchronizing WebGPU operation: Tensor.item()") as rec:
        rt.note_sync("Tensor.item()")
    assert rec[0].filename == __file__
    rt.sync_debug_mode = 2
    with pytest.raises(RuntimeError, match="called a synchronizing WebGPU operation: Tensor.item()"):
        rt.note_sync("Tensor.item()")


def test_cuda_visible_devices_empty_hides_the_gpu():
    """The playground's cpu switch sets CUDA_VISIBLE_DEVICES="" (PyTorch's way to hide every GPU)."""
    from borch_webgpu.device.webgpu import hidden_by_env
    assert "CUDA_VISIBLE_DEVICES=''" in hidden_by_env({"CUDA_VISIBLE_DEVICES": ""})
    assert hidden_by_env({"CUDA_VISIBLE_DEVICES": "-1"})
    assert hidden_by_env({"CUDA_VISIBLE_DEVICES": "0"}) is None and hidden_by_env({}) is None


def test_a_gpu_out_of_memory_report_raises_out_of_memory_error():
    """js/gpu.mjs reports a createBuffer that failed its out-of-memory error scope; the next check raises
    torch.OutOfMemoryError (torch.cuda's too), not a generic GPU error."""
    import pytest
    import borch_webgpu as torch
    from borch_webgpu.device.webgpu import Runtime
    rt = Runtime.__new__(Runtime)
    rt._call = lambda name, *a: "out of GPU memory creating a buffer of 1048576 bytes"
    rt.live_bytes, rt.max_buffer = 3 << 20, 1 << 28
    with pytest.raises(torch.cuda.OutOfMemoryError, match=r"read: WebGPU out of memory: out of GPU memory creating a "
                       r"buffer of 1048576 bytes; 3.00 MiB were allocated"):
        rt.check_errors("read")
    import types
    rt._call = lambda name, *a: "GPU device lost: destroyed: "
    rt.js = types.SimpleNamespace(state=types.SimpleNamespace(lost="destroyed: "))
    with pytest.raises(RuntimeError, match=r"read: the WebGPU device was lost \(destroyed: \); the tensors on it are "
                       r"gone. Call torch.webgpu.reset\(\) to start a new device") as e:
        rt.check_errors("read")
    assert not isinstance(e.value, torch.OutOfMemoryError)
