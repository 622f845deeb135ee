"""The deprecated ``nn.init`` names and ``nn.utils.clip_grad_norm`` (FutureWarning + the new function),
``nn.factory_kwargs`` and ``nn.utils.skip_init`` on the cpu device, against PyTorch 2.13's answers frozen in
tests/golden/nn_names.json by tests/golden/generate_nn_names.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import nn_names_cases  # noqa: E402
import replay_nn_names  # noqa: E402
import replay_rnn  # noqa: E402

GOLD = replay_nn_names.load()
OTHER = replay_rnn.other_entries(GOLD)


def test_nn_names_json_is_up_to_date_with_the_cases():
    stale = "nn_names_cases.py changed: run python tests/golden/generate_nn_names.py (needs torch==2.13.0)"
    assert [(e[0], e[1]) for e in GOLD["errors"]] == [tuple(e[:2]) for e in nn_names_cases.ERRORS], stale
    assert [w[:2] for w in GOLD["warnings"]] == [list(w) for w in nn_names_cases.WARNINGS], stale
    assert [a[:2] for a in GOLD["attributes"]] == [list(a) for a in nn_names_cases.ATTRIBUTES], stale


@pytest.mark.parametrize("kind,entry", OTHER, ids=[f"{k} {e[0]}" for k, e in OTHER])
def test_as_pytorchs(kind, entry):
    err = replay_rnn.check_other(kind, entry)
    assert err is None, err
