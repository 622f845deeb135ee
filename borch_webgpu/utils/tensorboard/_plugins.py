"""Summaries of the tensor, pr_curves, custom_scalars and audio plugins and raw histograms, as
``torch.utils.tensorboard.summary`` builds them (``summary`` re-exports them under PyTorch's names)."""
from __future__ import annotations

import io
import struct
import wave

import numpy as np

from . import _proto
from ._base import make_np, plugin_metadata, summary_of

_DT = {"DT_FLOAT": 1, "DT_DOUBLE": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 5, "DT_INT8": 6,
       "DT_STRING": 7, "DT_COMPLEX64": 8, "DT_INT64": 9, "DT_BOOL": 10, "DT_BFLOAT16": 14,
       "DT_COMPLEX128": 18, "DT_HALF": 19}


def _half_bits(values) -> list[int]:
    # PyTorch's half_to_int: the float32 bit pattern of each value, as a signed int32
    return [struct.unpack("i", struct.pack("f", float(v)))[0] for v in values]


def _varints(number: int, values) -> bytes:
    body = b"".join(_proto.varint(int(v)) for v in values)
    return _proto.bytes_field(number, body) if body else b""


# dtype name -> (TensorProto dtype, writer of the value field) as PyTorch's _TENSOR_TYPE_MAP
_TENSOR_TYPES = {
    "float16": ("DT_HALF", lambda v: _varints(13, _half_bits(v))),
    "bfloat16": ("DT_BFLOAT16", lambda v: _varints(13, _half_bits(v))),
    "float32": ("DT_FLOAT", lambda v: _proto.packed_floats(5, v)),
    "float64": ("DT_DOUBLE", lambda v: _proto.packed_doubles(6, v)),
    "int8": ("DT_INT8", lambda v: _varints(7, v)),
    "uint8": ("DT_UINT8", lambda v: _varints(16, v)),
    "int16": ("DT_INT16", lambda v: _varints(7, v)),
    "int32": ("DT_INT32", lambda v: _varints(7, v)),
    "int64": ("DT_INT64", lambda v: _varints(10, v)),
    "bool": ("DT_BOOL", lambda v: _varints(11, v)),
    "complex64": ("DT_COMPLEX64", lambda v: _proto.packed_floats(9, v)),
    "complex128": ("DT_COMPLEX128", lambda v: _proto.packed_doubles(12, v)),
}


def _shape(dims) -> bytes:
    return b"".join(_proto.message_field(2, _proto.int_field(1, d)) for d in dims)


def tensor_proto(tag: str, tensor) -> bytes:
    """A Summary holding the whole ``tensor`` as a TensorProto (its dtype's value field, its shape)
    under the ``tensor`` plugin.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import tensor_proto
        >>> b"tensor" in tensor_proto("x", torch.tensor([1, 2, 3]))
        True
    """
    if tensor.numel() * tensor.itemsize >= (1 << 31):
        raise ValueError("tensor is bigger than protocol buffer's hard limit of 2GB in size")
    name = str(tensor.dtype).removeprefix("torch.")
    if name not in _TENSOR_TYPES:
        raise ValueError(f"{tag} has unsupported tensor dtype {tensor.dtype}")
    dtype, field = _TENSOR_TYPES[name]
    t = tensor.detach()
    if name.startswith("complex"):
        values = np.ascontiguousarray(t.cpu().numpy()).reshape(-1).view(
            np.float32 if name == "complex64" else np.float64).tolist()
    elif name in ("float16", "bfloat16"):
        values = t.float().flatten().tolist()
    else:
        values = t.flatten().tolist()
    proto = _proto.int_field(1, _DT[dtype]) + _proto.message_field(2, _shape(tensor.shape)) + field(values)
    return summary_of(tag, _proto.message_field(8, proto), plugin_metadata("tensor"))


def histogram_raw(name, min, max, num, sum, sum_squares, bucket_limits, bucket_counts) -> bytes:  # noqa: A002
    """A Summary with a histogram given by its statistics and buckets.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import histogram_raw
        >>> b"h" in histogram_raw("h", 0.0, 1.0, 2, 1.0, 1.0, [0.5, 1.0], [1, 1])
        True
    """
    hist = (_proto.double_field(1, min) + _proto.double_field(2, max) + _proto.double_field(3, num)
            + _proto.double_field(4, sum) + _proto.double_field(5, sum_squares)
            + _proto.packed_doubles(6, bucket_limits) + _proto.packed_doubles(7, bucket_counts))
    return summary_of(name, _proto.message_field(5, hist))


