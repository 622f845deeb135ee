"""``torch.optim`` as scenarios: each snippet runs after PRELUDE with ``torch`` bound to real
PyTorch (generate_optim.py records ``result``) and to borch_webgpu (replay_optim.py compares).
``result`` is a list of tensors and plain values (numbers, strings, lists, dicts, None).

Parameters start from fixed literals; the loss is fixed and deterministic:
``sum((a*CA)^2 + a*DA) + sum((b*CB)^2 + b*DB)`` (plus a large parameter in a few cases), so each
scenario is a trajectory: the parameters after every step, then the optimizer's state_dict.
OPTIM_ERRORS are bad inputs: PyTorch's exception type and message are recorded.
"""

PRELUDE = '''
A0 = [[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]
B0 = [0.3, -0.7, 1.1, -2.0]
CA = [[1.0, 0.5, -0.8], [0.3, -1.2, 0.9]]
DA = [[0.2, -0.1, 0.4], [-0.3, 0.6, 0.05]]
CB = [0.7, -1.1, 0.4, 1.3]
DB = [-0.5, 0.25, 0.8, -0.15]


def T(x):
    """Float32 values in the default dtype: the float64 reference run (generate_optim.py) starts
    from exactly the values the float32 run has."""
    t = x if isinstance(x, torch.Tensor) else torch.tensor(x, dtype=torch.float32, device=dev)
    return t.to(torch.get_default_dtype())


def make_params():
    return T(A0).requires_grad_(), T(B0).requires_grad_()


def loss_of(a, b=None):
    loss = ((a * T(CA)) ** 2).sum() + (a * T(DA)).sum()
    if b is not None:
        loss = loss + ((b * T(CB)) ** 2).sum() + (b * T(DB)).sum()
    return loss


def big_param():
    return T(torch.arange(2112, device=dev).reshape(64, 33).float() * 0.001 - 1.0).requires_grad_()


def big_loss(w):
    c = T(torch.arange(33, device=dev).float() * 0.05 - 0.7)
    return ((w * c) ** 2).sum() + (w * T(0.3)).sum()


def snapshot(opt):
    """The state_dict as results: every state value (sorted by index, then key), then the structure."""
    sd = opt.state_dict()
    out = []
    for idx in sorted(sd["state"]):
        for key in sorted(sd["state"][idx]):
            out.append(sd["state"][idx][key])
    keys = {str(i): sorted(sd["state"][i]) for i in sorted(sd["state"])}
    return out + [keys, sd["param_groups"]]


def train(make_opt, steps=6):
    a, b = make_params()
    opt = make_opt([a, b])
    out = []
    for _ in range(steps):
        opt.zero_grad()
        loss_of(a, b).backward()
        opt.step()
        out += [a.detach().clone(), b.detach().clone()]
    return out + snapshot(opt)


def train_big(make_opt, steps=5):
    w = big_param()
    opt = make_opt([w])
    out = []
    for _ in range(steps):
        opt.zero_grad()
        big_loss(w).backward()
        opt.step()
        out.append(w.detach().clone())
    return out + snapshot(opt)


def two_groups(sgd=True):
    a, b = make_params()
    if sgd:
        opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1, momentum=0.9)
    else:
        opt = torch.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1)
    return a, b, opt


def momentum_of(group):
    return group["momentum"] if "momentum" in group else group["betas"][0]


def run_sched(make_sched, steps=35, sgd=True, metrics=None):
    """The lrs (and momentums) a scheduler sets over ``steps`` epochs on a two-group optimizer."""
    a, b, opt = two_groups(sgd)
    sched = make_sched(opt)
    lrs, moms = [list(sched.get_last_lr())], [[momentum_of(g) for g in opt.param_groups]]
    for i in range(steps):
        opt.step()
        if metrics is None:
            sched.step()
        else:
            sched.step(metrics[i])
        lrs.append(list(sched.get_last_lr()))
        moms.append([momentum_of(g) for g in opt.param_groups])
    return [lrs, moms, [g["lr"] for g in opt.param_groups], getattr(sched, "last_epoch", None), sched.state_dict()]


def sched_round_trip(make_sched, before=7, after=12, sgd=True):
    """Save a scheduler (and its optimizer) mid-run, load both into fresh ones, continue."""
    a, b, opt = two_groups(sgd)
    sched = make_sched(opt)
    for _ in range(before):
        opt.step()
        sched.step()
    osd, ssd = opt.state_dict(), sched.state_dict()
    a2, b2, opt2 = two_groups(sgd)
    sched2 = make_sched(opt2)
    opt2.load_state_dict(osd)
    sched2.load_state_dict(ssd)
    lrs = []
    for _ in range(after):
        opt2.step()
        sched2.step()
        lrs.append(list(sched2.get_last_lr()))
    return [lrs, [momentum_of(g) for g in opt2.param_groups], getattr(sched2, "last_epoch", None)]


PLATEAU_METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.89, 0.9, 0.9, 0.9, 0.91, 0.92, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                   0.49995, 0.6, 0.7, 0.8, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1,
                   0.1, 0.1, 0.1, 0.1, 0.1]
'''

