"""ONNX mappings of ``torch.nn.functional``: convolution, linear, normalisation, pooling, dropout."""
from __future__ import annotations

from ._graph import dtype_name
from ._ops_tensor import onnx_op, reduce, unsupported


def _tuple(v, n: int) -> list[int]:
    v = list(v) if isinstance(v, (tuple, list)) else [v] * n
    return [int(x) for x in (v * n if len(v) == 1 else v)]


def _batched(g, input, spatial: int, what: str) -> None:
    if input.ndim != spatial + 2:
        raise unsupported(g, f"{what} (an unbatched {input.ndim}-D input; add the batch dim with unsqueeze(0))")


# ---- convolution and linear -----------------------------------------------------------------------
@onnx_op("conv1d", "conv2d")
def _conv(g, input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    n = weight.ndim - 2
    _batched(g, input, n, g.current_name)
    k = list(weight.shape[2:])
    strides, dilations = _tuple(stride, n), _tuple(dilation, n)
    if isinstance(padding, str):
        if padding == "valid":
            begin = end = [0] * n
        else:   # 'same': the extra pixel of an odd total goes to the end, as PyTorch pads
            total = [d * (kk - 1) for d, kk in zip(dilations, k)]
            begin = [t // 2 for t in total]
            end = [t - b for t, b in zip(total, begin)]
    else:
        begin = end = _tuple(padding, n)
    ins = [g.value(input), g.value(weight)] + ([g.value(bias)] if bias is not None else [])
    g.emit("Conv", *ins, dims=g.per_dim(input), kernel_shape=k, strides=strides, pads=begin + end,
           dilations=dilations, group=int(groups))


@onnx_op("linear")
def _linear(g, input, weight, bias=None):
    x, w = g.value(input), g.value(weight)
    dims = g.sym(input)[:-1] + (int(weight.shape[0]),)
    if input.ndim == 2 and bias is not None:
        g.emit("Gemm", x, w, g.value(bias), dims=dims, alpha=1.0, beta=1.0, transB=1)
        return
    wt = g.op("Transpose", w, dims=tuple(reversed(weight.shape)), perm=[1, 0])
    if bias is None:
        g.emit("MatMul", x, wt, dims=dims)
    else:
        g.emit("Add", g.op("MatMul", x, wt, dims=dims), g.value(bias), dims=dims)


# ---- normalisation ------------------------------------------------------------------------------
def _channel_param(g, t, c: int, fill: float, dtype: str) -> str:
    import numpy as np
    return g.value(t) if t is not None else g.const(np.full(c, fill), dtype)


@onnx_op("batch_norm")
def _batch_norm(g, input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
                eps=1e-5, _num_batches_tracked=None):   # the module's counter is no part of the graph
    c, dt, dims = int(input.shape[1]), dtype_name(input), g.same(input)
    scale, shift = _channel_param(g, weight, c, 1.0, dt), _channel_param(g, bias, c, 0.0, dt)
    x = g.value(input)
    if not training:   # running statistics: one BatchNormalization
        g.emit("BatchNormalization", x, scale, shift, g.value(running_mean), g.value(running_var), dims=dims,
               epsilon=float(eps), momentum=1.0 - float(momentum))
        return
    # training mode (or no running statistics): normalise with this batch's mean and biased variance
    axes = [0] + list(range(2, input.ndim))
    stat = (1, c) + (1,) * (input.ndim - 2)
    mean = reduce(g, "ReduceMean", x, axes, stat, dt, True)
    centred = g.op("Sub", x, mean, dims=dims, dtype=dt)
    var = reduce(g, "ReduceMean", g.op("Mul", centred, centred, dims=dims, dtype=dt), axes, stat, dt, True)
    std = g.op("Sqrt", g.op("Add", var, g.const(float(eps), dt), dims=stat, dtype=dt), dims=stat, dtype=dt)
    shape = g.const(list(stat), "int64")
    y = g.op("Div", centred, std, dims=dims, dtype=dt)
    y = g.op("Mul", y, g.op("Reshape", scale, shape, dims=stat, dtype=dt), dims=dims, dtype=dt)
    g.emit("Add", y, g.op("Reshape", shift, shape, dims=stat, dtype=dt), dims=dims)


@onnx_op("layer_norm")
def _layer_norm(g, input, normalized_shape, weight=None, bias=None, eps=1e-5):
    import numpy as np
    shape = [int(normalized_shape)] if isinstance(normalized_shape, int) else [int(s) for s in normalized_shape]
    dt = dtype_name(input)
    scale = g.value(weight) if weight is not None else g.const(np.ones(shape), dt)
    shift = g.value(bias) if bias is not None else g.const(np.zeros(shape), dt)
    g.emit("LayerNormalization", g.value(input), scale, shift, dims=g.same(input), axis=-len(shape),
           epsilon=float(eps))


# ---- pooling ------------------------------------------------------------------------------------
def _check_ceil(g, input, k, s, p, d):
    """ONNX's ceil_mode size is ceil((L + 2p - d(k-1) - 1) / s) + 1; PyTorch drops a last window that would
    start in the right padding. Refuse the shapes where the two differ instead of writing a wrong size."""
    for i, (kk, ss, pp, dd) in enumerate(zip(k, s, p, d)):
        size = input.shape[2 + i]
        onnx = -(-(size + 2 * pp - dd * (kk - 1) - 1) // ss) + 1
        if onnx != g.result.shape[2 + i]:
            raise unsupported(g, f"{g.current_name}(ceil_mode=True) with a last window in the padding "
                                 f"(size {size}, kernel {kk}, stride {ss}, padding {pp})")


def _pool_args(g, input, kernel_size, stride, padding, n: int):
    _batched(g, input, n, g.current_name)
    k = _tuple(kernel_size, n)
    s = _tuple(stride, n) if stride is not None and stride != [] and stride != () else list(k)
    return k, s, _tuple(padding, n)


@onnx_op("max_pool1d", "max_pool2d")
def _max_pool(g, input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    n = 1 if g.current_name == "max_pool1d" else 2
    if return_indices:
        raise unsupported(g, f"{g.current_name}(return_indices=True)")
    k, s, p = _pool_args(g, input, kernel_size, stride, padding, n)
    d = _tuple(dilation, n)
    if ceil_mode:
        _check_ceil(g, input, k, s, p, d)
    g.emit("MaxPool", g.value(input), dims=g.per_dim(input), kernel_shape=k, strides=s, pads=p + p, dilations=d,
           ceil_mode=int(bool(ceil_mode)))


@onnx_op("avg_pool1d", "avg_pool2d")
def _avg_pool(g, input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
              divisor_override=None):
    n = 1 if g.current_name == "avg_pool1d" else 2
    if divisor_override is not None:
        raise unsupported(g, f"{g.current_name}(divisor_override={divisor_override})")
    k, s, p = _pool_args(g, input, kernel_size, stride, padding, n)
    if ceil_mode:
        _check_ceil(g, input, k, s, p, [1] * n)
    g.emit("AveragePool", g.value(input), dims=g.per_dim(input), kernel_shape=k, strides=s, pads=p + p,
           ceil_mode=int(bool(ceil_mode)), count_include_pad=int(bool(count_include_pad)))


def _adaptive(g, input, output_size, n: int, kind: str):
    _batched(g, input, n, g.current_name)
    out = [int(input.shape[2 + i]) if o is None else int(o) for i, o in enumerate(_tuple(output_size, n))]
    d = g.sym(input)
    if all(o == 1 for o in out):
        g.emit(f"Global{kind}Pool", g.value(input), dims=d[:2] + (1,) * n)
        return
    size = list(input.shape[2:])
    if any(isinstance(x, str) for x in d[2:]) or any(sz % o for sz, o in zip(size, out)):
        raise unsupported(g, f"{g.current_name} (output size {tuple(out)} does not divide the input size "
                             f"{tuple(size)})")
    k = [sz // o for sz, o in zip(size, out)]
    g.emit(f"{kind}Pool", g.value(input), dims=d[:2] + tuple(out), kernel_shape=k, strides=k)


@onnx_op("adaptive_avg_pool1d", "adaptive_avg_pool2d")
def _adaptive_avg(g, input, output_size):
    _adaptive(g, input, output_size, 1 if g.current_name.endswith("1d") else 2, "Average")


@onnx_op("adaptive_max_pool2d")
def _adaptive_max(g, input, output_size, return_indices=False):
    if return_indices:
        raise unsupported(g, "adaptive_max_pool2d(return_indices=True)")
    _adaptive(g, input, output_size, 2, "Max")


# ---- dropout ------------------------------------------------------------------------------------
@onnx_op("dropout", "dropout1d", "dropout2d", "alpha_dropout", "feature_alpha_dropout")
def _dropout(g, input, p=0.5, training=True, inplace=False):
    if not training or p == 0:
        g.emit("Identity", g.value(input), dims=g.same(input))
        return
    if g.current_name != "dropout":
        raise unsupported(g, f"{g.current_name} (in training mode; export the model in eval mode)")
    g.emit("Dropout", g.value(input), g.const(float(p), dtype_name(input)), g.const(True, "bool"), dims=g.same(input))


@onnx_op("embedding")
def _embedding(g, input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
               sparse=False):
    if max_norm is not None:
        raise unsupported(g, "embedding(max_norm=...)")
    g.emit("Gather", g.value(weight), g.value(input), dims=g.sym(input) + (int(weight.shape[1]),), axis=0)

