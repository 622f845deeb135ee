"""Site step: bench/published.json, the figures the benchmark page shows under "Published figures",
from the committed results that bench/results/published.json lists (our bench JSON, the peers' JSON
of bench/peers_node.mjs, native PyTorch's, or a JSON the page itself saved). Medians in ms."""
from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


def _median(v):
    return v["ms"]["median"] if isinstance(v, dict) and isinstance(v.get("ms"), dict) else None


def _rows(ours: dict, peers: dict, native: dict | None) -> list[dict]:
    """The page's rows (the workloads of peers' config) from our bench JSON, the peers' and native's."""
    timed = {k: r for k, r in peers.items() if isinstance(r, dict) and (r.get("parity") or {}).get("passed")}
    cfg = peers["config"]
    rows = []
    for sec, batches in (("train", [cfg["train_batch"]]), ("infer", cfg["infer_batches"])):
        for b in (f"b{n}" for n in batches):
            v = ours.get(sec, {}).get(b, {})
            row = {"workload": f"{sec} {b.upper()}", "ours_eager": _median(v.get("eager")),
                   "ours_compiled": _median(v.get("compiled"))}
            for k in ("tfjs", "ort"):
                row[k] = _median(((timed.get(k) or {}).get(sec) or {}).get(b))
            row["native"] = ((native or {}).get(sec) or {}).get(b, {}).get("ms")
            rows.append(row)
    return rows


def build(site: Path) -> None:
    spec = json.loads((RESULTS / "published.json").read_text())
    runs = []
    for r in spec["runs"]:
        if "page" in r:
            page = json.loads((RESULTS / r["page"]).read_text())
            entry = {"title": r["title"], "date": page["date"], "adapter": page["adapter"], "browser": page["browser"],
                     "rows": page["rows"], "parity": {k: page[k].get("parity") for k in ("tfjs", "ort")},
                     "files": [r["page"]]}
        else:
            ours = json.loads((RESULTS / r["ours"]).read_text())
            peers = json.loads((RESULTS / r["peers"]).read_text())
            native = json.loads((RESULTS / r["native"]).read_text()) if r.get("native") else None
            entry = {"title": r["title"], "date": ours.get("date"), "adapter": ours.get("adapter"),
                     "browser": peers.get("runtime"), "rows": _rows(ours, peers, native),
                     "parity": {k: peers[k].get("parity") for k in ("tfjs", "ort")}, "native": native and native["lib"],
                     "files": [r[k] for k in ("ours", "peers", "native", "log") if r.get(k)]}
        runs.append(entry)
    (site / "bench" / "published.json").write_text(json.dumps({"runs": runs}, indent=1))
