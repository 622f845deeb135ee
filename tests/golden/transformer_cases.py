"""What tests/golden/generate_transformer.py asks real PyTorch about nn.Transformer, its encoder and decoder
stacks and layers, the ``is_causal`` hints and F.scaled_dot_product_attention, and what replay_transformer.py
asks borch_webgpu again. The format is rnn_cases.py's (read its docstring): NUMERIC cases load PyTorch's
weights with load_state_dict(strict=True) and compare outputs and the gradients of inputs and parameters;
ERRORS, WARNINGS, REPRS, STRUCTURE and ATTRIBUTES compare what PyTorch raises, warns, prints and registers.

Every NUMERIC case is deterministic: dropout 0, eval mode, or dropout 1.0 in training (every dropped
branch is exactly zero). Masks are built inside the code (``causal`` below is PyTorch's own helper).
"""
from __future__ import annotations

CAUSAL = "nn.Transformer.generate_square_subsequent_mask"
ENC = "nn.TransformerEncoderLayer(8, 2, 16, 0.0"
DEC = "nn.TransformerDecoderLayer(8, 2, 16, 0.0"
KPM2x5 = "torch.tensor([[False, False, False, True, True], [False] * 5])"
BOOL5 = "torch.tensor([[j > i + 1 for j in range(5)] for i in range(5)])"
BOOL3x5 = "torch.tensor([[j == (i + 2) % 5 for j in range(5)] for i in range(3)])"
NO_GRAD_OUT = "with torch.no_grad():\n    out = m(x, src_key_padding_mask={kpm})"

