"""``torch.onnx``: export a model to an ONNX file (ONNX Runtime, ONNX Runtime Web) by tracing one forward.

The calls a forward makes through ``torch.*``, Tensor methods and operators, and
``torch.nn.functional`` are recorded (``borch_webgpu._bind.tracing``) and mapped to ONNX nodes; the
protobuf is written in pure Python (``_proto.py``), so export works inside Pyodide with no extra
package. ``SUPPORTED`` lists the API names that map.
"""
from __future__ import annotations

import enum
import os
import warnings

from .._version import __version__
from . import errors
from ._export import MAX_OPSET, MIN_OPSET, build
from ._ops_tensor import SYMBOLIC
from .errors import OnnxExporterError, UnsupportedOperatorError

__all__ = ["export", "TrainingMode", "ONNXProgram", "OnnxExporterError", "UnsupportedOperatorError", "errors",
           "SUPPORTED"]

SUPPORTED: tuple[str, ...] = tuple(sorted(SYMBOLIC))
"""The API names (``torch.*``, Tensor methods, ``nn.functional``) the exporter maps to ONNX nodes."""


class TrainingMode(enum.IntEnum):
    """How ``dynamo=False`` export sets the model's mode (``torch.onnx.TrainingMode``)."""
    EVAL = 0
    PRESERVE = 1
    TRAINING = 2


class ONNXProgram:
    """What ``export(..., f=None)`` returns: the ModelProto's bytes, with ``save(destination)``."""

    def __init__(self, model_bytes: bytes):
        self.model_bytes = model_bytes

    def save(self, destination) -> None:
        _write(destination, self.model_bytes)

    def __bytes__(self) -> bytes:
        return self.model_bytes


def _write(f, data: bytes) -> None:
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            fh.write(data)
    elif hasattr(f, "write"):
        f.write(data)
    else:
        raise TypeError(f"onnx.export: f must be a path or a binary file-like object, got {type(f).__name__}")


_DYNAMO_ONLY = ("dynamic_shapes", "custom_translation_table", "custom_opsets")


def export(model, args=(), f=None, *, kwargs=None, verbose=None, input_names=None, output_names=None,
           opset_version=None, dynamo=True, external_data=True, dynamic_shapes=None, custom_translation_table=None,
           report=False, optimize=True, verify=False, profile=False, dump_exported_program=False, artifacts_dir=".",
           export_params=True, keep_initializers_as_inputs=False, dynamic_axes=None, training=TrainingMode.EVAL,
           operator_export_type=None, do_constant_folding=True, custom_opsets=None, export_modules_as_functions=False,
           autograd_inlining=True):
    """Export ``model`` to ONNX by running one forward on ``args`` and recording its ops.

    Args:
        model: an ``nn.Module`` (its parameters and buffers become initializers named as in its
            state dict) or a function of tensors.
        args: a tensor or a tuple of positional inputs (a trailing dict holds keyword inputs);
            every tensor becomes a graph input, anything else is fixed into the graph.
        f: a path or a binary file-like object; ``None`` returns an ``ONNXProgram``.
        input_names, output_names: names of the graph's inputs and outputs, in order.
        opset_version: the ONNX opset (default 20, PyTorch 2.13's default; 17 to 21 are written).
        dynamic_axes: ``{"input": {0: "batch"}, "output": {0: "batch"}}`` (or a list of axes) makes
            those dims symbolic, so the model runs at other sizes.
        export_params: ``False`` makes the parameters graph inputs instead of initializers.
        keep_initializers_as_inputs: list the initializers among the graph's inputs too.
        do_constant_folding: ``False`` keeps ops on parameters as nodes.
        dynamo: both settings trace the same way here. With ``dynamo=True`` (the default) the model
            is exported in the mode it is in (a warning if training, as PyTorch); ``dynamo=False``
            follows ``training`` (``TrainingMode.EVAL`` exports in eval mode and restores the mode).
        external_data: the weights are always stored inside the file (one buffer for ONNX Runtime Web).

    A model in training mode exports BatchNorm with the batch's statistics and dropout as ONNX
    ``Dropout`` in training mode; the one traced forward updates BatchNorm's running statistics as
    any forward does. An op with no mapping raises ``UnsupportedOperatorError`` naming it.

    Example::

        >>> import io
        >>> import borch_webgpu as torch
        >>> model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).eval()
        >>> buf = io.BytesIO()
        >>> torch.onnx.export(model, (torch.randn(2, 4),), buf, input_names=["x"], output_names=["y"],
        ...                   dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
        >>> buf.getvalue()[:2]
        b'\\x08\\t'
    """
    for name in _DYNAMO_ONLY:
        if locals()[name] is not None:
            raise NotImplementedError(f"onnx.export: {name} is not supported by borch_webgpu's exporter "
                                      "(use dynamic_axes for symbolic dims)")
    if report or verify or profile or dump_exported_program or export_modules_as_functions:
        raise NotImplementedError("onnx.export: report, verify, profile, dump_exported_program and "
                                  "export_modules_as_functions are not supported by borch_webgpu's exporter")
    if operator_export_type not in (None, 0):
        raise NotImplementedError("onnx.export: only operator_export_type=OperatorExportTypes.ONNX is supported")
    if opset_version is not None and not MIN_OPSET <= int(opset_version) <= MAX_OPSET:
        raise ValueError(f"Unsupported ONNX opset version: {opset_version} (borch_webgpu.onnx writes opsets "
                         f"{MIN_OPSET} to {MAX_OPSET})")
    was_training = getattr(model, "training", None)
    if dynamo:
        if was_training:
            warnings.warn("Exporting a model while it is in training mode. Please ensure that this is intended, as "
                          "it may lead to different behavior during inference. Calling model.eval() before export "
                          "is recommended.", UserWarning, stacklevel=2)
    elif was_training is not None and training != TrainingMode.PRESERVE:
        model.train(training == TrainingMode.TRAINING)
    try:
        data = build(model, args, kwargs=kwargs, input_names=input_names, output_names=output_names,
                     opset_version=opset_version, dynamic_axes=dynamic_axes, export_params=export_params,
                     keep_initializers_as_inputs=keep_initializers_as_inputs, do_constant_folding=do_constant_folding,
                     producer_version=__version__, verbose=bool(verbose))
    finally:
        if was_training is not None and getattr(model, "training", None) != was_training:
            model.train(was_training)
    if f is None:
        return ONNXProgram(data)
    _write(f, data)
    return None
