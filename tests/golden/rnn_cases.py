"""What tests/golden/generate_rnn.py asks real PyTorch about nn.RNN / LSTM / GRU, the cells and
nn.utils.rnn, and what replay_rnn.py asks borch_webgpu again.

NUMERIC: (id, module, inputs, code, options). ``module`` builds ``m`` (or is None); ``inputs`` maps a
name to a shape (a float tensor from torch.randn) or to a list of shapes (a list of tensors); names in
options["grad"] require grad. ``code`` runs with ``torch``, ``nn``, ``R`` (= nn.utils.rnn), ``m`` and the
inputs bound and sets ``out``; every float tensor in ``out`` is compared, then ``sum((o * g).sum())``
with random ``g`` is differentiated and the gradients of the inputs and of every parameter of ``m``
are compared. options["train"]=False runs ``m.eval()`` first.

ERRORS: (name, code[, match]): the code must raise; its type and message are recorded. ``match`` is
"exact" (default) or "type" (our message is clearer than PyTorch's, which comes from an index check
deep inside: only the type must agree). WARNINGS: (name, code): the category and text of the one
warning it gives. REPRS and STRUCTURE: constructor expressions whose repr() / registered names must agree (reprs are
taken with the cpu as the default device: a tensor's repr names its device when it is not the default).
Lengths are cpu tensors, as PyTorch requires.
"""
from __future__ import annotations

PACKED = "o, hidden = m({pack})\nout = (o, hidden, R.pad_packed_sequence(o{unpad}))"