_T = "result = train(lambda ps: torch.optim.{})"
_BIG = "result = train_big(lambda ps: torch.optim.{})"

_OPTIMIZERS = [
    ("SGD", "SGD(ps, lr=0.1)"),
    ("SGD default lr", "SGD(ps)"),
    ("SGD momentum", "SGD(ps, lr=0.05, momentum=0.9)"),
    ("SGD momentum dampening", "SGD(ps, lr=0.05, momentum=0.9, dampening=0.3)"),
    ("SGD nesterov", "SGD(ps, lr=0.05, momentum=0.9, nesterov=True)"),
    ("SGD weight_decay", "SGD(ps, lr=0.1, weight_decay=0.05)"),
    ("SGD momentum weight_decay", "SGD(ps, lr=0.05, momentum=0.8, weight_decay=0.1)"),
    ("SGD maximize", "SGD(ps, lr=0.02, maximize=True)"),
    ("SGD nesterov weight_decay maximize", "SGD(ps, lr=0.02, momentum=0.7, nesterov=True, weight_decay=0.01, "
                                           "maximize=True)"),
    ("SGD foreach flag", "SGD(ps, lr=0.1, momentum=0.5, foreach=False)"),
    ("Adam", "Adam(ps, lr=0.1)"),
    ("Adam defaults", "Adam(ps)"),
    ("Adam betas eps", "Adam(ps, lr=0.05, betas=(0.8, 0.9), eps=1e-3)"),
    ("Adam amsgrad", "Adam(ps, lr=0.1, amsgrad=True)"),
    ("Adam weight_decay", "Adam(ps, lr=0.1, weight_decay=0.1)"),
    ("Adam maximize", "Adam(ps, lr=0.05, maximize=True)"),
    ("Adam amsgrad weight_decay maximize", "Adam(ps, lr=0.05, amsgrad=True, weight_decay=0.2, maximize=True)"),
    ("Adam decoupled_weight_decay", "Adam(ps, lr=0.1, weight_decay=0.3, decoupled_weight_decay=True)"),
    ("AdamW", "AdamW(ps, lr=0.1)"),
    ("AdamW weight_decay", "AdamW(ps, lr=0.1, weight_decay=0.5)"),
    ("AdamW amsgrad", "AdamW(ps, lr=0.1, weight_decay=0.1, amsgrad=True)"),
    ("AdamW maximize", "AdamW(ps, lr=0.05, maximize=True)"),
    ("RMSprop", "RMSprop(ps, lr=0.01)"),
    ("RMSprop defaults", "RMSprop(ps)"),
    ("RMSprop alpha eps", "RMSprop(ps, lr=0.01, alpha=0.9, eps=1e-4)"),
    ("RMSprop centered", "RMSprop(ps, lr=0.01, centered=True)"),
    ("RMSprop momentum", "RMSprop(ps, lr=0.01, momentum=0.9)"),
    ("RMSprop centered momentum weight_decay", "RMSprop(ps, lr=0.01, momentum=0.5, centered=True, weight_decay=0.1)"),
    ("RMSprop maximize", "RMSprop(ps, lr=0.01, maximize=True)"),
    ("Adagrad", "Adagrad(ps, lr=0.1)"),
    ("Adagrad defaults", "Adagrad(ps)"),
    ("Adagrad lr_decay", "Adagrad(ps, lr=0.1, lr_decay=0.5)"),
    ("Adagrad weight_decay", "Adagrad(ps, lr=0.1, weight_decay=0.2)"),
    ("Adagrad initial_accumulator_value eps", "Adagrad(ps, lr=0.1, initial_accumulator_value=0.5, eps=1e-3)"),
    ("Adagrad maximize", "Adagrad(ps, lr=0.1, maximize=True)"),
]

_BIG_OPTIMIZERS = [
    ("SGD nesterov on 2112 elements", "SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)"),
    ("Adam amsgrad on 2112 elements", "Adam(ps, lr=0.01, amsgrad=True)"),
    ("AdamW on 2112 elements", "AdamW(ps, lr=0.01)"),
    ("RMSprop centered momentum on 2112 elements", "RMSprop(ps, lr=0.001, centered=True, momentum=0.9)"),
    ("Adagrad on 2112 elements", "Adagrad(ps, lr=0.05, lr_decay=0.01)"),
]

