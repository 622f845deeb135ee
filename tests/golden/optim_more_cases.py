"""The optimizers after the first five (NAdam, RAdam, Adamax, Adadelta, ASGD, Rprop, LBFGS,
SparseAdam) and ``torch.optim.swa_utils``, as scenarios in optim_cases.py's form: each snippet runs
after PRELUDE (the same prelude, so the same parameters, losses and ``train``/``snapshot`` helpers),
generate_optim.py records ``result`` from real PyTorch into optim_more.json and replay_optim.py
(``--golden optim_more.json``) compares."""
from optim_cases import PRELUDE as _BASE

PRELUDE = _BASE + '''

def lbfgs_run(steps=3, **kw):
    """LBFGS on a loss with a quartic term (so the quasi-Newton model is not exact): the loss each
    step() returns, the parameters after each, then the counters and the memory's size."""
    a, b = make_params()
    opt = torch.optim.LBFGS([a, b], **kw)
    def closure():
        opt.zero_grad()
        loss = loss_of(a, b) + (a ** 4).sum() * 0.1
        loss.backward()
        return loss
    out = []
    for _ in range(steps):
        out += [opt.step(closure).detach(), a.detach().clone(), b.detach().clone()]
    st = opt.state[a]
    return out + [st["func_evals"], st["n_iter"], len(st["old_dirs"]), sorted(st), st["d"], st["t"]]


def linear_model():
    m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2)).to(torch.get_default_dtype())
    with torch.no_grad():
        m[0].weight.copy_(T(CA)); m[0].bias.copy_(T([0.1, -0.2]))
    return m


def swa_run(make_avg, use_sched=False, steps=6):
    """SGD on linear_model(), averaging into make_avg(model) after every step: the averaged
    weights and buffers after each update, then n_averaged and the state_dict keys."""
    m = linear_model()
    avg = make_avg(m)
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.5)
    sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.02, anneal_epochs=3) if use_sched else None
    x, y = T([[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.3, 0.2, 0.9]]), T([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    out = []
    for _ in range(steps):
        opt.zero_grad(); ((m(x) - y) ** 2).mean().backward(); opt.step()
        avg.update_parameters(m)
        if sched is not None:
            sched.step()
        sd = avg.state_dict()
        out += [sd[k].clone() for k in sorted(sd) if k != "n_averaged"]
    return out + [avg.n_averaged.item(), sorted(avg.state_dict()), [g["lr"] for g in opt.param_groups],
                  avg(x)]
'''

_T = "result = train(lambda ps: torch.optim.{})"
_T8 = "result = train(lambda ps: torch.optim.{}, steps=8)"
_BIG = "result = train_big(lambda ps: torch.optim.{})"

