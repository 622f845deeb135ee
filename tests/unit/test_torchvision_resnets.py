"""vision.models.resnet18/34/50 have torchvision's state-dict layout: the same keys, shapes and order,
a torchvision state dict loads with strict=True, and the loaded model gives torchvision's outputs
(tests/golden/torchvision_resnets.json, written by generate_resnets.py from torchvision 0.28.0)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import borch_webgpu as torch  # noqa: E402
from borch_webgpu.vision import models  # noqa: E402

from golden_io import decode  # noqa: E402
from resnet_weights import input_batch, value  # noqa: E402

FROZEN = json.loads((GOLDEN / "torchvision_resnets.json").read_text())
DTYPE = {"float32": torch.float32, "int64": torch.int64}


@pytest.mark.parametrize("name", sorted(FROZEN["models"]))
def test_state_dict_layout_matches_torchvision(name):
    sd = getattr(models, name)().state_dict()
    ours = [[k, list(v.shape), v.dtype] for k, v in sd.items()]
    theirs = [[k, shape, DTYPE[dt]] for k, shape, dt in FROZEN["models"][name]["state_dict"]]
    assert ours == theirs


@pytest.mark.parametrize("name", sorted(FROZEN["models"]))
def test_torchvision_state_dict_loads_and_gives_its_outputs(name):
    frozen = FROZEN["models"][name]
    sd = {k: torch.from_numpy(value(k, tuple(shape), i)) for i, (k, shape, _) in enumerate(frozen["state_dict"])}
    model = getattr(models, name)()
    result = model.load_state_dict(sd, strict=True)
    assert not result.missing_keys and not result.unexpected_keys
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(input_batch())).numpy().astype(np.float64)
    want = decode(frozen["logits"]).astype(np.float64)
    err = np.linalg.norm(got - want) / np.linalg.norm(want)
    tol = max(1e-5, 4 * frozen["float64_floor"])
    print(f"{name}: relative error of the logits {err:.2e} (tolerance {tol:.1e})")
    assert err <= tol, (name, err, tol)


def test_wrong_shapes_are_refused_with_pytorchs_message():
    frozen = FROZEN["models"]["resnet18"]
    sd = {k: torch.from_numpy(value(k, tuple(shape), i)) for i, (k, shape, _) in enumerate(frozen["state_dict"])}
    sd["fc.weight"] = torch.zeros(10, 512)
    with pytest.raises(RuntimeError, match=r"size mismatch for fc.weight: copying a param with shape "
                                           r"torch.Size\(\[10, 512\]\) from checkpoint, the shape in current model "
                                           r"is torch.Size\(\[1000, 512\]\)"):
        models.resnet18().load_state_dict(sd)
