"""Evaluate smallint_cases.CASES with ``torch`` bound to borch_webgpu and compare with PyTorch's answers
in smallint.json: ``python replay_smallint.py [--device cpu|webgpu] [case id ...]``; in the browser
through the runner with ``--mount tests/golden``. Prints one line per mismatch and
``smallint: N passed, N failed [device ...]``."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import borch_webgpu as bw  # noqa: E402

from replay_dtype64 import main as replay  # noqa: E402
from smallint_cases import helpers  # noqa: E402


def placement_failures(device: str) -> list[str]:
    """Where the values live: on webgpu a uint8/int8/int16 tensor reports webgpu:0 and is held on the host
    (borch_webgpu/_dtype.py); results of other dtypes (sums, comparisons, casts) are on the GPU."""
    from borch_webgpu.device.cpu import CPUStorage
    u = bw.tensor([200, 100], dtype=bw.uint8, device=device)
    f = bw.ones(2, device=device)
    on_host = {"uint8 tensor": u, "uint8 + 1": u + 1, "int8 + uint8": u.char() + u, "float32.short()": f.short()}
    elsewhere = {"uint8 > 0": u > 0, "uint8.float()": u.float(), "uint8.sum()": u.sum(), "uint8 + float32": u + f}
    bad = [f"{k}: device {t.device}" for k, t in {**on_host, **elsewhere}.items() if str(t.device) != str(f.device)]
    bad += [f"{k}: not held on the host" for k, t in on_host.items() if not isinstance(t._storage, CPUStorage)]
    if device == "webgpu":
        bad += [f"{k}: not on the GPU" for k, t in elsewhere.items() if isinstance(t._storage, CPUStorage)]
    return bad


def main(argv=None) -> int:
    return replay(argv, "smallint.json", helpers, placement_failures, "smallint")


if __name__ == "__main__":
    sys.exit(main())
