"""Summary messages as ``torch.utils.tensorboard.summary`` builds them, encoded by hand.

Each function returns the encoded ``tensorboard.Summary`` (``bytes``): ``value`` (1) holds one
``Summary.Value`` with ``tag`` (1) and one of ``simple_value`` (2), ``image`` (4), ``histo`` (5),
``tensor`` (8), plus ``metadata`` (9) for plugin data (text, hparams, new-style scalars)."""
from __future__ import annotations

import numpy as np

from ...tensor import Tensor
from . import _proto
from ._base import make_np, plugin_metadata, summary_of
from ._plugins import (audio, compute_curve, custom_scalars, histogram_raw, mesh, pr_curve, pr_curve_raw,
                       tensor_proto)
from ._png import encode_png

__all__ = ["make_np", "scalar", "histogram", "histogram_raw", "make_histogram", "image", "convert_to_HWC",
           "text", "hparams", "tensor_proto", "pr_curve", "pr_curve_raw", "compute_curve", "custom_scalars",
           "audio", "mesh"]

_DT_FLOAT, _DT_DOUBLE, _DT_STRING = 1, 2, 7



def scalar(name: str, tensor, collections=None, new_style: bool = False,
           double_precision: bool = False) -> bytes:
    """A Summary with one scalar: ``simple_value`` (float32), or with ``new_style`` a 0-d TensorProto
    (``float_val``, or ``double_val`` with ``double_precision``) under the ``scalars`` plugin.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import scalar
        >>> scalar("loss", 0.5).hex()
        '0a0b0a046c6f7373150000003f'
    """
    tensor = make_np(tensor).squeeze()
    if tensor.ndim != 0:
        raise AssertionError(f"Tensor should contain one element (0 dimensions). \
            Was given size: {tensor.size} and {tensor.ndim} dimensions.")
    value = float(tensor)
    if new_style:
        if double_precision:
            proto = _proto.int_field(1, _DT_DOUBLE) + _proto.packed_doubles(6, [value])
        else:
            proto = _proto.int_field(1, _DT_FLOAT) + _proto.packed_floats(5, [value])
        return summary_of(name, _proto.message_field(8, proto), plugin_metadata("scalars"))
    return summary_of(name, _proto.float_field(2, value, force=True))


def make_histogram(values: np.ndarray, bins, max_bins=None) -> bytes:
    """An encoded HistogramProto (min 1, max 2, num 3, sum 4, sum_squares 5, bucket_limit 6,
    bucket 7), PyTorch's code: ``np.histogram``, optional subsampling to ``max_bins``, and only the
    buckets from the first to the last non-empty one (one empty bucket kept on the left)."""
    if values.size == 0:
        raise ValueError("The input has no element.")
    values = values.reshape(-1)
    counts, limits = np.histogram(values, bins=bins)
    num_bins = len(counts)
    if max_bins is not None and num_bins > max_bins:
        subsampling = num_bins // max_bins
        subsampling_remainder = num_bins % subsampling
        if subsampling_remainder != 0:
            counts = np.pad(counts, pad_width=[[0, subsampling - subsampling_remainder]],
                            mode="constant", constant_values=0)
        counts = counts.reshape(-1, subsampling).sum(axis=-1)
        new_limits = np.empty((counts.size + 1,), limits.dtype)
        new_limits[:-1] = limits[:-1:subsampling]
        new_limits[-1] = limits[-1]
        limits = new_limits
    cum_counts = np.cumsum(np.greater(counts, 0))
    start, end = np.searchsorted(cum_counts, [0, cum_counts[-1] - 1], side="right")
    start = int(start)
    end = int(end) + 1
    counts = counts[start - 1:end] if start > 0 else np.concatenate([[0], counts[:end]])
    limits = limits[start:end + 1]
    if counts.size == 0 or limits.size == 0:
        raise ValueError("The histogram is empty, please file a bug report.")
    return (_proto.double_field(1, values.min()) + _proto.double_field(2, values.max())
            + _proto.double_field(3, len(values)) + _proto.double_field(4, values.sum())
            + _proto.double_field(5, values.dot(values))
            + _proto.packed_doubles(6, limits.tolist()) + _proto.packed_doubles(7, counts.tolist()))


