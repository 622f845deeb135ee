"""int64 arithmetic at and past int32's range (int64 is held as int32 here): one expression each, run
with ``torch`` bound to real PyTorch (generate_int64.py records the int64 result) and to borch_webgpu
(replay_int64.py: a result that fits int32 must be PyTorch's exactly, also when partial sums or
products did not fit; one that does not must raise OverflowError naming the op, never a wrapped
value). Each case: (id, the ops our error may name, expression); ``dev`` is the device tensors are
made on. int32 cases keep PyTorch's wrap-around."""

BIG = "2**31 - 1"
CASES = [
    ("arange sum", ("sum",), "torch.arange(70000, device=dev).sum()"),
    ("arange sum fits", ("sum",), "(torch.arange(70000, device=dev) - 35000).sum()"),
    ("sum partials past int32", ("sum",),
     "torch.cat([torch.full((5000,), 2**30, device=dev), torch.full((5000,), -2**30, device=dev), "
     "torch.tensor([7], device=dev)]).sum()"),
    ("sum long rows split", ("sum",),
     "torch.cat([torch.full((100000,), 2**30, device=dev), torch.full((100000,), -2**30, device=dev)]).sum()"),
    ("sum dim", ("sum",), "torch.tensor([[2**30, 2**30, -2**30], [1, 2, 3]], device=dev).sum(1)"),
    ("sum dim overflow", ("sum",), "torch.tensor([[2**30, 2**30], [1, 2]], device=dev).sum(1)"),
    ("sum of int32 is int64", ("sum",), f"torch.tensor([{BIG}, 1], dtype=torch.int32, device=dev).sum()"),
    ("sum negative overflow", ("sum",), "torch.full((3,), -2**30, device=dev).sum()"),
    ("add", ("add",), f"torch.tensor([{BIG}], device=dev) + 1"),
    ("add tensors", ("add",), f"torch.tensor([{BIG}, 0], device=dev) + torch.tensor([1, 5], device=dev)"),
    ("add fits", ("add",), f"torch.tensor([{BIG}], device=dev) + -1"),
    ("add alpha", ("add",), "torch.add(torch.tensor([1], device=dev), torch.tensor([2**30], device=dev), alpha=2)"),
    ("add_ in place", ("add",), f"torch.tensor([{BIG}], device=dev).add_(1)"),
    ("sub", ("sub",), "torch.tensor([-2**31], device=dev) - 1"),
    ("mul", ("mul",), "torch.tensor([70000], device=dev) * 70000"),
    ("mul fits", ("mul",), "torch.tensor([46340], device=dev) * 46340"),
    ("mul negative", ("mul",), "torch.tensor([-65536], device=dev) * torch.tensor([32768], device=dev)"),
    ("mul_ in place", ("mul",), "torch.tensor([70000], device=dev).mul_(70000)"),
    ("neg", ("neg",), "-torch.tensor([-2**31], device=dev)"),
    ("abs", ("abs",), "torch.tensor([-2**31, 5], device=dev).abs()"),
    ("abs fits", ("abs",), "torch.tensor([-2**31 + 1, -5], device=dev).abs()"),
    ("square", ("square", "mul", "pow"), "torch.tensor([70000], device=dev).square()"),
    ("pow scalar", ("pow",), "torch.tensor([3], device=dev) ** 20"),
    ("pow scalar fits", ("pow",), "torch.tensor([3], device=dev) ** 19"),
    ("pow tensor", ("pow",), "torch.tensor([3, 2], device=dev) ** torch.tensor([20, 3], device=dev)"),
    ("pow negative base", ("pow",), "torch.tensor([-2], device=dev) ** 31"),
    ("pow negative base overflow", ("pow",), "torch.tensor([-2], device=dev) ** 32"),
    ("floor_divide min by -1", ("floor_divide", "div"), "torch.tensor([-2**31], device=dev) // -1"),
    ("prod", ("prod",), "torch.tensor([70000, 70000], device=dev).prod()"),
    ("prod past int32 then 0", ("prod",), "torch.tensor([70000, 70000, 0], device=dev).prod()"),
    ("prod dim", ("prod",), "torch.tensor([[2**16, 2**16, 0], [1, 2, 3]], device=dev).prod(1)"),
    ("cumsum", ("cumsum",), f"torch.tensor([{BIG}, 1, -1], device=dev).cumsum(0)"),
    ("cumsum fits", ("cumsum",), f"torch.tensor([{BIG}, -1, -5], device=dev).cumsum(0)"),
    ("cumsum long row", ("cumsum",), "torch.full((20000,), 2**20, device=dev).cumsum(0)[-3:]"),
    ("cumsum long row fits", ("cumsum",),
     "torch.cat([torch.full((10000,), 2**16, device=dev), torch.full((10000,), -2**16, device=dev)]).cumsum(0)[-3:]"),
    ("cumprod", ("cumprod",), "torch.tensor([65536, 65536, 0], device=dev).cumprod(0)"),
    ("cumprod fits", ("cumprod",), "torch.tensor([65536, 16384, 1], device=dev).cumprod(0)"),
    ("matmul", ("matmul",), "torch.tensor([[40000, 40000]], device=dev) @ torch.tensor([[40000], [40000]], device=dev)"),
    ("matmul fits", ("matmul",), "torch.tensor([[2, 3]], device=dev) @ torch.tensor([[4], [5]], device=dev)"),
    # products and partial sums past int32 whose exact result fits: PyTorch's value on both devices
    ("matmul products past int32, result fits", ("matmul",),
     "torch.tensor([[50000, -50000]], device=dev) @ torch.tensor([[50000], [50000]], device=dev)"),
    ("matmul -2**31 * -1 fits", ("matmul",),
     "torch.tensor([[-2**31, 1]], device=dev) @ torch.tensor([[-1], [-2**31]], device=dev)"),
    ("mm products past int32", ("matmul", "mm"),
     f"torch.mm(torch.tensor([[{BIG}, -({BIG})], [-2**31, {BIG}]], device=dev), torch.tensor([[1, 3], [1, 3]], device=dev))"),
    ("mm overflow", ("matmul", "mm"),
     f"torch.mm(torch.tensor([[{BIG}, {BIG}]], device=dev), torch.tensor([[1], [1]], device=dev))"),
    ("bmm partial sums past int32", ("matmul", "bmm"),
     "torch.bmm(torch.stack([torch.full((1, 6), 2**30, device=dev), torch.full((1, 6), 5, device=dev)]), "
     "torch.tensor([[[1], [1], [1], [-1], [-1], [-1]], [[1], [2], [3], [4], [5], [6]]], device=dev))"),
    ("bmm overflow in the second batch", ("matmul", "bmm"),
     "torch.bmm(torch.full((2, 1, 2), 2**30, device=dev), torch.tensor([[[1], [-1]], [[1], [1]]], device=dev))"),
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
     "torch.tensordot(torch.tensor([[70000, 70000]], device=dev), torch.tensor([[70000], [70000]], device=dev), 1)"),
    ("int32 matmul wraps", (),
     "torch.tensor([[2**16, 2**16]], dtype=torch.int32, device=dev) @ torch.tensor([[2**16], [3]], dtype=torch.int32, "
     "device=dev)"),
    ("float to long", ("to(torch.int64)",), "torch.tensor([3e9, 1.0], device=dev).long()"),
    ("float to long fits", ("to(torch.int64)",), "torch.tensor([-2147483648.0, 2147483520.0], device=dev).long()"),
    ("dot", ("matmul",), "torch.dot(torch.tensor([40000, 40000], device=dev), torch.tensor([40000, 40000], device=dev))"),
    ("einsum", ("matmul",),
     "torch.einsum('i,i->', torch.tensor([40000, 40000], device=dev), torch.tensor([40000, 40000], device=dev))"),
    ("outer", ("outer", "mul"), "torch.outer(torch.tensor([70000], device=dev), torch.tensor([70000], device=dev))"),
    ("trace", ("trace", "sum"), "torch.tensor([[2**30, 0], [0, 2**30]], device=dev).trace()"),
    ("nansum", ("nansum", "sum"), "torch.nansum(torch.tensor([2**30, 2**30], device=dev))"),
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
]
