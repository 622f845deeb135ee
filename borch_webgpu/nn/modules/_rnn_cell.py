"""The recurrent cells ``RNNCell``, ``LSTMCell`` and ``GRUCell`` (one time step each), with PyTorch's
parameter names, initialisation and error text. (``torch.nn.modules.rnn`` exports them, as PyTorch does.)"""
from __future__ import annotations

import math

from ...ops.creation import empty, zeros
from ...tensor import Tensor
from .. import init
from ..parameter import Parameter
from ._rnn_loop import CELLS
from .module import Module

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


class RNNCellBase(Module):
    """What the cells share: ``weight_ih`` (chunks * hidden, input), ``weight_hh`` (chunks * hidden, hidden),
    ``bias_ih`` and ``bias_hh``, initialised uniform in ``[-1/sqrt(hidden_size), 1/sqrt(hidden_size)]``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None,
                 dtype=None) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), **fk))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), **fk))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, **fk))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, **fk))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self) -> None:
        """Every parameter uniform in ``[-1/sqrt(hidden_size), 1/sqrt(hidden_size)]``."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, name: str, input: Tensor, hx, n_states: int):
        """PyTorch's checks; (batched input, batched states or None, whether the input was batched)."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        states = None if hx is None else (tuple(hx) if n_states == 2 else (hx,))
        if states is not None:
            for i, h in enumerate(states):
                if h.dim() not in (1, 2):
                    what = f"hx[{i}]" if n_states == 2 else "hidden"
                    raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if states is None:
            z = zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            states = (z,) * n_states
        elif not batched:
            states = tuple(h.unsqueeze(0) for h in states)
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {self.input_size}")
        for i, h in enumerate(states):
            if h.size(0) != input.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{i} batch size {h.size(0)}")
            if h.size(1) != self.hidden_size:
                raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {h.size(1)}, expected "
                                   f"{self.hidden_size}")
        return input, states, batched

    def _weights(self) -> tuple:
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or relu).

    Shape: input (N, input_size) or (input_size,); hx the same with hidden_size (zeros when not given);
    returns h' of hx's shape.

    Example::

        >>> import borch_webgpu as torch
        >>> cell = torch.nn.RNNCell(10, 20)
        >>> h = torch.zeros(3, 20)
        >>> for x in torch.randn(6, 3, 10):
        ...     h = cell(x, h)
        >>> h.shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """The next hidden state."""
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        x, (h,), batched = self._prepare("RNNCell", input, hx, 1)
        out = CELLS["RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"](x, h, *self._weights())
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c')`` from input and ``(h, c)`` (zeros when not given); see :class:`LSTM`.

    Example::

        >>> import borch_webgpu as torch
        >>> cell = torch.nn.LSTMCell(10, 20)
        >>> h, c = cell(torch.randn(3, 10))
        >>> h.shape, c.shape
        (torch.Size([3, 20]), torch.Size([3, 20]))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        """The next (h, c)."""
        x, state, batched = self._prepare("LSTMCell", input, hx, 2)
        h, c = CELLS["LSTM"](x, state, *self._weights())
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: ``h'`` from input and ``h`` (zeros when not given); see :class:`GRU`.

    Example::

        >>> import borch_webgpu as torch
        >>> cell = torch.nn.GRUCell(10, 20)
        >>> cell(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """The next hidden state."""
        x, (h,), batched = self._prepare("GRUCell", input, hx, 1)
        out = CELLS["GRU"](x, h, *self._weights())
        return out if batched else out.squeeze(0)
