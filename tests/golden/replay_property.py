"""The fixed sample of property_cases.py (seeded: the same 100 cases every run) on borch_webgpu:
``python replay_property.py [--device cpu|webgpu] [--n 100]``; in the browser through the runner with
``--mount tests/golden``. Each case runs inside ``torch.scope()``; it must give numpy's value
(PyTorch's rules) or PyTorch's exception type. Prints one line per mismatch and
``property: N passed, N failed [device ...]``."""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import borch_webgpu as bw  # noqa: E402

import property_cases as P  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--n", type=int, default=100)
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    passed = failed = 0
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's warnings of the reference (log of negatives, 0/0)
        for i, case in enumerate(P.sample(ns.n)):
            with bw.scope():
                err = P.check(case, bw, device)
            if err:
                failed += 1
                print(f"FAIL case {i} ({case['family']} {case['op']}): {err}\n  {case}")
            else:
                passed += 1
    print(f"property: {passed} passed, {failed} failed [device {device}] in {time.perf_counter() - t0:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