_SCENARIOS = [
    ("two param groups SGD", "a, b, opt = two_groups(True)\nout = []\nfor _ in range(6):\n"
                             "    opt.zero_grad(); loss_of(a, b).backward(); opt.step(); out += [a.detach().clone(), "
                             "b.detach().clone()]\nresult = out + snapshot(opt)"),
    ("two param groups Adam", "a, b, opt = two_groups(False)\nout = []\nfor _ in range(6):\n"
                              "    opt.zero_grad(); loss_of(a, b).backward(); opt.step(); out += [a.detach().clone(), "
                              "b.detach().clone()]\nresult = out + snapshot(opt)"),
    ("groups with own options", "a, b = make_params()\nopt = torch.optim.Adam([{'params': [a], 'amsgrad': True, "
                                "'betas': (0.5, 0.6)}, {'params': b, 'weight_decay': 0.1}], lr=0.05)\n"
                                "for _ in range(5):\n    opt.zero_grad(); loss_of(a, b).backward(); opt.step()\n"
                                "result = [a, b] + snapshot(opt)"),
    ("param without grad is skipped", "a, b = make_params()\nopt = torch.optim.Adam([a, b], lr=0.1)\n"
                                      "for _ in range(5):\n    opt.zero_grad(); loss_of(a).backward(); opt.step()\n"
                                      "result = [a, b, b.grad is None] + snapshot(opt)"),
    ("SGD momentum skips a param without grad", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1, "
                                                "momentum=0.9)\nfor _ in range(5):\n    opt.zero_grad(); "
                                                "loss_of(a).backward(); opt.step()\nresult = [a, b] + snapshot(opt)"),
    ("zero_grad set_to_none", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1)\n"
                              "loss_of(a, b).backward(); opt.step(); opt.zero_grad()\n"
                              "result = [a.grad is None, b.grad is None]"),
    ("zero_grad set_to_none=False", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1, momentum=0.9)\n"
                                    "loss_of(a, b).backward(); opt.step(); opt.zero_grad(set_to_none=False)\n"
                                    "g = [a.grad.clone(), b.grad.clone(), a.grad.requires_grad]\nopt.step()\n"
                                    "result = g + [a, b] + snapshot(opt)"),
    ("step with closure", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1, momentum=0.5)\n"
                          "def closure():\n    opt.zero_grad()\n    loss = loss_of(a, b)\n    loss.backward()\n"
                          "    return loss\nlosses = [opt.step(closure).detach() for _ in range(6)]\n"
                          "result = losses + [a, b, opt.step() is None]"),
    ("grads accumulate without zero_grad", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.01)\n"
                                           "for _ in range(5):\n    loss_of(a, b).backward(); opt.step()\n"
                                           "result = [a, b, a.grad, b.grad]"),
    ("lr changed between steps", "a, b = make_params()\nopt = torch.optim.Adam([a, b], lr=0.1)\nout = []\n"
                                 "for i in range(6):\n    opt.param_groups[0]['lr'] = 0.1 / (i + 1)\n"
                                 "    opt.zero_grad(); loss_of(a, b).backward(); opt.step(); out.append(a.detach()"
                                 ".clone())\nresult = out + snapshot(opt)"),
    ("add_param_group mid-run", "a, b = make_params()\nopt = torch.optim.SGD([a], lr=0.1, momentum=0.9)\n"
                                "for i in range(6):\n    if i == 2:\n        opt.add_param_group({'params': b, "
                                "'lr': 0.05, 'nesterov': True})\n    opt.zero_grad(); loss_of(a, b).backward(); "
                                "opt.step()\nresult = [a, b, len(opt.param_groups)] + snapshot(opt)"),
    ("parameters keep their identity", "a, b = make_params()\nida, idb = id(a), id(b)\n"
                                       "opt = torch.optim.AdamW([a, b], lr=0.1)\nfor _ in range(3):\n"
                                       "    opt.zero_grad(); loss_of(a, b).backward(); opt.step()\n"
                                       "result = [id(a) == ida, opt.param_groups[0]['params'][0] is a, "
                                       "opt.param_groups[0]['params'][1] is b, a.requires_grad, a.is_leaf, "
                                       "a.grad_fn is None, a.device.type == dev]"),
    ("state lives on the parameter's device", "a, b = make_params()\nopt = torch.optim.Adam([a, b], lr=0.1, "
                                              "amsgrad=True)\nloss_of(a, b).backward(); opt.step()\n"
                                              "st = opt.state[a]\nresult = [st['exp_avg'].device.type == dev, "
                                              "st['exp_avg_sq'].device.type == dev, st['max_exp_avg_sq'].device.type"
                                              " == dev, st['step'].device.type, st['step'].dim(), "
                                              "st['exp_avg'].requires_grad, sorted(st), len(opt.state)]"),
    ("params from a generator and named params", "a, b = make_params()\n"
                                                 "opt = torch.optim.SGD((p for p in [a, b]), lr=0.1)\n"
                                                 "opt2 = torch.optim.SGD([('first', a), ('second', b)], lr=0.1, "
                                                 "momentum=0.9)\nloss_of(a, b).backward(); opt2.step()\n"
                                                 "result = [len(opt.param_groups[0]['params'])] + snapshot(opt2)"),
    ("Adagrad state exists before the first step", "a, b = make_params()\n"
                                                    "opt = torch.optim.Adagrad([a, b], initial_accumulator_value=0.25)"
                                                    "\nresult = snapshot(opt)"),
    ("optimizer state_dict round trip", "a, b = make_params()\nopt = torch.optim.Adam([a, b], lr=0.05, amsgrad=True)\n"
                                        "for _ in range(3):\n    opt.zero_grad(); loss_of(a, b).backward(); "
                                        "opt.step()\nsd = opt.state_dict()\na2 = a.detach().clone().requires_grad_()\n"
                                        "b2 = b.detach().clone().requires_grad_()\n"
                                        "opt2 = torch.optim.Adam([a2, b2], lr=0.5)\nopt2.load_state_dict(sd)\n"
                                        "for _ in range(3):\n    opt2.zero_grad(); loss_of(a2, b2).backward(); "
                                        "opt2.step()\nresult = [a2, b2] + snapshot(opt2)"),
    ("SGD state_dict round trip", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.05, momentum=0.9)\n"
                                  "for _ in range(3):\n    opt.zero_grad(); loss_of(a, b).backward(); opt.step()\n"
                                  "sd = opt.state_dict()\na2 = a.detach().clone().requires_grad_()\n"
                                  "b2 = b.detach().clone().requires_grad_()\n"
                                  "opt2 = torch.optim.SGD([a2, b2], lr=0.05, momentum=0.9)\nopt2.load_state_dict(sd)\n"
                                  "for _ in range(3):\n    opt2.zero_grad(); loss_of(a2, b2).backward(); opt2.step()\n"
                                  "result = [a2, b2] + snapshot(opt2)"),
    ("defaults", "a, b = make_params()\nresult = [torch.optim.SGD([a]).defaults, torch.optim.Adam([a]).defaults, "
                 "torch.optim.AdamW([a]).defaults, torch.optim.RMSprop([a]).defaults, "
                 "torch.optim.Adagrad([a]).defaults]"),
    ("repr", "a, b = make_params()\nresult = [repr(torch.optim.SGD([{'params': [a]}, {'params': [b], 'lr': 0.5}], "
             "lr=0.1, momentum=0.9)), repr(torch.optim.Adam([a, b])), repr(torch.optim.RMSprop([a])), "
             "repr(torch.optim.Adagrad([a], lr=0.5))]"),
    ("step hooks", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1)\ncalls = []\n"
                   "h1 = opt.register_step_pre_hook(lambda o, args, kw: calls.append('pre'))\n"
                   "h2 = opt.register_step_post_hook(lambda o, args, kw: calls.append('post'))\n"
                   "loss_of(a, b).backward(); opt.step(); h1.remove(); opt.step()\n"
                   "result = [calls, a]"),
    ("state_dict hooks", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1)\ncalls = []\n"
                         "opt.register_state_dict_pre_hook(lambda o: calls.append('sd pre'))\n"
                         "opt.register_state_dict_post_hook(lambda o, sd: calls.append('sd post'))\n"
                         "opt.register_load_state_dict_pre_hook(lambda o, sd: calls.append('load pre'))\n"
                         "opt.register_load_state_dict_post_hook(lambda o: calls.append('load post'))\n"
                         "opt.load_state_dict(opt.state_dict())\nresult = [calls]"),
    ("nn.Parameter params", "a, b = torch.nn.Parameter(T(A0)), torch.nn.Parameter(T(B0))\n"
                            "opt = torch.optim.AdamW([a, b], lr=0.1, amsgrad=True)\nout = []\nfor _ in range(6):\n"
                            "    opt.zero_grad(); loss_of(a, b).backward(); opt.step(); out.append(a.detach().clone())\n"
                            "result = out + [b, type(a).__name__, a.is_leaf, a.requires_grad] + snapshot(opt)"),
    ("nn.Linear named_parameters", "m = torch.nn.Linear(3, 2).to(torch.get_default_dtype())\nwith torch.no_grad():\n"
                                   "    m.weight.copy_(T(CA)); m.bias.copy_(T([0.1, -0.2]))\n"
                                   "opt = torch.optim.SGD(m.named_parameters(), lr=0.1, momentum=0.9, nesterov=True)\n"
                                   "x, y = T(DA), T([[0.5, -0.5], [1.0, 0.25]])\nout = []\nfor _ in range(6):\n"
                                   "    opt.zero_grad(); ((m(x) - y) ** 2).mean().backward(); opt.step()\n"
                                   "    out += [m.weight.detach().clone(), m.bias.detach().clone()]\n"
                                   "result = out + snapshot(opt)"),
    ("OneCycleLR drives SGD momentum", "a, b = make_params()\nopt = torch.optim.SGD([a, b], lr=0.1, momentum=0.9)\n"
                                       "sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=8)\n"
                                       "out = []\nfor _ in range(8):\n    opt.zero_grad(); loss_of(a, b).backward(); "
                                       "opt.step(); sched.step(); out.append(a.detach().clone())\n"
                                       "result = out + snapshot(opt)"),
    ("OneCycleLR drives Adam beta1", "a, b = make_params()\nopt = torch.optim.Adam([a, b], lr=0.1)\n"
                                     "sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=8, "
                                     "anneal_strategy='linear')\nout = []\nfor _ in range(8):\n    opt.zero_grad(); "
                                     "loss_of(a, b).backward(); opt.step(); sched.step(); "
                                     "out.append(a.detach().clone())\nresult = out + snapshot(opt)"),
]

