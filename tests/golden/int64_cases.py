"""int64 arithmetic at and past int32's range: one expression each, run with ``torch`` bound to real
PyTorch (generate_int64.py records the int64 result) and to borch_webgpu (replay_int64.py). On ``cpu``
int64 is numpy's int64, so every case must give PyTorch's value exactly. On ``webgpu`` a result that
fits int32 must be PyTorch's exactly (also when partial sums or products did not fit); so must one
marked HOST (its values enter past int32 or meet a tensor held on the host: computed there,
device/int64_range.py) and one marked MOVES (a GPU kernel's exact result leaves int32 and is read before
another kernel uses it: it moves to the host at that read, device/gpu_int64_promote.py). One marked
USED (a later GPU kernel used the wrapped result before any read) must raise OverflowError naming the op
and the line, never a wrapped value, except with launch blocking (the op itself waits, so its result
moves at once). Any other case past int32 (an in-place result, a conversion, an accumulating put) must
raise OverflowError naming the op. Each case: (id, the ops our error may name, expression[, HOST | MOVES
| USED]); ``dev`` is the device tensors are made on. int32 cases keep PyTorch's wrap-around."""

HOST = "host"
MOVES = "moves"
USED = "used"
NODEV = ".replace(\", device='webgpu:0'\", '')"
BIG = "2**31 - 1"
CASES = [
    ("arange sum", ("sum",), "torch.arange(70000, device=dev).sum()", MOVES),
    ("arange sum fits", ("sum",), "(torch.arange(70000, device=dev) - 35000).sum()"),
    ("sum partials past int32", ("sum",),
     "torch.cat([torch.full((5000,), 2**30, device=dev), torch.full((5000,), -2**30, device=dev), "
     "torch.tensor([7], device=dev)]).sum()"),
    ("sum long rows split", ("sum",),
     "torch.cat([torch.full((100000,), 2**30, device=dev), torch.full((100000,), -2**30, device=dev)]).sum()"),
    ("sum dim", ("sum",), "torch.tensor([[2**30, 2**30, -2**30], [1, 2, 3]], device=dev).sum(1)"),
    ("sum dim overflow", ("sum",), "torch.tensor([[2**30, 2**30], [1, 2]], device=dev).sum(1)", MOVES),
    ("sum of int32 is int64", ("sum",), f"torch.tensor([{BIG}, 1], dtype=torch.int32, device=dev).sum()", MOVES),
    ("sum negative overflow", ("sum",), "torch.full((3,), -2**30, device=dev).sum()", MOVES),
    ("add", ("add",), f"torch.tensor([{BIG}], device=dev) + 1", MOVES),
    ("add tensors", ("add",), f"torch.tensor([{BIG}, 0], device=dev) + torch.tensor([1, 5], device=dev)", MOVES),
    ("add fits", ("add",), f"torch.tensor([{BIG}], device=dev) + -1"),
    ("add alpha", ("add",), "torch.add(torch.tensor([1], device=dev), torch.tensor([2**30], device=dev), alpha=2)", MOVES),
    ("add_ in place", ("add",), f"torch.tensor([{BIG}], device=dev).add_(1)"),
    ("sub", ("sub",), "torch.tensor([-2**31], device=dev) - 1", MOVES),
    ("mul", ("mul",), "torch.tensor([70000], device=dev) * 70000", MOVES),
    ("mul fits", ("mul",), "torch.tensor([46340], device=dev) * 46340"),
    ("mul negative", ("mul",), "torch.tensor([-65536], device=dev) * torch.tensor([32768], device=dev)"),
    ("mul_ in place", ("mul",), "torch.tensor([70000], device=dev).mul_(70000)"),
    ("neg", ("neg",), "-torch.tensor([-2**31], device=dev)", MOVES),
    ("abs", ("abs",), "torch.tensor([-2**31, 5], device=dev).abs()", MOVES),
    ("abs fits", ("abs",), "torch.tensor([-2**31 + 1, -5], device=dev).abs()"),
    ("square", ("square", "mul", "pow"), "torch.tensor([70000], device=dev).square()", MOVES),
    ("pow scalar", ("pow",), "torch.tensor([3], device=dev) ** 20", MOVES),
    ("pow scalar fits", ("pow",), "torch.tensor([3], device=dev) ** 19"),
    ("pow tensor", ("pow",), "torch.tensor([3, 2], device=dev) ** torch.tensor([20, 3], device=dev)", MOVES),
    ("pow negative base", ("pow",), "torch.tensor([-2], device=dev) ** 31"),
    ("pow negative base overflow", ("pow",), "torch.tensor([-2], device=dev) ** 32", MOVES),
    ("floor_divide min by -1", ("floor_divide", "div"), "torch.tensor([-2**31], device=dev) // -1", MOVES),
    ("prod", ("prod",), "torch.tensor([70000, 70000], device=dev).prod()", MOVES),
    ("prod past int32 then 0", ("prod",), "torch.tensor([70000, 70000, 0], device=dev).prod()"),
    ("prod dim", ("prod",), "torch.tensor([[2**16, 2**16, 0], [1, 2, 3]], device=dev).prod(1)"),
    ("cumsum", ("cumsum",), f"torch.tensor([{BIG}, 1, -1], device=dev).cumsum(0)", MOVES),
    ("cumsum fits", ("cumsum",), f"torch.tensor([{BIG}, -1, -5], device=dev).cumsum(0)"),
    ("cumsum long row", ("cumsum",), "torch.full((20000,), 2**20, device=dev).cumsum(0)[-3:]", MOVES),
    ("cumsum long row fits", ("cumsum",),
     "torch.cat([torch.full((10000,), 2**16, device=dev), torch.full((10000,), -2**16, device=dev)]).cumsum(0)[-3:]"),
    ("cumprod", ("cumprod",), "torch.tensor([65536, 65536, 0], device=dev).cumprod(0)", MOVES),
    ("cumprod fits", ("cumprod",), "torch.tensor([65536, 16384, 1], device=dev).cumprod(0)"),
    ("matmul", ("matmul",), "torch.tensor([[40000, 40000]], device=dev) @ torch.tensor([[40000], [40000]], device=dev)", MOVES),
    ("matmul fits", ("matmul",), "torch.tensor([[2, 3]], device=dev) @ torch.tensor([[4], [5]], device=dev)"),
    # products and partial sums past int32 whose exact result fits: PyTorch's value on both devices
    ("matmul products past int32, result fits", ("matmul",),
     "torch.tensor([[50000, -50000]], device=dev) @ torch.tensor([[50000], [50000]], device=dev)"),
    ("matmul -2**31 * -1 fits", ("matmul",),
     "torch.tensor([[-2**31, 1]], device=dev) @ torch.tensor([[-1], [-2**31]], device=dev)"),
    ("mm products past int32", ("matmul", "mm"),
     f"torch.mm(torch.tensor([[{BIG}, -({BIG})], [-2**31, {BIG}]], device=dev), torch.tensor([[1, 3], [1, 3]], device=dev))"),
    ("mm overflow", ("matmul", "mm"),
     f"torch.mm(torch.tensor([[{BIG}, {BIG}]], device=dev), torch.tensor([[1], [1]], device=dev))", MOVES),
    ("bmm partial sums past int32", ("matmul", "bmm"),
     "torch.bmm(torch.stack([torch.full((1, 6), 2**30, device=dev), torch.full((1, 6), 5, device=dev)]), "
     "torch.tensor([[[1], [1], [1], [-1], [-1], [-1]], [[1], [2], [3], [4], [5], [6]]], device=dev))"),
    ("bmm overflow in the second batch", ("matmul", "bmm"),
     "torch.bmm(torch.full((2, 1, 2), 2**30, device=dev), torch.tensor([[[1], [-1]], [[1], [1]]], device=dev))", MOVES),
    ("mv products past int32", ("matmul", "mv"),
     "torch.mv(torch.tensor([[65536, 65536], [1, 2]], device=dev), torch.tensor([65536, -65536], device=dev))"),
    ("dot products past int32", ("matmul", "dot"),
     "torch.dot(torch.tensor([100000, -100000, 5], device=dev), torch.tensor([100000, 100000, 7], device=dev))"),
    ("matmul broadcast batch, transposed and sliced", ("matmul",),
     "torch.matmul(torch.tensor([[[[60000, 3], [1, -60000]]], [[[2, 600], [600, 1]]]], device=dev), "
     "torch.tensor([[[600, 9, -600], [5, 7, 1]], [[1, 2, 3], [-1, 600, 4]], [[4, -4, 600], [600, 2, -600]]], "
     "device=dev)[:, :, ::2].transpose(1, 2).transpose(1, 2))"),
    ("matmul 64x201x48 products past int32, result fits", ("matmul",),
     "(lambda x, c: torch.cat([x, x, torch.ones(64, 1, dtype=torch.long, device=dev)], 1) @ "
     "torch.cat([c, -c, torch.arange(48, device=dev)[None]], 0))("
     "(torch.arange(6400, device=dev).reshape(64, 100) % 97 - 48) * 30000, "
     "(torch.arange(4800, device=dev).reshape(100, 48) % 89 - 44) * 2000)"),
    ("einsum contraction products past int32", ("matmul", "einsum"),
     "torch.einsum('ij,jk->ik', torch.tensor([[70000, 70000]], device=dev), torch.tensor([[70000], [-70000]], device=dev))"),
    ("tensordot overflow", ("matmul", "tensordot"),
     "torch.tensordot(torch.tensor([[70000, 70000]], device=dev), torch.tensor([[70000], [70000]], device=dev), 1)", MOVES),
    ("int32 matmul wraps", (),
     "torch.tensor([[2**16, 2**16]], dtype=torch.int32, device=dev) @ torch.tensor([[2**16], [3]], dtype=torch.int32, "
     "device=dev)"),
    ("float to long", ("to(torch.int64)",), "torch.tensor([3e9, 1.0], device=dev).long()"),
    ("float to long fits", ("to(torch.int64)",), "torch.tensor([-2147483648.0, 2147483520.0], device=dev).long()"),
    ("dot", ("matmul",), "torch.dot(torch.tensor([40000, 40000], device=dev), torch.tensor([40000, 40000], device=dev))", MOVES),
    ("einsum", ("matmul",),
     "torch.einsum('i,i->', torch.tensor([40000, 40000], device=dev), torch.tensor([40000, 40000], device=dev))", MOVES),
    ("outer", ("outer", "mul"), "torch.outer(torch.tensor([70000], device=dev), torch.tensor([70000], device=dev))", MOVES),
    ("trace", ("trace", "sum"), "torch.tensor([[2**30, 0], [0, 2**30]], device=dev).trace()", MOVES),
    ("nansum", ("nansum", "sum"), "torch.nansum(torch.tensor([2**30, 2**30], device=dev))", MOVES),
    ("index_add", ("index_add",),
     "torch.zeros(2, dtype=torch.long, device=dev).index_add(0, torch.tensor([0, 0, 1], device=dev), "
     "torch.tensor([2**30, 2**30, 1], device=dev))"),
    ("index_add fits", ("index_add",),
     "torch.zeros(2, dtype=torch.long, device=dev).index_add(0, torch.tensor([0, 0, 1], device=dev), "
     "torch.tensor([2**30, 2**30 - 1, 1], device=dev))"),
    # running sums that leave int32 and come back: the total fits, whatever order the GPU's adds run in
    ("index_add through 2**31", ("index_add",),
     "torch.zeros(1, dtype=torch.long, device=dev).index_add(0, torch.tensor([0, 0, 0, 0], device=dev), "
     "torch.tensor([2**30, 2**30, -2**30, 5], device=dev))"),
    ("scatter_add below -2**31", ("scatter_add",),
     "torch.full((1,), -2**31, device=dev).scatter_add(0, torch.tensor([0, 0], device=dev), "
     "torch.tensor([-1, 1], device=dev))"),
    ("scatter_add", ("scatter_add",),
     "torch.full((1,), 2**31 - 1, device=dev).scatter_add(0, torch.tensor([0], device=dev), torch.tensor([1], device=dev))"),
    ("index_put_ accumulate", ("index_put_",),
     "torch.full((2,), -2**31, device=dev).index_put_((torch.tensor([1], device=dev),), torch.tensor(-1, device=dev), "
     "accumulate=True)"),
    ("scatter_reduce sum", ("scatter_reduce", "scatter_add"),
     "torch.zeros(1, dtype=torch.long, device=dev).scatter_reduce(0, torch.tensor([0, 0], device=dev), "
     "torch.tensor([2**30, 2**30], device=dev), 'sum')"),
    ("int32 index_add wraps", (),
     "torch.zeros(1, dtype=torch.int32, device=dev).index_add(0, torch.tensor([0, 0], device=dev), "
     "torch.tensor([2**30, 2**30], dtype=torch.int32, device=dev))"),
    ("int32 add wraps", (), f"torch.tensor([{BIG}], dtype=torch.int32, device=dev) + 1"),
    ("int32 mul wraps", (), "torch.tensor([70000], dtype=torch.int32, device=dev) * 70000"),
    # values past int32: PyTorch's int64 on both devices (on webgpu held on the host; fitting results go back)
    ("tensor past int32", (), "torch.tensor([2**40, -2**40, 5, 2**63 - 1, -2**63], device=dev)", HOST),
    ("2-D tensor past int32", (), "torch.tensor([[2**40, 1], [-5, 3]], device=dev)", HOST),
    ("arange past int32", (), "torch.arange(2**40, 2**40 + 3, device=dev)", HOST),
    ("arange step past int32", (), "torch.arange(0, 2**40, 2**38, device=dev)", HOST),
    ("full past int32", (), "torch.full((2,), 2**40, device=dev)", HOST),
    ("fill_ past int32", (), "torch.zeros(2, dtype=torch.long, device='cpu').fill_(2**40).to(dev)", HOST),
    ("from cpu past int32", ("add",), "torch.tensor([2**40, 1]).to(dev) + 1", HOST),
    ("add past int32 held", ("add",), "torch.tensor([2**40, 7], device=dev) + torch.tensor([1, 2], device=dev)", HOST),
    ("mul past int32 held", ("mul",), "torch.tensor([2**40], device=dev) * 3", HOST),
    ("mul wraps at 2**64", ("mul",), "torch.tensor([2**62, 2**62 + 1], device=dev) * 4", HOST),
    ("add wraps at 2**63", ("add",), "torch.tensor([2**63 - 1], device=dev) + 1", HOST),
    ("sub held", ("sub",), "torch.tensor([2**40], device=dev) - 2**41", HOST),
    ("neg held", ("neg",), "-torch.tensor([2**40, -3], device=dev)", HOST),
    ("abs held", ("abs",), "torch.tensor([-2**40, 3], device=dev).abs()", HOST),
    ("floor_divide held", ("floor_divide",), "torch.tensor([2**33, -2**33], device=dev) // 7", HOST),
    ("remainder held", ("remainder",), "torch.tensor([2**33, -2**33], device=dev) % 7", HOST),
    ("pow held", ("pow",), "torch.tensor([2**40, 3, -2**31], device=dev) ** 2", HOST),
    ("pow held by held", ("pow",), "torch.tensor([2**40, 3], device=dev) ** torch.tensor([1, 2**32 + 2], device=dev)",
     HOST),
    ("GPU tensor plus a scalar past int32", ("add",), "torch.tensor([1, -2], device=dev) + 2**40", HOST),
    ("GPU tensor times a scalar past int32", ("mul",), "torch.tensor([3, 5], device=dev) * 2**40", HOST),
    ("GPU tensor plus 2**63 wraps", ("add",), "torch.tensor([1], device=dev) + 2**63", HOST),
    ("held result that fits goes back", ("sub", "add"),
     "(torch.tensor([2**40 + 5, 2**40], device=dev) - 2**40) + torch.arange(2, device=dev)", HOST),
    ("held division that fits", ("floor_divide",), "torch.tensor([2**40, 2**41], device=dev) // 2**20", HOST),
    ("compare held", (), "torch.tensor([2**40, 5], device=dev) > 2**39", HOST),
    ("eq held", (), "torch.tensor([2**40, 5], device=dev) == torch.tensor([2**40, 6], device=dev)", HOST),
    ("held to float", (), "torch.tensor([2**40, -3], device=dev).float()", HOST),
    ("held to int32 wraps", (), "torch.tensor([2**33 + 5, -1], device=dev).int()", HOST),
    ("held to double", (), "torch.tensor([2**53 + 2, 1], device=dev).double()", HOST),
    ("sum held", ("sum",), "torch.tensor([2**40, 2**40, -1], device=dev).sum()", HOST),
    ("sum held dim", ("sum",), "torch.tensor([[2**40, 1], [2, 3]], device=dev).sum(0)", HOST),
    ("prod held", ("prod",), "torch.tensor([2**40, 3], device=dev).prod()", HOST),
    ("cumsum held", ("cumsum",), "torch.tensor([2**40, 1, -2**40], device=dev).cumsum(0)", HOST),
    ("cumprod held", ("cumprod",), "torch.tensor([2**40, 2, 3], device=dev).cumprod(0)", HOST),
    ("max held", ("max",), "torch.tensor([1, 2**40, -2**40], device=dev).max()", HOST),
    ("min held dim", ("min",), "torch.tensor([[1, 2**40], [-2**40, 0]], device=dev).min(1).values", HOST),
    ("argmax held", (), "torch.tensor([1, 2**40, -2**40], device=dev).argmax()", HOST),
    ("sort held", ("sort",), "torch.sort(torch.tensor([2**40, -2**40, 3], device=dev)).values", HOST),
    ("matmul held", ("matmul",), "torch.tensor([[2**40, 1]], device=dev) @ torch.tensor([[2], [3]], device=dev)",
     HOST),
    ("index held with GPU indices", (), "torch.tensor([2**40, 5, -2**40], device=dev)[torch.tensor([2, 0], device=dev)]",
     HOST),
    ("slice held", (), "torch.tensor([2**40, 5, -2**40], device=dev)[1:]", HOST),
    ("where held", ("where",),
     "torch.where(torch.tensor([True, False], device=dev), torch.tensor([2**40, 1], device=dev), 0)", HOST),
    ("cat held and GPU", ("cat",), "torch.cat([torch.tensor([2**40], device=dev), torch.arange(2, device=dev)])", HOST),
    ("add_ in place held", ("add",), "torch.tensor([2**40], device=dev).add_(1)", HOST),
    ("item past int32", (), "torch.tensor([2**40, 3], device=dev)[0]", HOST),
    ("cpu sum of arange", ("sum",), "torch.arange(70000, device='cpu').sum()", HOST),
    ("cpu cumsum of arange", ("cumsum",), "torch.arange(70000, device='cpu').cumsum(0)[-2:]", HOST),
    ("stack held", ("stack", "cat"), "torch.stack([torch.tensor([2**40, 1], device=dev), torch.arange(2, device=dev)])",
     HOST),
    ("reshape and transpose held", (), "torch.tensor([2**40, 1, 2, 3], device=dev).reshape(2, 2).t().contiguous()", HOST),
    ("clone held", (), "torch.tensor([2**40, -1], device=dev).clone()", HOST),
    ("index_select held", ("index_select",),
     "torch.tensor([2**40, 1, -2**40], device=dev).index_select(0, torch.tensor([2, 1], device=dev))", HOST),
    ("gather held", ("gather",), "torch.tensor([[2**40, 1]], device=dev).gather(1, torch.tensor([[1, 0]], device=dev))",
     HOST),
    ("masked_fill past int32", ("masked_fill",),
     "torch.tensor([1, 2], device=dev).masked_fill(torch.tensor([True, False], device=dev), 2**40)", HOST),
    ("clamp held", ("clamp",), "torch.tensor([2**40, -2**40, 3], device=dev).clamp(-2**35, 2**35)", HOST),
    ("flip held", ("flip",), "torch.tensor([2**40, 1, 2], device=dev).flip(0)", HOST),
    ("topk held", ("topk",), "torch.tensor([2**40, 1, 2**41, 5], device=dev).topk(2).values", HOST),
    ("unique held", ("unique",), "torch.unique(torch.tensor([2**40, 1, 2**40, 5], device=dev))", HOST),
    ("mean of held as float", ("mean",), "torch.tensor([2**40, 2**40], device=dev).float().mean()", HOST),
    ("bincount of a GPU tensor that fits", ("bincount",), "torch.bincount(torch.tensor([1, 1, 3], device=dev))", HOST),
    # indices past int32: PyTorch's errors, and a held index whose view is in range
    ("index past int32", (), "torch.arange(5, device=dev)[torch.tensor([2**40], device=dev)]", HOST),
    ("index_select past int32", (), "torch.arange(5, device=dev).index_select(0, torch.tensor([1, 2**40], device=dev))",
     HOST),
    ("gather past int32", (), "torch.arange(5, device=dev).gather(0, torch.tensor([-2**40], device=dev))", HOST),
    ("index_add_ past int32", (),
     "torch.zeros(5, device=dev).index_add_(0, torch.tensor([2**40], device=dev), torch.ones(1, device=dev))", HOST),
    ("index by a held view in range", (), "torch.arange(5, device=dev)[torch.tensor([2**40, 3], device=dev)[1:]]", HOST),
    # a GPU result past int32 read first (item, tolist, print) moves to the host, exact: further ops on it
    # give PyTorch's values (a result that fits goes back to the GPU)
    ("sum read, then further ops", ("sum",),
     f"(lambda s: f'{{s.item()}} {{s + 1}} {{s * 2}} {{s.tolist()}} {{s}} {{s - 2449965000}}')"
     f"(torch.arange(70000, device=dev).sum()){NODEV}", MOVES),
    ("add read, then further ops", ("add",),
     f"(lambda a: f'{{a.tolist()}} {{a + 1}} {{a * 2}} {{a - 2**31}} {{a.dtype}}')(torch.tensor([{BIG}], device=dev) + 1)"
     f"{NODEV}", MOVES),
    ("cumsum read, then further ops", ("cumsum",),
     f"(lambda c: f'{{c[-1].item()}} {{c[-2:] + 1}} {{c.sum()}} {{c[:2]}}')"
     f"(torch.full((20000,), 2**20, device=dev).cumsum(0)){NODEV}", MOVES),
    ("prod read, then further ops", ("prod",),
     f"(lambda p: f'{{p}} {{p // 70000}} {{p * 2}} {{p.tolist()}}')(torch.tensor([70000, 70000], device=dev).prod())"
     f"{NODEV}", MOVES),
    ("matmul read, then further ops", ("matmul",),
     f"(lambda m: f'{{m.tolist()}} {{m + 1}} {{m.sum()}} {{m.t()}}')"
     f"(torch.tensor([[40000, 40000], [1, 2]], device=dev) @ torch.tensor([[40000], [40000]], device=dev)){NODEV}",
     MOVES),
    ("mul printed", ("mul",), f"str(torch.tensor([70000, 3], device=dev) * 70000){NODEV}", MOVES),
    # used by a later GPU kernel before any read: the wrapped words went on, so it raises
    ("sum used on the GPU before a read", ("sum",), "torch.arange(70000, device=dev).sum() + 1", USED),
    ("add used on the GPU before a read", ("add",), f"(torch.tensor([{BIG}], device=dev) + 1) * 2", USED),
    ("matmul used on the GPU before a read", ("matmul",),
     "(torch.tensor([[40000, 40000]], device=dev) @ torch.tensor([[40000], [40000]], device=dev)).neg()", USED),
    # printing as PyTorch prints large ints (the device suffix of a WebGPU tensor left out)
    ("print past int32", (), f"repr(torch.tensor([2**40, 1, -5], device=dev)){NODEV}", HOST),
    ("print 2-D past int32", (), f"repr(torch.tensor([[2**40, 1], [-5, -2**63]], device=dev)){NODEV}", HOST),
    ("print 0-d past int32", (), f"repr(torch.tensor(-2**40, device=dev)){NODEV}", HOST),
    ("print summarized past int32", (), f"repr(torch.arange(2**40, 2**40 + 2000, device=dev) * 3){NODEV}", HOST),
    ("print GPU int64 with a held one", (), f"str(torch.tensor([7, 2**40], device=dev)[:1]){NODEV}", HOST),
]

