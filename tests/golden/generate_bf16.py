"""Freeze PyTorch's answers to bf16_cases.CASES into bf16.json, and write two files PyTorch makes with
bfloat16 tensors (bf16_files/: ``torch.save`` and safetensors' ``save``, of bf16_cases.FILE_TENSORS):
``python tests/golden/generate_bf16.py`` (needs torch==2.13.0, the CPU build, and safetensors)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate_dtype64 import main  # noqa: E402


def files() -> None:
    import torch
    from safetensors.torch import save

    from bf16_cases import FILE_TENSORS
    out = Path(__file__).resolve().parent / "bf16_files"
    out.mkdir(exist_ok=True)
    d = {k: torch.tensor(v).bfloat16() for k, v in FILE_TENSORS.items()}
    torch.save(d, out / "torch_save.pt")
    (out / "torch.safetensors").write_bytes(save(d))
    print(f"wrote {out}/torch_save.pt and torch.safetensors")


if __name__ == "__main__":
    main("bf16_cases", "bf16.json")
    files()