_S = "result = run_sched(lambda opt: torch.optim.lr_scheduler.{})"
_SCHEDULERS = [
    ("StepLR", _S.format("StepLR(opt, step_size=4)")),
    ("StepLR gamma", _S.format("StepLR(opt, step_size=3, gamma=0.5)")),
    ("MultiStepLR", _S.format("MultiStepLR(opt, milestones=[3, 10, 10, 20], gamma=0.3)")),
    ("ExponentialLR", _S.format("ExponentialLR(opt, gamma=0.9)")),
    ("CosineAnnealingLR", _S.format("CosineAnnealingLR(opt, T_max=10)")),
    ("CosineAnnealingLR eta_min", _S.format("CosineAnnealingLR(opt, T_max=7, eta_min=0.001)")),
    ("LambdaLR", _S.format("LambdaLR(opt, lr_lambda=lambda e: 0.95 ** e)")),
    ("LambdaLR per group", _S.format("LambdaLR(opt, lr_lambda=[lambda e: e // 5, lambda e: 1.0 / (e + 1)])")),
    ("MultiplicativeLR", _S.format("MultiplicativeLR(opt, lr_lambda=lambda e: 0.97)")),
    ("LinearLR", _S.format("LinearLR(opt)")),
    ("LinearLR factors", _S.format("LinearLR(opt, start_factor=0.25, end_factor=0.75, total_iters=12)")),
    ("ConstantLR", _S.format("ConstantLR(opt, factor=0.5, total_iters=4)")),
    ("PolynomialLR", _S.format("PolynomialLR(opt, total_iters=20, power=2.0)")),
    ("CosineAnnealingWarmRestarts", _S.format("CosineAnnealingWarmRestarts(opt, T_0=5, T_mult=2, eta_min=0.001)")),
    ("CyclicLR triangular", _S.format("CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=4)")),
    ("CyclicLR triangular2", _S.format("CyclicLR(opt, base_lr=[0.01, 0.001], max_lr=0.1, step_size_up=3, "
                                       "step_size_down=5, mode='triangular2')")),
    ("CyclicLR exp_range", _S.format("CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=4, mode='exp_range', "
                                     "gamma=0.9)")),
    ("CyclicLR Adam betas", "result = run_sched(lambda opt: torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, "
                            "max_lr=0.1, step_size_up=5), sgd=False)"),
    ("OneCycleLR cos", _S.format("OneCycleLR(opt, max_lr=0.1, total_steps=35)")),
    ("OneCycleLR linear", _S.format("OneCycleLR(opt, max_lr=[0.1, 0.05], total_steps=35, anneal_strategy='linear')")),
    ("OneCycleLR three_phase", _S.format("OneCycleLR(opt, max_lr=0.1, epochs=5, steps_per_epoch=7, "
                                         "three_phase=True, pct_start=0.25)")),
    ("OneCycleLR no momentum cycling", _S.format("OneCycleLR(opt, max_lr=0.1, total_steps=40, "
                                                 "cycle_momentum=False, div_factor=10.0, final_div_factor=100.0)")),
    ("OneCycleLR Adam betas", "result = run_sched(lambda opt: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, "
                              "total_steps=35, base_momentum=0.8, max_momentum=0.9), sgd=False)"),
    ("SequentialLR warmup then cosine", "result = run_sched(lambda opt: torch.optim.lr_scheduler.SequentialLR(opt, "
                                        "[torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=5), "
                                        "torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=30)], milestones=[5]))"),
    ("ChainedScheduler", "result = run_sched(lambda opt: torch.optim.lr_scheduler.ChainedScheduler(["
                         "torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=4), "
                         "torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)]))"),
    ("ReduceLROnPlateau", "result = run_sched(lambda opt: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, "
                          "patience=2), steps=40, metrics=PLATEAU_METRICS)"),
    ("ReduceLROnPlateau max abs cooldown", "result = run_sched(lambda opt: torch.optim.lr_scheduler.ReduceLROnPlateau("
                                           "opt, mode='max', factor=0.5, patience=1, threshold=0.01, "
                                           "threshold_mode='abs', cooldown=2, min_lr=[0.02, 0.004]), steps=40, "
                                           "metrics=PLATEAU_METRICS)"),
    ("ReduceLROnPlateau min_lr eps", "result = run_sched(lambda opt: torch.optim.lr_scheduler.ReduceLROnPlateau("
                                     "opt, factor=0.2, patience=0, min_lr=0.005, eps=1e-3), steps=40, "
                                     "metrics=PLATEAU_METRICS)"),
    ("ReduceLROnPlateau tensor metric", "result = run_sched(lambda opt: torch.optim.lr_scheduler.ReduceLROnPlateau("
                                        "opt, patience=1), steps=40, metrics=[torch.tensor(m, device=dev) for m in "
                                        "PLATEAU_METRICS])"),
    ("closed form step(epoch)", "import warnings\nwarnings.simplefilter('ignore')\na, b, opt = two_groups()\n"
                                "s = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)\nout = []\n"
                                "for e in [4, 9, 2, 7]:\n    s.step(e); out.append(s.get_last_lr())\n"
                                "result = [out]"),
    ("StepLR round trip", "result = sched_round_trip(lambda opt: torch.optim.lr_scheduler.StepLR(opt, 3, 0.5))"),
    ("CosineAnnealingLR round trip", "result = sched_round_trip(lambda opt: "
                                     "torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10))"),
    ("OneCycleLR round trip", "result = sched_round_trip(lambda opt: torch.optim.lr_scheduler.OneCycleLR(opt, "
                              "max_lr=0.1, total_steps=25))"),
    ("LambdaLR round trip", "result = sched_round_trip(lambda opt: torch.optim.lr_scheduler.LambdaLR(opt, "
                            "lambda e: 0.9 ** e))"),
    ("ReduceLROnPlateau round trip", "a, b, opt = two_groups()\nR = torch.optim.lr_scheduler.ReduceLROnPlateau\n"
                                     "s = R(opt, patience=1)\nfor m in PLATEAU_METRICS[:12]:\n    s.step(m)\n"
                                     "a2, b2, opt2 = two_groups()\ns2 = R(opt2)\nopt2.load_state_dict(opt.state_dict())"
                                     "\ns2.load_state_dict(s.state_dict())\nout = []\nfor m in PLATEAU_METRICS[12:]:\n"
                                     "    s2.step(m); out.append(s2.get_last_lr())\n"
                                     "result = [out, s2.patience, s2.best, s2.num_bad_epochs]"),
    ("SequentialLR round trip", "result = sched_round_trip(lambda opt: torch.optim.lr_scheduler.SequentialLR(opt, "
                                "[torch.optim.lr_scheduler.ConstantLR(opt, factor=0.2, total_iters=3), "
                                "torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.8)], milestones=[4]))"),
]

