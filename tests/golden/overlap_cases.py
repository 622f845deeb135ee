"""In-place writes into an expanded tensor (one memory location behind several elements): PyTorch
refuses most of them ("unsupported operation: more than one element of the written-to tensor refers
to a single memory location...") and lets fills and indexed writes through. Each snippet binds
``x = torch.zeros(3, device=dev).expand(2, 3)`` first; generate_overlap.py records PyTorch's
exception or the values of ``x`` after the snippet, replay_overlap.py compares ours."""

SETUP = "x = torch.zeros(3, device=dev).expand(2, 3)"
ONES = "torch.ones(2, 3, device=dev)"

OVERLAP_SNIPPETS = [
    ("add_", "x.add_(1)"), ("sub_", "x.sub_(1)"), ("mul_", "x.mul_(2)"), ("div_", "x.div_(2)"),
    ("iadd", "x += 1"), ("neg_", "x.neg_()"), ("exp_", "x.exp_()"), ("abs_", "x.abs_()"),
    ("relu_", "x.relu_()"), ("sigmoid_", "x.sigmoid_()"), ("clamp_", "x.clamp_(0, 1)"),
    ("clamp_min_", "x.clamp_min_(0)"), ("pow_", "x.pow_(2)"), ("floor_", "x.floor_()"),
    ("nan_to_num_", "x.nan_to_num_()"), ("addcmul_", "x.addcmul_(x, x)"),
    ("lerp_", f"x.lerp_({ONES}, 0.5)"), ("copy_", f"x.copy_({ONES})"),
    ("transposed add_", "x.t().add_(1)"),
    ("scatter_", "x.scatter_(1, torch.tensor([[0], [0]], device=dev), 1.0)"),
    ("masked_scatter_", "x.masked_scatter_(torch.ones(2, 3, dtype=torch.bool, device=dev), "
                        "torch.ones(6, device=dev))"),
    ("uniform_", "x.uniform_()"), ("normal_", "x.normal_()"), ("bernoulli_", "x.bernoulli_(0.5)"),
    ("random_", "x.random_(0, 2)"), ("exponential_", "x.exponential_()"),
    ("setitem all with a tensor", "x[:] = torch.ones(3, device=dev)"),
    ("out= into expanded", "torch.add(torch.ones(3, 3, device=dev), 1, out=torch.zeros(3, 1, device=dev)"
                           ".expand(3, 3))"),
    # allowed: fills and indexed writes (PyTorch warns for the indexed ones)
    ("fill_", "x.fill_(1)"), ("zero_", "x.zero_()"),
    ("masked_fill_", "x.masked_fill_(torch.tensor([[True, False, True]] * 2, device=dev), 1.0)"),
    ("index_fill_", "x.index_fill_(1, torch.tensor([0], device=dev), 1.0)"),
    ("index_put_", "x.index_put_((torch.tensor([0], device=dev),), torch.tensor(1.0, device=dev))"),
    ("setitem a row", "x[0] = 1.0"), ("setitem all with a number", "x[:] = 2.0"),
    ("fill_diagonal_", "x.fill_diagonal_(1.0)"),
    ("slice add_", "x[0].add_(1)"),
]
