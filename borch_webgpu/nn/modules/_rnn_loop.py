"""The recurrences behind nn.RNN / LSTM / GRU and their cells, written with differentiable ops (linear,
sigmoid, tanh, chunk, cat, stack, slicing), so autograd runs backward through time.

Everything stays on the device: the only host values are the time-step count and, for packed
input, ``batch_sizes`` (a cpu tensor in PyTorch too). Layers hand each other lists of per-step
tensors instead of one stacked tensor: slicing a step out of a stacked tensor would make its
backward write a full-size gradient per step (O(T^2) work), a list costs nothing.

Formulas and gate order are PyTorch's (aten/src/ATen/native/RNN.cpp):

- RNN:  h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)  (or relu)
- LSTM: i, f, g, o = chunk(x W_ih^T + b_ih + h W_hh^T + b_hh, 4);  c' = σ(f) c + σ(i) tanh(g);
  h' = σ(o) tanh(c'), then h' W_hr^T with a projection
- GRU:  r, z, n from chunk(x W_ih^T + b_ih, 3) and chunk(h W_hh^T + b_hh, 3):
  r = σ(i_r + h_r), z = σ(i_z + h_z), n = tanh(i_n + r h_n), h' = n + z (h - n)
"""
from __future__ import annotations

from ...ops.shape import cat, stack
from .. import functional as F

__all__ = ["CELLS", "rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell", "run_layers"]


def rnn_tanh_cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None):
    return (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).tanh()


def rnn_relu_cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None):
    return (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).relu()


def lstm_cell(x, state, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None):
    h, c = state
    i, f, g, o = (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


def gru_cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None):
    i_r, i_z, i_n = F.linear(x, w_ih, b_ih).chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, 1)
    r = (i_r + h_r).sigmoid()
    z = (i_z + h_z).sigmoid()
    n = (i_n + r * h_n).tanh()
    return n + z * (h - n)


CELLS = {"RNN_TANH": rnn_tanh_cell, "RNN_RELU": rnn_relu_cell, "LSTM": lstm_cell, "GRU": gru_cell}


# ---- states: a tensor (RNN, GRU) or an (h, c) pair (LSTM) -------------------------------------------------
def _rows(state, start: int, stop: int):
    if isinstance(state, tuple):
        return tuple(s[start:stop] for s in state)
    return state[start:stop]


def _cat(states: list):
    if len(states) == 1:
        return states[0]
    if isinstance(states[0], tuple):
        return tuple(cat([s[k] for s in states], 0) for k in range(len(states[0])))
    return cat(states, 0)


def _output(state):
    return state[0] if isinstance(state, tuple) else state


def _direction(cell, weights, steps: list, batch_sizes: list[int], state0, reverse: bool):
    """One layer in one direction. steps[t] is (batch_sizes[t], features); state0 covers the whole batch.
    Returns (the output of every step, in time order; the final state of every sequence)."""
    n = len(steps)
    outs = [None] * n
    if not reverse:
        state, ended, cur = state0, [], batch_sizes[0]
        for t in range(n):
            b = batch_sizes[t]
            if b < cur:  # the last cur - b sequences ended at step t - 1: keep their state
                ended.append(_rows(state, b, cur))
                state, cur = _rows(state, 0, b), b
            state = cell(steps[t], state, *weights)
            outs[t] = _output(state)
        return outs, _cat([state] + ended[::-1])
    cur = batch_sizes[-1]
    state = state0 if cur == batch_sizes[0] else _rows(state0, 0, cur)
    for t in reversed(range(n)):
        b = batch_sizes[t]
        if b > cur:  # sequences that start (backwards) at step t join with their initial state
            state, cur = _cat([state, _rows(state0, cur, b)]), b
        state = cell(steps[t], state, *weights)
        outs[t] = _output(state)
    return outs, state


def run_layers(mode: str, steps: list, batch_sizes: list[int], hx, weights: list, num_layers: int,
               bidirectional: bool, dropout: float, training: bool):
    """The stacked (bi)directional recurrence.

    steps: the input of every time step, (batch_sizes[t], input_size) each; hx: (num_layers * D, B, H)
    (an (h0, c0) pair for LSTM); weights[layer * D + direction]: that cell's weights in PyTorch's order
    (w_ih, w_hh, b_ih, b_hh, w_hr; None where absent). Returns (per-step outputs (batch_sizes[t], D * H),
    h_n, c_n (None except LSTM)).
    """
    cell = CELLS[mode]
    lstm = mode == "LSTM"
    dirs = 2 if bidirectional else 1
    h_n, c_n = [], []
    for layer in range(num_layers):
        if layer and dropout and training:
            steps = [F.dropout(s, dropout, True) for s in steps]
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            state0 = (hx[0][k], hx[1][k]) if lstm else hx[k]
            w = weights[k] if lstm else weights[k][:4]
            out, final = _direction(cell, w, steps, batch_sizes, state0, reverse=d == 1)
            outs.append(out)
            if lstm:
                h_n.append(final[0])
                c_n.append(final[1])
            else:
                h_n.append(final)
        steps = outs[0] if dirs == 1 else [cat(pair, 1) for pair in zip(*outs)]
    return steps, stack(h_n, 0), (stack(c_n, 0) if lstm else None)
