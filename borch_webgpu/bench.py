"""``python -m borch_webgpu.bench resnet18 [--node] [--sizes full|small] [--out FILE.json]``

The project's benchmark: CIFAR ResNet-18 training step (eager and ``torch.compile``), inference
(eager and compiled) and an MNIST MLP step, run by one runner process (headless Chromium, or Node
with Dawn under ``--node``) through :mod:`borch_webgpu.run`. Prints a table and writes the JSON
(adapter, runtime, date, per-step times, counters, memory, GPU time) to ``--out``, by default
``bench/results/<date>-<runtime>-<adapter>.json``. Options it does not know (``--steps N``,
``--runs N``, ``--gpu-steps N``, ``--sections train,infer,mlp``, ``--no-compile``) go to the program.
"""
from __future__ import annotations

import argparse
import datetime
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

__all__ = ["main"]
PROGRAMS = {"resnet18": "_bench_resnet.py"}


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9.+]+", "-", s).strip("-").lower() or "unknown"


def _fmt(v, nd=1) -> str:
    return "-" if v is None else f"{v:.{nd}f}"


def table(res: dict) -> str:
    """The results as a fixed-width text table (one row per workload)."""
    rows = [("workload", "eager ms", "compiled ms", "x", "GPU e/c ms", "dispatches e/c", "js_calls e/c", "peak MiB e/c")]
    for sec in ("train", "infer"):
        for b, r in (res.get(sec) or {}).items():
            rows.append((f"{sec} {b.upper()}", r))
    if res.get("mlp"):
        rows.append(("mlp B64", res["mlp"]))
    out = [rows[0]]
    for name, r in rows[1:]:
        e, c = r.get("eager"), r.get("compiled")
        g = lambda v, f: f(v) if v else None  # noqa: E731
        em, cm = g(e, lambda v: v["ms"]["median"]), g(c, lambda v: v["ms"]["median"])
        pair = lambda f, nd=0: f"{_fmt(g(e, f), nd)}/{_fmt(g(c, f), nd)}"  # noqa: E731
        out.append((name, _fmt(em), _fmt(cm), _fmt(em / cm, 2) if em and cm else "-",
                    pair(lambda v: v["gpu_ms"], 2), pair(lambda v: v["per_step"].get("dispatches")),
                    pair(lambda v: v["per_step"].get("js_calls")),
                    pair(lambda v: v["max_memory_allocated"] / 2**20, 1)))
    w = [max(len(r[i]) for r in out) for i in range(len(out[0]))]
    return "\n".join("  ".join(s.ljust(w[i]) if i == 0 else s.rjust(w[i]) for i, s in enumerate(r)) for r in out)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the benchmark in the runner, print the table and write the JSON."""
    ap = argparse.ArgumentParser(prog="python -m borch_webgpu.bench", description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", choices=sorted(PROGRAMS), help="the workload: " + ", ".join(sorted(PROGRAMS)))
    ap.add_argument("--node", action="store_true", help="run under Node 20 with Dawn instead of headless Chromium")
    ap.add_argument("--sizes", choices=("full", "small"), default="full",
                    help="full: width 64, 32x32, train B16/64/128; small: width 8, 16x16, B4/8 (default full)")
    ap.add_argument("--out", metavar="FILE.json", help="where to write the JSON (default bench/results/...)")
    ap.add_argument("--timeout", type=float, metavar="SECONDS", help="stop the runner after this long")
    ap.add_argument("--native", metavar="CMD", help="also run this shell command (a native PyTorch reference) "
                    "and record its output raw")
    ns, extra = ap.parse_known_args(argv)
    runtime = "node+dawn" if ns.node else "chromium"
    prog = Path(__file__).with_name(PROGRAMS[ns.model])
    cmd = [sys.executable, "-m", "borch_webgpu.run"] + (["--node"] if ns.node else []) + \
          (["--timeout", str(ns.timeout)] if ns.timeout else []) + [str(prog), "--sizes", ns.sizes] + extra
    date = datetime.datetime.now(datetime.timezone.utc)
    print("bench: " + shlex.join(cmd), file=sys.stderr, flush=True)
    found = None
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1) as p:
        for line in p.stdout:
            if line.startswith("JSON "):
                found = line[5:]
            else:
                sys.stdout.write(line)
                sys.stdout.flush()
    if found is None:
        print(f"bench: the runner exited with {p.returncode} and printed no JSON line", file=sys.stderr)
        return p.returncode or 1
    res = json.loads(found)
    res.update(runtime=runtime, date=date.isoformat(timespec="seconds"), model=ns.model, command=cmd)
    if ns.native:
        r = subprocess.run(ns.native, shell=True, capture_output=True, text=True)
        res["native"] = {"command": ns.native, "returncode": r.returncode, "stdout": r.stdout,
                         "stderr": r.stderr[-4000:]}
        sys.stdout.write(r.stdout)
    print(table(res))
    a = res.get("adapter") or {}
    name = "-".join(dict.fromkeys(v for v in (a.get("vendor"), a.get("architecture"), a.get("device")) if v))
    out = Path(ns.out or f"bench/results/{date:%Y-%m-%d}-{_slug(runtime)}-{_slug(name)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
    print(f"bench: wrote {out}", file=sys.stderr)
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