_OPTIMIZERS = [
    ("NAdam", _T.format("NAdam(ps, lr=0.1)")),
    ("NAdam defaults", _T.format("NAdam(ps)")),
    ("NAdam momentum_decay betas eps", _T.format("NAdam(ps, lr=0.05, betas=(0.8, 0.9), eps=1e-3, momentum_decay=0.1)")),
    ("NAdam weight_decay", _T.format("NAdam(ps, lr=0.1, weight_decay=0.1)")),
    ("NAdam decoupled_weight_decay", _T.format("NAdam(ps, lr=0.1, weight_decay=0.3, decoupled_weight_decay=True)")),
    ("NAdam maximize", _T.format("NAdam(ps, lr=0.05, maximize=True)")),
    ("RAdam", _T8.format("RAdam(ps, lr=0.1)")),
    ("RAdam defaults", _T8.format("RAdam(ps)")),
    ("RAdam betas eps", _T8.format("RAdam(ps, lr=0.05, betas=(0.8, 0.99), eps=1e-3)")),
    ("RAdam weight_decay", _T8.format("RAdam(ps, lr=0.1, weight_decay=0.1)")),
    ("RAdam decoupled_weight_decay maximize", _T8.format("RAdam(ps, lr=0.1, weight_decay=0.2, "
                                                         "decoupled_weight_decay=True, maximize=True)")),
    ("Adamax", _T.format("Adamax(ps, lr=0.1)")),
    ("Adamax defaults", _T.format("Adamax(ps)")),
    ("Adamax betas eps", _T.format("Adamax(ps, lr=0.05, betas=(0.7, 0.8), eps=1e-2)")),
    ("Adamax weight_decay maximize", _T.format("Adamax(ps, lr=0.1, weight_decay=0.1, maximize=True)")),
    ("Adadelta", _T.format("Adadelta(ps)")),
    ("Adadelta lr rho eps", _T.format("Adadelta(ps, lr=0.5, rho=0.8, eps=1e-3)")),
    ("Adadelta weight_decay", _T.format("Adadelta(ps, lr=2.0, weight_decay=0.1)")),
    ("Adadelta maximize", _T.format("Adadelta(ps, lr=1.0, maximize=True)")),
    ("ASGD", _T.format("ASGD(ps, lr=0.05)")),
    ("ASGD defaults", _T.format("ASGD(ps)")),
    ("ASGD averaging from t0", _T.format("ASGD(ps, lr=0.05, lambd=0.01, alpha=0.5, t0=2)")),
    ("ASGD weight_decay maximize", _T.format("ASGD(ps, lr=0.02, t0=3, weight_decay=0.1, maximize=True)")),
    ("Rprop", _T.format("Rprop(ps, lr=0.05)")),
    ("Rprop defaults", _T8.format("Rprop(ps)")),
    ("Rprop etas step_sizes", _T8.format("Rprop(ps, lr=0.2, etas=(0.3, 1.5), step_sizes=(0.01, 0.4))")),
    ("Rprop maximize", _T.format("Rprop(ps, lr=0.05, maximize=True)")),
]

_BIG_OPTIMIZERS = [
    ("NAdam on 2112 elements", _BIG.format("NAdam(ps, lr=0.01, weight_decay=0.01)")),
    ("RAdam on 2112 elements", "result = train_big(lambda ps: torch.optim.RAdam(ps, lr=0.01), steps=8)"),
    ("Adamax on 2112 elements", _BIG.format("Adamax(ps, lr=0.01)")),
    ("Adadelta on 2112 elements", _BIG.format("Adadelta(ps, lr=0.5)")),
    ("ASGD on 2112 elements", _BIG.format("ASGD(ps, lr=0.01, t0=2)")),
    ("Rprop on 2112 elements", _BIG.format("Rprop(ps, lr=0.01)")),
]

_LBFGS = [
    # few iterations per case: near the minimum the loss changes by less than float32 resolves and
    # the branches (tolerance_change, the Wolfe tests) follow rounding noise, PyTorch's as much as ours
    ("LBFGS", "result = lbfgs_run(max_iter=3)"),
    ("LBFGS lr max_iter history_size", "result = lbfgs_run(steps=4, lr=0.5, max_iter=4, history_size=2)"),
    ("LBFGS strong_wolfe", "result = lbfgs_run(steps=2, lr=4, max_iter=4, line_search_fn='strong_wolfe')"),
    ("LBFGS strong_wolfe small lr", "result = lbfgs_run(steps=2, lr=0.05, max_iter=4, line_search_fn='strong_wolfe')"),
    ("LBFGS strong_wolfe max_eval", "result = lbfgs_run(steps=2, lr=0.05, max_iter=5, max_eval=4, "
                                    "line_search_fn='strong_wolfe')"),
    ("LBFGS stops at tolerance_grad", "a = T([1.0, -2.0]).requires_grad_()\nopt = torch.optim.LBFGS([a])\n"
                                      "def closure():\n    opt.zero_grad(); loss = ((a - 3) ** 2).sum(); "
                                      "loss.backward(); return loss\nl1 = opt.step(closure).detach()\n"
                                      "l2 = opt.step(closure).detach()\n"
                                      "result = [l1, l2, a, opt.state[a]['func_evals'], opt.state[a]['n_iter']]"),
]

