"""torch.compile and CUDA-graph names in CPython, and the runtime's capture bookkeeping over a fake
JavaScript backend (which buffers a graph pins, what a replay sends). The WebGPU runs are in
tests/browser/test_compile.py."""
from __future__ import annotations

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu.device import capture
from borch_webgpu.device.webgpu import Runtime


def test_compile_on_cpu_runs_eagerly_with_pytorchs_names():
    m = torch.nn.Linear(3, 2)
    cm = torch.compile(m)
    x = torch.ones(4, 3)
    assert cm._orig_mod is m and cm.weight is m.weight
    assert (cm(x) - m(x)).abs().max().item() == 0
    assert repr(cm) == "OptimizedModule(\n  (_orig_mod): Linear(in_features=3, out_features=2, bias=True)\n)"
    assert list(cm.state_dict()) == ["weight", "bias"]

    @torch.compile(mode="reduce-overhead")
    def f(a, b=2.0):
        return a * b
    assert f(torch.ones(2), b=3.0).tolist() == [3.0, 3.0]
    assert f.__name__ == "f"
    assert torch.compile(f, disable=True) is f
    with pytest.raises(RuntimeError, match="Unrecognized mode=fast"):
        torch.compile(f, mode="fast")
    assert torch._dynamo.config.cache_size_limit == 8
    assert issubclass(torch._dynamo.exc.Unsupported, RuntimeError)
    assert torch.compiler.is_compiling() is False
    torch.compiler.reset()


def test_cuda_graph_without_webgpu_says_so():
    g = torch.cuda.CUDAGraph()
    with pytest.raises(RuntimeError, match="WebGPU is not available"):
        with torch.cuda.graph(g):
            pass
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        pass


def test_dyn_values_recompute_through_arithmetic():
    box = [0.1]
    lr = capture.Dyn(box[0], lambda: box[0])
    step = -(lr * 3) / 2 + 1 - 2 ** lr
    assert isinstance(step, capture.Dyn) and step == pytest.approx(-0.15 + 1 - 2 ** 0.1)
    word = capture.f32_word(step)
    assert isinstance(word, capture.DynWord)
    box[0] = 0.5
    assert step.fn() == pytest.approx(-0.75 + 1 - 2 ** 0.5)
    assert word.fn() == int(np.float32(step.fn()).view(np.uint32))
    assert capture.f32_word(1.5) == int(np.float32(1.5).view(np.uint32)) and type(capture.f32_word(1.5)) is int


def test_optimizer_hyperparameters_are_plain_numbers_outside_a_capture():
    from borch_webgpu.optim.optimizer import hyper
    g = {"lr": 0.1, "betas": (0.9, 0.99)}
    assert type(hyper(g, "lr")) is float and hyper(g, "betas", 1) == 0.99


class FakeJS:
    """Records the calls the runtime makes; enough of js/gpu.mjs for bookkeeping tests."""

    def __init__(self):
        self.calls = []
        self.created = 0

    def __getattr__(self, name):
        def call(*args):
            self.calls.append((name, args))
            if name == "createBuffer":
                self.created += 1
            if name == "createPipeline":
                return ""
            return None
        return call


def fake_runtime() -> Runtime:
    info = {"info": {"vendor": "test"}, "features": [],
            "limits": {"maxComputeWorkgroupsPerDimension": 65535, "maxStorageBufferBindingSize": 1 << 30,
                       "maxBufferSize": 1 << 30}}
    return Runtime(FakeJS(), info)


def test_a_graphs_buffers_are_never_handed_to_eager_code_until_it_goes():
    rt = fake_runtime()
    pipe = (0, 0)
    outside, _ = rt.alloc(1024)                        # made before the capture (a parameter)
    with rt.capture(execute=False, fullgraph=True, label="t") as cap:
        a, sa = rt.alloc(1024)
        rt.dispatch(pipe, (a, outside), [1, 2, capture.DynWord(7, lambda: 9)], 4)
        rt.release(a, sa)                              # a temporary: reused within the capture
        b, sb = rt.alloc(1024)
        assert b == a
        const, sc = rt.alloc(1024, fresh=True)         # host data goes into a buffer not used before
        assert const not in (a, b)
        rt.write(const, 0, np.ones(4, np.float32))
        rt.dispatch(pipe, (b, const), [3], 4)
    g = rt.finish_capture(cap)
    assert g is not None and g.n_dispatches == 2 and len(g.patches) == 1
    assert {a, const, outside} <= g.bids
    rt.release(b, sb)
    rt.release(const, sc)
    rt.release(outside, 1024)
    # eager allocations of the same size get new buffers: the graph still owns those three
    fresh = {rt.alloc(1024)[0] for _ in range(3)}
    assert not fresh & {a, const, outside}
    # a replay sends the changed word (9 instead of 7) with one call
    rt.js.calls.clear()
    g.replay([outside, 0, a, 0, 16], [])
    (name, args), = rt.js.calls
    assert name == "replay" and list(args[5]) == [0 * 64 + 2, 9]
    rt.js.calls.clear()
    g.replay()
    assert rt.js.calls[0][1][5] is None                # nothing changed: no patches
    g.destroy()
    back = {rt.alloc(1024)[0] for _ in range(3)}
    assert back == {a, const, outside}                 # the graph gone, its buffers are the pool's again


def test_a_read_inside_a_capture_ends_it_or_raises():
    rt = fake_runtime()
    with rt.capture(execute=True, fullgraph=False, label="soft") as cap:
        cap.cannot("Tensor.item()")
    assert cap.broken[0] == "Tensor.item()" and rt.finish_capture(cap) is None
    with pytest.raises(capture.GraphBreakError, match=r"fullgraph=True\): print\(\) at .*test_compile_cpu.py"):
        with rt.capture(execute=True, fullgraph=True, label="hard") as cap:
            cap.cannot("print()")
    assert capture.active() is None


def test_the_plan_packs_temporaries_by_their_lifetimes_in_the_trace():
    rt = fake_runtime()
    pipe = (0, 0)
    with rt.capture(execute=False, fullgraph=True, label="t") as cap:
        t1, s1 = rt.alloc(4096)
        rt.dispatch(pipe, (t1,), [0], 1)           # t1's last use
        t2, s2 = rt.alloc(4096)                      # Python still holds t1: a second buffer
        rt.dispatch(pipe, (t2,), [0], 1)
        keep, sk = rt.alloc(4096)                    # alive after the capture (a gradient, say)
        rt.dispatch(pipe, (keep, t2), [0], 1)
        rt.release(t1, s1)
        rt.release(t2, s2)
    assert t1 != t2
    g = rt.finish_capture(cap)
    recs = [r[2] for r in cap.records]
    assert recs == [(t1,), (t1,), (keep, t1)]        # t2 moved into t1: their lifetimes do not overlap
    assert t2 not in g.bids and rt.alloc(4096)[0] == t2  # and t2 is the pool's again
    tr = g.trace()                                   # the op trace stays as data for fusion
    assert [d["buffers"] for d in tr] == recs and tr[0]["grid"] == (1, 1) and tr[0]["patched"] == []
