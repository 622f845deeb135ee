"""int64 never wraps (int64 is held as int32): the golden cases of tests/golden/int64.json (PyTorch
2.13's int64 results) on the cpu device, the messages the WebGPU kernels' words give, and what the
WebGPU backend records for int64 and float ops (in CPython, through a JS backend that does nothing).
The same cases run on WebGPU in Chromium: tests/browser/test_int64_webgpu.py."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_int64  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu.device import int64_range  # noqa: E402

CASES = replay_int64.load()["cases"]


def test_every_case_is_frozen():
    import int64_cases
    assert [(c[0], list(c[1]), c[2]) for c in int64_cases.CASES] == [(c["id"], c["ops"], c["expr"]) for c in CASES], \
        "int64_cases.py changed: run python tests/golden/generate_int64.py (needs torch==2.13.0)"
    assert {c["fits"] for c in CASES} == {True, False}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cpu_gives_pytorchs_value_or_raises_overflow(case):
    err = replay_int64.check(case, "cpu")
    assert err is None, err


def test_messages_name_the_op_and_the_values():
    with pytest.raises(OverflowError, match=r"^add: the int64 result of 2147483647 \+ 1 = 2147483648 does not fit"):
        torch.tensor([2 ** 31 - 1]) + 1
    with pytest.raises(OverflowError, match=r"^sum: the int64 result 2449965000 does not fit"):
        torch.arange(70000).sum()
    # the words a WGSL kernel records: the operands, or a result's low and high words
    m = int64_range.MESSAGES
    assert m["mul"](70000, 70000).startswith("mul: the int64 result of 70000 * 70000 = 4900000000 ")
    assert m["pow_i"](0xFFFFFFFE, 32).startswith("pow: the int64 result of (-2) ** 32 = 4294967296 ")
    assert m["neg"](0x80000000, 0).startswith("neg: the int64 result of -(-2147483648) = 2147483648 ")
    v = 2449965000
    assert m["sum"](v & 0xFFFFFFFF, v >> 32).startswith("sum: the int64 result 2449965000 ")
    v = -3221225472 & ((1 << 64) - 1)
    assert m["cumsum"](v & 0xFFFFFFFF, v >> 32).startswith("cumsum: the int64 result -3221225472 ")
    assert m["convert"](int(np.float32(3e9).view(np.uint32)), 0).startswith(
        "to(torch.int64): the float value 3000000000.0 converted to int64 does not fit")


def test_int32_keeps_pytorchs_wraparound():
    assert (torch.tensor([2 ** 31 - 1], dtype=torch.int32) + 1).tolist() == [-2 ** 31]


class _FakeJS:
    def __getattr__(self, name):
        return lambda *args: None


@pytest.fixture
def no_blocking(monkeypatch):
    from borch_webgpu.device import _ffi
    monkeypatch.setattr(_ffi, "can_block", lambda: False)   # CPython: kernels are built, not compiled


def _backend():
    from borch_webgpu.device import webgpu
    from borch_webgpu.device.gpu_backend import GPUBackend
    rt = webgpu.Runtime(_FakeJS(), {"info": {}, "features": [], "limits": {
        "maxComputeWorkgroupsPerDimension": 65535, "maxStorageBufferBindingSize": 1 << 20, "maxBufferSize": 1 << 20}})
    return rt, GPUBackend(rt)


def _tensor(be, values, dtype):
    from borch_webgpu.device import WEBGPU
    from borch_webgpu.tensor import Tensor
    a = np.asarray(values)
    return Tensor._make(be.from_numpy(a, dtype), a.shape, dtype, WEBGPU)


def test_webgpu_float_ops_record_no_error_site_and_bind_no_error_buffer(no_blocking):
    from borch_webgpu.ops._registry import REGISTRY
    from borch_webgpu.ops.reduce import SUM
    rt, be = _backend()
    f = _tensor(be, [1.0, 2.0], torch.float32)
    i32 = _tensor(be, [1, 2], torch.int32)
    be.elementwise(REGISTRY["add"], [f, 1.0], torch.float32, torch.float32, (2,), torch.float32)
    be.elementwise(REGISTRY["add"], [i32, 1], torch.int32, torch.int32, (2,), torch.int32)
    be.reduce(SUM, f, (0,), (), torch.float32, torch.float32)
    assert rt.error_sites == [] and rt.fallible == 0
    assert set(rt.layouts) == {"wr"}                  # no error buffer bound
    assert all(len(key) and key[-1] in ("", False) for key in rt.pipelines)


def test_webgpu_int64_ops_bind_the_error_buffer_and_name_the_line(no_blocking):
    from borch_webgpu.ops._registry import REGISTRY
    from borch_webgpu.ops.reduce import SUM
    rt, be = _backend()
    x = _tensor(be, [1, 2], torch.int64)
    be.elementwise(REGISTRY["add"], [x, 1], torch.int64, torch.int64, (2,), torch.int64)
    line = sys._getframe().f_lineno - 1
    be.reduce(SUM, x, (0,), (), torch.int64, torch.int64)
    assert rt.fallible == 2 and "wrw" in rt.layouts
    exc, message, op, name, at, _ = rt.error_sites[0]
    assert (exc, op, name, at) == (OverflowError, "add", __file__, line)
    err = rt.kernel_error(1, 2 ** 31 - 1, 1, "Tensor.item()")
    assert isinstance(err, OverflowError) and str(err).startswith("add: the int64 result of 2147483647 + 1 = ")
    assert f"(add at {__file__}:{line}; found by a WebGPU kernel, raised at Tensor.item())" in str(err)
