"""int64 is PyTorch's int64: the golden cases of tests/golden/int64.json (PyTorch 2.13's int64 results)
on the cpu device (numpy's int64: every case exact), the messages the WebGPU kernels' words give, where
the webgpu device holds int64 values past int32 (on the host, checked in CPython through a JS backend
that does nothing), and what the WebGPU backend records for int64 and float ops. The same cases run on
WebGPU in Chromium: tests/browser/test_int64_webgpu.py."""
from __future__ import annotations

import io
import json
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from borch_webgpu.serialization import _encode

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_int64  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu.device import int64_range  # noqa: E402

CASES = replay_int64.load()["cases"]


def test_every_case_is_frozen():
    import int64_cases
    assert [(c[0], list(c[1]), c[2], c[3] if len(c) > 3 else None) for c in int64_cases.CASES] == \
        [(c["id"], c["ops"], c["expr"], next((m for m in ("host", "moves", "used") if c[m]), None)) for c in CASES], \
        "int64_cases.py changed: run python tests/golden/generate_int64.py (needs torch==2.13.0)"
    assert {c["fits"] for c in CASES} == {True, False} and {c["host"] for c in CASES if not c["fits"]} == {True, False}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cpu_gives_pytorchs_int64(case):
    err = replay_int64.check(case, "cpu")
    assert err is None, err


def test_cpu_int64_is_numpy_int64_shared_and_saved_as_i64():
    a = np.array([1, 2 ** 40])
    t = torch.from_numpy(a)
    a[0] = -2 ** 63
    assert t.tolist() == [-2 ** 63, 2 ** 40] and t.numpy().dtype == np.int64 and np.shares_memory(t.numpy(), a)
    assert t._storage.array.dtype == np.int64 and isinstance(t[1].item(), int)
    # safetensors I64, both ways: the 8 little-endian bytes of each value
    raw = _encode({"n": t}, None)   # what save_file writes
    assert raw.endswith(struct.pack("<2q", -2 ** 63, 2 ** 40)) and b'"dtype":"I64"' in raw
    # and PyTorch's own format (torch.save): the same 16 bytes in the storage record, loaded back exactly
    buf = io.BytesIO()
    torch.save({"n": t}, buf)
    assert struct.pack("<2q", -2 ** 63, 2 ** 40) in buf.getvalue()
    buf.seek(0)
    assert torch.load(buf)["n"].tolist() == [-2 ** 63, 2 ** 40]
    head = json.dumps({"n": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}}).encode()
    loaded = torch.load(io.BytesIO(struct.pack("<Q", len(head)) + head + struct.pack("<q", 2 ** 40 + 7)))
    assert loaded["n"].tolist() == [2 ** 40 + 7] and loaded["n"].dtype is torch.int64


def test_randint_past_int32_draws_in_its_bounds():
    for lo, hi in ((2 ** 40, 2 ** 40 + 10), (-2 ** 63, 2 ** 63), (-2 ** 40, 5)):
        v = torch.randint(lo, hi, (200,))
        assert v.dtype is torch.int64 and lo <= v.min().item() and v.max().item() < hi
    assert len(set(torch.randint(-2 ** 63, 2 ** 63, (200,)).tolist())) == 200
    with pytest.raises(RuntimeError, match="out of bounds for torch.int32"):
        torch.randint(0, 2 ** 40, (2,), dtype=torch.int32)


def test_messages_name_the_op_and_the_values():
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


@pytest.fixture
def fake_webgpu(monkeypatch, no_blocking):
    """The webgpu device over a JS backend that does nothing: uploads go nowhere, host-held tensors compute."""
    from borch_webgpu.device import gpu_backend, webgpu
    rt, be = _backend()
    monkeypatch.setattr(gpu_backend, "_backend", be)
    monkeypatch.setattr(webgpu, "_runtime", rt)   # the current runtime: backend() keeps the backend over it
    return rt