NUMERIC: list[tuple] = [
    # ---- RNN ------------------------------------------------------------------------------------------------
    ("RNN tanh", "nn.RNN(4, 5)", {"x": [3, 2, 4], "h0": [1, 2, 5]}, "out = m(x, h0)", {"grad": ["x", "h0"]}),
    ("RNN relu 2 layers no bias", "nn.RNN(4, 5, 2, nonlinearity='relu', bias=False)", {"x": [3, 2, 4]},
     "out = m(x)", {"grad": ["x"]}),
    ("RNN bidirectional batch_first", "nn.RNN(3, 4, batch_first=True, bidirectional=True)",
     {"x": [2, 5, 3], "h0": [2, 2, 4]}, "out = m(x, h0)", {"grad": ["x", "h0"]}),
    ("RNN unbatched", "nn.RNN(3, 4, 2)", {"x": [4, 3], "h0": [2, 4]}, "out = m(x, h0)", {"grad": ["x", "h0"]}),
    # ---- LSTM -----------------------------------------------------------------------------------------------
    ("LSTM", "nn.LSTM(4, 5)", {"x": [3, 2, 4], "h0": [1, 2, 5], "c0": [1, 2, 5]}, "out = m(x, (h0, c0))",
     {"grad": ["x", "h0", "c0"]}),
    ("LSTM 2 layers bidirectional", "nn.LSTM(3, 4, num_layers=2, bidirectional=True)", {"x": [4, 3, 3]},
     "out = m(x)", {"grad": ["x"]}),
    ("LSTM proj_size 2 layers batch_first", "nn.LSTM(4, 6, proj_size=3, num_layers=2, batch_first=True)",
     {"x": [2, 3, 4], "h0": [2, 2, 3], "c0": [2, 2, 6]}, "out = m(x, (h0, c0))", {"grad": ["x", "h0", "c0"]}),
    ("LSTM proj_size bidirectional", "nn.LSTM(3, 5, proj_size=2, bidirectional=True)", {"x": [3, 2, 3]},
     "out = m(x)", {"grad": ["x"]}),
    ("LSTM no bias", "nn.LSTM(3, 4, bias=False)", {"x": [3, 2, 3]}, "out = m(x)", {"grad": ["x"]}),
    ("LSTM unbatched 2 layers", "nn.LSTM(4, 5, 2)", {"x": [3, 4], "h0": [2, 5], "c0": [2, 5]},
     "out = m(x, (h0, c0))", {"grad": ["x", "h0", "c0"]}),
    ("LSTM state carried across calls", "nn.LSTM(3, 4)", {"x": [5, 2, 3]},
     "a, hc = m(x[:2])\nb, hc2 = m(x[2:], hc)\nout = (a, b, hc2)", {"grad": ["x"]}),
    # ---- GRU ------------------------------------------------------------------------------------------------
    ("GRU 2 layers", "nn.GRU(4, 5, 2)", {"x": [3, 2, 4], "h0": [2, 2, 5]}, "out = m(x, h0)",
     {"grad": ["x", "h0"]}),
    ("GRU bidirectional batch_first no bias", "nn.GRU(3, 4, batch_first=True, bidirectional=True, bias=False)",
     {"x": [2, 4, 3]}, "out = m(x)", {"grad": ["x"]}),
    ("GRU unbatched batch_first", "nn.GRU(3, 4, batch_first=True)", {"x": [5, 3]}, "out = m(x)", {"grad": ["x"]}),
    # ---- dropout between layers: p=1 in training is deterministic (all zeros); eval mode ignores p ------------
    ("GRU dropout 1.0 training", "nn.GRU(4, 5, 2, dropout=1.0)", {"x": [3, 2, 4]}, "out = m(x)", {"grad": ["x"]}),
    ("LSTM dropout 0.5 eval", "nn.LSTM(4, 5, 2, dropout=0.5)", {"x": [3, 2, 4]}, "out = m(x)",
     {"grad": ["x"], "train": False}),
    # ---- packed sequences -----------------------------------------------------------------------------------
    ("LSTM packed unsorted bidirectional 2 layers", "nn.LSTM(3, 4, num_layers=2, bidirectional=True)",
     {"x": [4, 3, 3]}, PACKED.format(pack="R.pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)", unpad=""),
     {"grad": ["x"]}),
    ("LSTM packed proj_size with h0 and c0", "nn.LSTM(3, 5, proj_size=2)",
     {"x": [3, 4, 3], "h0": [1, 3, 2], "c0": [1, 3, 5]},
     PACKED.replace("m({pack})", "m({pack}, (h0, c0))").format(
         pack="R.pack_padded_sequence(x, [1, 4, 2], batch_first=True, enforce_sorted=False)",
         unpad=", batch_first=True"), {"grad": ["x", "h0", "c0"]}),
    ("GRU packed batch_first with h0", "nn.GRU(3, 4, batch_first=True, bidirectional=True)",
     {"x": [3, 4, 3], "h0": [2, 3, 4]},
     PACKED.replace("m({pack})", "m({pack}, h0)").format(
         pack="R.pack_padded_sequence(x, [3, 1, 4], batch_first=True, enforce_sorted=False)",
         unpad=", batch_first=True, total_length=5"), {"grad": ["x", "h0"]}),
    ("RNN pack_sequence sorted", "nn.RNN(2, 3, 2)", {"xs": [[4, 2], [3, 2], [1, 2]]},
     PACKED.format(pack="R.pack_sequence(xs)", unpad=", padding_value=-1.0"), {"grad": ["xs"]}),
    # ---- cells ----------------------------------------------------------------------------------------------
    ("RNNCell tanh", "nn.RNNCell(4, 5)", {"x": [3, 4], "h": [3, 5]}, "out = m(x, h)", {"grad": ["x", "h"]}),
    ("RNNCell relu no hx", "nn.RNNCell(4, 5, nonlinearity='relu')", {"x": [3, 4]}, "out = m(x)", {"grad": ["x"]}),
    ("LSTMCell", "nn.LSTMCell(4, 5)", {"x": [3, 4], "h": [3, 5], "c": [3, 5]}, "out = m(x, (h, c))",
     {"grad": ["x", "h", "c"]}),
    ("LSTMCell unbatched", "nn.LSTMCell(4, 5)", {"x": [4], "h": [5], "c": [5]}, "out = m(x, (h, c))",
     {"grad": ["x", "h", "c"]}),
    ("GRUCell", "nn.GRUCell(4, 5)", {"x": [3, 4], "h": [3, 5]}, "out = m(x, h)", {"grad": ["x", "h"]}),
    ("GRUCell no bias unbatched", "nn.GRUCell(4, 5, bias=False)", {"x": [4]}, "out = m(x)", {"grad": ["x"]}),
    ("LSTMCell through time", "nn.LSTMCell(3, 4)", {"x": [4, 2, 3]},
     "h = c = None\nouts = []\nfor t in range(4):\n    h, c = m(x[t], None if h is None else (h, c))\n"
     "    outs.append(h)\nout = (torch.stack(outs), c)", {"grad": ["x"]}),
    # ---- nn.utils.rnn ---------------------------------------------------------------------------------------
    ("pad_sequence", None, {"xs": [[3, 2], [1, 2], [4, 2]]}, "out = R.pad_sequence(xs)", {"grad": ["xs"]}),
    ("pad_sequence batch_first left padding_value", None, {"xs": [[2, 3], [4, 3]]},
     "out = R.pad_sequence(xs, batch_first=True, padding_value=-2.5, padding_side='left')", {"grad": ["xs"]}),
    ("pad_sequence broadcasts trailing dims", None, {"xs": [[2, 3], [3, 1]]}, "out = R.pad_sequence(xs)",
     {"grad": ["xs"]}),
    ("pack_padded_sequence batch_first unsorted", None, {"x": [3, 4, 2]},
     "out = R.pack_padded_sequence(x, torch.tensor([2, 4, 1], device='cpu'), batch_first=True, "
     "enforce_sorted=False)",
     {"grad": ["x"]}),
    ("pack and pad round trip", None, {"x": [4, 3, 2]},
     "p = R.pack_padded_sequence(x, [4, 2, 2])\nout = (p, R.pad_packed_sequence(p, padding_value=7.0, "
     "total_length=6))", {"grad": ["x"]}),
    ("pack_sequence ties keep order", None, {"xs": [[2, 1], [3, 1], [2, 1], [3, 1], [1, 1]]},
     "out = R.pack_sequence(xs, enforce_sorted=False)", {"grad": ["xs"]}),
    ("unpack_sequence", None, {"xs": [[1, 2], [3, 2], [2, 2]]},
     "out = R.unpack_sequence(R.pack_sequence(xs, enforce_sorted=False))", {"grad": ["xs"]}),
    ("unpad_sequence batch_first", None, {"x": [3, 4, 2]},
     "out = R.unpad_sequence(x, torch.tensor([4, 1, 3], device='cpu'), batch_first=True)", {"grad": ["x"]}),
    ("invert_permutation", None, {}, "out = R.invert_permutation(torch.tensor([3, 0, 2, 1]))", {}),
]

