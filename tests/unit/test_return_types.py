"""torch.return_types (the named tuples of max(dim), min(dim), median, mode, sort and topk) on the cpu device,
against PyTorch's answers frozen in tests/golden/return_types.json by tests/golden/generate_return_types.py
(torch 2.13.0): how they print, what they are, what their constructors and fields refuse. Then pickling, which
the goldens cannot hold."""
from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_return_types  # noqa: E402
import replay_rnn  # noqa: E402
import return_types_cases  # noqa: E402

import borch_webgpu as torch  # noqa: E402

GOLD = replay_return_types.load()
OTHER = replay_rnn.other_entries(GOLD)


def test_return_types_json_is_up_to_date_with_the_cases():
    stale = "return_types_cases.py changed: run python tests/golden/generate_return_types.py (needs torch==2.13.0)"
    assert [(e[0], e[1]) for e in GOLD["errors"]] == [tuple(e[:2]) for e in return_types_cases.ERRORS], stale
    assert [r[0] for r in GOLD["reprs"]] == return_types_cases.REPRS, stale
    assert [a[:2] for a in GOLD["attributes"]] == [list(a) for a in return_types_cases.ATTRIBUTES], stale


@pytest.mark.parametrize("kind,entry", OTHER, ids=[f"{k} {e[0]}" for k, e in OTHER])
def test_prints_behaves_and_refuses_as_pytorchs(kind, entry):
    err = replay_rnn.check_other(kind, entry)
    assert err is None, err


def test_pickles_and_is_a_plain_tuple_to_functions_that_take_one():
    r = torch.tensor([[1.0, 5.0], [3.0, 0.0]]).max(1)
    back = pickle.loads(pickle.dumps(r))
    assert type(back) is torch.return_types.max and back.values.tolist() == [5.0, 3.0]
    assert torch.stack(r).shape == (2, 2) and tuple(r) == (r.values, r.indices)
