"""numpy's keyword spellings on the cpu device (``x.sum(axis=1, keepdims=True)``), against PyTorch's answers frozen
in tests/golden/numpy_kw.json by tests/golden/generate_numpy_kw.py (torch 2.13.0): the ops PyTorch binds through
its argument parser take ``axis`` / ``keepdims``, its Python-level ops and ``nn.functional`` do not, and a name
given twice is refused with PyTorch's TypeError. Then the set of names that take them, against ``_bind``'s rule."""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import numpy_kw_cases  # noqa: E402
import replay_numpy_kw  # noqa: E402
import replay_rnn  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import _bind  # noqa: E402

GOLD = replay_numpy_kw.load()
OTHER = replay_rnn.other_entries(GOLD)


def test_numpy_kw_json_is_up_to_date_with_the_cases():
    stale = "numpy_kw_cases.py changed: run python tests/golden/generate_numpy_kw.py (needs torch==2.13.0)"
    assert [(e[0], e[1]) for e in GOLD["errors"]] == [tuple(e[:2]) for e in numpy_kw_cases.ERRORS], stale
    assert [a[:2] for a in GOLD["attributes"]] == [list(a) for a in numpy_kw_cases.ATTRIBUTES], stale


@pytest.mark.parametrize("kind,entry", OTHER, ids=[f"{k} {e[0]}" for k, e in OTHER])
def test_numpy_keywords_as_pytorchs(kind, entry):
    err = replay_rnn.check_other(kind, entry)
    assert err is None, err


def test_every_bound_op_with_dim_takes_axis_except_pytorchs_python_level_ones():
    x = torch.ones(2, 3)
    for name in sorted(_bind.FUNCTIONS):
        fn = getattr(torch, name)
        params = inspect.signature(fn).parameters
        takes = (("dim" in params and "axis" not in params) or ("keepdim" in params and "keepdims" not in params)) \
            and name not in _bind.PYTHON_LEVEL and not any(p.kind is p.VAR_POSITIONAL for p in params.values())
        assert getattr(fn, "numpy_keywords", False) == takes, name
    assert x.sum(axis=0, keepdims=True).shape == (1, 3) and x.cumsum_(axis=1)[0].tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'axis'"):
        x.split(1, axis=0)
