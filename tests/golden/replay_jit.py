"""Replay jit.json (PyTorch 2.13's answers to jit_cases.py, tests/golden/generate_jit.py) on borch_webgpu:
``python replay_jit.py [--device cpu|webgpu]``; in the browser through the runner with ``--mount
tests/golden``. The models get PyTorch's weights, ``jit_cases.record`` runs every scenario here, and each
answer is compared: arrays within 1e-5 (float32 through a few GEMMs and a conv in another order), the
rest exactly, exception messages exactly where jit_cases.EXACT_MESSAGES says (the others by type). Then
the two files PyTorch wrote: its TorchScript archive must be refused with a RuntimeError that names it
and says to load the state_dict, and its state_dict must load and give PyTorch's output.
Prints one line per mismatch and ``jit: N passed, N failed``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as torch  # noqa: E402

import jit_cases  # noqa: E402
from golden_io import decode  # noqa: E402

RTOL = ATOL = 1e-5


def load() -> dict:
    return json.loads((HERE / "jit.json").read_text())


def from_json(v):
    if isinstance(v, dict) and set(v) == {"array"}:
        return decode(v["array"])
    if isinstance(v, dict):
        return {k: from_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [from_json(x) for x in v]
    return v


def diff(got, want, where: str) -> list[str]:
    if isinstance(want, np.ndarray):
        got = np.asarray(got)
        if got.shape != want.shape:
            return [f"{where}: shape {got.shape}, PyTorch {want.shape}"]
        if not np.allclose(got, want, rtol=RTOL, atol=ATOL):
            return [f"{where}: max |diff| {np.abs(got.astype(np.float64) - want).max():.3g}"]
        return []
    if isinstance(want, dict):
        if set(got) != set(want):
            return [f"{where}: keys {sorted(got)}, PyTorch {sorted(want)}"]
        return [m for k in want for m in diff(got[k], want[k], f"{where}/{k}")]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{where}: {got!r}, PyTorch {want!r}"]
        return [m for i, (a, b) in enumerate(zip(got, want)) for m in diff(a, b, f"{where}[{i}]")]
    return [] if got == want else [f"{where}: {got!r}, PyTorch {want!r}"]


def check_answers(gold: dict, device: str) -> tuple[int, list[str]]:
    weights = from_json(gold["weights"])
    ours = jit_cases.record(torch, device, weights)
    ours.pop("state")
    want = from_json(gold["answers"])
    errors_want = want.pop("errors")
    errors_got = ours.pop("errors")
    fails = []
    if set(ours) != set(want):
        fails.append(f"answers: ours {sorted(set(ours) ^ set(want))} differ")
    n = 0
    for k in sorted(want):
        n += 1
        fails += diff(ours.get(k), want[k], k)
    for k, w in errors_want.items():
        n += 1
        g = errors_got.get(k, {})
        if g.get("type") != w["type"]:
            fails.append(f"errors/{k}: {g.get('type')} ({g.get('message')}), PyTorch {w['type']} ({w['message']})")
        elif k in jit_cases.EXACT_MESSAGES and g.get("message") != w["message"]:
            fails.append(f"errors/{k}: message {g.get('message')!r}, PyTorch {w['message']!r}")
    return n, fails


def check_files(gold: dict, device: str) -> tuple[int, list[str]]:
    import warnings
    fails = []
    files = HERE / "jit_files"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.jit.load(str(files / "mlp_torchscript.pt"))
        fails.append("jit.load of PyTorch's TorchScript archive did not raise")
    except RuntimeError as e:
        msg = str(e)
        if "TorchScript" not in msg or "state_dict" not in msg:
            fails.append(f"jit.load of a TorchScript archive: unclear message {msg!r}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.jit.load(str(files / "mlp_state_dict.pt"))
        fails.append("jit.load of a torch.save checkpoint did not raise")
    except RuntimeError as e:
        if "torch.load" not in str(e):
            fails.append(f"jit.load of a checkpoint: unclear message {str(e)!r}")
    mlp = jit_cases.classes(torch)["mlp"]()
    mlp.load_state_dict(torch.load(str(files / "mlp_state_dict.pt")))
    mlp = mlp.to(device)
    x = torch.from_numpy(from_json(gold["files"]["mlp_input"])).to(device)
    fails += diff(mlp(x).detach().cpu().numpy(), from_json(gold["files"]["mlp_output"]), "files/state_dict_output")
    return 3, fails


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    args = p.parse_args(argv)
    import time
    t0 = time.perf_counter()
    gold = load()
    n1, f1 = check_answers(gold, args.device)
    n2, f2 = check_files(gold, args.device)
    fails = f1 + f2
    for line in fails:
        print("FAIL", line)
    print(f"jit: {n1 + n2 - len(fails)} passed, {len(fails)} failed (device {args.device}, torch {gold['torch']}; {time.perf_counter() - t0:.1f} s)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
