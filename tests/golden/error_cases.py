"""Bad input: snippets run with ``torch`` bound to real PyTorch (generate.py records the exception
type and message) and to borch_webgpu (tests check the same type and a message that names the op
or the values). ``dev`` is the device tensors are made on."""

ERROR_SNIPPETS = [
    # shapes
    ("add shape mismatch", "torch.ones(2, 3, device=dev) + torch.ones(4, device=dev)"),
    ("mul not broadcastable", "torch.ones(2, 3, device=dev) * torch.ones(3, 2, device=dev)"),
    ("matmul shapes", "torch.ones(2, 3, device=dev) @ torch.ones(4, 5, device=dev)"),
    ("mm shapes", "torch.mm(torch.ones(2, 3, device=dev), torch.ones(2, 3, device=dev))"),
    ("matmul 0-d", "torch.matmul(torch.tensor(1.0, device=dev), torch.ones(2, device=dev))"),
    ("bmm rank", "torch.bmm(torch.ones(2, 3, device=dev), torch.ones(3, 2, device=dev))"),
    ("view incompatible", "torch.ones(2, 3, device=dev).view(4)"),
    ("view non-contiguous", "torch.ones(2, 3, device=dev).t().view(6)"),
    ("reshape invalid", "torch.ones(2, 3, device=dev).reshape(4, -1)"),
    ("expand", "torch.ones(2, 3, device=dev).expand(2, 4)"),
    ("cat sizes", "torch.cat([torch.ones(2, 3, device=dev), torch.ones(2, 4, device=dev)], 0)"),
    ("stack sizes", "torch.stack([torch.ones(2, device=dev), torch.ones(3, device=dev)])"),
    ("permute dims", "torch.ones(2, 3, device=dev).permute(0, 0)"),
    ("inplace broadcast", "torch.ones(3, device=dev).add_(torch.ones(2, 3, device=dev))"),
    ("setitem shape", "x = torch.ones(2, 3, device=dev); x[0] = torch.ones(4, device=dev)"),
    # dims and indices
    ("sum dim", "torch.ones(2, 3, device=dev).sum(dim=2)"),
    ("softmax dim", "torch.ones(2, 3, device=dev).softmax(-3)"),
    ("transpose dim", "torch.ones(2, 3, device=dev).transpose(0, 5)"),
    ("getitem int", "torch.ones(2, 3, device=dev)[5]"),
    ("getitem list", "torch.ones(2, 3, device=dev)[[0, 7]]"),
    ("getitem too many", "torch.ones(2, 3, device=dev)[0, 0, 0]"),
    ("select", "torch.ones(2, 3, device=dev).select(1, 3)"),
    ("narrow", "torch.ones(2, 3, device=dev).narrow(1, 2, 2)"),
    ("index_select dim", "torch.ones(2, 3, device=dev).index_select(2, torch.tensor([0], device=dev))"),
    ("gather rank", "torch.ones(2, 3, device=dev).gather(1, torch.tensor([0, 1], device=dev))"),
    ("topk k", "torch.ones(3, device=dev).topk(5)"),
    ("mask shape", "torch.ones(2, 3, device=dev)[torch.tensor([True, False, True], device=dev)]"),
    # dtypes
    ("requires_grad int", "torch.ones(2, dtype=torch.int64, device=dev).requires_grad_()"),
    ("inplace float into int", "torch.ones(2, dtype=torch.int64, device=dev).add_(1.5)"),
    ("bool sub", "torch.ones(2, dtype=torch.bool, device=dev) - torch.ones(2, dtype=torch.bool, device=dev)"),
    ("bool neg", "-torch.ones(2, dtype=torch.bool, device=dev)"),
    ("mean of ints", "torch.ones(2, dtype=torch.int64, device=dev).mean()"),
    ("where condition", "torch.where(torch.ones(2, device=dev), torch.ones(2, device=dev), torch.zeros(2, device=dev))"),
    ("masked_fill mask dtype", "torch.ones(2, device=dev).masked_fill(torch.ones(2, device=dev), 0.0)"),
    ("int pow negative", "torch.tensor([2, 3], device=dev) ** -1"),
    ("int division by zero", "torch.tensor([2, 3], device=dev) // 0"),
    ("tensor from ragged list", "torch.tensor([[1, 2], [3]])"),
    ("tensor from string", "torch.tensor(['a'])"),
    ("item of many", "torch.ones(2, device=dev).item()"),
    ("negative size", "torch.zeros(-1, device=dev)"),
    # autograd
    ("backward non-scalar", "x = torch.ones(2, 3, device=dev, requires_grad=True); (x * 2).backward()"),
    ("backward twice", "x = torch.ones(2, device=dev, requires_grad=True); y = (x.exp() * x).sum(); y.backward(); "
                       "y.backward()"),
    ("backward no grad", "torch.ones(2, device=dev).sum().backward()"),
    ("leaf inplace", "x = torch.ones(2, device=dev, requires_grad=True); x.add_(1)"),
    ("saved modified", "x = torch.ones(2, device=dev, requires_grad=True); y = x * 1; z = y * y; y.add_(1); "
                       "z.sum().backward()"),
    ("grad unused", "x = torch.ones(2, device=dev, requires_grad=True); w = torch.ones(2, device=dev, "
                    "requires_grad=True); torch.autograd.grad((x * 2).sum(), [x, w])"),
    ("numpy of grad tensor", "torch.ones(2, device=dev, requires_grad=True).numpy()"),
]
