"""What tests/golden/generate_sparse.py asks real PyTorch about sparse COO tensors (``torch.sparse_coo_tensor``,
``to_sparse``, ``torch.sparse``), ``torch.autograd.Variable``, the legacy ``torch.cuda.*Tensor`` types and
``torch.embedding_bag`` (the ATen 4-tuple), and what replay_sparse.py asks borch_webgpu again.

CASES: (id, code[, where]): ``code`` runs with ``torch`` bound (the input data is written out, no random
numbers) and sets ``out``: a tensor, a sparse tensor (its repr, indices, values, size, is_coalesced), a
Python value, or a tuple of them; gradients are computed inside the code and returned in ``out``.
ERRORS: (id, code, match[, where]): the code must raise; PyTorch's type and message are recorded. ``match``
"exact" compares the message; "aten" compares the type and the message up to " with arguments" (PyTorch's
NotImplementedError then lists its own dispatch keys). ``where`` "cpu" keeps a case off WebGPU (the
legacy ``torch.cuda`` types make tensors there, since 'cuda' is the WebGPU device).
"""
from __future__ import annotations

S = ("i = torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]])\nv = torch.tensor([3., 4., 5., 1.])\n"
     "s = torch.sparse_coo_tensor(i, v, (2, 3))\n")
D = "d = torch.tensor([[1., 2.], [3., -1.], [0.5, 4.]])\n"

