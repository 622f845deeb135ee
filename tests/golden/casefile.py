"""The frozen case files, tests/golden/cases/<op>.json.gz: gzip-compressed JSON (the float data in
them is base64 float32, which gzip halves), written byte-for-byte reproducibly (mtime 0)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

CASES = Path(__file__).resolve().parent / "cases"
SUFFIX = ".json.gz"


def path(op: str, folder: Path = CASES) -> Path:
    return folder / f"{op}{SUFFIX}"


def files(folder: Path = CASES) -> list[Path]:
    return sorted(folder.glob(f"*{SUFFIX}"))


def op_name(p: Path) -> str:
    return p.name[: -len(SUFFIX)]


def read(p: Path) -> dict:
    return json.loads(gzip.decompress(p.read_bytes()))


def write(p: Path, doc: dict) -> None:
    raw = (json.dumps(doc, separators=(",", ":")) + "\n").encode()
    p.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
