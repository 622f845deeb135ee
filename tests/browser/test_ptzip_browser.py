"""torch.save / torch.load in PyTorch's zip format inside Pyodide, on WebGPU in Chromium: the goldens of
tests/golden/generate_ptzip.py (real torch 2.13's files load as real torch loaded them, onto the WebGPU
device through a callable map_location; our writer, reading WebGPU storages back, makes the bytes real
torch verified; state dicts load into a WebGPU model and an Adam; the hostile pickles raise PyTorch's
UnpicklingError word for word) and a few hostile zips, in one page run."""
from __future__ import annotations

import json
from pathlib import Path

HOSTILE = Path(__file__).resolve().parents[1] / "unit" / "_ptzip_hostile.py"


def test_ptzip_goldens_and_hostile_files_on_webgpu(browser):
    code, out, err = browser.run_golden("replay_ptzip.py", ["--device", "webgpu"], timeout_s=600)
    assert code == 0, out[-3000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    drift = r.pop("training_drift")
    print("Adam on WebGPU against the cpu (not a serialization check):", drift)
    assert r == {"device": "webgpu", "checked": 27, "problems": []}
    code, out, err = browser.run(HOSTILE.read_text() + """
import json
got = {}
for name, (data, exc, kind, message) in cases().items():
    try:
        torch.load(io.BytesIO(data), map_location="webgpu")
        got[name] = "loaded"
    except Exception as e:
        got[name] = [type(e) is exc, getattr(e, "kind", "") == kind, message in str(e)]
x = torch.arange(6.0)
buf = io.BytesIO()
torch.save({"v": x[2:], "x": x}, buf)
back = torch.load(io.BytesIO(buf.getvalue()), map_location="webgpu")
print(json.dumps({"got": got, "v": back["v"].tolist(), "dev": str(back["v"].device),
                  "shared": back["v"]._storage is back["x"]._storage}))
""")
    assert code == 0, out[-3000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r["v"] == [2.0, 3.0, 4.0, 5.0] and r["dev"].startswith("webgpu") and r["shared"]
    assert {k: v for k, v in r["got"].items() if v != [True, True, True]} == {}