OPTIM_SNIPPETS = ([(name, _T.format(ctor)) for name, ctor in _OPTIMIZERS]
                  + [(name, _BIG.format(ctor)) for name, ctor in _BIG_OPTIMIZERS]
                  + _SCENARIOS + _SCHEDULERS)

_P = "a = torch.tensor([1.0, 2.0], device=dev, requires_grad=True)\n"
_O = _P + "opt = torch.optim.SGD([a], lr=0.1, momentum=0.9)\n"
_LS = "torch.optim.lr_scheduler."

OPTIM_ERRORS = [
    ("SGD negative lr", _P + "torch.optim.SGD([a], lr=-0.1)"),
    ("SGD negative momentum", _P + "torch.optim.SGD([a], lr=0.1, momentum=-0.5)"),
    ("SGD negative weight_decay", _P + "torch.optim.SGD([a], lr=0.1, weight_decay=-1e-4)"),
    ("SGD nesterov without momentum", _P + "torch.optim.SGD([a], lr=0.1, nesterov=True)"),
    ("SGD nesterov with dampening", _P + "torch.optim.SGD([a], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)"),
    ("SGD fused and foreach", _P + "torch.optim.SGD([a], lr=0.1, fused=True, foreach=True)"),
    ("SGD fused and differentiable", _P + "torch.optim.SGD([a], lr=0.1, fused=True, differentiable=True)"),
    ("params is a tensor", _P + "torch.optim.SGD(a, lr=0.1)"),
    ("params is a Parameter", "torch.optim.SGD(torch.nn.Parameter(torch.ones(2, device=dev)), lr=0.1)"),
    ("params is an int tensor", "torch.optim.Adam(torch.tensor([1, 2], device=dev))"),
    ("empty parameter list", "torch.optim.SGD([], lr=0.1)"),
    ("empty generator", "torch.optim.Adam(p for p in [])"),
    ("param is not a tensor", "torch.optim.SGD([1.0, 2.0], lr=0.1)"),
    ("param is a list", "torch.optim.SGD([[1.0]], lr=0.1)"),
    ("non-leaf param", _P + "torch.optim.SGD([a * 2], lr=0.1)"),
    ("group params in a set", _P + "torch.optim.SGD([{'params': {a}}], lr=0.1)"),
    ("param in two groups", _P + "torch.optim.SGD([{'params': [a]}, {'params': [a], 'lr': 0.5}], lr=0.1)"),
    ("add_param_group duplicate", _O + "opt.add_param_group({'params': a})"),
    ("add_param_group not a dict", _O + "opt.add_param_group([a])"),
    ("named and unnamed params", _P + "b = torch.ones(2, device=dev, requires_grad=True)\n"
                                      "torch.optim.SGD([('a', a), b], lr=0.1)"),
    ("named and unnamed groups", _P + "b = torch.ones(2, device=dev, requires_grad=True)\n"
                                      "opt = torch.optim.SGD([('a', a)], lr=0.1)\nopt.add_param_group({'params': [b]})"),
    ("Adam negative lr", _P + "torch.optim.Adam([a], lr=-1.0)"),
    ("Adam negative eps", _P + "torch.optim.Adam([a], eps=-1e-8)"),
    ("Adam beta0 = 1", _P + "torch.optim.Adam([a], betas=(1.0, 0.999))"),
    ("Adam negative beta0", _P + "torch.optim.Adam([a], betas=(-0.1, 0.999))"),
    ("Adam beta1 > 1", _P + "torch.optim.Adam([a], betas=(0.9, 1.5))"),
    ("Adam int beta", _P + "torch.optim.Adam([a], betas=(0.9, 0))"),
    ("Adam negative weight_decay", _P + "torch.optim.Adam([a], weight_decay=-0.1)"),
    ("Adam fused and foreach", _P + "torch.optim.Adam([a], fused=True, foreach=True)"),
    ("AdamW negative lr", _P + "torch.optim.AdamW([a], lr=-0.001)"),
    ("AdamW beta1 = 1", _P + "torch.optim.AdamW([a], betas=(0.9, 1.0))"),
    ("AdamW empty", "torch.optim.AdamW([])"),
    ("RMSprop negative lr", _P + "torch.optim.RMSprop([a], lr=-0.01)"),
    ("RMSprop negative alpha", _P + "torch.optim.RMSprop([a], alpha=-0.5)"),
    ("RMSprop negative eps", _P + "torch.optim.RMSprop([a], eps=-1.0)"),
    ("RMSprop negative momentum", _P + "torch.optim.RMSprop([a], momentum=-0.9)"),
    ("RMSprop negative weight_decay", _P + "torch.optim.RMSprop([a], weight_decay=-2)"),
    ("Adagrad negative lr", _P + "torch.optim.Adagrad([a], lr=-0.01)"),
    ("Adagrad negative lr_decay", _P + "torch.optim.Adagrad([a], lr_decay=-0.5)"),
    ("Adagrad negative weight_decay", _P + "torch.optim.Adagrad([a], weight_decay=-0.5)"),
    ("Adagrad negative initial_accumulator_value", _P + "torch.optim.Adagrad([a], initial_accumulator_value=-1)"),
    ("Adagrad negative eps", _P + "torch.optim.Adagrad([a], eps=-1e-10)"),
    ("load_state_dict group count", _O + "b = torch.ones(2, device=dev, requires_grad=True)\n"
                                         "o2 = torch.optim.SGD([{'params': [a]}, {'params': [b]}], lr=0.1)\n"
                                         "opt.load_state_dict(o2.state_dict())"),
    ("load_state_dict group size", _O + "b = torch.ones(2, device=dev, requires_grad=True)\n"
                                        "o2 = torch.optim.SGD([a, b], lr=0.1)\nopt.load_state_dict(o2.state_dict())"),
    ("base Optimizer step", _P + "torch.optim.Optimizer([a], {}).step()"),
    ("scheduler of a non-optimizer", _LS + "StepLR(3, step_size=2)"),
    ("scheduler of a list", _P + _LS + "ExponentialLR([a], gamma=0.5)"),
    ("resume without initial_lr", _O + _LS + "StepLR(opt, step_size=2, last_epoch=3)"),
    ("LambdaLR wrong count", _O + _LS + "LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0])"),
    ("MultiplicativeLR not callable", _O + _LS + "MultiplicativeLR(opt, 0.5)"),
    ("LinearLR start_factor 0", _O + _LS + "LinearLR(opt, start_factor=0)"),
    ("LinearLR end_factor > 1", _O + _LS + "LinearLR(opt, end_factor=1.5)"),
    ("ConstantLR factor > 1", _O + _LS + "ConstantLR(opt, factor=2.0)"),
    ("ReduceLROnPlateau factor 1", _O + _LS + "ReduceLROnPlateau(opt, factor=1.0)"),
    ("ReduceLROnPlateau mode", _O + _LS + "ReduceLROnPlateau(opt, mode='lowest')"),
    ("ReduceLROnPlateau threshold_mode", _O + _LS + "ReduceLROnPlateau(opt, threshold_mode='ratio')"),
    ("ReduceLROnPlateau min_lr count", _O + _LS + "ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])"),
    ("ReduceLROnPlateau non-optimizer", _LS + "ReduceLROnPlateau('opt')"),
    ("OneCycleLR no total_steps", _O + _LS + "OneCycleLR(opt, max_lr=0.1)"),
    ("OneCycleLR total_steps 0", _O + _LS + "OneCycleLR(opt, max_lr=0.1, total_steps=0)"),
    ("OneCycleLR epochs 0", _O + _LS + "OneCycleLR(opt, max_lr=0.1, epochs=0, steps_per_epoch=3)"),
    ("OneCycleLR steps_per_epoch float", _O + _LS + "OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=3.0)"),
    ("OneCycleLR pct_start", _O + _LS + "OneCycleLR(opt, max_lr=0.1, total_steps=10, pct_start=1.5)"),
    ("OneCycleLR int pct_start", _O + _LS + "OneCycleLR(opt, max_lr=0.1, total_steps=10, pct_start=1)"),
    ("OneCycleLR anneal_strategy", _O + _LS + "OneCycleLR(opt, max_lr=0.1, total_steps=10, anneal_strategy='exp')"),
    ("OneCycleLR max_lr count", _O + _LS + "OneCycleLR(opt, max_lr=[0.1, 0.2], total_steps=10)"),
    ("OneCycleLR without momentum", _P + "opt = torch.optim.Adagrad([a])\n" + _LS
     + "OneCycleLR(opt, max_lr=0.1, total_steps=10)"),
    ("OneCycleLR stepped too far", _O + "import warnings\nwarnings.simplefilter('ignore')\n"
                                        "s = " + _LS + "OneCycleLR(opt, max_lr=0.1, total_steps=3)\n"
                                        "for _ in range(4):\n    opt.step(); s.step()"),
    ("CyclicLR bad mode", _O + _LS + "CyclicLR(opt, 0.01, 0.1, mode='sawtooth')"),
    ("CyclicLR without momentum", _P + "opt = torch.optim.Adagrad([a])\n" + _LS + "CyclicLR(opt, 0.01, 0.1)"),
    ("CosineAnnealingWarmRestarts T_0", _O + _LS + "CosineAnnealingWarmRestarts(opt, T_0=0)"),
    ("CosineAnnealingWarmRestarts T_mult", _O + _LS + "CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=0)"),
    ("SequentialLR milestones", _O + "s1 = " + _LS + "ConstantLR(opt)\ns2 = " + _LS + "ExponentialLR(opt, 0.9)\n"
                                + _LS + "SequentialLR(opt, [s1, s2], milestones=[2, 4])"),
    ("SequentialLR empty", _O + _LS + "SequentialLR(opt, [], milestones=[])"),
    ("SequentialLR with ReduceLROnPlateau", _O + "s1 = " + _LS + "ReduceLROnPlateau(opt)\n"
                                            + _LS + "SequentialLR(opt, [s1], milestones=[])"),
    ("ChainedScheduler empty", _LS + "ChainedScheduler([])"),
]