NUMERIC: list[tuple] = [
    # ---- TransformerEncoderLayer ------------------------------------------------------------------------------
    ("EncoderLayer post-norm relu", ENC + ")", {"x": [5, 2, 8]}, "out = m(x)", {"grad": ["x"]}),
    ("EncoderLayer norm_first gelu batch_first bool src_mask", ENC + ", 'gelu', batch_first=True, norm_first=True)",
     {"x": [2, 5, 8]}, f"out = m(x, src_mask={BOOL5})", {"grad": ["x"]}),
    ("EncoderLayer bool src_mask and key_padding_mask", ENC + ")", {"x": [5, 2, 8]},
     f"out = m(x, src_mask={BOOL5}, src_key_padding_mask={KPM2x5})", {"grad": ["x"]}),
    ("EncoderLayer float masks", ENC + ", batch_first=True)", {"x": [2, 5, 8], "fm": [5, 5], "fk": [2, 5]},
     "out = m(x, src_mask=fm, src_key_padding_mask=fk)", {"grad": ["x", "fm", "fk"]}),
    ("EncoderLayer is_causal with the causal mask", ENC + ")", {"x": [5, 2, 8]},
     f"out = m(x, src_mask={CAUSAL}(5), is_causal=True)", {"grad": ["x"]}),
    ("EncoderLayer activation module GELU", ENC + ", activation=nn.GELU())", {"x": [4, 3, 8]}, "out = m(x)",
     {"grad": ["x"]}),
    ("EncoderLayer activation callable silu", ENC + ", activation=F.silu, batch_first=True)", {"x": [3, 4, 8]},
     "out = m(x)", {"grad": ["x"]}),
    ("EncoderLayer unbatched", ENC + ", norm_first=True)", {"x": [5, 8]},
     f"out = m(x, src_key_padding_mask=torch.tensor([False, True, False, False, True]))", {"grad": ["x"]}),
    ("EncoderLayer bias=False eps", ENC + ", layer_norm_eps=1e-3, bias=False)", {"x": [5, 2, 8]}, "out = m(x)",
     {"grad": ["x"]}),
    ("EncoderLayer dropout 1.0 training", "nn.TransformerEncoderLayer(8, 2, 16, dropout=1.0)", {"x": [5, 2, 8]},
     "out = m(x)", {"grad": ["x"]}),
    ("EncoderLayer eval ignores dropout", "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)", {"x": [5, 2, 8]},
     "out = m(x)", {"grad": ["x"], "train": False}),
    # ---- TransformerEncoder ---------------------------------------------------------------------------------
    ("Encoder 2 layers norm detects the causal mask",
     f"nn.TransformerEncoder({ENC}), 2, norm=nn.LayerNorm(8))", {"x": [5, 2, 8]}, f"out = m(x, mask={CAUSAL}(5))",
     {"grad": ["x"]}),
    ("Encoder is_causal and key padding", f"nn.TransformerEncoder({ENC}, batch_first=True), 2)", {"x": [2, 5, 8]},
     f"out = m(x, mask={CAUSAL}(5), src_key_padding_mask={KPM2x5}, is_causal=True)", {"grad": ["x"]}),
    ("Encoder eval no_grad padding is zeroed (nested tensors)",
     f"nn.TransformerEncoder({ENC}, batch_first=True), 2, norm=nn.LayerNorm(8))", {"x": [2, 5, 8]},
     NO_GRAD_OUT.format(kpm=KPM2x5), {"train": False}),
    ("Encoder eval no_grad padding not left aligned", f"nn.TransformerEncoder({ENC}, batch_first=True), 2)",
     {"x": [2, 5, 8]}, NO_GRAD_OUT.format(kpm="torch.tensor([[False, True, False, True, True], [False] * 5])"),
     {"train": False}),
    ("Encoder eval no_grad mask_check=False takes the first steps",
     f"nn.TransformerEncoder({ENC}, batch_first=True), 1, mask_check=False)", {"x": [2, 4, 8]},
     NO_GRAD_OUT.format(kpm="torch.tensor([[False, True, False, True], [False] * 4])"), {"train": False}),
    ("Encoder eval no_grad float padding drops nonzero steps",
     f"nn.TransformerEncoder({ENC}, batch_first=True), 1, norm=nn.LayerNorm(8))", {"x": [2, 5, 8]},
     NO_GRAD_OUT.format(kpm="torch.tensor([[0., 0., 0., -1.5, -1.5], [0.] * 5])"), {"train": False}),
    ("Encoder eval with grad keeps padding", f"nn.TransformerEncoder({ENC}, batch_first=True), 2)",
     {"x": [2, 5, 8]}, f"out = m(x, src_key_padding_mask={KPM2x5})", {"grad": ["x"], "train": False}),
    ("Encoder eval no_grad enable_nested_tensor=False",
     f"nn.TransformerEncoder({ENC}, batch_first=True), 2, enable_nested_tensor=False)", {"x": [2, 5, 8]},
     NO_GRAD_OUT.format(kpm=KPM2x5), {"train": False}),
    # ---- TransformerDecoderLayer / TransformerDecoder --------------------------------------------------------
    ("DecoderLayer post-norm masks", DEC + ")", {"x": [3, 2, 8], "mem": [5, 2, 8]},
     f"out = m(x, mem, tgt_mask={CAUSAL}(3), memory_mask={BOOL3x5}, memory_key_padding_mask={KPM2x5})",
     {"grad": ["x", "mem"]}),
    ("DecoderLayer norm_first gelu batch_first tgt_is_causal", DEC + ", 'gelu', batch_first=True, norm_first=True)",
     {"x": [2, 4, 8], "mem": [2, 5, 8]},
     f"out = m(x, mem, tgt_mask={CAUSAL}(4), tgt_is_causal=True, "
     "tgt_key_padding_mask=torch.tensor([[False] * 4, [False, False, True, True]]))", {"grad": ["x", "mem"]}),
    ("DecoderLayer memory_is_causal", DEC + ")", {"x": [4, 2, 8], "mem": [4, 2, 8]},
     f"out = m(x, mem, memory_mask={CAUSAL}(4), memory_is_causal=True)", {"grad": ["x", "mem"]}),
    ("DecoderLayer unbatched float masks", DEC + ", activation=nn.Tanh())", {"x": [3, 8], "mem": [5, 8],
                                                                               "fm": [3, 5]},
     "out = m(x, mem, memory_mask=fm)", {"grad": ["x", "mem", "fm"]}),
    ("DecoderLayer bias=False dropout 1.0 training", "nn.TransformerDecoderLayer(8, 2, 16, 1.0, bias=False)",
     {"x": [3, 2, 8], "mem": [5, 2, 8]}, "out = m(x, mem)", {"grad": ["x", "mem"]}),
    ("Decoder 2 layers norm detects the causal mask", f"nn.TransformerDecoder({DEC}), 2, norm=nn.LayerNorm(8))",
     {"x": [4, 2, 8], "mem": [5, 2, 8]}, f"out = m(x, mem, tgt_mask={CAUSAL}(4))", {"grad": ["x", "mem"]}),
    # ---- Transformer ----------------------------------------------------------------------------------------
    ("Transformer 2+1 layers causal tgt", "nn.Transformer(8, 2, 2, 1, 16, 0.0)",
     {"src": [5, 2, 8], "tgt": [4, 2, 8]}, f"out = m(src, tgt, tgt_mask={CAUSAL}(4))", {"grad": ["src", "tgt"]}),
    ("Transformer batch_first norm_first every mask", "nn.Transformer(8, 2, 1, 2, 16, 0.0, 'gelu', "
                                                      "batch_first=True, norm_first=True)",
     {"src": [2, 5, 8], "tgt": [2, 3, 8]},
     f"out = m(src, tgt, src_mask={BOOL5}, tgt_mask={CAUSAL}(3, dtype=torch.float32), memory_mask={BOOL3x5}, "
     f"src_key_padding_mask={KPM2x5}, tgt_key_padding_mask=torch.tensor([[False, False, True], [False] * 3]), "
     f"memory_key_padding_mask={KPM2x5}, tgt_is_causal=True)", {"grad": ["src", "tgt"]}),
    ("Transformer unbatched bias=False", "nn.Transformer(8, 2, 1, 1, 16, 0.0, bias=False, layer_norm_eps=1e-4)",
     {"src": [5, 8], "tgt": [3, 8]}, "out = m(src, tgt)", {"grad": ["src", "tgt"]}),
    ("Transformer custom encoder and decoder",
     f"nn.Transformer(8, 2, custom_encoder=nn.TransformerEncoder({ENC}), 1), "
     f"custom_decoder=nn.TransformerDecoder({DEC}, norm_first=True), 1))",
     {"src": [5, 2, 8], "tgt": [3, 2, 8]}, "out = m(src, tgt)", {"grad": ["src", "tgt"]}),
    ("Transformer dropout 1.0 training", "nn.Transformer(8, 2, 1, 1, 16, 1.0)", {"src": [5, 2, 8], "tgt": [3, 2, 8]},
     "out = m(src, tgt)", {"grad": ["src", "tgt"]}),
    ("Transformer masks as the translation tutorial makes them", "nn.Transformer(8, 2, 1, 1, 16, 0.0)",
     {"src": [5, 2, 8], "tgt": [4, 2, 8]},
     "mask = (torch.triu(torch.ones((4, 4))) == 1).transpose(0, 1)\n"
     "tgt_mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))\n"
     "src_mask = torch.zeros((5, 5)).type(torch.bool)\n"
     "src_pad = torch.tensor([[False, False], [False, False], [False, False], [False, True], [False, True]])\n"
     "tgt_pad = torch.tensor([[False, False], [False, False], [False, True], [False, True]])\n"
     "out = m(src, tgt, src_mask, tgt_mask, None, src_pad.transpose(0, 1), tgt_pad.transpose(0, 1), "
     "src_pad.transpose(0, 1))", {"grad": ["src", "tgt"]}),
    ("generate_square_subsequent_mask", None, {}, f"out = ({CAUSAL}(4), {CAUSAL}(1), {CAUSAL}(0))", {}),
    # ---- MultiheadAttention is_causal, scaled_dot_product_attention dropout ----------------------------------
    ("MultiheadAttention is_causal need_weights=False", "nn.MultiheadAttention(8, 2)", {"x": [4, 2, 8]},
     f"out = m(x, x, x, attn_mask={CAUSAL}(4), is_causal=True, need_weights=False)", {"grad": ["x"]}),
    ("MultiheadAttention is_causal with weights", "nn.MultiheadAttention(8, 2, batch_first=True)", {"x": [2, 4, 8]},
     f"out = m(x, x, x, attn_mask={CAUSAL}(4), is_causal=True)", {"grad": ["x"]}),
    # PyTorch's fused inference kernels (eval, no grad, batch_first, even heads) take no is_causal and ignore it
    ("EncoderLayer fused inference ignores is_causal", ENC + ", batch_first=True)", {"x": [2, 4, 8]},
     "with torch.no_grad():\n    out = m(x, is_causal=True)", {"train": False}),
    ("DecoderLayer fused inference ignores tgt_is_causal", DEC + ", batch_first=True)",
     {"x": [2, 4, 8], "mem": [2, 3, 8]}, "with torch.no_grad():\n    out = m(x, mem, tgt_is_causal=True)",
     {"train": False}),
    ("MultiheadAttention fused inference ignores is_causal", "nn.MultiheadAttention(8, 2, batch_first=True)",
     {"x": [2, 4, 8]}, "with torch.no_grad():\n    out = m(x, x, x, is_causal=True)", {"train": False}),
    ("sdpa dropout_p 1.0", None, {"q": [2, 3, 4], "k": [2, 5, 4], "v": [2, 5, 4]},
     "out = F.scaled_dot_product_attention(q, k, v, dropout_p=1.0)", {"grad": ["q", "k", "v"]}),
    ("sdpa bool mask causal scale gqa", None, {"q": [1, 4, 3, 8], "k": [1, 2, 3, 8], "v": [1, 2, 3, 8]},
     "out = (F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3, enable_gqa=True),\n"
     "       F.scaled_dot_product_attention(q[:, :2], k, v, attn_mask=torch.tensor([[True, False, True]] * 3)))",
     {"grad": ["q", "k", "v"]}),
]