_SCENARIOS = [
    ("NAdam state_dict round trip", "a, b = make_params()\nopt = torch.optim.NAdam([a, b], lr=0.05)\n"
                                    "for _ in range(3):\n    opt.zero_grad(); loss_of(a, b).backward(); opt.step()\n"
                                    "sd = opt.state_dict()\na2 = a.detach().clone().requires_grad_()\n"
                                    "b2 = b.detach().clone().requires_grad_()\n"
                                    "opt2 = torch.optim.NAdam([a2, b2], lr=0.5)\nopt2.load_state_dict(sd)\n"
                                    "for _ in range(3):\n    opt2.zero_grad(); loss_of(a2, b2).backward(); "
                                    "opt2.step()\nresult = [a2, b2] + snapshot(opt2)"),
    ("ASGD state_dict round trip", "a, b = make_params()\nopt = torch.optim.ASGD([a, b], lr=0.05, t0=1)\n"
                                   "for _ in range(3):\n    opt.zero_grad(); loss_of(a, b).backward(); opt.step()\n"
                                   "a2 = a.detach().clone().requires_grad_()\nb2 = b.detach().clone().requires_grad_()\n"
                                   "opt2 = torch.optim.ASGD([a2, b2], lr=0.05, t0=1)\n"
                                   "opt2.load_state_dict(opt.state_dict())\nfor _ in range(3):\n"
                                   "    opt2.zero_grad(); loss_of(a2, b2).backward(); opt2.step()\n"
                                   "result = [a2, b2] + snapshot(opt2)"),
    ("two param groups Rprop", "a, b = make_params()\nopt = torch.optim.Rprop([{'params': [a]}, {'params': [b], "
                               "'lr': 0.2, 'etas': (0.4, 1.1)}], lr=0.05)\nfor _ in range(6):\n"
                               "    opt.zero_grad(); loss_of(a, b).backward(); opt.step()\nresult = [a, b] + snapshot(opt)"),
    # 0-d counters on the CPU (as PyTorch keeps them unless capturable), the rest on the parameter's
    # device; ASGD keeps its step, eta and mu on the parameter's device
    ("state lives where PyTorch keeps it", "a, b = make_params()\nout = []\n"
                                           "for make in [torch.optim.NAdam, torch.optim.RAdam, torch.optim.Adamax, "
                                           "torch.optim.Adadelta, torch.optim.Rprop, torch.optim.ASGD]:\n"
                                           "    opt = make([a, b]); opt.zero_grad(); loss_of(a, b).backward(); "
                                           "opt.step()\n    st = opt.state[a]\n"
                                           "    out.append({k: ['cpu' if v.device.type == 'cpu' and v.dim() == 0 "
                                           "and make is not torch.optim.ASGD else v.device.type == dev, v.dim(), "
                                           "str(v.dtype)] for k, v in st.items()})\nresult = [out]"),
    ("defaults", "a, b = make_params()\nresult = [torch.optim.NAdam([a]).defaults, torch.optim.RAdam([a]).defaults, "
                 "torch.optim.Adamax([a]).defaults, torch.optim.Adadelta([a]).defaults, torch.optim.ASGD([a]).defaults, "
                 "torch.optim.Rprop([a]).defaults, torch.optim.LBFGS([a]).defaults, "
                 "torch.optim.LBFGS([a], max_iter=8).defaults, torch.optim.SparseAdam([a]).defaults]"),
    ("repr", "a, b = make_params()\nresult = [repr(torch.optim.NAdam([a, b])), repr(torch.optim.RAdam([a])), "
             "repr(torch.optim.Adamax([a], lr=0.5)), repr(torch.optim.Adadelta([a])), repr(torch.optim.ASGD([a])), "
             "repr(torch.optim.Rprop([a])), repr(torch.optim.LBFGS([a, b], line_search_fn='strong_wolfe')), "
             "repr(torch.optim.SparseAdam([a]))]"),
    ("SparseAdam skips params without grad", "a, b = make_params()\nopt = torch.optim.SparseAdam([a, b])\n"
                                             "result = [opt.step() is None, len(opt.state), a]"),
    ("SWA mean", "result = swa_run(lambda m: torch.optim.swa_utils.AveragedModel(m))"),
    ("SWA with SWALR", "result = swa_run(lambda m: torch.optim.swa_utils.AveragedModel(m), use_sched=True)"),
    ("EMA multi_avg_fn with buffers", "result = swa_run(lambda m: torch.optim.swa_utils.AveragedModel(m, "
                                      "multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.8), "
                                      "use_buffers=True))"),
    ("EMA avg_fn", "result = swa_run(lambda m: torch.optim.swa_utils.AveragedModel(m, "
                   "avg_fn=torch.optim.swa_utils.get_ema_avg_fn(0.9)))"),
    ("SWA multi_avg_fn", "result = swa_run(lambda m: torch.optim.swa_utils.AveragedModel(m, "
                         "multi_avg_fn=torch.optim.swa_utils.get_swa_multi_avg_fn()))"),
    ("update_bn", "m = linear_model()\nbatches = [T([[0.5, -1.0, 0.25], [1.0, 0.5, -0.5]]), "
                  "[T([[-0.3, 0.2, 0.9], [2.0, 0.0, 1.0], [0.1, 0.1, 0.1]]), 7], "
                  "(T([[1.5, -0.5, 0.0], [0.0, 0.0, -1.0]]),)]\nm.eval()\n"
                  "torch.optim.swa_utils.update_bn(batches, m)\nbn = m[1]\n"
                  "result = [bn.running_mean, bn.running_var, bn.num_batches_tracked.item(), bn.momentum, m.training]"),
    ("update_bn without BatchNorm", "m = torch.nn.Linear(3, 2)\ntorch.optim.swa_utils.update_bn([T(CA)], m)\n"
                                    "result = [m.training]"),
    ("SWALR cos", "result = run_sched(lambda opt: torch.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=5), "
                  "steps=10)"),
    ("SWALR linear per group", "result = run_sched(lambda opt: torch.optim.swa_utils.SWALR(opt, swa_lr=[0.05, 0.2], "
                               "anneal_epochs=4, anneal_strategy='linear'), steps=10)"),
    ("SWALR no annealing", "result = run_sched(lambda opt: torch.optim.swa_utils.SWALR(opt, swa_lr=0.03, "
                           "anneal_epochs=0), steps=4)"),
    ("SWALR round trip", "result = sched_round_trip(lambda opt: torch.optim.swa_utils.SWALR(opt, swa_lr=0.05, "
                         "anneal_epochs=6), before=3, after=6)"),
]