def histogram(name: str, values, bins, max_bins=None) -> bytes:
    """A Summary with one histogram of ``values`` (as float64) over ``bins`` (numpy's ``bins``: edges,
    a count or a rule name).

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import histogram
        >>> len(histogram("w", torch.tensor([0.0, 1.0, 2.0]), bins=2)) > 0
        True
    """
    values = make_np(values)
    return summary_of(name, _proto.message_field(5, make_histogram(values.astype(float), bins, max_bins)))


def _make_grid(images: np.ndarray, ncols: int = 8) -> np.ndarray:
    if images.shape[1] == 1:
        images = np.concatenate([images, images, images], 1)
    if images.ndim != 4 or images.shape[1] != 3:
        raise AssertionError("Input should be a 4D numpy array with 3 channels")
    nimg, _, height, width = images.shape
    ncols = min(nimg, ncols)
    nrows = int(np.ceil(float(nimg) / ncols))
    canvas = np.zeros((3, height * nrows, width * ncols), dtype=images.dtype)
    for i in range(nimg):
        y, x = divmod(i, ncols)
        canvas[:, y * height:(y + 1) * height, x * width:(x + 1) * width] = images[i]
    return canvas


def convert_to_HWC(tensor: np.ndarray, input_format: str) -> np.ndarray:  # noqa: N802 (PyTorch's name)
    """``tensor`` laid out as ``input_format`` (``NCHW``, ``CHW``, ``HWC``, ``HW``, ...) as an
    ``(H, W, C)`` array: a batch becomes a grid of 8 columns, one channel becomes three.

    Example::

        >>> import numpy as np
        >>> from borch_webgpu.utils.tensorboard.summary import convert_to_HWC
        >>> convert_to_HWC(np.zeros((3, 4, 5)), "CHW").shape, convert_to_HWC(np.zeros((4, 5)), "HW").shape
        ((4, 5, 3), (4, 5, 3))
    """
    if len(set(input_format)) != len(input_format):
        raise AssertionError(f"You can not use the same dimension shorthand twice. \
            input_format: {input_format}")
    if len(tensor.shape) != len(input_format):
        raise AssertionError(f"size of input tensor and input format are different. \
        tensor shape: {tensor.shape}, input_format: {input_format}")
    input_format = input_format.upper()
    if len(input_format) == 4:
        index = [input_format.find(c) for c in "NCHW"]
        return _make_grid(tensor.transpose(index)).transpose(1, 2, 0)
    if len(input_format) == 3:
        index = [input_format.find(c) for c in "HWC"]
        tensor_hwc = tensor.transpose(index)
        if tensor_hwc.shape[2] == 1:
            tensor_hwc = np.concatenate([tensor_hwc, tensor_hwc, tensor_hwc], 2)
        return tensor_hwc
    if len(input_format) == 2:
        index = [input_format.find(c) for c in "HW"]
        tensor = tensor.transpose(index)
        return np.stack([tensor, tensor, tensor], 2)
    return tensor


def image(tag: str, tensor, rescale: int = 1, dataformats: str = "NCHW") -> bytes:
    """A Summary with one PNG image (Summary.Image: height 1, width 2, colorspace 3,
    encoded_image_string 4). uint8 values are used as they are, any other dtype is scaled by 255; then
    clipped to [0, 255]. ``rescale`` other than 1 is refused (PyTorch resizes with Pillow's Lanczos).

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import image
        >>> b"IHDR" in image("img", torch.zeros(3, 2, 2), dataformats="CHW")
        True
    """
    if rescale != 1:
        raise NotImplementedError("image: rescale other than 1 needs an image resampler (PyTorch uses "
                                  "Pillow's Lanczos), which borch_webgpu does not have")
    tensor = convert_to_HWC(make_np(tensor), dataformats)
    scale_factor = 1 if tensor.dtype == np.uint8 else 255
    tensor = (tensor.astype(np.float32) * scale_factor).clip(0, 255).astype(np.uint8)
    height, width, channel = tensor.shape
    body = (_proto.int_field(1, height) + _proto.int_field(2, width) + _proto.int_field(3, channel)
            + _proto.bytes_field(4, encode_png(tensor)))
    return summary_of(tag, _proto.message_field(4, body))


