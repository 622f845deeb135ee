"""torch.jit on the cpu device: the answers of tests/golden/jit.json (real PyTorch 2.13, generate_jit.py)
replayed by replay_jit.py, then what the goldens do not spell out: saving to a path with extra files, the
load-time checks of an archive's code and module tree, check_trace's graph comparison, keyword example
inputs, trace_module, constants kept off the user's module, script's graph/code, and the decorators."""
from __future__ import annotations

import io
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import jit_cases  # noqa: E402
import replay_jit  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import nn  # noqa: E402

GOLD = replay_jit.load()
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_golden_is_from_torch_2_13_and_up_to_date():
    assert GOLD["torch"].startswith("2.13"), GOLD["torch"]
    assert set(GOLD["weights"]) == {name for name, _, _ in jit_cases.MODELS}


def test_answers_match_pytorch():
    n, fails = replay_jit.check_answers(GOLD, "cpu")
    assert fails == [] and n > 70, fails


def test_pytorch_files_refused_or_loaded():
    n, fails = replay_jit.check_files(GOLD, "cpu")
    assert fails == [], fails


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.offset = torch.tensor([1.0, -1.0])   # a plain tensor attribute: a constant of the trace

    def forward(self, x):
        return self.lin(x) + self.offset + torch.tensor([0.5, 0.5])

    def half(self, x):
        return self.lin(x) * 0.5


def test_save_to_a_path_with_extra_files(tmp_path):
    m = Net()
    x = torch.randn(4, 3)
    traced = torch.jit.trace(m, x)
    path = tmp_path / "net.pt"
    traced.save(str(path), _extra_files={"note.txt": "hello"})
    extra = {"note.txt": ""}
    loaded = torch.jit.load(str(path), _extra_files=extra)
    assert extra["note.txt"] == b"hello"
    assert torch.equal(loaded(x), m(x))
    assert "def forward(self, x):" in loaded.code
    assert not any(k.startswith("_tensor_constant") for k in vars(m)), vars(m).keys()
    with zipfile.ZipFile(path) as z:
        assert z.read("borch_webgpu_jit/format") == b"borch_webgpu.jit archive 1\n"


def _rewrite(buf: io.BytesIO, name: str, data: bytes) -> io.BytesIO:
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n in src.namelist():
            z.writestr(n, data if n == name else src.read(n))
    out.seek(0)
    return out


def test_load_refuses_code_fx_never_writes_and_foreign_classes():
    buf = io.BytesIO()
    torch.jit.save(torch.jit.trace(nn.Linear(2, 2), torch.ones(1, 2)), buf)
    bad = _rewrite(buf, "borch_webgpu_jit/code.py", b"import os\ndef forward(self, x):\n    return x\n")
    with pytest.raises(RuntimeError, match="not one fx-generated forward"):
        torch.jit.load(bad)
    bad = _rewrite(buf, "borch_webgpu_jit/code.py", b"def forward(self, x):\n    return x.__class__\n")
    with pytest.raises(RuntimeError, match="attribute __class__"):
        torch.jit.load(bad)
    import pickle
    bad = _rewrite(buf, "borch_webgpu_jit/module.pkl", pickle.dumps(warnings.WarningMessage))
    with pytest.raises(pickle.UnpicklingError, match="not a borch_webgpu nn class"):
        torch.jit.load(bad)
    with pytest.raises(RuntimeError, match="without borch_webgpu_jit/format"):
        z = io.BytesIO()
        zipfile.ZipFile(z, "w").close()
        torch.jit.load(io.BytesIO(z.getvalue()))


def test_check_trace_raises_when_two_traces_differ():
    calls = []

    def flaky(x):
        calls.append(1)
        return x * 2 if len(calls) % 2 else x - 1
    with pytest.raises(torch.jit.TracingCheckError, match="Graphs differed across invocations"):
        torch.jit.trace(flaky, torch.ones(2))
    calls.clear()
    f = torch.jit.trace(flaky, torch.ones(2), check_trace=False)
    assert f(torch.ones(2)).tolist() == [2.0, 2.0]


def test_keyword_example_inputs_and_trace_module():
    m = Net()
    x = torch.randn(2, 3)
    traced = torch.jit.trace(m, example_kwarg_inputs={"x": x})
    assert torch.equal(traced(x=x), m(x))
    both = torch.jit.trace_module(m, {"forward": x, "half": x})
    y = torch.randn(5, 3)
    assert torch.equal(both(y), m(y)) and torch.equal(both.half(y), m.half(y))


def test_is_tracing_inside_forward_and_shapes_stay_symbolic():
    seen = []

    class M(nn.Module):
        def forward(self, x):
            seen.append(torch.jit.is_tracing())
            return x.view(x.size(0), -1).sum(dim=1)
    traced = torch.jit.trace(M(), torch.ones(2, 3, 4), check_trace=False)
    assert seen == [True]
    assert traced(torch.ones(7, 3, 4)).tolist() == [12.0] * 7
    assert "size = x.size(0)" in traced.code and "placeholder" in str(traced.graph)


def test_script_graph_and_code():
    s = torch.jit.script(nn.Sequential(nn.Linear(2, 2), nn.ReLU()))
    assert "def forward(self, input):" in s.code
    with pytest.raises(RuntimeError, match="no TorchScript compilation"):
        torch.jit.script(jit_cases._branchy).code
    f = torch.jit.script(lambda a: a + 1)
    assert isinstance(f, torch.jit.ScriptFunction) and "add = a + 1" in f.code


def test_traced_module_moves_and_switches_mode_without_touching_the_original():
    m = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
    traced = torch.jit.trace(m.eval(), torch.ones(1, 2))
    traced.train()
    drop = dict(traced.named_children())["1"]
    assert traced.training and drop.training and not m.training and not m[1].training
    assert traced.to("cpu") is traced and [n for n, _ in traced.named_parameters()] == ["0.weight", "0.bias"]
    assert repr(traced).startswith("Sequential(")


def test_decorators_and_helpers():
    class M(nn.Module):
        flag: torch.jit.Final[int] = 3

        @torch.jit.export
        def extra(self, x):
            return x + 1

        @torch.jit.ignore
        def helper(self, x):
            return x * 2

        @torch.jit.ignore(drop=True)
        def dropped(self):
            return "dropped"

        @torch.jit.unused
        def unused(self):
            return "unused"

        def forward(self, x):
            return self.helper(x)
    s = torch.jit.script(M())
    assert s(torch.ones(1)).tolist() == [2.0] and s.extra(1) == 2
    assert s.dropped() == "dropped" and s.unused() == "unused"
    fut = torch.jit.fork(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        fut.wait()
    assert torch.jit.freeze(s.eval()) is s and torch.jit.optimize_for_inference(s) is s
    with pytest.warns(UserWarning, match="already a ScriptModule"):
        assert torch.jit.trace(s, torch.ones(1)) is s


def test_trace_warns_like_pytorch_on_a_value_it_freezes():
    with pytest.warns(torch.jit.TracerWarning, match="Python boolean"):
        g = torch.jit.trace(jit_cases._branchy, torch.ones(2), check_trace=False)
    assert g(-torch.ones(2)).tolist() == [-2.0, -2.0]   # the branch taken while tracing
