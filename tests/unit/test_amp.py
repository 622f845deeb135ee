"""torch.autocast (torch.amp / torch.cpu.amp / torch.cuda.amp) and torch.amp.GradScaler on the cpu device,
against PyTorch's answers frozen in tests/golden/amp.json (tests/golden/generate_amp.py): the output dtype
of every op on PyTorch's CPU autocast lists, nesting, the decorator, state, warnings and refusals, and
GradScaler training traces with injected inf/NaN. The same json is replayed on WebGPU in Chromium by
tests/browser/test_amp_webgpu.py."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

import borch_webgpu as torch
from borch_webgpu.amp import autocast_mode

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import amp_cases  # noqa: E402
import replay_amp  # noqa: E402
import replay_bf16  # noqa: E402

CASES = replay_bf16.load("amp.json")


def test_every_case_is_frozen():
    assert [tuple(c[:2]) for c in amp_cases.CASES] == [(c["id"], c["expr"]) for c in CASES], \
        "amp_cases.py changed: run python tests/golden/generate_amp.py (needs torch==2.13.0)"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    err = replay_bf16.check(case, "cpu", amp_cases.helpers)
    assert err is None, err


def test_placement_on_cpu():
    assert replay_amp.placement_failures("cpu") == []


def test_every_listed_name_exists():
    # a name on the lists that borch_webgpu lacks would silently not autocast
    owners = autocast_mode._owners()
    missing = [f"{w}.{n}" for lists in (autocast_mode.LOWER_PRECISION, autocast_mode.FLOAT32)
               for w, names in lists.items() for n in names if not hasattr(owners[w], n)]
    assert missing == []


def test_the_wrappers_come_off_after_an_error():
    with pytest.raises(ValueError):
        with torch.autocast("cpu"):
            raise ValueError("x")
    assert autocast_mode._SAVED == [] and not torch.is_autocast_enabled("cpu")
    assert "autocast_call" not in torch.mm.__code__.co_name


def test_inner_calls_autocast_and_are_restored():
    # MultiheadAttention calls linear from its own module: wrapped inside a region, the original again after
    from borch_webgpu.ops import _nn_attention, nn_ops
    original = nn_ops.linear
    with torch.autocast("cpu"):
        assert _nn_attention.linear is not original
        out, _ = torch.nn.MultiheadAttention(4, 2).eval()(torch.ones(3, 1, 4), torch.ones(3, 1, 4), torch.ones(3, 1, 4))
        with torch.no_grad():
            assert out.dtype is torch.bfloat16
    assert _nn_attention.linear is original and nn_ops.linear is original


def test_webgpu_without_webgpu_warns_and_disables():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = torch.autocast("webgpu", dtype=torch.bfloat16)
    assert [str(x.message) for x in w] == ["WebGPU is not available. Disabling autocast."] and not a._enabled


def test_the_deprecated_modules_import_as_in_pytorch():
    import importlib
    assert importlib.import_module("borch_webgpu.cuda.amp").GradScaler is torch.cuda.amp.GradScaler
    assert importlib.import_module("borch_webgpu.cpu.amp").autocast is torch.cpu.amp.autocast
    from borch_webgpu import _torch_alias
    finder = _torch_alias.TorchAliasFinder(write=lambda s: None, aliases={"torch_bf16_probe": "borch_webgpu"})
    sys.meta_path.insert(0, finder)
    try:
        mod = importlib.import_module("torch_bf16_probe.cuda.amp")   # `from torch.cuda.amp import GradScaler`
        assert mod.GradScaler is torch.cuda.amp.GradScaler
        assert importlib.import_module("torch_bf16_probe.cpu.amp").GradScaler is torch.cpu.amp.GradScaler
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("torch_bf16_probe.cuda.nothing")
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n.startswith("torch_bf16_probe")]:
            del sys.modules[name]