# the cases tests/browser/test_transformer_webgpu.py replays on WebGPU (every module and mask kind once)
ON_WEBGPU = ["EncoderLayer float masks", "EncoderLayer unbatched", "Encoder is_causal and key padding",
             "Encoder eval no_grad padding is zeroed (nested tensors)", "DecoderLayer post-norm masks",
             "Transformer batch_first norm_first every mask", "Transformer dropout 1.0 training",
             "Decoder 2 layers norm detects the causal mask", "EncoderLayer bool src_mask and key_padding_mask",
             "MultiheadAttention is_causal need_weights=False", "sdpa dropout_p 1.0",
             "sdpa bool mask causal scale gqa", "DecoderLayer fused inference ignores tgt_is_causal"]

X = "torch.ones(5, 2, 8)"
ERRORS: list[tuple] = [
    ("Transformer batch mismatch", "nn.Transformer(8, 2, 1, 1, 16)(torch.ones(5, 2, 8), torch.ones(3, 3, 8))"),
    ("Transformer batch mismatch batch_first",
     "nn.Transformer(8, 2, 1, 1, 16, batch_first=True)(torch.ones(2, 5, 8), torch.ones(3, 5, 8))"),
    ("Transformer feature mismatch", "nn.Transformer(8, 2, 1, 1, 16)(torch.ones(5, 2, 8), torch.ones(3, 2, 6))"),
    ("Transformer nhead", "nn.Transformer(10, 3, 1, 1, 16)"),
    ("Transformer activation", "nn.Transformer(8, 2, 1, 1, 16, activation='swish')"),
    ("Transformer unbatched src batched tgt", "nn.Transformer(8, 2, 1, 1, 16)(torch.ones(5, 8), torch.ones(3, 2, 8))"),
    ("DecoderLayer activation", "nn.TransformerDecoderLayer(8, 2, activation='tanh')"),
    ("EncoderLayer is_causal without a mask", f"nn.TransformerEncoderLayer(8, 2, 16)({X}, is_causal=True)"),
    ("Encoder is_causal without a mask",
     f"nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 1)({X}, is_causal=True)"),
    ("EncoderLayer is_causal without a mask, odd heads in inference",
     "m = nn.TransformerEncoderLayer(9, 3, 16, batch_first=True).eval()\nwith torch.no_grad():\n"
     "    m(torch.ones(2, 4, 9), is_causal=True)"),
    ("MultiheadAttention is_causal without a mask, not self-attention in inference",
     "m = nn.MultiheadAttention(8, 2, batch_first=True).eval()\nwith torch.no_grad():\n"
     "    m(torch.ones(2, 4, 8), torch.ones(2, 3, 8), torch.ones(2, 3, 8), is_causal=True)"),
    ("DecoderLayer tgt_is_causal without a mask",
     f"nn.TransformerDecoderLayer(8, 2, 16)(torch.ones(3, 2, 8), {X}, tgt_is_causal=True)"),
    ("EncoderLayer src_mask shape", f"nn.TransformerEncoderLayer(8, 2, 16)({X}, src_mask=torch.zeros(4, 4))"),
    ("EncoderLayer 3-D src_mask shape",
     f"nn.TransformerEncoderLayer(8, 2, 16)({X}, src_mask=torch.zeros(2, 5, 5))"),
    ("EncoderLayer int key_padding_mask",
     f"nn.TransformerEncoderLayer(8, 2, 16)({X}, src_key_padding_mask=torch.zeros(2, 5, dtype=torch.int64))"),
    ("EncoderLayer int src_mask",
     f"nn.TransformerEncoderLayer(8, 2, 16)({X}, src_mask=torch.zeros(5, 5, dtype=torch.int64))"),
    ("EncoderLayer key_padding_mask shape",
     f"nn.TransformerEncoderLayer(8, 2, 16)({X}, src_key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))"),
    ("EncoderLayer d_model", "nn.TransformerEncoderLayer(8, 2, 16)(torch.ones(5, 2, 6))"),
    ("EncoderLayer 4-D src", "nn.TransformerEncoderLayer(8, 2, 16)(torch.ones(5, 2, 1, 8))"),
    ("DecoderLayer memory d_model", "nn.TransformerDecoderLayer(8, 2, 16)(torch.ones(3, 2, 8), torch.ones(5, 2, 6))"),
    ("DecoderLayer memory batch", "nn.TransformerDecoderLayer(8, 2, 16)(torch.ones(3, 2, 8), torch.ones(5, 3, 8))"),
    ("DecoderLayer memory_mask shape",
     f"nn.TransformerDecoderLayer(8, 2, 16)(torch.ones(3, 2, 8), {X}, memory_mask=torch.zeros(3, 4))"),
    ("Decoder unbatched tgt batched memory",
     f"nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 1)(torch.ones(3, 8), {X})"),
    ("sdpa is_causal with attn_mask",
     "F.scaled_dot_product_attention(torch.ones(1, 3, 4), torch.ones(1, 3, 4), torch.ones(1, 3, 4), "
     "attn_mask=torch.ones(3, 3, dtype=torch.bool), is_causal=True)"),
    ("sdpa int mask",
     "F.scaled_dot_product_attention(torch.ones(1, 3, 4), torch.ones(1, 3, 4), torch.ones(1, 3, 4), "
     "attn_mask=torch.ones(3, 3, dtype=torch.int64))"),
    ("sdpa dropout_p above 1", "F.scaled_dot_product_attention(torch.ones(1, 3, 4), torch.ones(1, 3, 4), "
                               "torch.ones(1, 3, 4), dropout_p=1.5)"),
    ("sdpa 1-D inputs", "F.scaled_dot_product_attention(torch.ones(4), torch.ones(4), torch.ones(4))"),
    ("sdpa mask grows the output", "F.scaled_dot_product_attention(torch.ones(1, 3, 4), torch.ones(1, 3, 4), "
                                   "torch.ones(1, 3, 4), attn_mask=torch.ones(2, 1, 3, 3, dtype=torch.bool))"),
    ("sdpa mask does not broadcast", "F.scaled_dot_product_attention(torch.ones(1, 3, 4), torch.ones(1, 3, 4), "
                                     "torch.ones(1, 3, 4), attn_mask=torch.ones(4, 4))"),
    ("sdpa float16 mask for float32 query",
     "F.scaled_dot_product_attention(*[torch.ones(1, 3, 4, device='cpu')] * 3, "   # cpu: WebGPU's float16 is
     "attn_mask=torch.ones(3, 3, dtype=torch.float16, device='cpu'))"),             # optional (shader-f16)
    ("sdpa batch dims", "F.scaled_dot_product_attention(torch.ones(2, 3, 4), torch.ones(3, 3, 4), torch.ones(3, 3, 4))"),
    ("sdpa gqa heads", "F.scaled_dot_product_attention(torch.ones(1, 3, 2, 4), torch.ones(1, 2, 2, 4), "
                       "torch.ones(1, 2, 2, 4), enable_gqa=True)", "type"),
]