OPTIM_SNIPPETS = _OPTIMIZERS + _BIG_OPTIMIZERS + _LBFGS + _SCENARIOS

_P = "a = torch.tensor([1.0, 2.0], device=dev, requires_grad=True)\n"
_SWA = "torch.optim.swa_utils."

OPTIM_ERRORS = [
    ("NAdam negative lr", _P + "torch.optim.NAdam([a], lr=-0.1)"),
    ("NAdam negative eps", _P + "torch.optim.NAdam([a], eps=-1.0)"),
    ("NAdam beta0 = 1", _P + "torch.optim.NAdam([a], betas=(1.0, 0.9))"),
    ("NAdam beta1 > 1", _P + "torch.optim.NAdam([a], betas=(0.9, 1.5))"),
    ("NAdam negative weight_decay", _P + "torch.optim.NAdam([a], weight_decay=-0.1)"),
    ("NAdam negative momentum_decay", _P + "torch.optim.NAdam([a], momentum_decay=-0.1)"),
    ("RAdam negative lr", _P + "torch.optim.RAdam([a], lr=-0.1)"),
    ("RAdam beta1 = 1", _P + "torch.optim.RAdam([a], betas=(0.9, 1.0))"),
    ("RAdam negative weight_decay", _P + "torch.optim.RAdam([a], weight_decay=-1)"),
    ("Adamax negative lr", _P + "torch.optim.Adamax([a], lr=-0.1)"),
    ("Adamax negative eps", _P + "torch.optim.Adamax([a], eps=-1e-8)"),
    ("Adamax negative beta0", _P + "torch.optim.Adamax([a], betas=(-0.1, 0.9))"),
    ("Adadelta negative lr", _P + "torch.optim.Adadelta([a], lr=-1.0)"),
    ("Adadelta rho > 1", _P + "torch.optim.Adadelta([a], rho=1.5)"),
    ("Adadelta negative eps", _P + "torch.optim.Adadelta([a], eps=-1e-6)"),
    ("Adadelta negative weight_decay", _P + "torch.optim.Adadelta([a], weight_decay=-0.1)"),
    ("ASGD negative lr", _P + "torch.optim.ASGD([a], lr=-0.01)"),
    ("ASGD negative weight_decay", _P + "torch.optim.ASGD([a], weight_decay=-0.1)"),
    ("Rprop negative lr", _P + "torch.optim.Rprop([a], lr=-0.01)"),
    ("Rprop etaminus >= 1", _P + "torch.optim.Rprop([a], etas=(1.0, 1.2))"),
    ("Rprop etaplus <= 1", _P + "torch.optim.Rprop([a], etas=(0.5, 0.9))"),
    ("LBFGS negative lr", _P + "torch.optim.LBFGS([a], lr=-1)"),
    ("LBFGS param groups", _P + "b = torch.ones(2, device=dev, requires_grad=True)\n"
                                "torch.optim.LBFGS([{'params': [a]}, {'params': [b]}])"),
    ("LBFGS line_search_fn", _P + "opt = torch.optim.LBFGS([a], line_search_fn='armijo')\n"
                                  "def closure():\n    opt.zero_grad(); loss = (a * a).sum(); loss.backward(); "
                                  "return loss\nopt.step(closure)"),
    ("LBFGS step without closure", _P + "torch.optim.LBFGS([a]).step()"),
    ("SparseAdam lr 0", _P + "torch.optim.SparseAdam([a], lr=0)"),
    ("SparseAdam eps 0", _P + "torch.optim.SparseAdam([a], eps=0.0)"),
    ("SparseAdam beta1 = 1", _P + "torch.optim.SparseAdam([a], betas=(0.9, 1.0))"),
    ("SparseAdam dense gradients", _P + "opt = torch.optim.SparseAdam([a])\n(a * a).sum().backward()\nopt.step()"),
    ("EMA decay > 1", _SWA + "get_ema_avg_fn(1.5)"),
    ("EMA multi decay < 0", _SWA + "get_ema_multi_avg_fn(-0.1)"),
    ("AveragedModel both avg fns", "m = torch.nn.Linear(2, 2)\n" + _SWA + "AveragedModel(m, avg_fn="
                                   + _SWA + "get_swa_avg_fn(), multi_avg_fn=" + _SWA + "get_swa_multi_avg_fn())"),
    ("SWALR anneal_strategy", _P + "opt = torch.optim.SGD([a], lr=0.1)\n" + _SWA
     + "SWALR(opt, swa_lr=0.05, anneal_strategy='exp')"),
    ("SWALR anneal_epochs float", _P + "opt = torch.optim.SGD([a], lr=0.1)\n" + _SWA
     + "SWALR(opt, swa_lr=0.05, anneal_epochs=2.5)"),
    ("SWALR negative anneal_epochs", _P + "opt = torch.optim.SGD([a], lr=0.1)\n" + _SWA
     + "SWALR(opt, swa_lr=0.05, anneal_epochs=-1)"),
    ("SWALR swa_lr count", _P + "opt = torch.optim.SGD([a], lr=0.1)\n" + _SWA + "SWALR(opt, swa_lr=[0.05, 0.1])"),
]

SIGNATURES = ["NAdam", "RAdam", "Adamax", "Adadelta", "ASGD", "Rprop", "LBFGS", "LBFGS.step", "SparseAdam",
              "swa_utils.AveragedModel", "swa_utils.AveragedModel.update_parameters", "swa_utils.SWALR",
              "swa_utils.update_bn", "swa_utils.get_ema_multi_avg_fn", "swa_utils.get_swa_multi_avg_fn",
              "swa_utils.get_ema_avg_fn", "swa_utils.get_swa_avg_fn"]
