"""Expressions for torch.testing.assert_close, isclose/allclose/equal's argument checks, and the
dtype queries (finfo, iinfo, promote_types, result_type, can_cast, ...).

generate_compare.py evaluates each with ``torch`` bound to real PyTorch (``dev`` = "cpu") and
freezes the value, or the exception's type and message, into compare.json (``np``, ``nan`` and
``inf`` are bound too); replay_compare.py
evaluates them with ``torch`` bound to borch_webgpu on a device and compares. ``match`` says how
much of an exception's message must agree: "exact" (the default), "contains" (PyTorch's message
is part of ours, which names the op first) or "type" (only the type: PyTorch's argument parser
writes a long signature list ours does not copy). ``needs="f16"``: skipped where the device has
no float16; ``needs="no accelerator"``: only where WebGPU is unavailable (PyTorch's CPU build answers
there); ``needs="cpu"``: only on the cpu device (numpy memory sharing: WebGPU memory cannot alias numpy's).
"""
from __future__ import annotations

DTYPES = ("bool", "int32", "int64", "float16", "float32")


def T(values: str, dtype: str | None = None, grad: bool = False) -> str:
    """Source of a tensor on ``dev``."""
    extra = f", dtype=torch.{dtype}" if dtype else ""
    return f"torch.tensor({values}{extra}, device=dev{', requires_grad=True' if grad else ''})"