CASES: list[tuple] = [
    # ---- construction, repr, facts -----------------------------------------------------------------
    ("repr", S + "out = (repr(s), s.layout, s.is_sparse, s.is_coalesced(), s._nnz(), s.sparse_dim(), s.dense_dim())"),
    ("str", S + "out = str(s)"),
    ("size inferred", "out = torch.sparse_coo_tensor(torch.tensor([[0, 3], [1, 0]]), torch.tensor([1., 2.]))"),
    ("list inputs int values", "out = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2])"),
    ("dtype float64", "out = torch.sparse_coo_tensor([[0, 1]], [1, 2], (3,), dtype=torch.float64)"),
    ("float indices", "out = torch.sparse_coo_tensor(torch.tensor([[0., 1.]]), torch.tensor([1., 2.]), (2,))"),
    ("empty", "out = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (2, 3))"),
    ("hybrid", "out = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.tensor([[1., 2.], [3., 4.]]), (3, 2))"),
    ("requires_grad repr", "out = repr(torch.sparse_coo_tensor([[0, 1]], [1., 2.], (2,), requires_grad=True))"),
    ("is_coalesced=True", "out = torch.sparse_coo_tensor([[0, 1]], [1., 2.], (2,), is_coalesced=True).is_coalesced()"),
    ("layouts", "out = (torch.strided, torch.sparse_coo, torch.zeros(2).layout, type(torch.strided).__name__, "
                "torch.zeros(2).is_sparse)"),
    ("dense facts", "x = torch.ones(2, 3)\nout = (x.sparse_dim(), x.dense_dim(), x.to_dense() is x)"),
    ("check_sparse_tensor_invariants", "c = torch.sparse.check_sparse_tensor_invariants\nseen = [c.is_enabled()]\n"
     "with c():\n    seen.append(c.is_enabled())\n    ok = torch.sparse_coo_tensor([[1]], [1.], (2,), check_invariants=False)\n"
     "seen.append(c.is_enabled())\nc.enable()\nseen.append(c.is_enabled())\nc.disable()\n"
     "f = c()(lambda: c.is_enabled())\nout = (seen, f(), c.is_enabled(), ok)"),
    # ---- coalesce, to_dense, to_sparse -------------------------------------------------------------
    ("coalesce", S + "c = s.coalesce()\nout = (c, c.indices(), c.values(), c.is_coalesced(), c.coalesce() is c)"),
    ("to_dense", S + "out = s.to_dense()"),
    ("to_dense hybrid", "out = torch.sparse_coo_tensor(torch.tensor([[1, 1]]), torch.tensor([[1., 2.], [3., 4.]]), "
                        "(3, 2)).to_dense()"),
    ("to_sparse", "x = torch.tensor([[0., 1., 0.], [2., 0., -3.]])\nout = (x.to_sparse(), x.to_sparse().to_dense())"),
    ("to_sparse sparse_dim 1", "out = torch.tensor([[0., 1.], [0., 0.], [2., 0.]]).to_sparse(1)"),
    ("to_sparse int", "out = torch.tensor([0, 5, 0, 7]).to_sparse()"),
    ("to_sparse 3d", "out = torch.tensor([[[0., 1.], [0., 0.]], [[2., 0.], [0., 3.]]]).to_sparse()"),
    ("sparse to_sparse", S + "out = s.to_sparse() is s"),
    ("select and index", S + "out = (s[0], s[-1], s.select(1, 2), s[1, 2], s[0].is_coalesced(), "
     "s.coalesce()[1].is_coalesced(), s.to_sparse_coo() is s)"),
    ("select hybrid", "h = torch.sparse_coo_tensor([[0, 2]], torch.tensor([[1., 2.], [3., 4.]]), (3, 2))\n"
     "out = (h[0], h[1], h.select(1, 1))"),
    ("dense to_sparse_coo", "out = torch.tensor([[0., 2.], [3., 0.]]).to_sparse_coo()"),
    # ---- what keeps the sparsity ----------------------------------------------------------------------
    ("mul scalar", S + "out = (s * 2, 2 * s, s / 2, -s)"),
    ("t and transpose", S + "out = (s.t(), s.coalesce().t().is_coalesced(), s.transpose(0, 1).to_dense())"),
    ("clone detach double", S + "out = (s.clone(), s.detach(), s.double())"),
    ("valuewise methods", S + "out = (s.abs(), s.sqrt(), s.tanh(), s.square(), s.sign(), s.relu(), s.negative())"),
    ("valuewise functions", "s = torch.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 2, 2]], [3., -4., 0.5, -1.], (2, 3))\n"
     "out = (torch.abs(s), torch.relu(s), torch.signbit(s), torch.arcsin(s * 0.1), torch.floor(s), torch.neg(s))"),
    ("scalar mul grad", "v = torch.tensor([3., -4., 0.5, -1.], requires_grad=True)\n"
     "s = torch.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 2, 2]], v, (2, 3))\n"
     "((-s * 3).to_dense() * torch.arange(6.).view(2, 3)).sum().backward()\nout = v.grad"),
    ("sparse + sparse", S + "out = (s + s).to_dense()"),
    ("dense + sparse", S + "out = torch.ones(2, 3) + s"),
    ("sum method", S + "out = (s.sum(), s.sum(0))"),
    # ---- products -------------------------------------------------------------------------------------
    ("torch.mm", S + D + "out = torch.mm(s, d)"),
    ("sparse.mm", S + D + "out = torch.sparse.mm(s, d)"),
    ("matmul operator", S + D + "out = (s @ d, s.mm(d), s.matmul(d))"),
    ("matmul vector", S + "out = (s @ torch.tensor([1., 2., 3.]), torch.mv(s, torch.tensor([1., 2., 3.])))"),
    ("dense @ sparse", S + "out = torch.tensor([[1., 2.], [3., 4.], [5., 6.]]) @ s"),
    ("addmm", S + D + "out = torch.addmm(torch.ones(2, 2), s, d)"),
    ("addmm beta alpha", S + D + "out = torch.addmm(torch.ones(2, 2), s, d, beta=0.5, alpha=2)"),
    ("sparse.addmm", S + D + "out = torch.sparse.addmm(torch.ones(2, 2), s, d)"),
    ("sparse.mm dense dense", "out = torch.sparse.mm(torch.ones(2, 3), torch.ones(3, 2))"),
    ("sparse.mm sparse sparse", S + "out = torch.sparse.mm(s, s.t())"),
    # ---- torch.sparse.sum / softmax -------------------------------------------------------------------
    ("sparse.sum", S + "out = (torch.sparse.sum(s), torch.sparse.sum(s, 0), torch.sparse.sum(s, dim=1), "
                       "torch.sparse.sum(s, -1), torch.sparse.sum(s, (0, 1)))"),
    ("sparse.sum 1-d", "out = torch.sparse.sum(torch.sparse_coo_tensor([[0, 0]], [1., 2.], (3,)), 0)"),
    ("sparse.sum hybrid", "h = torch.sparse_coo_tensor(torch.tensor([[0, 2, 0]]), torch.tensor([[1., 2.], [3., 4.], "
                          "[5., 6.]]), (3, 2))\nout = (torch.sparse.sum(h, 1), torch.sparse.sum(h, 0))"),
    ("sparse.sum 3-d", "h = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [0, 1, 0], [1, 1, 1]]), "
                       "torch.tensor([1., 2., 3.]), (2, 2, 2))\nout = (torch.sparse.sum(h, 1), torch.sparse.sum(h, (0, 2)))"),
    ("sparse.sum dtype", S + "out = torch.sparse.sum(s, dtype=torch.float64)"),
    ("sparse.softmax", S + "out = (torch.sparse.softmax(s, 1), torch.sparse.softmax(s, 0))"),
    ("sparse.log_softmax", S + "out = torch.sparse.log_softmax(s, 1)"),
    # ---- autograd -------------------------------------------------------------------------------------
    ("grad to_dense leaf", S.replace("(2, 3))", "(2, 3), requires_grad=True)") +
     "(s.to_dense() * torch.arange(6.).view(2, 3)).sum().backward()\nout = (s.requires_grad, s.is_leaf, s.grad)"),
    ("grad sparse.mm values and dense", "v = torch.tensor([3., 4., 5., 1.], requires_grad=True)\n"
     "s = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), v, (2, 3))\n"
     "d = torch.tensor([[1., 2.], [3., -1.], [0.5, 4.]], requires_grad=True)\n"
     "o = torch.sparse.mm(s, d)\n(o * torch.tensor([[1., -2.], [0.5, 3.]])).sum().backward()\n"
     "out = (o, v.grad, d.grad, s.requires_grad, type(s.grad_fn).__name__)"),
    ("grad torch.mm leaf", S.replace("(2, 3))", "(2, 3), requires_grad=True)") + D +
     "torch.mm(s, d).sum().backward()\nout = s.grad"),
    ("grad sparse.mm leaf", S.replace("(2, 3))", "(2, 3), requires_grad=True)") + D +
     "torch.sparse.mm(s, d).sum().backward()\nout = s.grad"),
    ("grad addmm and to_dense leaf", S.replace("(2, 3))", "(2, 3), requires_grad=True)") + D +
     "(torch.addmm(torch.ones(2, 2), s, d).sum() + (s.to_dense() * 2).sum()).backward()\nout = s.grad"),
    ("grad matmul vector leaf", S.replace("(2, 3))", "(2, 3), requires_grad=True)") +
     "(s @ torch.tensor([1., 2., 3.])).sum().backward()\nout = s.grad"),
    ("grad addmm dense", S + D.replace("])\n", "], requires_grad=True)\n") +
     "torch.addmm(torch.ones(2, 2), s, d, alpha=3).sum().backward()\nout = d.grad"),
    ("grad to_sparse", "x = torch.tensor([[0., 1.], [2., 0.]], requires_grad=True)\n"
     "(x.to_sparse().to_dense() * torch.tensor([[5., 6.], [7., 8.]])).sum().backward()\nout = x.grad"),
    ("grad coalesce values", "v = torch.tensor([1., 2., 3.], requires_grad=True)\n"
     "s = torch.sparse_coo_tensor([[0, 1, 0]], v, (2,))\n"
     "(s.coalesce().values() * torch.tensor([10., 20.])).sum().backward()\nout = v.grad"),
    ("grad sparse.softmax", "v = torch.tensor([1., 2., 3.], requires_grad=True)\n"
     "s = torch.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], v, (2, 3))\n"
     "(torch.sparse.softmax(s, 1).values() * torch.tensor([1., 2., 3.])).sum().backward()\nout = v.grad"),
    ("grad sparse.sum", "v = torch.tensor([1., 2., 3.], requires_grad=True)\n"
     "s = torch.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], v, (2, 3))\n"
     "(torch.sparse.sum(s, 1).to_dense() * torch.tensor([2., 5.])).sum().backward()\nout = v.grad"),
    # ---- torch.autograd.Variable, torch.cuda.*Tensor ----------------------------------------------------
    ("Variable", "from torch.autograd import Variable\nx = Variable(torch.ones(2), requires_grad=True)\n"
     "out = (x, x.requires_grad, isinstance(torch.ones(1), Variable), Variable(torch.ones(2)).requires_grad, "
     "Variable())"),
    ("Variable grad", "from torch.autograd import Variable\nx = Variable(torch.tensor([1., 2.]), requires_grad=True)\n"
     "(x * x).sum().backward()\nout = x.grad"),
    ("cuda type names", "out = sorted(n for n in ('BoolTensor', 'ByteTensor', 'CharTensor', 'DoubleTensor', "
     "'FloatTensor', 'HalfTensor', 'IntTensor', 'LongTensor', 'ShortTensor') if hasattr(torch.cuda, n))"),
    ("cuda isinstance cpu", "out = isinstance(torch.ones(1, device='cpu'), torch.cuda.FloatTensor)"),
    ("legacy FloatTensor data", "out = torch.FloatTensor([1, 2])"),
    # ---- torch.embedding_bag: (output, offset2bag, bag_size, max_indices) -------------------------------
    ("embedding_bag sum", "w = torch.arange(15.).reshape(5, 3) * torch.tensor([1., -1., 0.5])\n"
     "out = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 0)"),
    ("embedding_bag mean", "w = torch.arange(15.).reshape(5, 3) * torch.tensor([1., -1., 0.5])\n"
     "out = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 1)"),
    ("embedding_bag max", "w = torch.tensor([[1., 9., 2.], [4., 0., 7.], [3., 5., 6.], [8., -1., 1.], [0., 2., 9.]])\n"
     "out = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 2)"),
    ("embedding_bag mean padding_idx", "w = torch.arange(15.).reshape(5, 3)\n"
     "out = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 1, False, None, "
     "False, 4)"),
    ("embedding_bag max padding_idx", "w = torch.tensor([[1., 9., 2.], [4., 0., 7.], [3., 5., 6.], [8., -1., 1.], "
     "[0., 2., 9.]])\nout = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 2, "
     "False, None, False, 3)"),
    ("embedding_bag sum per_sample_weights", "w = torch.arange(15.).reshape(5, 3)\n"
     "out = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 0, False, "
     "torch.tensor([1., 2., 0.5, -1., 3.]))"),
    ("embedding_bag include_last_offset", "w = torch.arange(15.).reshape(5, 3)\n"
     "out = (torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2, 5]), False, 1, False, None, "
     "True), torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2, 5]), False, 2, False, None, "
     "True))"),
    ("embedding_bag empty bag", "w = torch.arange(15.).reshape(5, 3)\n"
     "out = (torch.embedding_bag(w, torch.tensor([1, 2, 4]), torch.tensor([0, 2, 2]), False, 1), "
     "torch.embedding_bag(w, torch.tensor([1, 2, 4]), torch.tensor([0, 2, 2]), False, 2))"),
    ("embedding_bag grad", "w = (torch.arange(15.).reshape(5, 3) * 0.1).requires_grad_()\n"
     "o = torch.embedding_bag(w, torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2]), False, 1)[0]\n"
     "(o * torch.tensor([[1., 2., 3.], [-1., 0.5, 2.]])).sum().backward()\nout = w.grad"),
]

