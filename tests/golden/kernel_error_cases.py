"""Bad indices and zero divisors that WebGPU kernels find (the index kernels of wgsl/index.wgsl, the
integer divisions of ops_binary.wgsl and ops_int64.wgsl): one line each, run
with ``torch`` bound to real PyTorch on the cpu device (generate_kernel_errors.py records the
exception type and message) and to borch_webgpu (replay_kernel_errors.py: the cpu device raises the
same at once; WebGPU the same message followed by the op and the line, inside the ``try`` around the
``torch.scope()`` that ran it). Each case: (id, the op our error names, the line). ``dev`` is the
device tensors are made on."""

CASES = [
    ("gather", "gather",
     "torch.arange(6., device=dev).reshape(3, 2).gather(0, torch.tensor([[5, 0]], device=dev))"),
    ("gather negative", "gather",
     "torch.zeros(3, 2, device=dev).gather(1, torch.tensor([[0], [-1], [1]], device=dev))"),
    ("scatter", "scatter", "torch.zeros(3, 2, device=dev).scatter(0, torch.tensor([[5, 0]], device=dev), 1.0)"),
    ("scatter_add", "scatter_add",
     "torch.zeros(3, 2, device=dev).scatter_add(0, torch.tensor([[0, 7]], device=dev), torch.ones(1, 2, device=dev))"),
    ("index_select", "index_select", "torch.zeros(3, 2, device=dev).index_select(0, torch.tensor([0, 3], device=dev))"),
    ("index_select negative", "index_select",
     "torch.zeros(3, 2, device=dev).index_select(1, torch.tensor([-1], device=dev))"),
    ("index_select last of 3 dims", "index_select",
     "torch.zeros(2, 3, 4, device=dev).index_select(2, torch.tensor([4], device=dev))"),
    ("index_add dim 0", "index_add",
     "torch.zeros(3, 2, device=dev).index_add(0, torch.tensor([9], device=dev), torch.ones(1, 2, device=dev))"),
    ("index_add last dim", "index_add",
     "torch.zeros(2, 3, device=dev).index_add(1, torch.tensor([-1], device=dev), torch.ones(2, 1, device=dev))"),
    ("index_add 1-d", "index_add",
     "torch.zeros(3, device=dev).index_add(0, torch.tensor([9], device=dev), torch.ones(1, device=dev))"),
    ("index_add middle dim", "index_add",
     "torch.zeros(2, 3, 4, device=dev).index_add(1, torch.tensor([7], device=dev), torch.ones(2, 1, 4, device=dev))"),
    ("index_add alpha", "index_add",
     "torch.zeros(3, 2, device=dev).index_add(0, torch.tensor([9], device=dev), torch.ones(1, 2, device=dev), "
     "alpha=2)"),
    ("embedding", "embedding",
     "torch.nn.functional.embedding(torch.tensor([[1, 7]], device=dev), torch.zeros(3, 2, device=dev))"),
    ("embedding max_norm", "embedding",
     "torch.nn.functional.embedding(torch.tensor([4], device=dev), torch.ones(3, 2, device=dev), max_norm=1.0)"),
    ("embedding max_norm negative", "embedding",
     "torch.nn.functional.embedding(torch.tensor([-1], device=dev), torch.ones(3, 2, device=dev), max_norm=1.0)"),
    ("nn.Embedding", "embedding", "torch.nn.Embedding(4, 2).to(dev)(torch.tensor([2, 4], device=dev))"),
    ("getitem", "__getitem__", "torch.zeros(3, 2, device=dev)[torch.tensor([0, 5], device=dev)]"),
    ("getitem negative", "__getitem__", "torch.zeros(3, 2, device=dev)[torch.tensor([-4], device=dev)]"),
    ("getitem second index tensor", "__getitem__",
     "torch.zeros(2, 3, 4, device=dev)[torch.tensor([0], device=dev), :, torch.tensor([9], device=dev)]"),
    ("getitem after a slice", "__getitem__", "torch.zeros(2, 3, 4, device=dev)[:, torch.tensor([3], device=dev)]"),
    ("setitem", "__setitem__", "x = torch.zeros(3, device=dev); x[torch.tensor([1, 3], device=dev)] = 1.0"),
    ("index_put_", "index_put_",
     "torch.zeros(3, device=dev).index_put_((torch.tensor([3], device=dev),), torch.tensor(1.0, device=dev))"),
    ("index_put_ accumulate", "index_put_",
     "torch.zeros(3, device=dev).index_put_((torch.tensor([-4], device=dev),), torch.tensor(1.0, device=dev), "
     "accumulate=True)"),
    ("take", "take", "torch.take(torch.zeros(2, 3, device=dev), torch.tensor([6], device=dev))"),
    ("nll_loss target", "nll_loss",
     "torch.nn.functional.nll_loss(torch.zeros(2, 3, device=dev), torch.tensor([0, 3], device=dev))"),
    ("cross_entropy target", "cross_entropy",
     "torch.nn.functional.cross_entropy(torch.zeros(2, 3, device=dev), torch.tensor([0, 5], device=dev))"),
    ("cross_entropy negative target", "cross_entropy",
     "torch.nn.functional.cross_entropy(torch.zeros(2, 3, device=dev), torch.tensor([-2, 0], device=dev))"),
    ("one_hot too large", "one_hot", "torch.nn.functional.one_hot(torch.tensor([0, 3], device=dev), 3)"),
    ("one_hot negative", "one_hot", "torch.nn.functional.one_hot(torch.tensor([0, -1], device=dev), 3)"),
    ("binary_cross_entropy range", "binary_cross_entropy",
     "torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 1.5], device=dev), torch.ones(2, device=dev))"),
    # integer division by a zero inside a tensor (a Python 0 is refused before any kernel runs)
    ("floor_divide by zero", "floor_divide", "torch.tensor([7, -7], device=dev) // torch.tensor([2, 0], device=dev)"),
    ("div floor by zero", "floor_divide",
     "torch.div(torch.tensor([1, 2], device=dev), torch.tensor([0, 1], device=dev), rounding_mode='floor')"),
    ("div trunc by zero", "div",
     "torch.div(torch.tensor([1, 2], device=dev), torch.tensor([1, 0], device=dev), rounding_mode='trunc')"),
    ("remainder by zero", "remainder", "torch.tensor([5, 6], device=dev) % torch.tensor([0, 4], device=dev)"),
    ("fmod by zero", "fmod", "torch.fmod(torch.tensor([5, 6], device=dev), torch.tensor([3, 0], device=dev))"),
    ("int32 floor_divide by zero", "floor_divide",
     "torch.tensor([3, 4], dtype=torch.int32, device=dev) // torch.tensor([0, 1], dtype=torch.int32, device=dev)"),
    ("int32 div trunc by zero", "div", "torch.div(torch.tensor([3], dtype=torch.int32, device=dev), "
     "torch.tensor([0], dtype=torch.int32, device=dev), rounding_mode='trunc')"),
    ("int32 remainder by zero", "remainder",
     "torch.tensor([3, 4], dtype=torch.int32, device=dev) % torch.tensor([1, 0], dtype=torch.int32, device=dev)"),
    ("int32 fmod by zero", "fmod", "torch.fmod(torch.tensor([-3], dtype=torch.int32, device=dev), "
     "torch.tensor([0], dtype=torch.int32, device=dev))"),
    ("scalar // zero tensor", "floor_divide", "5 // torch.tensor([1, 0], device=dev)"),
    ("scalar % zero tensor", "remainder", "5 % torch.tensor([0, 2], device=dev)"),
    ("in-place //= zero tensor", "floor_divide",
     "x = torch.tensor([4, 5], device=dev); x //= torch.tensor([1, 0], device=dev)"),
    ("remainder_ by zero", "remainder", "torch.tensor([4, 5], device=dev).remainder_(torch.tensor([0], device=dev))"),
    ("broadcast zero divisor", "floor_divide",
     "torch.ones(2, 3, dtype=torch.int64, device=dev) // torch.tensor([1, 0, 1], device=dev)"),
    ("transposed zero divisor", "fmod",
     "torch.fmod(torch.ones(2, 2, dtype=torch.int64, device=dev), torch.tensor([[1, 2], [0, 3]], device=dev).t())"),
    ("0-d zero divisor", "floor_divide", "torch.tensor([8, 9], device=dev) // torch.tensor(0, device=dev)"),
]