AC = "torch.testing.assert_close"
CASES: list[tuple] = [
    # ---- assert_close: tensors -----------------------------------------------------------------------------
    ("close float32", f"{AC}({T('[1.0, 2.0]')}, {T('[1.0, 2.000001]')})"),
    ("one of three", f"{AC}({T('[1.0, 2.0, 3.0]')}, {T('[1.0, 2.0, 3.1]')})"),
    ("two of three", f"{AC}({T('[1.0, 4.0, 5.0]')}, {T('[1.0, 2.0, 3.0]')})"),
    ("2-D index", f"{AC}({T('[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]')}, {T('[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]')})"),
    ("abs and rel at different places", f"{AC}({T('[0.5, 100.0, 3.0]')}, {T('[0.0, 101.0, 3.0]')})"),
    ("many elements", f"{AC}(torch.arange(1000, dtype=torch.float32, device=dev) * 1.001, "
                      f"torch.arange(1000, dtype=torch.float32, device=dev))"),
    ("shape", f"{AC}(torch.ones(2, device=dev), torch.ones(3, device=dev))"),
    ("shape 2-D", f"{AC}(torch.ones(2, 3, device=dev), torch.ones(3, 2, device=dev))"),
    ("dtype", f"{AC}(torch.ones(2, device=dev), torch.ones(2, dtype=torch.int64, device=dev))"),
    ("dtype unchecked, equal", f"{AC}(torch.ones(2, device=dev), torch.ones(2, dtype=torch.int64, device=dev), "
                               "check_dtype=False)"),
    ("dtype unchecked, differing", f"{AC}({T('[1.5, 2.0]')}, {T('[1, 2]')}, check_dtype=False)"),
    ("int64", f"{AC}({T('[1, 2, 3]')}, {T('[1, 2, 4]')})"),
    ("int32", f"{AC}({T('[10, 20, 30]', 'int32')}, {T('[10, 25, 30]', 'int32')})"),
    ("int64 against zero", f"{AC}({T('[1, 5, 7]')}, {T('[0, 5, 9]')})"),
    ("int64 with tolerances", f"{AC}({T('[100, 200]')}, {T('[101, 200]')}, rtol=0.001, atol=0)"),
    ("bool", f"{AC}({T('[True, False, True]')}, {T('[True, True, True]')})"),
    ("nan", f"{AC}({T('[1.0, nan]')}, {T('[1.0, nan]')})"),
    ("nan equal_nan", f"{AC}({T('[1.0, nan]')}, {T('[1.0, nan]')}, equal_nan=True)"),
    ("nan against a number", f"{AC}({T('[1.0, nan, 2.0]')}, {T('[1.0, 3.0, 2.5]')}, equal_nan=True)"),
    ("inf equal", f"{AC}({T('[inf, -inf]')}, {T('[inf, -inf]')})"),
    ("inf sign", f"{AC}({T('[inf, 1.0]')}, {T('[-inf, 1.0]')})"),
    ("inf against a number", f"{AC}({T('[inf, 1.0]')}, {T('[1.0, 1.0]')})"),
    ("0-d", f"{AC}({T('1.1')}, {T('1.0')})"),
    ("0-d nan", f"{AC}({T('nan')}, {T('nan')})"),
    ("0-d int", f"{AC}({T('3')}, {T('5')})"),
    ("0-d bool", f"{AC}({T('True')}, {T('False')})"),
    ("0-d against zero", f"{AC}({T('0.5')}, {T('0.0')})"),
    ("rtol atol given", f"{AC}({T('[1.0, 2.0]')}, {T('[1.05, 2.0]')}, rtol=0.1, atol=0.0)"),
    ("rtol atol given, failing", f"{AC}({T('[1.0, 2.0]')}, {T('[1.5, 2.0]')}, rtol=0.1, atol=0.0)"),
    ("zero tolerances", f"{AC}({T('[1.0, 2.0]')}, {T('[1.0, 2.000001]')}, rtol=0, atol=0)"),
    ("integer tolerances", f"{AC}({T('[1.0, 5.0]')}, {T('[1.0, 2.0]')}, rtol=1, atol=1)"),
    ("only rtol", f"{AC}({T('[1.0]')}, {T('[1.0]')}, rtol=0.1)"),
    ("only atol", f"{AC}({T('[1.0]')}, {T('[1.0]')}, atol=0.1)"),
    ("msg string", f"{AC}({T('[1.0, 4.0, 5.0]')}, {T('[1.0, 2.0, 3.0]')}, msg='Argh, the tensors are not close!')"),
    ("msg callable", f"{AC}({T('[1.0, 4.0, 5.0]')}, {T('[1.0, 2.0, 3.0]')}, "
                     "msg=lambda m: f'Header\\n\\n{m}\\n\\nFooter')"),
    ("msg on a shape mismatch", f"{AC}(torch.ones(2, device=dev), torch.ones(3, device=dev), msg='custom')"),
    ("requires_grad", f"{AC}({T('[1.0, 2.0]', grad=True)}, {T('[1.0, 2.5]')})"),
    ("transposed view", f"{AC}(torch.arange(6.0, device=dev).reshape(2, 3).t(), "
                        "torch.arange(6.0, device=dev).reshape(2, 3).t().contiguous())"),
    ("check_stride", f"{AC}(torch.arange(6.0, device=dev).reshape(2, 3).t(), "
                     "torch.arange(6.0, device=dev).reshape(2, 3).t().contiguous(), check_stride=True)"),
    ("empty", f"{AC}(torch.ones(0, 3, device=dev), torch.ones(0, 3, device=dev))"),
    ("Parameter and Tensor", f"{AC}(torch.nn.Parameter(torch.ones(2, device=dev)), torch.ones(2, device=dev))"),
    ("Parameter and Tensor, no subclasses", f"{AC}(torch.nn.Parameter(torch.ones(2, device=dev)), "
                                            "torch.ones(2, device=dev), allow_subclasses=False)"),
    ("tensor and float", f"{AC}({T('1.0')}, 1.0)"),
    ("tensor and numpy", f"{AC}({T('[1.0]')}, np.array([1.0], dtype=np.float32))"),
    ("numpy float32", f"{AC}(np.array([1.0, 2.0], dtype=np.float32), np.array([1.0, 2.5], dtype=np.float32))"),
    ("numpy int64", f"{AC}(np.array([1, 2]), np.array([1, 2]))"),
    ("float16", f"{AC}({T('[1.0, 2.0]', 'float16')}, {T('[1.0, 2.001]', 'float16')})", {"needs": "f16"}),
    ("float16 failing", f"{AC}({T('[1.0, 2.0]', 'float16')}, {T('[1.0, 2.01]', 'float16')})", {"needs": "f16"}),
    ("float16 and float32", f"{AC}({T('[1.0, 2.0]', 'float16')}, {T('[1.0, 2.0005]')}, check_dtype=False)",
     {"needs": "f16"}),
    ("float16 and float32, failing", f"{AC}({T('[1.0, 2.0]', 'float16')}, {T('[1.0, 2.01]')}, check_dtype=False)",
     {"needs": "f16"}),
    # ---- assert_close: numbers, None, containers ---------------------------------------------------------
    ("floats close", f"{AC}(1.0, 1.0 + 1e-8)"),
    ("floats", f"{AC}(1.0, 1.1)"),
    ("floats equal_nan", f"{AC}(float('nan'), float('nan'), equal_nan=True)"),
    ("floats nan", f"{AC}(float('nan'), float('nan'))"),
    ("ints", f"{AC}(1, 2)"),
    ("float and int", f"{AC}(1.0, 1)"),
    ("float and int unchecked", f"{AC}(1.0, 1, check_dtype=False)"),
    ("zero tolerance floats", f"{AC}(1e-9, 1e-10, rtol=0, atol=0)"),
    ("numpy scalars", f"{AC}(np.float32(1.0), np.float32(1.5))"),
    ("bools", f"{AC}(True, True)"),
    ("bools differing", f"{AC}(True, False)"),
    ("None", f"{AC}(None, None)"),
    ("None and a number", f"{AC}(None, 1)"),
    ("strings", f"{AC}('a', 'a')"),
    ("list and tuple", f"{AC}([{T('[1.0]')}, 2.0], ({T('[1.0]')}, 2.0))"),
    ("sequence lengths", f"{AC}([1.0, 2.0], [1.0])"),
    ("sequence item", f"{AC}([{T('[1.0]')}, {T('[2.0, 3.0]')}], [{T('[1.0]')}, {T('[2.0, 3.5]')}])"),
    ("sequence item, msg callable", f"{AC}([1.0, 2.0], [1.0, 3.0], msg=lambda m: m.upper())"),
    ("sequence item, msg string", f"{AC}([1.0, 2.0], [1.0, 3.0], msg='nope')"),
    ("nested mapping", f"{AC}({{'a': {T('[1.0]')}, 'b': [{T('[1.0]')}, {T('[2.0]')}]}}, "
                       f"{{'b': [{T('[1.0]')}, {T('[2.5]')}], 'a': {T('[1.0]')}}})"),
    ("mapping keys", f"{AC}({{'a': 1.0, 'b': 2.0}}, {{'a': 1.0, 'c': 2.0}})"),
    ("mapping equal", f"{AC}({{'w': {T('[1.0, 2.0]')}, 'n': 3}}, {{'n': 3, 'w': {T('[1.0, 2.0]')}}})"),
    ("Size and tuple", f"{AC}(torch.ones(2, 3, device=dev).shape, (2, 3))"),
    ("Size and tuple, differing", f"{AC}(torch.ones(2, 3, device=dev).shape, (2, 4))"),
    # ---- isclose / allclose / equal: argument checks ---------------------------------------------------------
    ("isclose dtypes", f"torch.isclose({T('[1.0]')}, {T('[1]')})"),
    ("isclose int dtypes", f"torch.isclose({T('[1]')}, {T('[1]', 'int32')})"),
    ("isclose bool and float", f"torch.isclose({T('[True]')}, {T('[1.0]')})"),
    ("isclose number other", f"torch.isclose({T('[1.0]')}, 1.0)"),
    ("isclose number input", f"torch.isclose(1.0, {T('[1.0]')})"),
    ("isclose negative rtol", f"torch.isclose({T('[1.0]')}, {T('[1.0]')}, rtol=-1)"),
    ("isclose negative small rtol", f"torch.isclose({T('[1.0]')}, {T('[1.0]')}, rtol=-1e-10)"),
    ("isclose negative atol", f"torch.isclose({T('[1.0]')}, {T('[1.0]')}, rtol=0.1, atol=-2)"),
    ("isclose equal_nan not bool", f"torch.isclose({T('[1.0]')}, {T('[1.0]')}, equal_nan=1)"),
    ("isclose broadcast", "torch.isclose(torch.ones(2, device=dev), torch.ones(3, device=dev))",
     {"match": "contains"}),
    ("isclose values", f"torch.isclose({T('[1.0, 1.0, nan, 0.0]')}, {T('[1.0, 1.00002, nan, 1e-8]')})"),
    ("isclose grad input", f"torch.isclose({T('[1.0, 2.0]', grad=True)}, {T('[1.0, 2.1]')})"),
    ("Tensor.isclose", f"{T('[1.0, 2.0]')}.isclose({T('[1.05, 2.5]')}, 0.1, 0.0)"),
    ("allclose dtypes", f"torch.allclose({T('[1.0]')}, {T('[1]')})"),
    ("allclose number other", f"torch.allclose({T('[1.0]')}, 1.0)"),
    ("allclose negative rtol", f"torch.allclose({T('[1.0]')}, {T('[1.0]')}, rtol=-0.5)"),
    ("allclose broadcast", "torch.allclose(torch.ones(2, device=dev), torch.ones(3, device=dev))",
     {"match": "contains"}),
    ("allclose values", f"torch.allclose({T('[1.0, 2.0]')}, {T('[1.0, 2.00001]')})"),
    ("Tensor.allclose", f"{T('[1.0, 2.0]')}.allclose({T('[1.0, 2.5]')}, 0.1, 0.0)"),
    ("equal number other", f"torch.equal({T('[1.0]')}, 1.0)"),
    ("equal number input", f"torch.equal(1.0, {T('[1.0]')})"),
    ("equal values", f"torch.equal({T('[1.0, 2.0]')}, {T('[1, 2]')})"),
    ("Tensor.equal", f"{T('[1.0, 2.0]')}.equal({T('[1.0, 2.5]')})"),
    # ---- dtype information ----------------------------------------------------------------------------------
    ("finfo()", "repr(torch.finfo())"),
    ("finfo float", "repr(torch.finfo(float))"),
    ("finfo int", "torch.finfo(int)"),
    ("finfo str", "torch.finfo('float32')"),
    ("finfo None", "torch.finfo(None)"),
    ("finfo type=", "repr(torch.finfo(type=torch.float16))"),
    ("finfo equal", "torch.finfo(torch.float32) == torch.finfo(torch.float)"),
    ("finfo not equal", "torch.finfo(torch.float32) == torch.finfo(torch.float16)"),
    ("finfo hash", "hash(torch.finfo(torch.float32))", {"match": "type"}),  # a C type's name: 'torch.finfo'
    ("iinfo int", "repr(torch.iinfo(int))"),
    ("iinfo str", "torch.iinfo('int32')"),
    ("iinfo missing", "torch.iinfo()", {"match": "type"}),
    ("iinfo equal", "torch.iinfo(torch.int32) == torch.iinfo(torch.int)"),
    ("is_tensor tensor", "torch.is_tensor(torch.ones(1, device=dev))"),
    ("is_tensor Parameter", "torch.is_tensor(torch.nn.Parameter(torch.ones(1, device=dev)))"),
    ("is_tensor list", "torch.is_tensor([1.0])"),
    ("is_tensor number", "torch.is_tensor(1.0)"),
    ("is_floating_point number", "torch.is_floating_point(1.0)"),
    ("is_floating_point keyword", "torch.is_floating_point(input=torch.ones(1, device=dev))"),
    ("promote_types int", "torch.promote_types(1, torch.bool)"),
    ("promote_types keywords", "torch.promote_types(type1=torch.int64, type2=torch.bool)"),
    ("can_cast int", "torch.can_cast(1, torch.int32)"),
    ("can_cast keywords", "torch.can_cast(from_=torch.int64, to=torch.float16)"),
    ("result_type list", "torch.result_type([1], 2)", {"match": "type"}),
    ("result_type str", "torch.result_type(torch.ones(1, device=dev), 'a')", {"match": "type"}),
    ("result_type keywords", "torch.result_type(tensor=torch.ones(1, device=dev), other=2)"),
]

