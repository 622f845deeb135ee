"""Sparse COO tensors, torch.sparse, Variable, torch.embedding_bag on WebGPU in Chromium: every case and error
of tests/golden/sparse.json (PyTorch 2.13's answers) replayed with the tensors on the device (the legacy
``torch.cuda.*Tensor`` errors are cpu-only: here 'cuda' is WebGPU, so they make tensors). Then the legacy
types themselves: ``torch.cuda.FloatTensor([1, 2])`` gives PyTorch's ``torch.FloatTensor([1, 2])`` on WebGPU,
and the sparse products and to_dense run as our kernels on the device (the values stay on WebGPU)."""
from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_sparse_goldens_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_sparse.py", "sparse:")


CHECK = '''
import json
import borch_webgpu as torch
t = torch.cuda.FloatTensor([1, 2])
l = torch.cuda.LongTensor(3)
{S}{D}p = torch.mm(s, d)
print("RESULT " + json.dumps({"cuda_available": torch.cuda.is_available(), "float": t.tolist(),
      "float_device": str(t.device), "float_dtype": str(t.dtype), "isinstance": isinstance(t, torch.cuda.FloatTensor),
      "long_shape": list(l.shape), "long_dtype": str(l.dtype),
      "values_device": str(s._values().device), "product_device": str(p.device), "product": p.tolist()}))
'''


def test_legacy_cuda_types_and_sparse_tensors_live_on_webgpu(browser):
    import sys
    sys.path.insert(0, str(GOLDEN))
    try:
        from sparse_cases import D, S
    finally:
        sys.path.remove(str(GOLDEN))
    code, out, err = browser.run(CHECK.replace("{S}", S).replace("{D}", D))
    assert code == 0, (out + err)[-4000:]
    got = json.loads(out.split("RESULT ", 1)[1].splitlines()[0])
    gold = {c["id"]: c["out"] for c in json.loads((GOLDEN / "sparse.json").read_text())["cases"]}
    assert got["cuda_available"] is True
    assert got["float"] == gold["legacy FloatTensor data"]["values"]
    assert got["float_dtype"] == gold["legacy FloatTensor data"]["dtype"]
    assert got["float_device"].startswith("webgpu") and got["isinstance"]
    assert got["long_shape"] == [3] and got["long_dtype"] == "torch.int64"
    assert got["values_device"].startswith("webgpu") and got["product_device"].startswith("webgpu")
    assert got["product"] == gold["torch.mm"]["values"]  # small integers and halves: exact in float32
