"""Writes tests/golden/jit.json: torch.jit as real PyTorch 2.13 answers the scenarios of jit_cases.py,
and tests/golden/jit_files/: a TorchScript archive (torch.jit.save of the traced MLP, which borch_webgpu
must refuse with a clear message) and the same MLP's state_dict (torch.save), which it must load.

Run: PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_jit.py
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import jit_cases  # noqa: E402
from golden_io import encode  # noqa: E402


def to_json(v):
    if isinstance(v, np.ndarray):
        return {"array": encode(v)}
    if isinstance(v, dict):
        return {k: to_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_json(x) for x in v]
    return v


def main() -> None:
    torch.manual_seed(0)
    ans = jit_cases.record(torch)
    weights = ans.pop("state")
    files = HERE / "jit_files"
    files.mkdir(exist_ok=True)
    mlp = jit_cases.classes(torch)["mlp"]()
    mlp.load_state_dict({k: torch.from_numpy(v) for k, v in weights["mlp"].items()})
    x = torch.from_numpy(jit_cases.data((5, 4), 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.trace(mlp, x), str(files / "mlp_torchscript.pt"))
    torch.save(mlp.state_dict(), str(files / "mlp_state_dict.pt"))
    out = {"torch": torch.__version__, "weights": to_json(weights), "answers": to_json(ans),
           "files": {"mlp_input": to_json(x.numpy()), "mlp_output": to_json(mlp(x).detach().numpy())}}
    (HERE / "jit.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"jit.json: {len(ans)} answers; jit_files/: {sorted(p.name for p in files.iterdir())}")


if __name__ == "__main__":
    main()