for _d in ("float16", "float32", "float64"):
    CASES.append((f"finfo {_d}", f"repr(torch.finfo(torch.{_d}))"))
    for _attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        CASES.append((f"finfo {_d}.{_attr}", f"torch.finfo(torch.{_d}).{_attr}"))
for _d in ("int32", "int64"):
    CASES.append((f"iinfo {_d}", f"repr(torch.iinfo(torch.{_d}))"))
    for _attr in ("bits", "min", "max", "dtype"):
        CASES.append((f"iinfo {_d}.{_attr}", f"torch.iinfo(torch.{_d}).{_attr}"))
for _d in ("bool", "int32", "int64"):
    CASES.append((f"finfo {_d}", f"torch.finfo(torch.{_d})"))
for _d in ("bool", "float16", "float32"):
    CASES.append((f"iinfo {_d}", f"torch.iinfo(torch.{_d})"))
for _a in DTYPES:
    _opt = {"needs": "f16"} if _a == "float16" else {}
    CASES.append((f"element_size {_a}", f"torch.ones(2, dtype=torch.{_a}, device=dev).element_size()", _opt))
    CASES.append((f"is_floating_point {_a}", f"torch.is_floating_point(torch.ones(2, dtype=torch.{_a}, device=dev))",
                  _opt))
    CASES.append((f"Tensor.is_floating_point {_a}", f"torch.ones(2, dtype=torch.{_a}, device=dev).is_floating_point()",
                  _opt))
    for _b in DTYPES:
        CASES.append((f"promote_types {_a} {_b}", f"torch.promote_types(torch.{_a}, torch.{_b})"))
        CASES.append((f"can_cast {_a} {_b}", f"torch.can_cast(torch.{_a}, torch.{_b})"))
