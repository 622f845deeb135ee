"""Freeze torchvision's ResNet state-dict layout and outputs: ``python tests/golden/generate_resnets.py``.

Needs torch 2.13.0 (CPU) and torchvision 0.28.0 (``pip install --no-deps torchvision==0.28.0`` plus
pillow; its compiled ops need not load: only the models are used). For resnet18, resnet34 and
resnet50 it records every state-dict key with its shape and dtype, in order, loads the
deterministic weights of resnet_weights.py with ``load_state_dict(strict=True)`` and records the
eval-mode logits of a fixed batch, in float32 and in float64 (how far apart they are is PyTorch's
own float32 noise). Writes tests/golden/torchvision_resnets.json.
"""
from __future__ import annotations

import json
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

# torchvision's compiled ops (nms, ...) may not match this torch build; the models do not use them
sys.modules.setdefault("torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations"))
import torchvision  # noqa: E402
from torchvision import models  # noqa: E402

from golden_io import encode  # noqa: E402
from resnet_weights import input_batch, value  # noqa: E402

NAMES = ("resnet18", "resnet34", "resnet50")


def main() -> None:
    out = {"torch": torch.__version__, "torchvision": torchvision.__version__, "models": {}}
    x = torch.from_numpy(input_batch())
    for name in NAMES:
        model = getattr(models, name)()
        sd = model.state_dict()
        keys = [[k, list(v.shape), str(v.dtype).replace("torch.", "")] for k, v in sd.items()]
        new = {k: torch.from_numpy(value(k, tuple(v.shape), i)) for i, (k, v) in enumerate(sd.items())}
        model.load_state_dict(new, strict=True)
        model.eval()
        with torch.no_grad():
            y32 = model(x)
            y64 = model.double()(x.double())
        floor = float((y32.double() - y64).norm() / y64.norm())
        out["models"][name] = {"state_dict": keys, "logits": encode(y32.numpy()), "float64_floor": floor}
        print(f"{name}: {len(keys)} entries, logits |y| {float(y32.norm()):.3g}, float32 vs float64 {floor:.2e}")
    (HERE / "torchvision_resnets.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
