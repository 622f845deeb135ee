"""Issue 11's nn modules, utils and Adafactor on the cpu device: the frozen PyTorch scenarios of
nn_mod.json (nn_mod_cases.py; the same file is replayed on WebGPU by tests/browser/test_optim_webgpu.py)
and behaviour a scenario cannot record."""
from __future__ import annotations

import copy
import inspect
import json
import pickle
import sys
import warnings
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import nn_mod_cases  # noqa: E402
import replay_optim  # noqa: E402

import borch_webgpu as bw  # noqa: E402

DOC = json.loads((GOLDEN / "nn_mod.json").read_text())
nn = bw.nn


def test_golden_file_matches_the_cases():
    """nn_mod.json must be regenerated (generate_optim.py nn_mod.json) whenever nn_mod_cases.py changes."""
    assert DOC["prelude"] == nn_mod_cases.PRELUDE
    assert [[n, s] for n, s, _ in DOC["cases"]] == [list(c) for c in nn_mod_cases.OPTIM_SNIPPETS]
    assert [[n, s] for n, s, _ in DOC["errors"]] == [list(c) for c in nn_mod_cases.OPTIM_ERRORS]


@pytest.mark.parametrize("name,snippet,want", DOC["cases"], ids=[c[0] for c in DOC["cases"]])
def test_scenario_matches_pytorch(name, snippet, want):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        errs = replay_optim.run_case(DOC["prelude"], snippet, want, "cpu")
    assert not errs, "; ".join(errs)


@pytest.mark.parametrize("name,snippet,want", DOC["errors"], ids=[c[0] for c in DOC["errors"]])
def test_bad_input_raises_pytorchs_exception(name, snippet, want):
    err = replay_optim.run_error(snippet, want, "cpu")
    assert err is None, err


@pytest.mark.parametrize("path", list(DOC["signatures"]))
def test_signature_matches_pytorch(path):
    got = [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
           for p in inspect.signature(getattr(bw.optim, path).__init__).parameters.values()]
    assert got == DOC["signatures"][path]


def test_parametrized_module_deepcopies_and_refuses_pickle():
    m = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
    c = copy.deepcopy(m)
    assert type(c).__name__ == "ParametrizedLinear"
    assert c.parametrizations.weight.original0 is not m.parametrizations.weight.original0
    assert bw.allclose(c.weight, m.weight)
    with pytest.raises(RuntimeError, match="only supported through state_dict"):
        pickle.dumps(m)


def test_lazy_parameter_keeps_its_identity_through_materialize():
    m = nn.LazyLinear(2)
    w = m.weight
    opt = bw.optim.Adam(m.parameters(), lr=0.1)
    m(bw.ones(1, 4)).sum().backward()
    opt.step()
    assert m.weight is w and type(w) is nn.Parameter and w.shape == (2, 4)
    assert opt.state[w]["exp_avg"].shape == (2, 4)


def test_deepcopy_of_a_lazy_module_initializes_independently():
    """The copy's initializing hook handle points at the copy's hook dict (RemovableHandle's state), so
    materializing the copy leaves the original lazy, as in PyTorch."""
    m = nn.Sequential(nn.LazyLinear(3), nn.LazyBatchNorm1d())
    c = copy.deepcopy(m)
    c(bw.ones(4, 5))
    assert type(c[0]).__name__ == "Linear" and type(m[0]).__name__ == "LazyLinear"
    m(bw.ones(4, 2))
    assert m[0].weight.shape == (3, 2) and c[0].weight.shape == (3, 5)


def test_fractional_max_pool_draws_its_samples_when_none_are_given():
    """Without ``_random_samples`` the windows are random (torch.rand); every output is the input value
    at its index, and the windows cover the plane as the output size says."""
    F = bw.nn.functional
    x = bw.randn(2, 3, 9, 8)
    out, idx = F.fractional_max_pool2d(x, 2, output_size=(4, 5), return_indices=True)
    assert out.shape == (2, 3, 4, 5) and idx.dtype == bw.int64
    assert bw.equal(x.flatten(2).gather(2, idx.flatten(2)), out.flatten(2))
    out3 = nn.FractionalMaxPool3d(2, output_ratio=0.5)(bw.randn(1, 2, 6, 6, 6))
    assert out3.shape == (1, 2, 3, 3, 3)