CASES.append(("promote_types float32 float64", "torch.promote_types(torch.float32, torch.float64)"))
CASES.append(("can_cast float64 float32", "torch.can_cast(torch.float64, torch.float32)"))
# result_type: dimensioned and 0-d tensors of each dtype against tensors and Python numbers
_OPERANDS = [(f"{d}[2]", f"torch.ones(2, dtype=torch.{d}, device=dev)") for d in DTYPES if d != "float16"] + \
            [(f"{d}[]", f"torch.ones((), dtype=torch.{d}, device=dev)") for d in DTYPES if d != "float16"] + \
            [("True", "True"), ("2", "2"), ("2.5", "2.5")]
for _na, _a in _OPERANDS:
    for _nb, _b in _OPERANDS:
        CASES.append((f"result_type {_na} {_nb}", f"torch.result_type({_a}, {_b})"))
CASES.append(("result_type float16[2] 2.5", "torch.result_type(torch.ones(2, dtype=torch.float16, device=dev), 2.5)",
              {"needs": "f16"}))
CASES.append(("result_type float16[] int64[2]", "torch.result_type(torch.ones((), dtype=torch.float16, device=dev), "
              "torch.ones(2, dtype=torch.int64, device=dev))", {"needs": "f16"}))
# device and layout flags of a cpu tensor; then is_cpu on the device under test (False on webgpu, where is_cuda is
# True: what code written for CUDA asks to mean "on the GPU")
CASES.append(("Tensor.is_cpu on dev", "torch.ones(2, device=dev).is_cpu == (str(dev) == 'cpu')"))
CASES.append(("Tensor.is_cuda on dev", "torch.ones(2, device=dev).is_cuda == (str(dev) != 'cpu')"))
for _f in ("is_cpu", "is_cuda", "is_xpu", "is_mps", "is_meta", "is_mkldnn", "is_quantized", "is_nested", "is_sparse",
           "is_sparse_csr"):
    CASES.append((f"Tensor.{_f}", f"torch.ones(2, device='cpu').{_f}"))