# the cases tests/browser/test_rnn_webgpu.py replays on WebGPU (every feature once; CI time is short)
ON_WEBGPU = ["RNN relu 2 layers no bias", "RNN bidirectional batch_first", "LSTM proj_size 2 layers batch_first",
             "LSTM unbatched 2 layers", "GRU bidirectional batch_first no bias", "GRU dropout 1.0 training",
             "LSTM packed unsorted bidirectional 2 layers", "GRU packed batch_first with h0",
             "RNN pack_sequence sorted", "RNNCell tanh", "LSTMCell through time", "GRUCell",
             "pad_sequence batch_first left padding_value", "pack_padded_sequence batch_first unsorted",
             "pack and pad round trip", "unpack_sequence"]

ERRORS: list[tuple] = [
    # wrong input for the layers
    ("LSTM input size", "nn.LSTM(4, 5)(torch.ones(3, 2, 3))"),
    ("RNN input size", "nn.RNN(4, 5)(torch.ones(3, 2, 3))"),
    ("GRU input size unbatched", "nn.GRU(4, 5)(torch.ones(3, 3))"),
    ("LSTM 4-D input", "nn.LSTM(4, 5)(torch.ones(3, 2, 1, 4))"),
    ("RNN 1-D input", "nn.RNN(4, 5)(torch.ones(4))"),
    ("GRU 4-D input", "nn.GRU(4, 5)(torch.ones(3, 2, 1, 4))"),
    ("LSTM integer input", "nn.LSTM(4, 5)(torch.ones(3, 2, 4, dtype=torch.long))"),
    ("LSTM empty sequence", "nn.LSTM(4, 5)(torch.zeros(0, 2, 4))"),
    ("RNN hidden batch", "nn.RNN(4, 5)(torch.ones(3, 2, 4), torch.ones(1, 3, 5))"),
    ("RNN hidden layers", "nn.RNN(4, 5, 2)(torch.ones(3, 2, 4), torch.ones(1, 2, 5))"),
    ("GRU bidirectional hidden", "nn.GRU(4, 5, bidirectional=True)(torch.ones(3, 2, 4), torch.ones(1, 2, 5))"),
    ("LSTM h0 size", "nn.LSTM(4, 5)(torch.ones(3, 2, 4), (torch.ones(1, 2, 4), torch.ones(1, 2, 5)))"),
    ("LSTM c0 size", "nn.LSTM(4, 5)(torch.ones(3, 2, 4), (torch.ones(1, 2, 5), torch.ones(1, 2, 4)))"),
    ("LSTM proj_size h0 size",
     "nn.LSTM(4, 6, proj_size=3)(torch.ones(3, 2, 4), (torch.ones(1, 2, 6), torch.ones(1, 2, 6)))"),
    ("RNN batched input 2-D hx", "nn.RNN(4, 5)(torch.ones(3, 2, 4), torch.ones(2, 5))"),
    ("RNN unbatched input 3-D hx", "nn.RNN(4, 5)(torch.ones(3, 4), torch.ones(1, 2, 5))"),
    ("LSTM unbatched input 3-D hx", "nn.LSTM(4, 5)(torch.ones(3, 4), (torch.ones(1, 2, 5), torch.ones(1, 5)))"),
    ("LSTM batched input 2-D cx", "nn.LSTM(4, 5)(torch.ones(3, 2, 4), (torch.ones(1, 2, 5), torch.ones(2, 5)))"),
    ("packed input size", "nn.GRU(3, 3)(R.pack_sequence([torch.ones(2, 2), torch.ones(1, 2)]))"),
    ("packed GRU hidden batch", "nn.GRU(2, 3)(R.pack_sequence([torch.ones(2, 2), torch.ones(1, 2)]), "
     "torch.zeros(1, 3, 3))"),
    ("packed unsorted LSTM hidden batch", "nn.LSTM(2, 3)(R.pack_sequence([torch.ones(2, 2), torch.ones(1, 2), "
     "torch.ones(3, 2)], enforce_sorted=False), (torch.zeros(1, 2, 3), torch.zeros(1, 2, 3)))", "type"),
    # constructors
    ("bias not bool", "nn.LSTM(4, 5, bias=1)"),
    ("batch_first not bool", "nn.GRU(4, 5, batch_first=None)"),
    ("input_size float", "nn.LSTM(4.0, 5)"),
    ("input_size zero", "nn.RNN(0, 5)"),
    ("hidden_size float", "nn.GRU(4, 5.0)"),
    ("hidden_size zero", "nn.LSTM(4, 0)"),
    ("num_layers zero", "nn.LSTM(4, 5, num_layers=0)"),
    ("dropout too large", "nn.LSTM(4, 5, 2, dropout=1.5)"),
    ("dropout bool", "nn.GRU(4, 5, 2, dropout=True)"),
    ("proj_size not smaller", "nn.LSTM(4, 5, proj_size=5)"),
    ("proj_size negative", "nn.LSTM(4, 5, proj_size=-1)"),
    ("RNN nonlinearity", "nn.RNN(4, 5, nonlinearity='sigmoid')"),
    ("GRU proj_size", "nn.GRU(4, 5, proj_size=2)"),
    ("RNN proj_size", "nn.RNN(4, 5, proj_size=2)"),
    # cells
    ("RNNCell 3-D input", "nn.RNNCell(4, 5)(torch.ones(1, 2, 4))"),
    ("RNNCell 3-D hidden", "nn.RNNCell(4, 5)(torch.ones(2, 4), torch.ones(1, 2, 5))"),
    ("RNNCell input size", "nn.RNNCell(4, 5)(torch.ones(2, 3))"),
    ("RNNCell hidden batch", "nn.RNNCell(4, 5)(torch.ones(2, 4), torch.ones(3, 5))"),
    ("RNNCell hidden size", "nn.RNNCell(4, 5)(torch.ones(2, 4), torch.ones(2, 4))"),
    ("RNNCell unknown nonlinearity", "nn.RNNCell(4, 5, nonlinearity='sigmoid')(torch.ones(2, 4))"),
    ("LSTMCell hx[0] 3-D", "nn.LSTMCell(4, 5)(torch.ones(2, 4), (torch.ones(1, 2, 5), torch.ones(2, 5)))"),
    ("LSTMCell c size", "nn.LSTMCell(4, 5)(torch.ones(2, 4), (torch.ones(2, 5), torch.ones(2, 4)))"),
    ("LSTMCell c batch", "nn.LSTMCell(4, 5)(torch.ones(2, 4), (torch.ones(2, 5), torch.ones(3, 5)))"),
    ("GRUCell input size unbatched", "nn.GRUCell(4, 5)(torch.ones(3))"),
    ("GRUCell 0-D input", "nn.GRUCell(4, 5)(torch.ones(()))"),
    # nn.utils.rnn
    ("pad_sequence empty", "R.pad_sequence([])"),
    ("pad_sequence not iterable", "R.pad_sequence(3)"),
    ("pad_sequence padding_side", "R.pad_sequence([torch.ones(2)], padding_side='middle')"),
    ("pad_sequence trailing sizes", "R.pad_sequence([torch.ones(2, 3), torch.ones(3, 4)])"),
    ("pad_sequence broadcast shape", "R.pad_sequence([torch.ones(2, 1), torch.ones(3, 3)])"),
    ("pack_padded_sequence lengths count", "R.pack_padded_sequence(torch.ones(3, 2, 4), [3, 2, 1])"),
    ("pack_padded_sequence zero length", "R.pack_padded_sequence(torch.ones(3, 2, 4), [3, 0])"),
    ("pack_padded_sequence unsorted", "R.pack_padded_sequence(torch.ones(3, 2, 4), [1, 2])"),
    ("pack_padded_sequence 2-D lengths",
     "R.pack_padded_sequence(torch.ones(3, 2, 4), torch.tensor([[1, 2]], device='cpu'))"),
    ("pack_padded_sequence empty", "R.pack_padded_sequence(torch.ones(0, 2, 4), [1, 1])"),
    ("pad_packed_sequence total_length",
     "R.pad_packed_sequence(R.pack_sequence([torch.ones(3, 2), torch.ones(1, 2)]), total_length=2)"),
    ("PackedSequence without batch_sizes", "R.PackedSequence(torch.ones(3))"),
]