ERRORS: list[tuple] = [
    ("indices 1-d", "torch.sparse_coo_tensor(torch.tensor([0, 1]), torch.tensor([1., 2.]), (2, 3))", "exact"),
    ("nnz mismatch", "torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.ones(3), (2,))", "exact"),
    ("size too short", "torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]]), torch.ones(2), (2,))", "exact"),
    ("check_invariants size", "torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]]), torch.ones(2), (1, 3), "
     "check_invariants=True)", "exact"),
    ("check_invariants negative", "torch.sparse_coo_tensor(torch.tensor([[-1, 0], [0, 0]]), torch.ones(2), (2, 3), "
     "check_invariants=True)", "exact"),
    ("invariants enabled", "with torch.sparse.check_sparse_tensor_invariants():\n"
     "    torch.sparse_coo_tensor([[5]], [1.], (2,))", "exact"),
    ("indices uncoalesced", S + "s.indices()", "exact"),
    ("values uncoalesced", S + "s.values()", "exact"),
    ("dense coalesce", "torch.ones(2).coalesce()", "exact"),
    ("dense is_coalesced", "torch.ones(2).is_coalesced()", "exact"),
    ("dense indices", "torch.ones(2).indices()", "exact"),
    ("dense values", "torch.ones(2).values()", "exact"),
    ("sparse.sum dense", "torch.sparse.sum(torch.ones(2))", "exact"),
    ("numpy", S + "s.numpy()", "exact"),
    ("tolist", S + "s.tolist()", "exact"),
    ("reshape", S + "s.reshape(6)", "exact"),
    ("add sparse dense", S + "s + torch.ones(2, 3)", "exact"),
    ("mm shape", S + "torch.mm(s, torch.ones(2, 2))", "exact"),
    ("sparse.mm shape", S + "torch.sparse.mm(s, torch.ones(2, 2))", "exact"),
    ("addmm shape", S + "torch.addmm(torch.ones(2, 2), s, torch.ones(2, 2))", "exact"),
    ("index out of range", S + "s[5]", "exact"),
    ("select out of range", S + "s.select(1, -4)", "exact"),
    ("slice", S + "s[0:1]", "aten"),
    ("exp", S + "s.exp()", "aten"),
    ("torch.cos", S + "torch.cos(s)", "aten"),
    ("torch.sigmoid", S + "torch.sigmoid(s)", "aten"),
    ("view", S + "s.view(-1)", "aten"),
    ("cumsum", S + "s.cumsum(0)", "aten"),
    ("max", S + "s.max()", "aten"),
    ("Variable list", "from torch.autograd import Variable\nVariable([1, 2])", "exact"),
    ("cuda.FloatTensor", "torch.cuda.FloatTensor(2)", "exact", "cpu"),
    ("cuda.LongTensor data", "torch.cuda.LongTensor([1, 2])", "exact", "cpu"),
    ("cuda.DoubleTensor empty", "torch.cuda.DoubleTensor()", "exact", "cpu"),
    ("embedding_bag mode", "torch.embedding_bag(torch.ones(5, 3), torch.tensor([1, 2]), torch.tensor([0]), False, 3)",
     "exact"),
    ("embedding_bag float indices", "torch.embedding_bag(torch.ones(5, 3), torch.tensor([1., 2.]), torch.tensor([0]))",
     "exact"),
    ("embedding_bag psw mean", "torch.embedding_bag(torch.ones(5, 3), torch.tensor([1, 2]), torch.tensor([0]), False, 1, "
     "False, torch.ones(2))", "exact"),
    ("embedding_bag offsets None", "torch.embedding_bag(torch.ones(5, 3), torch.tensor([[1, 2]]), None)", "exact"),
]

# the cases each browser test replays on WebGPU (all; the cpu-only ones are skipped by `where`)
ON_WEBGPU = [c[0] for c in CASES]