# from_numpy / as_tensor / .numpy() share memory on cpu, as PyTorch's do; torch.tensor copies
_A = "(a := np.ones(3, np.float32))"
_CPU = {"needs": "cpu"}
for _name, _expr in [
        ("from_numpy sees numpy's writes", f"[{_A}, (t := torch.from_numpy(a)), np.add(a, 1, out=a), t][-1]"),
        ("numpy sees from_numpy's in-place op", f"[{_A}, torch.from_numpy(a).add_(1), a.tolist()][-1]"),
        ("numpy() of a tensor is its memory", "[(t := torch.zeros(3, device=dev)), t.numpy().__setitem__(0, 5.0), t][-1]"),
        ("numpy() of a float64 tensor", "[(t := torch.zeros(2, dtype=torch.float64, device=dev)), "
                                        "t.numpy().__setitem__(1, 2.5), t][-1]"),
        ("as_tensor shares", f"[{_A}, torch.as_tensor(a, device=dev).mul_(3), a.tolist()][-1]"),
        ("as_tensor with another dtype copies", f"[{_A}, torch.as_tensor(a, dtype=torch.float64).mul_(3), a.tolist()][-1]"),
        ("tensor copies", f"[{_A}, torch.tensor(a, device=dev).add_(100), a.tolist()][-1]"),
        ("from_numpy of a float64 array", "[(a := np.zeros(2)), (t := torch.from_numpy(a)), a.__setitem__(0, 7.0), t][-1]"),
        ("from_numpy of a transposed array", "[(a := np.ones((2, 3), np.float32).T), (t := torch.from_numpy(a)), "
                                             "t.shape, t.stride()][-2:]"),
        ("numpy() of a detached view writes through", "[(t := torch.zeros(2, 3, device=dev)), "
                                                      "t[:, 1].numpy().__setitem__(0, 4.0), t][-1]")]:
    CASES.append((_name, _expr, _CPU))