def text(tag: str, text: str) -> bytes:
    """A Summary for the text plugin: tag ``<tag>/text_summary``, a DT_STRING TensorProto of shape [1]
    and metadata ``plugin_name = "text"`` (TextPluginData version 0: empty content), as PyTorch writes.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import text
        >>> b"note/text_summary" in text("note", "hello")
        True
    """
    proto = (_proto.int_field(1, _DT_STRING) + _proto.message_field(2, _proto.message_field(2, _proto.int_field(1, 1)))
             + _proto.bytes_field(8, text.encode(encoding="utf_8"), force=True))
    return summary_of(tag + "/text_summary", _proto.message_field(8, proto), plugin_metadata("text"))


def _struct_value(v) -> bytes:
    """google.protobuf.Value: number_value 2, string_value 3, bool_value 4 (a oneof: always written)."""
    if isinstance(v, str):
        return _proto.bytes_field(3, v, force=True)
    if isinstance(v, bool):
        return _proto.int_field(4, v, force=True)
    return _proto.double_field(2, v, force=True)


def hparams(hparam_dict=None, metric_dict=None, hparam_domain_discrete=None) -> tuple[bytes, bytes, bytes]:
    """The three Summaries of the hparams plugin (experiment, session start info, session end info),
    PyTorch's rules: ints, floats and bools are numbers (``bool`` is an ``int``), strings are strings,
    a Tensor is its first element.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import hparams
        >>> exp, ssi, sei = hparams({"lr": 0.1}, {"hparam/loss": 1.0})
        >>> b"_hparams_/experiment" in exp, b"_hparams_/session_end_info" in sei
        (True, True)
    """
    if not isinstance(hparam_dict, dict):
        raise TypeError("parameter: hparam_dict should be a dictionary, nothing logged.")
    if not isinstance(metric_dict, dict):
        raise TypeError("parameter: metric_dict should be a dictionary, nothing logged.")
    hparam_domain_discrete = hparam_domain_discrete or {}
    if not isinstance(hparam_domain_discrete, dict):
        raise TypeError("parameter: hparam_domain_discrete should be a dictionary, nothing logged.")
    for k, v in hparam_domain_discrete.items():
        if k not in hparam_dict or not isinstance(v, list) or not all(isinstance(d, type(hparam_dict[k])) for d in v):
            raise TypeError(f"parameter: hparam_domain_discrete[{k}] should be a list of same type as "
                            f"hparam_dict[{k}].")
    float64, string, boolean = 3, 1, 2   # hparams DataType
    infos, entries = [], []
    for k, v in hparam_dict.items():
        if v is None:
            continue
        if isinstance(v, (int, float)):
            kind, number = float64, float(v)
            value = _proto.double_field(2, number, force=True)
            discrete = [_proto.double_field(2, d, force=True) for d in hparam_domain_discrete.get(k, [])]
        elif isinstance(v, str):
            kind, value = string, _proto.bytes_field(3, v, force=True)
            discrete = [_proto.bytes_field(3, d, force=True) for d in hparam_domain_discrete.get(k, [])]
        elif isinstance(v, Tensor):
            kind, value, discrete = float64, _proto.double_field(2, float(make_np(v)[0]), force=True), []
        else:
            raise ValueError("value should be one of int, float, str, bool, or torch.Tensor")
        info = _proto.bytes_field(1, k) + _proto.int_field(4, kind)
        if k in hparam_domain_discrete and discrete is not None:
            info += _proto.message_field(5, b"".join(_proto.message_field(1, d) for d in discrete))
        infos.append(info)
        entries.append(_proto.bytes_field(1, k) + _proto.message_field(2, value))
    ssi = b"".join(_proto.message_field(1, e) for e in entries)
    experiment = (b"".join(_proto.message_field(4, i) for i in infos)
                  + b"".join(_proto.message_field(5, _proto.message_field(1, _proto.bytes_field(2, k)))
                             for k in metric_dict))
    sei = _proto.int_field(1, 1)   # STATUS_SUCCESS

    def plugin(number: int, content: bytes) -> bytes:   # HParamsPluginData, version 0 (not written)
        return plugin_metadata("hparams", _proto.message_field(number, content))

    return (summary_of("_hparams_/experiment", metadata=plugin(2, experiment)),
            summary_of("_hparams_/session_start_info", metadata=plugin(3, ssi)),
            summary_of("_hparams_/session_end_info", metadata=plugin(4, sei)))