def test_webgpu_holds_int64_past_int32_on_the_host_and_sends_results_that_fit_back(fake_webgpu):
    from borch_webgpu.device import WEBGPU
    from borch_webgpu.device.cpu import CPUStorage
    from borch_webgpu.device.gpu_backend import GPUStorage
    big = torch.tensor([2 ** 40, 7], device="webgpu")
    assert big.device == WEBGPU and str(big.device) == "webgpu:0" and isinstance(big._storage, CPUStorage)
    assert big._storage.array.dtype == np.int64 and big[1:].device == WEBGPU and big[1:]._storage is big._storage
    assert (big * 3).tolist() == [3 * 2 ** 40, 21] and isinstance((big * 3)._storage, CPUStorage)
    back = big - 2 ** 40                                  # [0, 7 - 2**40] does not fit: stays
    assert isinstance(back._storage, CPUStorage)
    fits = big // 2 ** 20                                 # [2**20, 0] fits: goes back to the GPU
    assert isinstance(fits._storage, GPUStorage) and fits.device == WEBGPU
    assert isinstance((big > 5)._storage, GPUStorage) and isinstance(big.float()._storage, GPUStorage)
    small = torch.tensor([1, 2], device="webgpu")         # fits: on the GPU, no host copy
    assert isinstance(small._storage, GPUStorage)
    assert isinstance(torch.full((2,), 2 ** 40, device="webgpu")._storage, CPUStorage)
    assert isinstance(torch.arange(2 ** 40, 2 ** 40 + 2, device="webgpu")._storage, CPUStorage)
    assert isinstance(torch.tensor([2 ** 40]).to("webgpu")._storage, CPUStorage)


def test_webgpu_int64_that_fits_costs_no_host_work(fake_webgpu):
    """int64 index tensors that fit int32 stay on the GPU: an op on them checks no values on the host."""
    from borch_webgpu.device import host64
    from borch_webgpu.device.gpu_backend import GPUStorage
    i = torch.tensor([1, 2, 3], device="webgpu")
    calls = []
    orig = host64.CPU.elementwise
    host64.CPU.elementwise = lambda *a, **k: calls.append(a) or orig(*a, **k)
    try:
        r = (i + 1) * 2 - i
    finally:
        host64.CPU.elementwise = orig
    assert calls == [] and isinstance(r._storage, GPUStorage)


# ---- promote at first read (device/gpu_int64_promote.py), through a JS backend that keeps buffer bytes ----
class _MemJS:
    """Buffers as bytes: uploads land, reads return them followed by the error buffer; no kernel runs (a
    test writes what a kernel would record into the error buffer's slots itself)."""

    def __init__(self):
        self.mem, self.writes = {}, []

    def createBuffer(self, bid, size):
        self.mem[bid] = bytearray(size)

    def write(self, bid, off, raw):
        self.writes.append(bid)
        self.mem[bid][off:off + len(raw)] = bytes(raw)

    def read(self, bid, off, n, err, err_bytes):
        return bytes(self.mem[bid][off:off + n]) + bytes(self.mem[err][:err_bytes]) + b"\0\0\0\0"

    def __getattr__(self, name):
        return lambda *args: None


@pytest.fixture
def mem_webgpu(monkeypatch, no_blocking):
    from borch_webgpu.device import _ffi, gpu_backend, webgpu
    from borch_webgpu.device.gpu_backend import GPUBackend
    monkeypatch.setattr(_ffi, "wait", lambda promise, what: promise)
    monkeypatch.setattr(_ffi, "as_py_bytes", lambda data: data)
    js = _MemJS()
    rt = webgpu.Runtime(js, {"info": {}, "features": [], "limits": {
        "maxComputeWorkgroupsPerDimension": 65535, "maxStorageBufferBindingSize": 1 << 20, "maxBufferSize": 1 << 20}})
    monkeypatch.setattr(gpu_backend, "_backend", GPUBackend(rt))
    monkeypatch.setattr(webgpu, "_runtime", rt)
    return rt, js


def _overflow(rt, js, slot: int, value: int, op: str | None = None) -> None:
    """What the kernel of `slot` records when its result `value` leaves int32: its code (the site of `op`, by
    default the last one made), low and high words."""
    code = len(rt.error_sites) if op is None else 1 + [site[2] for site in rt.error_sites].index(op)
    js.mem[rt.err_buffer][16 * slot:16 * slot + 12] = np.array(
        [code, value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF], np.uint32).tobytes()


def test_webgpu_result_past_int32_read_first_moves_to_the_host_exact(mem_webgpu):
    from borch_webgpu.device.cpu import CPUStorage
    rt, js = mem_webgpu
    x = torch.tensor([2 ** 30, 2 ** 30, 5], device="webgpu")
    s = x.sum()
    v = s.view(1)                                   # a view shares the storage: it moves too
    assert rt.i64_next == 2                         # slot 1 is the sum's
    _overflow(rt, js, 1, 2 ** 31 + 5)
    assert s.item() == 2 ** 31 + 5 and isinstance(s._storage, CPUStorage) and s._storage.held
    assert v._storage is s._storage and str(s.device) == "webgpu:0"
    assert (s + 1).item() == 2 ** 31 + 6 and (s * 2).tolist() == 2 ** 32 + 10 and repr(s).startswith("tensor(2147483653")
    assert rt.i64_next == 1 and rt.i64_records == [] and rt.promotions == 1
    assert js.mem[rt.err_buffer][16:32] == bytes(16)          # the slot is cleared for the next dispatches