# torch.accelerator answers for WebGPU where it exists (the expressions hold on both devices), as CPU-only
# PyTorch answers elsewhere; torch.backends says that cuDNN, CUDA and MPS are absent, truthfully
_NOACC = {"needs": "no accelerator"}
for _name, _expr, *_opt in [
        ("accelerator.is_available", "torch.accelerator.is_available() == (str(dev) != 'cpu')"),
        ("accelerator.current_accelerator", "torch.accelerator.current_accelerator() == "
                                            "(torch.device(dev) if str(dev) != 'cpu' else None)"),
        ("accelerator.current_accelerator(check_available=True)",
         "torch.accelerator.current_accelerator(check_available=True) == (torch.device(dev) if str(dev) != 'cpu' "
         "else None)"),
        ("accelerator.device_count", "torch.accelerator.device_count() == (0 if str(dev) == 'cpu' else 1)"),
        ("accelerator.current_device_index", "torch.accelerator.current_device_index() if str(dev) != 'cpu' else 0"),
        ("accelerator.set_device_index(0)", "torch.accelerator.set_device_index(0) if str(dev) != 'cpu' else None"),
        ("accelerator.synchronize", "torch.accelerator.synchronize() if str(dev) != 'cpu' else None"),
        ("accelerator the examples' device line", "torch.ones(2, device=torch.accelerator.current_accelerator() "
                                                  "if torch.accelerator.is_available() else 'cpu').sum()"),
        ("error: accelerator.current_device_index without one", "torch.accelerator.current_device_index()", _NOACC),
        ("error: accelerator.set_device_index without one", "torch.accelerator.set_device_index(0)", _NOACC),
        ("error: accelerator.synchronize without one", "torch.accelerator.synchronize()", _NOACC),
        ("accelerator.device_index(None)", "[torch.accelerator.device_index(None).__enter__(), 1][1]"),
        ("backends.cudnn.is_available", "torch.backends.cudnn.is_available()"),
        ("backends.cudnn.version", "torch.backends.cudnn.version()"),
        ("backends.cudnn defaults", "[torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark, "
                                    "torch.backends.cudnn.deterministic, torch.backends.cudnn.allow_tf32]"),
        ("backends.cudnn.benchmark can be set", "[setattr(torch.backends.cudnn, 'benchmark', True), "
                                                "torch.backends.cudnn.benchmark, "
                                                "setattr(torch.backends.cudnn, 'benchmark', False)][1]"),
        ("backends.mps.is_available", "torch.backends.mps.is_available()"),
        ("backends.mps.is_built", "torch.backends.mps.is_built()"),
        ("backends.cuda.is_built", "torch.backends.cuda.is_built()"),
        ("backends.cuda.matmul defaults", "[torch.backends.cuda.matmul.allow_tf32, "
                                          "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction, "
                                          "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction]")]:
    CASES.append((_name, _expr, *_opt))
# the padding layers' reprs
for _m in ("ZeroPad2d(1)", "ZeroPad1d((1, 2))", "ConstantPad1d((1, 2), 3.5)", "ConstantPad3d(1, 0.0)", "ReflectionPad2d(1)",
           "ReflectionPad1d((0, 2))", "ReplicationPad3d(1)", "CircularPad2d(2)"):
    CASES.append((f"repr nn.{_m}", f"repr(torch.nn.{_m})"))
CASES.append(("nn.ZeroPad2d with a 3-tuple (refused at forward)", "repr(torch.nn.ZeroPad2d((1, 2, 3)))"))
# nn.DataParallel with one device (or none): the module itself runs; parameters under "module."
for _name, _expr in [
        ("DataParallel state_dict keys", "list(torch.nn.DataParallel(torch.nn.Linear(2, 1)).state_dict().keys())"),
        ("DataParallel forward is the module's", "[(m := torch.nn.Linear(2, 1).to(dev)), "
                                                 "torch.equal(torch.nn.DataParallel(m)(torch.ones(3, 2, device=dev)), "
                                                 "m(torch.ones(3, 2, device=dev)))][-1]"),
        ("DataParallel .module", "[(m := torch.nn.ReLU()), torch.nn.DataParallel(m).module is m][-1]"),
        ("DataParallel repr", "repr(torch.nn.DataParallel(torch.nn.ReLU()))"),
        ("DataParallel device_ids", "torch.nn.DataParallel(torch.nn.ReLU()).device_ids == "
                                    "([] if str(dev) == 'cpu' else [0])"),
        ("DataParallel parameters", "len(list(torch.nn.DataParallel(torch.nn.Linear(2, 1)).parameters()))"),
        ("nn.parallel.DataParallel", "torch.nn.parallel.DataParallel is torch.nn.DataParallel")]:
    CASES.append((_name, _expr))
