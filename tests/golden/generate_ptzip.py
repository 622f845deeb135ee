"""Goldens for torch.save / torch.load in PyTorch's zip format (tests/golden/ptzip/), made by real torch:

    cd tests/golden && PYTHONPATH=<worktree> /tmp/torchenv/bin/python generate_ptzip.py

- ``torch_<name>.pt``: real ``torch.save`` of ptzip_cases.build(torch), plus ``torch_bfloat16.pt``; what a
  borch_webgpu ``torch.load`` must rebuild from each is in ptzip.json (``torch``: describe() of real
  torch.load's result, the same storages shared).
- ``ours_<name>.pt``: borch_webgpu's ``torch.save`` of the twin, ptzip_cases.build(borch_webgpu). Each is
  loaded here by real torch 2.13 with plain ``torch.load(f)`` (weights_only=True, its default): what it
  returned is ``ours`` in ptzip.json, the model and optimizer state dicts go through real
  ``load_state_dict``, and the file's sha256 is recorded, so CI (no torch there) checks that our writer
  still makes exactly these bytes.
- ``accepted``: hand-written pickles (every opcode family) and what real torch.load returns for each.
- ``refusals``: hostile pickles in a real checkpoint and the exception real torch.load raises for each,
  which ours must raise word for word.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import sys
import warnings
import zipfile
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
OUT = HERE / "ptzip"
sys.path.insert(0, str(HERE))
import borch_webgpu as bw  # noqa: E402
import ptzip_cases  # noqa: E402


def _torch_storage(t):
    return t.untyped_storage().data_ptr()


def _with_pickle(data: bytes, pkl: bytes) -> bytes:
    """A copy of checkpoint ``data`` whose data.pkl is ``pkl`` (the other records kept)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n in src.namelist():
            z.writestr(n, pkl if n.endswith("/data.pkl") else src.read(n))
    return out.getvalue()


class _System:
    def __reduce__(self):
        return os.system, ("echo pwned",)


def _refusals(base: bytes) -> dict:
    import argparse
    cases = {"os.system": pickle.dumps(_System(), protocol=2),
             "argparse.Namespace": pickle.dumps(argparse.Namespace(a=1), protocol=2),
             "eval": b"\x80\x02cbuiltins\neval\nX\x04\x00\x00\x001+1\x85R.",
             "unknown opcode": b"\x80\x02\xff.",
             "protocol 4": pickle.dumps({"a": 1}, protocol=4),
             "append to a dict": b"\x80\x02}K\x01a.",
             "persistent id not storage": b"\x80\x02X\x01\x00\x00\x00x\x85Q."}
    out = {}
    for name, pkl in cases.items():
        data = _with_pickle(base, pkl)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.load(io.BytesIO(data))
            raise AssertionError(f"real torch loaded the hostile pickle {name!r}")
        except Exception as e:  # noqa: BLE001
            out[name] = {"file": data.hex(), "type": f"{type(e).__module__}.{type(e).__qualname__}",
                         "message": str(e)}
    return out


def _accepted(base: bytes) -> dict:
    """Hand-written pickles real torch.load accepts, and what it returns for each."""
    cases = {"SHORT_BINSTRING (decoded as UTF-8)": b"\x80\x02U\x03abc.",
             "LONG1 and negative BININT": b"\x80\x02]q\x00(\x8a\t\x00\x00\x00\x00\x00\x00\x00\x00\x01J\xfe\xff\xff\xffe.",
             "complex and set": pickle.dumps([complex(1, -2), {3, 4}], protocol=2),
             "tuples 50 deep": b"\x80\x02)" + b"\x85" * 49 + b".",
             "memo shared list": b"\x80\x02]q\x00K\x01ah\x00\x86.",
             "empty set and dict": b"\x80\x02\x8f}\x86.",
             "bytes and bytearray": pickle.dumps([b"\x00\xff", bytearray(b"ab")], protocol=2)}
    out = {}
    for name, pkl in cases.items():
        data = _with_pickle(base, pkl)
        out[name] = {"file": data.hex(), "value": ptzip_cases.describe(torch.load(io.BytesIO(data)), _torch_storage)}
    return out


def main() -> None:
    OUT.mkdir(exist_ok=True)
    golden = {"torch_version": torch.__version__, "torch": {}, "ours": {}, "sha256": {}, "same_bytes_as_torch": {}}
    theirs = ptzip_cases.build(torch)
    theirs["bfloat16"] = {"bf16": torch.tensor([1.5, -2.0, 3.140625, 1e30], dtype=torch.bfloat16),
                          "view": torch.arange(6, dtype=torch.bfloat16).reshape(2, 3)[:, 1]}
    for name, obj in theirs.items():
        path = OUT / f"torch_{name}.pt"
        torch.save(obj, path)
        back = torch.load(path)
        golden["torch"][name] = ptzip_cases.describe(back, _torch_storage)
    ours = ptzip_cases.build(bw)
    for name, obj in ours.items():
        path = OUT / f"ours_{name}.pt"
        bw.save(obj, path)
        data = path.read_bytes()
        back = torch.load(io.BytesIO(data))  # real torch, weights_only=True
        golden["ours"][name] = ptzip_cases.describe(back, _torch_storage)
        golden["sha256"][name] = hashlib.sha256(data).hexdigest()
        # the same recipe saved by real torch (its archive folder named as ours): the same bytes, where the
        # values are the same (not for the Adam states: two steps round differently)
        real = io.BytesIO()
        torch.save(theirs[name], real)
        mine = io.BytesIO()
        bw.save(obj, mine)
        golden["same_bytes_as_torch"][name] = real.getvalue() == mine.getvalue()
    # real load_state_dict takes what we wrote
    m = ptzip_cases._model(torch)
    m.load_state_dict(torch.load(OUT / "ours_model.pt"), strict=True)
    m2, opt = ptzip_cases._trained(torch)
    opt.load_state_dict(torch.load(OUT / "ours_optimizer.pt"))
    opt.step()  # the loaded state is usable
    ck = torch.load(OUT / "ours_checkpoint.pt")
    assert ck["tied"][0] is ck["tied"][1] and isinstance(ck["param"], torch.nn.Parameter)
    golden["refusals"] = _refusals((OUT / "torch_dtypes.pt").read_bytes())
    golden["accepted"] = _accepted((OUT / "torch_dtypes.pt").read_bytes())
    (HERE / "ptzip.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print("wrote", HERE / "ptzip.json", "and", len(list(OUT.iterdir())), "files in", OUT)
    print("byte for byte what real torch.save writes:", golden["same_bytes_as_torch"])
    assert all(golden["same_bytes_as_torch"][n] for n in ("views", "dtypes", "model"))


if __name__ == "__main__":
    main()
