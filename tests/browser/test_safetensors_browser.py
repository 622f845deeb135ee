"""Hostile safetensors files inside Pyodide: a 10,000-deep header used to overflow the browser's call
stack in torch.load ("Maximum call stack size exceeded"); now it, and the other files of
tests/unit/_hostile_files.py, raise the same SafetensorError with the same message as in CPython,
and the runtime keeps working afterwards."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HOSTILE = Path(__file__).resolve().parents[1] / "unit" / "_hostile_files.py"


def test_hostile_files_raise_the_cpython_error_in_pyodide_and_the_runtime_survives(browser):
    sys.path.insert(0, str(HOSTILE.parent))
    try:
        from _hostile_files import cases, outcome
    finally:
        sys.path.remove(str(HOSTILE.parent))
    expected = {name: list(outcome(data)) for name, (data, _, _) in cases().items()}
    code, out, err = browser.run(HOSTILE.read_text() + """
import io
import json
import sys
got = {name: list(outcome(data)) for name, (data, _, _) in cases().items()}
got["100,000 deep"] = list(outcome(st_file(b"[" * 100_000 + b"]" * 100_000)))
# the runtime still works: compute on the default device, save and load back
x = torch.arange(6.).reshape(2, 3)
y = (x * 2).sum(0)
buf = io.BytesIO()
torch.save({"y": y, "step": 3}, buf)
back = torch.load(io.BytesIO(buf.getvalue()))
print(json.dumps({"got": got, "device": str(x.device), "y": back["y"].tolist(), "step": back["step"],
                  "platform": sys.platform}))
""")
    assert code == 0, out[-3000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r["platform"] == "emscripten"
    deep = r["got"].pop("100,000 deep")
    assert deep[:2] == ["borch_webgpu.serialization.SafetensorError", "HeaderTooDeep"]
    assert "the header nests 100000 levels deep" in deep[2]
    assert r["got"] == expected
    assert all(v[0] == "borch_webgpu.serialization.SafetensorError" for v in r["got"].values())
    assert r["y"] == [6.0, 10.0, 14.0] and r["step"] == 3