# torch.autograd.gradcheck: float64 inputs, the whole Jacobian; a wrong backward raises PyTorch's GradcheckError
_X = "torch.tensor([0.3, 0.7], dtype=torch.float64, device=dev, requires_grad=True)"
_W = "torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, device=dev, requires_grad=True)"
_BAD = ("type('Bad', (torch.autograd.Function,), {'forward': staticmethod(lambda ctx, a: a * a), "
        "'backward': staticmethod(lambda ctx, g: g)}).apply")
for _name, _expr in [
        ("gradcheck sin(x*x)", f"torch.autograd.gradcheck(lambda a: (a * a).sin(), ({_X},))"),
        ("gradcheck a tensor, not a tuple", f"torch.autograd.gradcheck(torch.exp, {_X})"),
        ("gradcheck two inputs, two outputs", f"torch.autograd.gradcheck(lambda a, w: (a @ w, a.sum() * w), ({_X}, {_W}))"),
        ("gradcheck an input without grad", f"torch.autograd.gradcheck(lambda a, w: a @ w, ({_X}, {_W}.detach()))"),
        ("gradcheck softmax and log_softmax", f"torch.autograd.gradcheck(lambda w: (w.softmax(1), w.log_softmax(0)), "
                                              f"({_W},))"),
        ("error: gradcheck of a wrong backward", f"torch.autograd.gradcheck({_BAD}, ({_X},))"),
        ("gradcheck of a wrong backward, raise_exception=False", f"torch.autograd.gradcheck({_BAD}, ({_X},), "
                                                                 "raise_exception=False)"),
        ("error: gradcheck without an input that requires grad", f"torch.autograd.gradcheck(torch.exp, ({_X}.detach(),))")]:
    CASES.append((_name, _expr))
# the legacy typed constructors (torch.FloatTensor(data) / (sizes)) and their isinstance checks
for _name, _expr, *_opt in [
        ("FloatTensor(list)", "torch.FloatTensor([1, 2])"), ("FloatTensor(tuple)", "torch.FloatTensor((2, 3))"),
        ("FloatTensor(sizes)", "[torch.FloatTensor(2, 3).shape, torch.FloatTensor(2, 3).dtype]"),
        ("FloatTensor(Size)", "torch.FloatTensor(torch.Size([4])).shape"), ("FloatTensor()", "torch.FloatTensor()"),
        ("FloatTensor(nested list)", "torch.FloatTensor([[1, 2], [3, 4]])"),
        ("FloatTensor(float32 tensor)", "torch.FloatTensor(torch.tensor([1.5]))"),
        ("error: FloatTensor(int64 tensor)", "torch.FloatTensor(torch.tensor([1, 2]))", {"match": "type"}),
        ("LongTensor(list)", "torch.LongTensor([1, 2])"), ("LongTensor(sizes)", "torch.LongTensor(3).shape"),
        ("IntTensor(list)", "torch.IntTensor([7])"), ("DoubleTensor(list)", "torch.DoubleTensor([0.1, 0.2])"),
        ("BoolTensor(list)", "torch.BoolTensor([1, 0, 2])"),
        ("HalfTensor(list)", "torch.HalfTensor([0.5, 2.0])", {"needs": "f16"}),
        ("isinstance FloatTensor", "[isinstance(torch.zeros(2), torch.FloatTensor), "
                                   "isinstance(torch.zeros(2), torch.LongTensor), "
                                   "isinstance(torch.zeros(2, dtype=torch.int64), torch.LongTensor), "
                                   "isinstance(torch.zeros(2, dtype=torch.float64), torch.DoubleTensor), 3]"),
        ("FloatTensor's type() string", "torch.FloatTensor([1]).type()")]:
    CASES.append((_name, _expr, *_opt))