def test_webgpu_cumsum_and_matmul_past_int32_move_to_the_host(mem_webgpu):
    rt, js = mem_webgpu
    c = torch.tensor([2 ** 31 - 1, 1, -1], device="webgpu").cumsum(0)
    m = torch.tensor([[40000, 40000]], device="webgpu") @ torch.tensor([[40000], [40000]], device="webgpu")
    _overflow(rt, js, 1, 2 ** 31, "cumsum")
    _overflow(rt, js, 2, 3200000000, "matmul")
    assert c[1:].tolist() == [2 ** 31, 2 ** 31 - 1] and m.tolist() == [[3200000000]]


def test_webgpu_result_past_int32_used_by_a_later_kernel_raises_with_op_and_line(mem_webgpu):
    rt, js = mem_webgpu
    s = torch.arange(70000, device="webgpu").sum()
    line = sys._getframe().f_lineno - 1
    t = s + 1                                        # a GPU kernel reads the wrapped words
    _overflow(rt, js, 1, 2449965000, "sum")
    with pytest.raises(OverflowError) as e:
        t.item()
    msg = str(e.value)
    assert msg.startswith("sum: the int64 result 2449965000 does not fit in int32") and "a later GPU op used it" in msg
    assert f"(sum at {__file__}:{line}; found by a WebGPU kernel, raised at Tensor.item())" in msg
    assert rt.i64_next == 1 and rt.i64_records == [] and js.mem[rt.err_buffer][:32] == bytes(32)
    assert torch.tensor([4, 5], device="webgpu").tolist() == [4, 5]   # the device goes on


def test_webgpu_result_past_int32_refuses_when_an_operand_changed_or_a_non_tensor_holds_it(mem_webgpu):
    rt, js = mem_webgpu
    x = torch.tensor([2 ** 31 - 1], device="webgpu")
    a = x + 1
    x.fill_(3)                                       # the operand changed: nothing to recompute from
    _overflow(rt, js, 1, 2 ** 31)
    with pytest.raises(OverflowError, match="changed its operands"):
        a.tolist()
    b = torch.tensor([70000], device="webgpu") * 70000
    keep = [b._storage]                              # held outside a tensor: it could not move
    _overflow(rt, js, 1, 4900000000)
    with pytest.raises(OverflowError, match="could not move to the host"):
        b.tolist()
    assert keep


def test_webgpu_int64_without_overflow_adds_no_upload_and_dropped_results_are_forgotten(mem_webgpu):
    rt, js = mem_webgpu
    i = torch.tensor([1, 2, 3], device="webgpu")
    n = len(js.writes)
    j = i + 1
    assert j.tolist() == [0, 0, 0]                   # (no kernel runs here: the fake output is zeros)
    assert js.writes[n:] == [] and rt.i64_next == 1 and rt.i64_results == {} and rt.i64_inputs == {}
    (i * 70000).sum()                                # dropped before any read: nothing to move
    _overflow(rt, js, 2, 2 ** 33)
    assert i.tolist() == [1, 2, 3] and rt.promotions == 0


def test_webgpu_promotion_slots_run_out_and_captures_keep_raising(mem_webgpu):
    from borch_webgpu.device import gpu_int64_promote
    rt, js = mem_webgpu
    i = torch.tensor([1, 2, 3], device="webgpu")
    keep = [i + 1 for _ in range(gpu_int64_promote.SLOTS)]
    assert rt.i64_next == gpu_int64_promote.SLOTS + 1 and rt.i64_reserve() == 0
    assert keep[-1].tolist() == [0, 0, 0] and rt.i64_next == 1


def test_webgpu_results_that_read_a_used_overflow_do_not_move_and_graph_replays_consume(mem_webgpu):
    from borch_webgpu.device.gpu_backend import GPUStorage
    rt, js = mem_webgpu
    a = torch.tensor([2 ** 31 - 1], device="webgpu") + 1
    b = a * 2                                        # read a's wrapped words
    _overflow(rt, js, 1, 2 ** 31, "add")
    _overflow(rt, js, 2, -2 ** 32, "mul")
    with pytest.raises(OverflowError, match="^add: "):
        b.tolist()
    assert isinstance(a._storage, GPUStorage) and isinstance(b._storage, GPUStorage) and rt.promotions == 0
    s = torch.tensor([70000], device="webgpu") * 70000
    rt.i64_note_buffers([s._storage.bid])            # what a graph replay over s's buffer reports
    _overflow(rt, js, 1, 4900000000, "mul")
    with pytest.raises(OverflowError, match="a later GPU op used it"):
        s.tolist()
