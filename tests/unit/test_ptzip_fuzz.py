"""Fuzzing torch.load's PyTorch-format reader in CPython with hypothesis (derandomized: CI sees the same
files every run): the committed checkpoints with bytes flipped anywhere, cut off or extended, and their
data.pkl mutated with the zip rebuilt around it (right CRCs, so the mutation reaches the unpickler).
Every file loads or raises what the reader documents: CheckpointError (SafetensorError once the zip
signature is gone) (a RuntimeError), PyTorch's
pickle.UnpicklingError, or PyTorch's RuntimeError for a storage location it cannot place; never another
exception, never more than 5 s."""
from __future__ import annotations

import io
import pickle
import time
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import borch_webgpu as torch
from _ptzip_hostile import records, rezip
from borch_webgpu.serialization import CheckpointError, SafetensorError

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "ptzip"
FILES = [(GOLDEN / f"{n}.pt").read_bytes() for n in ("ours_checkpoint", "torch_views", "torch_optimizer")]
RECORDS = [records(f) for f in FILES]
_FUZZ = settings(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
which = st.integers(0, len(FILES) - 1)


def _outcome(data: bytes) -> str:
    t = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.load(io.BytesIO(data))
        return "loaded"
    except CheckpointError as e:
        return e.kind
    except SafetensorError as e:  # the zip signature itself was changed: read as safetensors
        assert data[:4] != b"PK\x03\x04", e
        return e.kind
    except pickle.UnpicklingError as e:
        assert str(e).startswith("Weights only load failed."), e
        return "UnpicklingError"
    except RuntimeError as e:
        assert "restore data location" in str(e) or "CUDA device" in str(e), e
        return "location"
    finally:
        assert time.perf_counter() - t < 5, "load took more than 5 s"


@settings(_FUZZ, max_examples=150)
@given(which, st.lists(st.tuples(st.integers(0, 2 ** 20), st.integers(1, 255)), min_size=1, max_size=4))
def test_byte_flips_anywhere(i, flips):
    data = bytearray(FILES[i])
    for pos, x in flips:
        data[pos % len(data)] ^= x
    _outcome(bytes(data))


@settings(_FUZZ, max_examples=60)
@given(which, st.integers(0, 2 ** 20), st.binary(max_size=64))
def test_cut_or_extended(i, cut, extra):
    data = FILES[i]
    _outcome(data[:cut % len(data)] + extra)


@settings(_FUZZ, max_examples=300)
@given(which, st.data())
def test_pickle_mutations_reach_the_unpickler(i, draw):
    pkl = bytearray(RECORDS[i]["data.pkl"])
    for _ in range(draw.draw(st.integers(1, 4))):
        pos = draw.draw(st.integers(0, len(pkl) - 1))
        op = draw.draw(st.sampled_from(["flip", "insert", "delete", "opcode"]))
        if op == "flip":
            pkl[pos] ^= draw.draw(st.integers(1, 255))
        elif op == "insert":
            pkl[pos:pos] = draw.draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del pkl[pos:pos + draw.draw(st.integers(1, 8))]
        else:  # a valid opcode byte where another was
            pkl[pos] = draw.draw(st.sampled_from(b"()KJMXqh]}tRQsueba\x85\x86\x87\x88\x89N\x8a.cU"))
    _outcome(rezip({**RECORDS[i], "data.pkl": bytes(pkl)}))


def test_unmutated_files_load():
    assert [_outcome(f) for f in FILES] == ["loaded"] * len(FILES)
