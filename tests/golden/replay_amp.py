"""Evaluate amp_cases.CASES (autocast, GradScaler) with ``torch`` bound to borch_webgpu and compare with
PyTorch's answers in amp.json: ``python replay_amp.py [--device cpu|webgpu] [case id ...]``; in the
browser through the runner with ``--mount tests/golden``. Compared as replay_bf16.py compares. Prints
one line per mismatch and ``amp: N passed, N failed [device ...]``."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import borch_webgpu as bw  # noqa: E402

from amp_cases import helpers  # noqa: E402
from replay_bf16 import main as replay  # noqa: E402


def placement_failures(device: str) -> list[str]:
    """Outside autocast nothing is wrapped, and inside a region on ``device`` matrix products run in
    bfloat16 on that device (PyTorch has nothing to compare with here)."""
    from borch_webgpu.amp import autocast_mode
    a = bw.ones(2, 3, device=device)
    bad = [] if not autocast_mode._SAVED else ["wrappers installed outside any region"]
    with bw.autocast(device, dtype=bw.bfloat16):
        y = a @ a.t()
        if not autocast_mode._SAVED:
            bad.append("no wrappers inside a region")
    if autocast_mode._SAVED:
        bad.append("wrappers left installed after the region")
    if (y.dtype, str(y.device)) != (bw.bfloat16, str(a.device)):
        bad.append(f"a @ a.t() in a region: {y.dtype} on {y.device}")
    import warnings
    other = "webgpu" if device == "cpu" else "cpu"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # autocast('webgpu') without WebGPU disables itself, with a warning
        with bw.autocast(other, dtype=bw.bfloat16):
            if (a @ a.t()).dtype is not bw.float32:
                bad.append(f"autocast({other!r}) cast a {device} tensor")
    if device == "webgpu":  # what the no-GPU cases of amp.json become where WebGPU runs: 'cuda' is enabled
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            scaler = bw.amp.GradScaler("cuda")
            region = bw.autocast("cuda", dtype=bw.bfloat16)
            with region:
                inside = bw.is_autocast_enabled()
        if [str(x.message) for x in w] or not scaler.is_enabled() or not region._enabled or not inside:
            bad.append(f"'cuda' on WebGPU: GradScaler enabled {scaler.is_enabled()}, autocast enabled "
                       f"{region._enabled} / {inside}, warnings {[str(x.message) for x in w]}")
        if str(scaler.scale(a).device) != str(a.device):
            bad.append("GradScaler('cuda').scale(x) left the WebGPU device")
    return bad


def main(argv=None) -> int:
    return replay(argv, "amp.json", helpers, placement_failures, "amp")


if __name__ == "__main__":
    sys.exit(main())
