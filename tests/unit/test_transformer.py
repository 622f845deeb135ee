"""nn.Transformer, TransformerEncoder(Layer), TransformerDecoder(Layer), the is_causal hints and
F.scaled_dot_product_attention on the cpu device, against PyTorch's answers frozen in
tests/golden/transformer.json by tests/golden/generate_transformer.py (torch 2.13.0): outputs and the gradients
of inputs and parameters with PyTorch's weights loaded by load_state_dict(strict=True), error types and messages,
warnings, reprs and registered names. Then what the goldens cannot pin down: the initialisation through our
random stream, and dropout in training (shapes, statistics, the random stream)."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_rnn  # noqa: E402
import replay_transformer  # noqa: E402
import transformer_cases  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import nn  # noqa: E402
from borch_webgpu.nn import functional as F  # noqa: E402

GOLD = replay_transformer.load()
SPECS = {c[0]: c for c in transformer_cases.NUMERIC}
OTHER = replay_rnn.other_entries(GOLD)


def test_transformer_json_is_up_to_date_with_the_cases():
    stale = "transformer_cases.py changed: run python tests/golden/generate_transformer.py (needs torch==2.13.0)"
    cases = transformer_cases
    assert [c["id"] for c in GOLD["numeric"]] == list(SPECS), stale
    assert [(e[0], e[1]) for e in GOLD["errors"]] == [tuple(e[:2]) for e in cases.ERRORS], stale
    assert [w[:2] for w in GOLD["warnings"]] == [list(w) for w in cases.WARNINGS], stale
    assert [r[0] for r in GOLD["reprs"]] == cases.REPRS, stale
    assert [s[0] for s in GOLD["structure"]] == cases.STRUCTURE, stale
    assert [a[:2] for a in GOLD["attributes"]] == [list(a) for a in cases.ATTRIBUTES], stale
    assert set(cases.ON_WEBGPU) <= set(SPECS)


@pytest.mark.parametrize("case", GOLD["numeric"], ids=[c["id"] for c in GOLD["numeric"]])
def test_matches_pytorch_outputs_and_gradients(case):
    errs = replay_rnn.check_numeric(case, SPECS[case["id"]], "cpu", replay_transformer.TOL)
    assert not errs, "\n".join(errs)


@pytest.mark.parametrize("kind,entry", OTHER, ids=[f"{k} {e[0]}" for k, e in OTHER])
def test_errors_warnings_reprs_names_and_attributes_match_pytorch(kind, entry):
    err = replay_rnn.check_other(kind, entry)
    assert err is None, err


# ---- what the goldens cannot pin down ---------------------------------------------------------------------
def _model():
    return nn.Transformer(8, 2, 1, 1, 16, dropout=0.5, batch_first=True)


def test_init_xavier_uniform_on_matrices_and_pytorchs_biases():
    torch.manual_seed(3)
    a = _model()
    torch.manual_seed(3)
    b = _model()
    for (name, p), q in zip(a.named_parameters(), b.parameters()):
        v = p.detach()
        assert v.tolist() == q.tolist(), name                   # the same seed, the same parameters
        if p.dim() > 1:
            bound = math.sqrt(6.0 / (p.shape[0] + p.shape[1]))
            assert float(v.abs().max()) <= bound and float(v.max() - v.min()) > bound, name
        elif "norm" in name:
            assert v.tolist() == [1.0 if name.endswith("weight") else 0.0] * 8, name
        elif "in_proj_bias" in name or "out_proj.bias" in name:
            assert float(v.abs().max()) == 0.0, name           # MultiheadAttention's constant_ 0
        else:                                                   # Linear's default bias init, 1/sqrt(fan_in)
            fan_in = 8 if "linear1" in name else 16
            assert 0 < float(v.abs().max()) <= 1 / math.sqrt(fan_in), name


def test_dropout_in_training_follows_the_random_stream_and_eval_ignores_it():
    torch.manual_seed(0)
    m = _model()
    src, tgt = torch.randn(2, 5, 8), torch.randn(2, 3, 8)
    torch.manual_seed(1)
    y1 = m(src, tgt)
    torch.manual_seed(1)
    y2 = m(src, tgt)
    torch.manual_seed(2)
    y3 = m(src, tgt)
    assert y1.shape == (2, 3, 8) and y1.tolist() == y2.tolist() and y1.tolist() != y3.tolist()
    y3.sum().backward()
    assert all(p.grad is not None for p in m.parameters())
    m.eval()
    plain = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)
    plain.load_state_dict(m.state_dict(), strict=True)
    plain.eval()
    assert m(src, tgt).tolist() == plain(src, tgt).tolist()


def test_sdpa_dropout_drops_a_fraction_p_and_rescales_the_rest():
    # q = k = 0: every weight is 1/S; with v = I the output is the dropped weight matrix itself
    n, s, p = 4, 64, 0.25
    q = torch.zeros(n, s, 8)
    v = torch.eye(s).expand(n, s, s)
    torch.manual_seed(0)
    out = F.scaled_dot_product_attention(q, q, v, dropout_p=p)
    values = out.flatten().tolist()
    kept = [x for x in values if x != 0.0]
    assert all(abs(x - 1 / (s * (1 - p))) < 1e-6 for x in kept)
    frac = 1 - len(kept) / len(values)
    sigma = math.sqrt(p * (1 - p) / len(values))
    assert abs(frac - p) < 5 * sigma, frac
    assert F.scaled_dot_product_attention(q, q, v).tolist() == (torch.ones(n, s, s) / s).tolist()


def test_layers_are_independent_copies():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 3)
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2)
    for stack in (enc, dec):
        ws = [layer.linear1.weight for layer in stack.layers]
        assert len({id(w) for w in ws}) == len(ws)
        with torch.no_grad():
            ws[0].add_(1.0)
        assert ws[0].tolist() != ws[1].tolist()