# refused before any kernel runs, on both devices: PyTorch's exception and message, by the line itself
AT_ONCE = [
    ("floor_divide by 0", "torch.tensor([1, 2], device=dev) // 0"),
    ("div floor by 0", "torch.div(torch.tensor([1, 2], device=dev), 0, rounding_mode='floor')"),
    ("div trunc by 0", "torch.div(torch.tensor([1, 2], device=dev), 0, rounding_mode='trunc')"),
    ("remainder by 0", "torch.tensor([1, 2], device=dev) % 0"),
    ("fmod by 0", "torch.fmod(torch.tensor([1, 2], dtype=torch.int32, device=dev), 0)"),
    ("floor_divide_ by 0", "torch.tensor([1, 2], device=dev).floor_divide_(0)"),
    ("bool // bool", "torch.tensor([True], device=dev) // torch.tensor([False], device=dev)"),
    ("bool % bool", "torch.tensor([True], device=dev) % torch.tensor([True], device=dev)"),
    ("bool fmod bool", "torch.fmod(torch.tensor([True], device=dev), torch.tensor([True], device=dev))"),
    ("bool div trunc bool", "torch.div(torch.tensor([True], device=dev), torch.tensor([True], device=dev), "
     "rounding_mode='trunc')"),
]

# divisions that must not raise (PyTorch's values; on WebGPU without a host read: the zero check is the
# kernel's), and float division by zero: inf and nan as PyTorch
VALUES = [
    ("int64 floor_divide", "torch.tensor([7, -7, 7, -7], device=dev) // torch.tensor([2, 2, -2, -2], device=dev)"),
    ("int64 remainder", "torch.tensor([7, -7, 7, -7], device=dev) % torch.tensor([2, 2, -2, -2], device=dev)"),
    ("int64 fmod", "torch.fmod(torch.tensor([7, -7, 7, -7], device=dev), torch.tensor([2, 2, -2, -2], device=dev))"),
    ("int64 div trunc", "torch.div(torch.tensor([7, -7, 7, -7], device=dev), torch.tensor([2, 2, -2, -2], "
     "device=dev), rounding_mode='trunc')"),
    ("int32 floor_divide", "torch.tensor([7, -7], dtype=torch.int32, device=dev) // "
     "torch.tensor([-2, 2], dtype=torch.int32, device=dev)"),
    ("int32 remainder", "torch.tensor([7, -7], dtype=torch.int32, device=dev) % "
     "torch.tensor([-2, 2], dtype=torch.int32, device=dev)"),
    ("scalar // tensor", "9 // torch.tensor([2, -4], device=dev)"),
    ("empty // 0", "torch.tensor([], dtype=torch.int64, device=dev) // 0"),
    ("empty broadcast // zero tensor", "torch.ones(0, 1, dtype=torch.int64, device=dev) // torch.tensor([0, 0], "
     "device=dev)"),
    ("float / 0", "torch.tensor([7., -7., 0.], device=dev) / 0"),
    ("float // 0", "torch.tensor([7., -7.], device=dev) // 0"),
    ("float % 0", "torch.tensor([7., -7.], device=dev) % 0"),
    ("float fmod zero tensor", "torch.fmod(torch.tensor([7., -7.], device=dev), torch.tensor([0., 0.], device=dev))"),
    ("int // 0.0", "torch.tensor([7, -7], device=dev) // 0.0"),
    ("int / zero int tensor", "torch.tensor([7, -7, 0], device=dev) / torch.tensor([0, 0, 0], device=dev)"),
]
