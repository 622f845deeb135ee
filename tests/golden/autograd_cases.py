"""Autograd behaviour as scenarios: each snippet runs with ``torch`` bound to real PyTorch
(generate_autograd.py records ``result``) and to borch_webgpu (replay_autograd.py compares).
``result`` is a list of tensors, numbers, bools or None. Inputs are fixed literals."""

X = "x = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], device=dev, requires_grad=True)\n"
W = "w = torch.tensor([0.3, -0.7, 1.1], device=dev, requires_grad=True)\n"

AUTOGRAD_SNIPPETS = [
    ("accumulate", X + "(x * x).sum().backward(); (x * 3).sum().backward(); result = [x.grad]"),
    ("retain_graph", X + "y = (x.exp() * x).sum(); y.backward(retain_graph=True); y.backward(); result = [x.grad]"),
    ("gradient argument", X + "y = x * 2; y.backward(gradient=torch.full((2, 3), 0.5, device=dev)); "
                              "result = [x.grad]"),
    ("leaf hook", X + "h = x.register_hook(lambda g: g * 10); (x * x).sum().backward(); a = x.grad.clone(); "
                      "h.remove(); x.grad = None; (x * x).sum().backward(); result = [a, x.grad]"),
    ("nonleaf hook", X + "y = x * 2; y.register_hook(lambda g: g + 1); (y * y).sum().backward(); result = [x.grad]"),
    ("retain_grad", X + "y = x.tanh(); y.retain_grad(); z = (y * y).sum(); z.backward(); "
                        "result = [y.grad, x.grad, y.is_leaf, y.requires_grad]"),
    ("no_grad", X + "with torch.no_grad():\n    y = x * 2\nresult = [y.requires_grad, y.grad_fn is None, "
                    "torch.is_grad_enabled()]"),
    ("enable_grad inside no_grad", X + "with torch.no_grad():\n    with torch.enable_grad():\n        y = x * 2\n"
                                       "result = [y.requires_grad]"),
    ("set_grad_enabled", X + "torch.set_grad_enabled(False)\ny = x * 2\ntorch.set_grad_enabled(True)\n"
                             "with torch.set_grad_enabled(False):\n    z = x * 2\nresult = [y.requires_grad, "
                             "z.requires_grad, torch.is_grad_enabled()]"),
    ("no_grad decorator", X + "@torch.no_grad()\ndef f(t):\n    return t * 2\nresult = [f(x).requires_grad]"),
    ("inference_mode", X + "with torch.inference_mode():\n    y = x * 2\nresult = [y.requires_grad]"),
    ("is_inference", X + "with torch.inference_mode():\n    y = x * 2; v = x[0]; d = x.detach(); z = torch.zeros(2, device=dev)"
                     "\n    with torch.inference_mode(False):\n        w = y * 2; g = torch.is_grad_enabled()"
                     "\nwith torch.no_grad():\n    n = x * 2\n"
                     "try:\n    torch.is_inference(3)\nexcept TypeError as e:\n    err = str(e)\n"
                     "result = [y.is_inference(), v.is_inference(), d.is_inference(), z.is_inference(), "
                     "w.is_inference(), g, n.is_inference(), x.is_inference(), (y + 1).is_inference(), "
                     "y[0].is_inference(), y.detach().is_inference(), y.view(3, 2).is_inference(), "
                     "y.clone().is_inference(), y.data.is_inference(), torch.is_inference(y), y.requires_grad, err]"),
    ("detach", X + "d = x.detach(); y = (d * x).sum(); y.backward(); result = [x.grad, d.requires_grad]"),
    ("requires_grad_", "a = torch.tensor([1.0, 2.0], device=dev); a.requires_grad_(); (a * a).sum().backward(); "
                       "result = [a.grad]"),
    ("grad of nonleaf input", X + "y = x * 3; z = (y * y).sum(); (g,) = torch.autograd.grad(z, y); result = [g]"),
    ("autograd.grad leaves .grad alone", X + "(g,) = torch.autograd.grad((x ** 3).sum(), x); result = [g, x.grad]"),
    ("allow_unused", X + W + "g = torch.autograd.grad((x * 2).sum(), [x, w], allow_unused=True); "
                             "result = [g[0], g[1]]"),
    ("backward inputs=", X + W + "((x * w).sum()).backward(inputs=[w]); result = [w.grad, x.grad]"),
    ("double backward tanh", X + "y = x.tanh().sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); "
                                 "(gg,) = torch.autograd.grad(g.sum(), x); result = [g, gg]"),
    ("double backward sigmoid exp log", X + "y = (x.sigmoid() * x.exp() + (x * x + 1).log()).sum(); "
                                            "(g,) = torch.autograd.grad(y, x, create_graph=True); "
                                            "(gg,) = torch.autograd.grad((g * g).sum(), x); result = [g, gg]"),
    ("double backward mul div pow", X + W + "y = (x * w / (w * w + 1) + x ** 3).sum(); "
                                            "g = torch.autograd.grad(y, [x, w], create_graph=True); "
                                            "gg = torch.autograd.grad(g[0].sum() + g[1].sum(), [x, w]); "
                                            "result = [g[0], g[1], gg[0], gg[1]]"),
    ("double backward sin sqrt", X + "y = (x.sin() * (x * x + 2).sqrt()).sum(); "
                                     "(g,) = torch.autograd.grad(y, x, create_graph=True); g.sum().backward(); "
                                     "result = [g, x.grad]"),
    ("create_graph backward", X + "y = (x ** 3).sum(); y.backward(create_graph=True); g = x.grad; "
                                  "x.grad = None; g.sum().backward(); result = [g, x.grad]"),
    ("Function", X + "class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, t):\n"
                     "        ctx.save_for_backward(t)\n        return t * t\n    @staticmethod\n"
                     "    def backward(ctx, g):\n        (t,) = ctx.saved_tensors\n        return 2 * t * g\n"
                     "y = Sq.apply(x); y.sum().backward(); result = [y, x.grad, y.requires_grad]"),
    ("Function two inputs", X + W + "class MulAdd(torch.autograd.Function):\n    @staticmethod\n"
                                    "    def forward(ctx, a, b, k):\n        ctx.save_for_backward(a, b)\n"
                                    "        ctx.k = k\n        return a * b + k\n    @staticmethod\n"
                                    "    def backward(ctx, g):\n        a, b = ctx.saved_tensors\n"
                                    "        return g * b, (g * a).sum(0), None\n"
                                    "MulAdd.apply(x, w, 2.0).sum().backward(); result = [x.grad, w.grad]"),
    ("setitem with grad", X + W + "y = x.clone(); y[0] = w * 2; (y * y).sum().backward(); result = [x.grad, w.grad]"),
    ("view inplace", X + "y = x * 1; v = y[:, 1:]; v.mul_(3); (y * y).sum().backward(); result = [x.grad, y]"),
    ("inplace on nonleaf", X + "y = x * 2; y.exp_(); y.sum().backward(); result = [x.grad]"),
    ("mask setitem with grad", X + "y = x * 1; y[y > 0.4] = 0.0; (y * x).sum().backward(); result = [x.grad]"),
    ("advanced setitem with grad", X + W + "y = x.clone(); y[:, [0, 2]] = w[:2] * 5; (y * y).sum().backward(); "
                                           "result = [x.grad, w.grad]"),
    ("grad_fn names", X + "result = [(x * 2).grad_fn.name(), (x + 1).grad_fn.name(), x.sum().grad_fn.name(), "
                          "x.exp().grad_fn.name(), x.t().grad_fn.name(), x[0].grad_fn.name()]"),
    ("grad_fn class names", X + "result = [type((x * 2).grad_fn).__name__, type((x + 1).grad_fn).__name__, "
                                "type(x.sum().grad_fn).__name__, repr(type(x.exp().grad_fn)), "
                                "type((x * 2).sum().grad_fn.next_functions[0][0]).__name__, "
                                "type((x * 2).grad_fn) is type((x * 3).grad_fn)]"),
    ("Linear grad_fn class names", "names = []\nfor bias in (True, False):\n"
                                   "    lin = torch.nn.Linear(3, 4, bias=bias).to(dev)\n"
                                   "    for shape in [(3,), (2, 3), (2, 5, 3), (2, 1, 5, 3), (0, 3)]:\n"
                                   "        y = lin(torch.ones(shape, device=dev))\n"
                                   "        names += [type(y.grad_fn).__name__, y._base is None]\n"
                                   "        if len(shape) != 2:\n"
                                   "            names.append(type(y.grad_fn.next_functions[0][0]).__name__)\n"
                                   "result = names"),
    ("linear gradients through the renamed views", X + W.replace("w = torch.tensor([0.3, -0.7, 1.1]",
                                                                 "w = torch.tensor([[0.3, -0.7], [1.1, 0.4], [-0.2, 0.9]]")
     + "b = torch.tensor([0.1, 0.2, -0.3], device=dev, requires_grad=True)\n"
       "y1 = torch.nn.functional.linear(x[0, :2], w, b); y2 = torch.nn.functional.linear(x[:, :2], w)\n"
       "y3 = torch.nn.functional.linear(x[:, :2].reshape(2, 1, 2), w); y4 = torch.nn.functional.linear(x[1, 1:], w)\n"
       "((y1 * y1).sum() + (y2 * 3).sum() + (y3 ** 2).sum() + (y4 * y4).sum()).backward()\n"
       "result = [y1, y2, y3, y4, x.grad, w.grad, b.grad]"),
    ("retain_grad sees the user's hooks", X + "y = x * 2\ny.retain_grad()\ny.register_hook(lambda g: g * 10)\n"
                                            "z = x * 3\nz.register_hook(lambda g: g + 1)\nz.retain_grad()\n"
                                            "(y + z).sum().backward()\nresult = [y.grad, z.grad, x.grad]"),
    ("is_leaf and grad_fn", X + "y = x * 2; result = [x.is_leaf, y.is_leaf, x.grad_fn is None, y.requires_grad]"),
    ("zero_ grad", X + "(x * x).sum().backward(); x.grad.zero_(); (x * 2).sum().backward(); result = [x.grad]"),
    ("shared grad objects are separate", "a = torch.ones(2, device=dev, requires_grad=True); "
                                         "b = torch.ones(2, device=dev, requires_grad=True); (a + b).sum().backward(); "
                                         "a.grad.zero_(); result = [a.grad, b.grad]"),
    ("broadcast grads", X + W + "((x * w) + w).sum().backward(); result = [x.grad, w.grad]"),
]
