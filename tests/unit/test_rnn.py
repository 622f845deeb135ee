"""nn.RNN / LSTM / GRU, the cells and nn.utils.rnn on the cpu device, against PyTorch's answers frozen in
tests/golden/rnn.json by tests/golden/generate_rnn.py (torch 2.13.0): outputs, h_n / c_n and the
gradients of inputs and parameters with PyTorch's weights loaded by load_state_dict(strict=True), error
types and messages, warnings, reprs and registered names. Then what the goldens cannot pin down:
the initialisation through our random stream and dropout between layers."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_rnn  # noqa: E402
import rnn_cases  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import nn  # noqa: E402
from borch_webgpu.nn.utils import rnn as R  # noqa: E402

GOLD = replay_rnn.load()
SPECS = {c[0]: c for c in rnn_cases.NUMERIC}


def test_rnn_json_is_up_to_date_with_the_cases():
    stale = "rnn_cases.py changed: run python tests/golden/generate_rnn.py (needs torch==2.13.0)"
    assert [c["id"] for c in GOLD["numeric"]] == list(SPECS), stale
    assert [(e[0], e[1]) for e in GOLD["errors"]] == [tuple(e[:2]) for e in rnn_cases.ERRORS], stale
    assert [w[:2] for w in GOLD["warnings"]] == [list(w) for w in rnn_cases.WARNINGS], stale
    assert [r[0] for r in GOLD["reprs"]] == rnn_cases.REPRS, stale
    assert [s[0] for s in GOLD["structure"]] == rnn_cases.STRUCTURE, stale
    assert [a[:2] for a in GOLD["attributes"]] == [list(a) for a in rnn_cases.ATTRIBUTES], stale


@pytest.mark.parametrize("case", GOLD["numeric"], ids=[c["id"] for c in GOLD["numeric"]])
def test_matches_pytorch_outputs_and_gradients(case):
    errs = replay_rnn.check_numeric(case, SPECS[case["id"]], "cpu")
    assert not errs, "\n".join(errs)


@pytest.mark.parametrize("entry", GOLD["errors"], ids=[e[0] for e in GOLD["errors"]])
def test_bad_input_raises_pytorchs_exception(entry):
    err = replay_rnn.check_error(entry)
    assert err is None, err


@pytest.mark.parametrize("entry", GOLD["warnings"], ids=[w[0] for w in GOLD["warnings"]])
def test_warnings_match_pytorch(entry):
    err = replay_rnn.check_warning(entry)
    assert err is None, err


@pytest.mark.parametrize("kind,entry", [(k, e) for k in ("reprs", "structure", "attributes") for e in GOLD[k]],
                         ids=[f"{k} {e[0]}" for k in ("reprs", "structure", "attributes") for e in GOLD[k]])
def test_repr_names_and_attributes_match_pytorch(kind, entry):
    err = replay_rnn.check_meta(kind, entry)
    assert err is None, err


# ---- what the goldens cannot pin down ---------------------------------------------------------------------
@pytest.mark.parametrize("make,hidden", [(lambda: nn.LSTM(3, 8, 2, proj_size=2, bidirectional=True), 8),
                                         (lambda: nn.GRU(3, 16), 16), (lambda: nn.RNNCell(3, 4), 4)])
def test_init_is_uniform_in_the_hidden_bound_from_our_random_stream(make, hidden):
    torch.manual_seed(3)
    a = make()
    torch.manual_seed(3)
    b = make()
    bound = 1 / math.sqrt(hidden)
    for (name, p), q in zip(a.named_parameters(), b.parameters()):
        v = p.detach()
        assert float(v.abs().max()) <= bound, name
        assert float(v.max() - v.min()) > bound / 2, name       # spread over the interval, not a constant
        assert v.tolist() == q.tolist(), name                   # the same seed, the same parameters


def test_dropout_between_layers_only_in_training():
    torch.manual_seed(0)
    m = nn.GRU(3, 4, num_layers=2, dropout=0.5)
    x = torch.randn(5, 2, 3)
    m.eval()
    ref, _ = m(x)
    no_drop = nn.GRU(3, 4, num_layers=2)
    no_drop.load_state_dict(m.state_dict())
    assert no_drop(x)[0].tolist() == ref.tolist()               # eval: p is ignored
    m.train()
    torch.manual_seed(1)
    y1, h1 = m(x)
    torch.manual_seed(1)
    y2, _ = m(x)
    torch.manual_seed(2)
    y3, h3 = m(x)
    assert y1.tolist() == y2.tolist() and y1.tolist() != y3.tolist()
    assert h1[0].tolist() == h3[0].tolist()                     # layer 0 sees the input undropped


def test_packed_sequence_is_pytorchs_namedtuple():
    p = R.pack_sequence([torch.ones(3, 2), torch.ones(1, 2), torch.ones(2, 2)], enforce_sorted=False)
    data, batch_sizes, sorted_indices, unsorted_indices = p
    assert R.PackedSequence._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert batch_sizes.device.type == "cpu" and batch_sizes.dtype == torch.int64
    assert p.to(torch.float32) is p and p.float() is p and not p.is_cuda and not p.is_pinned()
    assert R.PackedSequence((data, batch_sizes), sorted_indices=sorted_indices).unsorted_indices.tolist() == \
        unsorted_indices.tolist()


def test_lengths_longer_than_the_padded_input_raise():
    # PyTorch 2.13 reads past the end of the input here and returns made-up steps
    with pytest.raises(RuntimeError, match="the longest length is 4 but the padded input has only 3 time steps"):
        R.pack_padded_sequence(torch.ones(3, 2, 4), [4, 2])

