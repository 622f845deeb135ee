"""Queries and edits of a captured trace (device/capture.py) that the fusion passes share
(device/trace_fusion.py, device/trace_fusion_bn.py): which pipeline key each record runs, where each
buffer version is used, which adds take a temporary one record wrote, and dropping records."""
from __future__ import annotations

from .layouts import EW

__all__ = ["_key_of", "_uses", "_add_operands", "_drop", "_plain_ew"]


def _key_of(rt) -> dict:
    return {pid: key for key, (pid, _) in rt.pipelines.items()}


def _uses(cap) -> dict[int, list[tuple[int, int]]]:
    touch: dict[int, list[tuple[int, int]]] = {}   # version -> (record, binding) of every use
    for i, vs in enumerate(cap.rec_versions):
        for j, v in enumerate(vs or ()):
            if v >= 0:
                touch.setdefault(v, []).append((i, j))
    return touch


def _add_operands(cap, keys):
    """(add record, operand j: 1 or 2, the record that wrote it, at which binding) of each float32 add
    or add_relu of two same-shape contiguous tensors into new memory whose operand j is a temporary
    that one record wrote and only the add reads: a residual add that record may take as its epilogue."""
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    for i3, vs in enumerate(cap.rec_versions):
        k3 = keys.get(cap.records[i3][0])
        if (vs is None or len(vs) != 3 or i3 in patched or cap.records[i3][3][EW.index("out_offset")] != 0
                or not (_plain_ew(k3, "add", 2) or _plain_ew(k3, "add_relu", 2))):
            continue
        for j in (1, 2):
            uses = touch.get(vs[j], []) if vs[j] >= 0 else []
            if len(uses) == 2 and uses[1] == (i3, j) and cap.versions[vs[j]][3] and uses[0][0] not in patched:
                yield i3, j, uses[0][0], uses[0][1]


def _drop(cap, drop: set[int]) -> None:
    """Remove records, then recompute every version's first and last use."""
    keep = [i for i in range(len(cap.records)) if i not in drop]
    where = {old: new for new, old in enumerate(keep)}
    cap.records = [cap.records[i] for i in keep]
    cap.rec_versions = [cap.rec_versions[i] for i in keep]
    cap.patches = [(where[i], j, w) for i, j, w in cap.patches]
    for ver in cap.versions:
        ver[1] = ver[2] = -1
    for i, vs in enumerate(cap.rec_versions):
        for v in vs or ():
            if v >= 0:
                ver = cap.versions[v]
                if ver[1] < 0:
                    ver[1] = i
                ver[2] = i


def _plain_ew(k, block: str, n: int) -> bool:
    """k is the key of a float32 elementwise `block` over n contiguous same-shape operands."""
    return (bool(k) and k[:3] == ("ew", "ops_binary.wgsl", block) and k[3:7] == ("f32", "f32", "f32", False)
            and k[7] == ("c",) * n and set(k[8]) == {"f32"} and not k[9] and not k[10])