WARNINGS: list[tuple] = [
    ("Encoder nested tensor: batch_first", "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)"),
    ("Encoder nested tensor: norm_first",
     "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, norm_first=True), 2)"),
    ("Encoder nested tensor: odd heads", "nn.TransformerEncoder(nn.TransformerEncoderLayer(9, 3, 16, "
                                         "batch_first=True), 2)"),
    ("Encoder nested tensor: bias", "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, "
                                    "bias=False), 2)"),
    ("Encoder nested tensor: activation", "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, "
                                          "activation=torch.tanh, batch_first=True), 2)"),
    ("Encoder nested tensor: custom layer", "nn.TransformerEncoder(nn.Linear(8, 8), 2)"),
    ("Encoder nested tensor: off", "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, "
                                   "enable_nested_tensor=False)"),
    ("Encoder nested tensor: none", "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, "
                                    "batch_first=True), 2)"),
    ("Transformer warns through its encoder", "nn.Transformer(8, 2, 1, 1, 16)"),
    ("EncoderLayer mismatched mask types",
     f"nn.TransformerEncoderLayer(8, 2, 16)({X}, src_mask=torch.zeros(5, 5), "
     "src_key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))"),
    ("Encoder mismatched mask types",
     f"nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 1, enable_nested_tensor=False)({X}, "
     "mask=torch.zeros(5, 5, dtype=torch.bool), src_key_padding_mask=torch.zeros(2, 5))"),
    ("Transformer masks as the translation tutorial makes them",
     "mask = (torch.triu(torch.ones((4, 4))) == 1).transpose(0, 1)\n"
     "tgt_mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))\n"
     "m = nn.Transformer(8, 2, 1, 1, 16, 0.0)\n"
     "m(torch.ones(5, 2, 8), torch.ones(4, 2, 8), torch.zeros((5, 5)).type(torch.bool), tgt_mask, None, "
     "torch.zeros(2, 5, dtype=torch.bool), torch.zeros(2, 4, dtype=torch.bool), torch.zeros(2, 5, dtype=torch.bool))"),
    ("DecoderLayer mismatched mask types",
     f"nn.TransformerDecoderLayer(8, 2, 16)(torch.ones(3, 2, 8), {X}, tgt_mask=torch.zeros(3, 3), "
     "tgt_key_padding_mask=torch.zeros(2, 3, dtype=torch.bool))"),
]

