"""Freeze what PyTorch computes for the catalog's small digit classifiers:
``PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_small_models.py`` writes
tests/golden/small_models.json. For each case of small_models_cases.py: the PyTorch twin of the
architecture (small_models_torch.py) is built, its state-dict layout recorded, the formula weights
loaded with ``strict=True``, and the eval-mode logits (in full), forward_features, pre-logits and the
feature maps of every stage (shape, sums and a sample) recorded on the case's input."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from catalog_cases import state_dict_values, summarize  # noqa: E402
from golden_io import encode  # noqa: E402
from small_models_cases import CASES, case_input  # noqa: E402
from small_models_torch import build  # noqa: E402


def model_case(case: dict) -> dict:
    model = build(case["factory"], case["args"])
    lay = [[k, list(v.shape), str(v.dtype).replace("torch.", "")] for k, v in model.state_dict().items()]
    values = state_dict_values(lay, case["seed"])
    model.load_state_dict({k: torch.from_numpy(values[k]) for k, _, _ in lay}, strict=True)
    model.eval()
    x = torch.from_numpy(case_input(case))
    with torch.no_grad():
        stages = model.stages(x)
        pre = model.pre_logits(stages[-1])
        y32 = model.fc(pre)
        y64 = model.double()(x.double())
    floor = float((y32.double() - y64).norm() / y64.norm())
    print(f"{case['id']}: {len(lay)} entries, logits |y| {float(y32.norm()):.3g}, float32 vs float64 {floor:.2e}")
    return {"id": case["id"], "state_dict": lay, "logits": encode(y32.numpy()), "float64_floor": floor,
            "forward_features": summarize(stages[-1].numpy()), "pre_logits": summarize(pre.numpy()),
            "stages": [summarize(s.numpy()) for s in stages]}


def main() -> None:
    if torch.__version__.split("+")[0] != "2.13.0":
        sys.exit(f"small_models.json comes from torch 2.13.0; this is {torch.__version__}")
    torch.manual_seed(0)
    doc = {"torch": torch.__version__, "cases": [model_case(c) for c in CASES]}
    (HERE / "small_models.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(doc['cases'])} cases written to {HERE / 'small_models.json'}")


if __name__ == "__main__":
    main()
