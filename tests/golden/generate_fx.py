"""Writes tests/golden/fx.json: torch.fx as real PyTorch 2.13 answers it, for the cases of fx_cases.py.

For each case: gm.code, str(gm.graph), print_readable(), print_tabular() (where every target prints
without a memory address), the nodes (op, name, target, args), ShapeProp's shapes and dtypes, the
outputs of the GraphModule, of fx.Interpreter and of the original root on the same inputs, and the
root's weights. For each transformation: the code and outputs after it. For each error case: the
exception type and message.

Run: PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_fx.py
"""
from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.fx as fx  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402

import fx_cases  # noqa: E402
import fx_examples  # noqa: E402
from golden_io import encode  # noqa: E402

SEED = 0


def inputs_for(shapes):
    g = np.random.default_rng(7)
    return [g.standard_normal(s).astype(np.float32) for s in shapes]


def flatten_out(out):
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in flatten_out(o)]
    return [out]


def encode_outputs(out):
    res = []
    for v in flatten_out(out):
        if isinstance(v, torch.Tensor):
            res.append(encode(v.detach().numpy()))
        elif isinstance(v, (int, float, bool, str, type(None))):
            res.append({"value": v})
        else:
            res.append({"str": str(v)})
    return res


def stable_tabular(gm) -> bool:
    return all(n.op != "call_function" or getattr(n.target, "__module__", "") in ("_operator", "builtins")
               for n in gm.graph.nodes)


def captured(fn) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue()


def describe(gm, root, xs) -> dict:
    from torch.fx.node import _format_arg
    entry = {"code": gm.code, "graph": str(gm.graph), "readable": gm.print_readable(print_output=False),
             "nodes": [[n.op, n.name, n._pretty_print_target(n.target), _format_arg(n.args), _format_arg(n.kwargs),
                        sorted(u.name for u in n.users)] for n in gm.graph.nodes],
             "str": str(gm).split("\n\n\n", 1)[1] if "\n\n\n" in str(gm) else str(gm)}
    if stable_tabular(gm):
        entry["tabular"] = captured(gm.graph.print_tabular)
    tensors = [torch.from_numpy(x) for x in xs]
    with torch.no_grad():
        entry["outputs"] = encode_outputs(gm(*tensors))
        entry["interpreter"] = encode_outputs(fx.Interpreter(gm).run(*tensors))
        if root is not None:
            entry["root_outputs"] = encode_outputs(root(*tensors))
    return entry


def state(root) -> dict:
    if not isinstance(root, torch.nn.Module):
        return {}
    return {k: encode(v.detach().numpy()) for k, v in root.state_dict().items()}


def main() -> None:
    gold = {"torch": torch.__version__, "cases": {}, "transforms": {}, "errors": {}, "shape_prop": {}}
    for name, build in fx_cases.CASES.items():
        torch.manual_seed(SEED)
        root, shapes = build(torch)
        xs = inputs_for(shapes)
        gm = fx.symbolic_trace(root)
        entry = describe(gm, root, xs)
        entry["state"] = state(root)
        entry["inputs"] = [encode(x) for x in xs]
        gold["cases"][name] = entry
        gm2 = fx.symbolic_trace(root)
        ShapeProp(gm2).propagate(*[torch.from_numpy(x) for x in xs])
        gold["shape_prop"][name] = [[n.name, list(n.meta["tensor_meta"].shape), str(n.meta["tensor_meta"].dtype)]
                                    if "tensor_meta" in n.meta and hasattr(n.meta["tensor_meta"], "shape")
                                    else [n.name, None, n.meta.get("type").__name__ if n.meta.get("type") else None]
                                    for n in gm2.graph.nodes]
    for case, tname in fx_cases.TRANSFORMS:
        torch.manual_seed(SEED)
        root, shapes = fx_cases.CASES[case](torch)
        xs = inputs_for(shapes)
        gm = fx_cases.TRANSFORM_FNS[tname](torch, fx, fx.symbolic_trace(root))
        entry = describe(gm, None, xs)
        entry["modules"] = [n for n, _ in gm.named_modules()]
        gold["transforms"][f"{case}:{tname}"] = entry
    for name, build in fx_cases.ERRORS.items():
        try:
            fx.symbolic_trace(build(torch))
        except Exception as e:  # noqa: BLE001
            gold["errors"][name] = [type(e).__module__ + "." + type(e).__qualname__, str(e)]
        else:
            raise AssertionError(f"{name} traced")
    for name, run in fx_cases.RUN_ERRORS.items():
        try:
            run(torch, fx)
        except Exception as e:  # noqa: BLE001
            gold["errors"][name] = [type(e).__module__ + "." + type(e).__qualname__, str(e)]
    gm = fx.symbolic_trace(fx_cases.concrete_flag(torch), concrete_args={"flag": False})
    gold["concrete"] = {"code": gm.code, "graph": str(gm.graph),
                        "outputs": encode_outputs(gm(torch.ones(2), False))}
    g = fx.symbolic_trace(fx_cases.function(torch)[0])
    try:
        g.graph.erase_node(next(n for n in g.graph.nodes if n.op == "placeholder"))
    except Exception as e:  # noqa: BLE001
        gold["errors"]["erase_used"] = [type(e).__module__ + "." + type(e).__qualname__, str(e)]
    f, pattern, replacement, shapes = fx_cases.rewrite(torch)
    gm = fx.symbolic_trace(f)
    matches = fx.replace_pattern(gm, pattern, replacement)
    xs = inputs_for(shapes)
    gold["rewrite"] = {"code": gm.code, "graph": str(gm.graph),
                       "matches": [[m.anchor.name, [[str(k), str(v)] for k, v in m.nodes_map.items()]] for m in matches],
                       "outputs": encode_outputs(gm(*[torch.from_numpy(x) for x in xs])),
                       "inputs": [encode(x) for x in xs]}
    gold["examples"] = {}
    for name, example in fx_examples.EXAMPLES.items():
        with torch.no_grad():
            items = example(torch, fx)
        gold["examples"][name] = [{"text": v} if isinstance(v, str) else encode_outputs(v)[0] for v in items]
    (HERE / "fx.json").write_text(json.dumps(gold, indent=1) + "\n")
    print(f"wrote fx.json: {len(gold['cases'])} cases, {len(gold['transforms'])} transforms, "
          f"{len(gold['errors'])} errors")


if __name__ == "__main__":
    main()