REPRS = [
    "nn.Transformer(8, 2, 1, 1, 16)",
    "nn.Transformer(8, 2, 2, 1, 16, 0.2, 'gelu', batch_first=True, norm_first=True, bias=False)",
    "nn.TransformerDecoderLayer(8, 2)",
    "nn.TransformerDecoderLayer(8, 2, 16, activation=nn.GELU(), layer_norm_eps=1e-6)",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2, norm=nn.LayerNorm(8))",
    "nn.TransformerEncoderLayer(8, 2, 16, activation=nn.SiLU())",
    f"{CAUSAL}(3)",
]

STRUCTURE = [
    "nn.Transformer(8, 2, 2, 2, 16)",
    "nn.Transformer(8, 2, 1, 1, 16, bias=False)",
    "nn.TransformerDecoderLayer(8, 2, 16)",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, activation=nn.ReLU()), 2, norm=nn.LayerNorm(8))",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, activation=nn.GELU()), 2)",
]

ATTRIBUTES = [
    ("nn.Transformer(8, 2, 1, 1, 16, batch_first=True)",
     "[m.d_model, m.nhead, m.batch_first, m.encoder.num_layers, m.decoder.num_layers, m.encoder.use_nested_tensor, "
     "m.encoder.enable_nested_tensor, m.encoder.mask_check, m.encoder.layers[0].activation_relu_or_gelu, "
     "m.encoder.layers[0].norm_first, m.decoder.layers[0].norm_first, m.decoder.layers[0].activation.__name__, "
     "m.encoder.layers[0].self_attn.batch_first, m.decoder.layers[0].multihead_attn.batch_first]"),
    ("nn.Transformer(8, 2, 1, 1, 16)",
     "[m.encoder.use_nested_tensor, m.encoder.enable_nested_tensor, "
     "isinstance(type(m).__dict__['generate_square_subsequent_mask'], staticmethod)]"),
    ("nn.TransformerEncoderLayer(8, 2, 16, activation='gelu')",
     "[m.activation_relu_or_gelu, m.activation.__name__, m.norm_first, m.norm1.eps, m.dropout.p]"),
    ("nn.TransformerEncoderLayer(8, 2, 16, activation=nn.ReLU())", "[m.activation_relu_or_gelu]"),
    ("nn.TransformerEncoderLayer(8, 2, 16, activation=torch.tanh)", "[m.activation_relu_or_gelu]"),
]
