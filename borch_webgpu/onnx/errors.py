"""``torch.onnx.errors``: the exporter's exceptions, with PyTorch's names and messages."""
from __future__ import annotations

__all__ = ["OnnxExporterError", "UnsupportedOperatorError"]


class OnnxExporterError(RuntimeError):
    """Errors raised by the ONNX exporter."""


class UnsupportedOperatorError(OnnxExporterError):
    """Raised when an operator is unsupported by the exporter.

    Example::

        >>> from borch_webgpu.onnx.errors import UnsupportedOperatorError
        >>> str(UnsupportedOperatorError("aten::cumsum", 20, None))
        "Exporting the operator 'aten::cumsum' to ONNX opset version 20 is not supported"
    """

    def __init__(self, name: str, version: int, supported_version: int | None) -> None:
        if supported_version is not None:
            msg = (f"Exporting the operator '{name}' to ONNX opset version {version} is not supported. Support for "
                   f"this operator was added in version {supported_version}, try exporting with this version")
        elif name.startswith(("aten::", "prim::", "quantized::")):
            msg = f"Exporting the operator '{name}' to ONNX opset version {version} is not supported"
        else:
            msg = (f"ONNX export failed on an operator with unrecognized namespace {name}. If you are trying to "
                   "export a custom operator, make sure you registered it with the right domain and version.")
        super().__init__(msg)