WARNINGS: list[tuple] = [
    ("dropout with one layer", "nn.LSTM(4, 5, dropout=0.5)"),
    ("dropout with one layer GRU", "nn.GRU(4, 5, 1, dropout=0.2)"),
]

REPRS = [
    "nn.RNN(4, 5)",
    "nn.RNN(4, 5, 2, nonlinearity='relu', bias=False, batch_first=True, dropout=0.25, bidirectional=True)",
    "nn.LSTM(10, 20)",
    "nn.LSTM(4, 5, proj_size=2, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True)",
    "nn.GRU(3, 4, num_layers=3)",
    "nn.GRU(3, 4, dropout=0)",
    "nn.RNNCell(4, 5)",
    "nn.RNNCell(4, 5, bias=False, nonlinearity='relu')",
    "nn.LSTMCell(4, 5)",
    "nn.GRUCell(4, 5, bias=False)",
    "nn.Sequential(nn.LSTM(4, 5, batch_first=True), nn.GRUCell(5, 3))",
    "R.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])])",
    "R.pack_sequence([torch.tensor([1.5, 2.0]), torch.tensor([4.0]), torch.tensor([0.5, 1.0, -1.0])], "
    "enforce_sorted=False)",
]

STRUCTURE = [
    "nn.RNN(4, 5)",
    "nn.RNN(4, 5, 2, bias=False, bidirectional=True)",
    "nn.LSTM(4, 5, num_layers=2, bidirectional=True)",
    "nn.LSTM(4, 6, proj_size=3, num_layers=2, bidirectional=True)",
    "nn.LSTM(4, 6, proj_size=3, bias=False)",
    "nn.GRU(3, 4, num_layers=3)",
    "nn.RNNCell(4, 5, bias=False)",
    "nn.LSTMCell(4, 5)",
    "nn.GRUCell(4, 5)",
]

# attributes read after construction (PyTorch's public attributes of the recurrent modules)
ATTRIBUTES = [
    ("nn.LSTM(4, 6, proj_size=3, num_layers=2, bidirectional=True)",
     "[m.mode, m.input_size, m.hidden_size, m.num_layers, m.bias, m.batch_first, m.dropout, m.bidirectional, "
     "m.proj_size, m._flat_weights_names, m._all_weights, [[list(w.shape) for w in ws] for ws in m.all_weights]]"),
    ("nn.RNN(4, 5, nonlinearity='relu', dropout=0)",
     "[m.mode, m.nonlinearity, m.dropout, type(m.dropout).__name__, m._flat_weights_names]"),
    ("nn.GRUCell(4, 5, bias=False)", "[m.input_size, m.hidden_size, m.bias, m.bias_ih, m.bias_hh]"),
]