def compute_curve(labels, predictions, num_thresholds=None, weights=None) -> np.ndarray:
    """tp, fp, tn, fn, precision and recall at ``num_thresholds`` thresholds (TensorBoard's pr_curve
    rule, as PyTorch computes it), stacked as a ``(6, num_thresholds)`` array.

    Example::

        >>> import numpy as np
        >>> from borch_webgpu.utils.tensorboard.summary import compute_curve
        >>> compute_curve(np.array([1, 0]), np.array([0.9, 0.2]), num_thresholds=3).shape
        (6, 3)
    """
    minimum_count = 1e-7
    if weights is None:
        weights = 1.0
    bucket_indices = np.int32(np.floor(predictions * (num_thresholds - 1)))
    float_labels = labels.astype(np.float64)
    histogram_range = (0, num_thresholds - 1)
    tp_buckets, _ = np.histogram(bucket_indices, bins=num_thresholds, range=histogram_range,
                                 weights=float_labels * weights)
    fp_buckets, _ = np.histogram(bucket_indices, bins=num_thresholds, range=histogram_range,
                                 weights=(1.0 - float_labels) * weights)
    tp = np.cumsum(tp_buckets[::-1])[::-1]
    fp = np.cumsum(fp_buckets[::-1])[::-1]
    tn = fp[0] - fp
    fn = tp[0] - tp
    precision = tp / np.maximum(minimum_count, tp + fp)
    recall = tp / np.maximum(minimum_count, tp + fn)
    return np.stack((tp, fp, tn, fn, precision, recall))


def _pr_summary(tag: str, data: np.ndarray, num_thresholds: int) -> bytes:
    content = _proto.int_field(2, num_thresholds)   # PrCurvePluginData{version 0, num_thresholds}
    proto = (_proto.int_field(1, _DT["DT_FLOAT"]) + _proto.message_field(2, _shape(data.shape[:2]))
             + _proto.packed_floats(5, data.reshape(-1).tolist()))
    return summary_of(tag, _proto.message_field(8, proto), plugin_metadata("pr_curves", content))


def pr_curve(tag, labels, predictions, num_thresholds=127, weights=None) -> bytes:
    """A Summary with a precision-recall curve of binary ``labels`` against ``predictions`` in [0, 1]
    (at most 127 thresholds, as PyTorch).

    Example::

        >>> import numpy as np
        >>> from borch_webgpu.utils.tensorboard.summary import pr_curve
        >>> b"pr_curves" in pr_curve("pr", np.array([1, 0, 1]), np.array([0.8, 0.3, 0.6]))
        True
    """
    num_thresholds = min(num_thresholds, 127)
    data = compute_curve(labels, predictions, num_thresholds=num_thresholds, weights=weights)
    return _pr_summary(tag, data, num_thresholds)


def pr_curve_raw(tag, tp, fp, tn, fn, precision, recall, num_thresholds=127, weights=None) -> bytes:
    """A Summary with a precision-recall curve given by its counts, precision and recall.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import pr_curve_raw
        >>> b"pr" in pr_curve_raw("pr", [2, 1], [1, 0], [0, 1], [0, 1], [0.6, 1.0], [1.0, 0.5], 2)
        True
    """
    if num_thresholds > 127:
        num_thresholds = 127
    data = np.stack([make_np(a) if not isinstance(a, (list, tuple)) else np.asarray(a)
                     for a in (tp, fp, tn, fn, precision, recall)])
    return _pr_summary(tag, data, num_thresholds)


def custom_scalars(layout: dict) -> bytes:
    """The ``custom_scalars__config__`` Summary: a Layout of categories of Multiline / Margin charts.

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import custom_scalars
        >>> b"custom_scalars" in custom_scalars({"loss": {"both": ["Multiline", ["train", "val"]]}})
        True
    """
    categories = b""
    for k, v in layout.items():
        charts = b""
        for chart_name, chart_metadata in v.items():
            tags = chart_metadata[1]
            if chart_metadata[0] == "Margin":
                if len(tags) != 3:
                    raise AssertionError("len(tags) != 3")
                series = (_proto.bytes_field(1, tags[0]) + _proto.bytes_field(2, tags[1])
                          + _proto.bytes_field(3, tags[2]))
                chart = _proto.bytes_field(1, chart_name) + _proto.message_field(3, _proto.message_field(1, series))
            else:
                content = b"".join(_proto.bytes_field(1, t, force=True) for t in tags)
                chart = _proto.bytes_field(1, chart_name) + _proto.message_field(2, content)
            charts += _proto.message_field(2, chart)
        categories += _proto.message_field(2, _proto.bytes_field(1, k) + charts)
    proto = (_proto.int_field(1, _DT["DT_STRING"]) + _proto.message_field(2, b"")
             + _proto.bytes_field(8, categories, force=True))
    return summary_of("custom_scalars__config__", _proto.message_field(8, proto), plugin_metadata("custom_scalars"))


def audio(tag, tensor, sample_rate=44100) -> bytes:
    """A Summary with mono 16-bit WAV audio of ``tensor`` (values in [-1, 1]; beyond them clipped with
    PyTorch's warning line).

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import audio
        >>> b"audio/wav" in audio("a", torch.zeros(1, 8))
        True
    """
    array = make_np(tensor).squeeze()
    if abs(array).max() > 1:
        print("warning: audio amplitude out of range, auto clipped.")
        array = array.clip(-1, 1)
    if array.ndim != 1:
        raise AssertionError("input tensor should be 1 dimensional.")
    array = (array * np.iinfo(np.int16).max).astype("<i2")
    fio = io.BytesIO()
    with wave.open(fio, "wb") as wave_write:
        wave_write.setnchannels(1)
        wave_write.setsampwidth(2)
        wave_write.setframerate(sample_rate)
        wave_write.writeframes(array.data)
    body = (_proto.float_field(1, sample_rate) + _proto.int_field(2, 1) + _proto.int_field(3, array.shape[-1])
            + _proto.bytes_field(4, fio.getvalue()) + _proto.bytes_field(5, "audio/wav"))
    return summary_of(tag, _proto.message_field(6, body))



_MESH_TYPES = {"VERTEX": 1, "FACE": 2, "COLOR": 3}


def mesh(tag, vertices, colors, faces, config_dict, display_name=None, description=None) -> bytes:
    """A Summary for the mesh plugin: one float TensorProto of shape ``(B, N, 3)`` per part given
    (vertices, faces, colors), tagged ``<tag>_VERTEX`` / ``_FACE`` / ``_COLOR``, each with
    MeshPluginData (name, content type, the parts' bitmask, shape, ``config_dict`` as sorted JSON).

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import mesh
        >>> b"my_mesh_VERTEX" in mesh("my_mesh", torch.zeros(1, 3, 3), None, None, None)
        True
    """
    import json

    json_config = "{}" if config_dict is None else json.dumps(config_dict, sort_keys=True)
    parts = [(t, kind) for t, kind in ((vertices, "VERTEX"), (faces, "FACE"), (colors, "COLOR")) if t is not None]
    components = 0
    for _, kind in parts:
        components |= 1 << _MESH_TYPES[kind]
    values = b""
    for t, kind in parts:
        array = np.asarray(make_np(t) if not isinstance(t, (list, tuple)) else t)
        if array.ndim != 3:
            raise ValueError("Tensor shape should be of shape BxNx3, but got %s." % str(tuple(array.shape)))
        content = (_proto.bytes_field(2, tag) + _proto.int_field(3, _MESH_TYPES[kind])
                   + _proto.bytes_field(5, json_config) + _varints(6, array.shape)
                   + _proto.int_field(7, components))
        metadata = (_proto.message_field(1, _proto.bytes_field(1, "mesh") + _proto.bytes_field(2, content))
                    + _proto.bytes_field(2, display_name or "") + _proto.bytes_field(3, description or ""))
        proto = (_proto.int_field(1, _DT["DT_FLOAT"]) + _proto.message_field(2, _shape(array.shape))
                 + _proto.packed_floats(5, array.reshape(-1).tolist()))
        values += summary_of(f"{tag}_{kind}", _proto.message_field(8, proto), metadata)
    return values
