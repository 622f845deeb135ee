"""Cases for ao.quantization.fuse_modules / fuse_modules_qat and the nn.intrinsic containers (the format
of fusion_cases.py, whose cases come first in ALL_CASES): a small ResNet-like network fused in eval
mode (print(model) after fusion, the outputs before and after, the module types, the state-dict keys),
every default pattern, the QAT containers in train mode, hooks, custom mappings and the errors."""
from __future__ import annotations

from fusion_cases import CASES as UTIL_CASES, arr, case as _case, inp, setup

MODEL_CASES: list[tuple[str, object]] = []


def case(name: str, match: str = "exact"):
    return _case(name, match, into=MODEL_CASES)


def resnet_like(torch):
    """A stem (conv, bn, relu), two basic blocks (the second with a downsample) and a head (linear, bn, relu)."""
    nn = torch.nn

    class BasicBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.relu1 = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.downsample = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                               if stride != 1 or cin != cout else None)
            self.relu2 = nn.ReLU()

        def forward(self, x):
            identity = x if self.downsample is None else self.downsample(x)
            return self.relu2(self.bn2(self.conv2(self.relu1(self.bn1(self.conv1(x))))) + identity)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 4, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()
            self.layer1 = nn.Sequential(BasicBlock(4, 4, 1), BasicBlock(4, 6, 2))
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Linear(6, 5)
            self.bn_fc = nn.BatchNorm1d(5)
            self.relu_fc = nn.ReLU()
            self.fc2 = nn.Linear(5, 3)

        def forward(self, x):
            x = self.flatten(self.pool(self.layer1(self.relu(self.bn1(self.conv1(x))))))
            return self.fc2(self.relu_fc(self.bn_fc(self.fc1(x))))

    return Net()


EVAL_RUNS = [["conv1", "bn1", "relu"], ["layer1.0.conv1", "layer1.0.bn1", "layer1.0.relu1"],
             ["layer1.0.conv2", "layer1.0.bn2"], ["layer1.1.conv1", "layer1.1.bn1", "layer1.1.relu1"],
             ["layer1.1.conv2", "layer1.1.bn2"], ["layer1.1.downsample.0", "layer1.1.downsample.1"],
             ["fc1", "bn_fc"]]


def model_facts(model, x, prefix: str = "") -> dict:
    return {f"{prefix}repr": repr(model), f"{prefix}out": arr(model(x)),
            f"{prefix}modules": [f"{n} {type(m).__name__} {m.training}" for n, m in model.named_modules()],
            f"{prefix}state_dict": [f"{k} {list(v.shape)}" for k, v in model.state_dict().items()]}


@case("fuse_modules resnet-like eval")
def _(torch, dev):
    model = setup(torch, resnet_like(torch), dev, 60).eval()
    x = inp(torch, dev, (2, 3, 8, 8), 60)
    before = model_facts(model, x, "before ")
    fused = torch.ao.quantization.fuse_modules(model, EVAL_RUNS)
    return {**before, **model_facts(fused, x), "a copy": fused is not model, "original after": repr(model)}


@case("fuse_modules resnet-like eval inplace")
def _(torch, dev):
    model = setup(torch, resnet_like(torch), dev, 61).eval()
    x = inp(torch, dev, (1, 3, 6, 6), 61)
    fused = torch.ao.quantization.fuse_modules(model, EVAL_RUNS[:3], inplace=True)
    return {**model_facts(fused, x), "the same": fused is model}


@case("fuse_modules one run as a list of strings")
def _(torch, dev):
    model = setup(torch, resnet_like(torch), dev, 62).eval()
    x = inp(torch, dev, (1, 3, 4, 4), 62)
    return model_facts(torch.ao.quantization.fuse_modules(model, ["layer1.1.conv1", "layer1.1.bn1"]), x)


def zoo(torch):
    nn = torch.nn

    class Zoo(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.b1, self.r1 = nn.Conv1d(2, 3, 3), nn.BatchNorm1d(3), nn.ReLU()
            self.c1b, self.r1b = nn.Conv1d(3, 3, 1), nn.ReLU()
            self.c1c, self.b1c = nn.Conv1d(3, 2, 1, bias=False), nn.BatchNorm1d(2)
            self.c2, self.r2 = nn.Conv2d(2, 3, 3, padding=1), nn.ReLU()
            self.b2, self.r2b = nn.BatchNorm2d(3), nn.ReLU()
            self.t2, self.tb = nn.ConvTranspose2d(3, 2, 2, stride=2), nn.BatchNorm2d(2)
            self.t1, self.tb1 = nn.ConvTranspose1d(2, 2, 2), nn.BatchNorm1d(2)
            self.l1, self.lr = nn.Linear(4, 5), nn.ReLU()
            self.b3, self.r3 = nn.BatchNorm3d(2), nn.ReLU()

        def forward(self, x1, x2, xl, x3):
            y1 = self.tb1(self.t1(self.b1c(self.c1c(self.r1b(self.c1b(self.r1(self.b1(self.c1(x1)))))))))
            y2 = self.tb(self.t2(self.r2b(self.b2(self.r2(self.c2(x2))))))
            return [y1, y2, self.lr(self.l1(xl)), self.r3(self.b3(x3))]

    return Zoo()


ZOO_RUNS = [["c1", "b1", "r1"], ["c1b", "r1b"], ["c1c", "b1c"], ["c2", "r2"], ["b2", "r2b"], ["t2", "tb"],
            ["t1", "tb1"], ["l1", "lr"], ["b3", "r3"]]


def zoo_inputs(torch, dev, seed):
    return [inp(torch, dev, s, seed + i) for i, s in enumerate([(2, 2, 6), (2, 2, 4, 4), (3, 4), (2, 2, 2, 3, 3)])]


@case("fuse_modules every default pattern eval")
def _(torch, dev):
    model = setup(torch, zoo(torch), dev, 63).eval()
    xs = zoo_inputs(torch, dev, 63)
    fused = torch.ao.quantization.fuse_modules(model, ZOO_RUNS)
    outs = {f"before {i}": arr(y) for i, y in enumerate(model(*xs))}
    outs.update({f"after {i}": arr(y) for i, y in enumerate(fused(*xs))})
    return {"repr": repr(fused), **outs}


@case("fuse_modules_qat resnet-like train")
def _(torch, dev):
    model = setup(torch, resnet_like(torch), dev, 64).train()
    x = inp(torch, dev, (2, 3, 6, 6), 64)
    runs = [["conv1", "bn1", "relu"], ["layer1.0.conv1", "layer1.0.bn1", "layer1.0.relu1"],
            ["layer1.0.conv2", "layer1.0.bn2"], ["layer1.1.conv1", "layer1.1.bn1"], ["fc1", "bn_fc", ]]
    fused = torch.ao.quantization.fuse_modules_qat(model, runs)
    facts = model_facts(fused, x)      # a train-mode forward: batch statistics, running stats updated
    stats = {k: arr(v) for k, v in fused.state_dict().items() if k.endswith(("running_mean", "running_var"))}
    return {**facts, **stats, "eval out": arr(fused.eval()(x))}


@case("fuse_modules_qat eval mode keeps the batchnorm")
def _(torch, dev):
    nn = torch.nn
    model = setup(torch, nn.Sequential(nn.Conv1d(2, 3, 3), nn.BatchNorm1d(3), nn.ReLU()), dev, 65).eval()
    fused = torch.ao.quantization.fuse_modules_qat(model, ["0", "1", "2"])
    return model_facts(fused, inp(torch, dev, (2, 2, 5), 65))


@case("fuse_modules train mode conv relu")
def _(torch, dev):
    nn = torch.nn
    model = setup(torch, nn.Sequential(nn.Conv2d(2, 3, 3), nn.ReLU(), nn.Linear(2, 2), nn.ReLU()), dev, 66)
    return model_facts(torch.ao.quantization.fuse_modules(model, [["0", "1"], ["2", "3"]]),
                       inp(torch, dev, (1, 2, 4, 4), 66))


@case("fuse_modules moves the hooks")
def _(torch, dev):
    nn = torch.nn
    model = setup(torch, nn.Sequential(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2), nn.ReLU()), dev, 67).eval()
    calls = []
    model[0].register_forward_pre_hook(lambda mod, args: calls.append("pre " + type(mod).__name__))
    model[0].register_forward_hook(lambda mod, args, out: calls.append("conv post (lost)"))
    model[2].register_forward_hook(lambda mod, args, out: calls.append("post " + type(mod).__name__))
    fused = torch.ao.quantization.fuse_modules(model, ["0", "1", "2"], inplace=True)
    out = fused(inp(torch, dev, (1, 1, 2, 2), 67))
    return {"calls": calls, "out": arr(out), "pre hooks": len(fused[0]._forward_pre_hooks),
            "hooks": len(fused[0]._forward_hooks), "inner conv pre hooks": len(fused[0][0]._forward_pre_hooks)}


@case("fuse_modules additional_fuser_method_mapping and fuser_func")
def _(torch, dev):
    nn, nni = torch.nn, torch.ao.nn.intrinsic
    model = setup(torch, nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2), nn.Sigmoid()), dev, 68).eval()
    x = inp(torch, dev, (2, 3), 68)
    extra = {"additional_fuser_method_mapping": {(nn.Linear, nn.Tanh): lambda is_qat, a, b: nni.LinearTanh(a, b)}}
    a = torch.ao.quantization.fuse_modules(model, ["0", "1"], fuse_custom_config_dict=extra)

    def fuser_func(mods, is_qat, mapping):
        return [nn.Sequential(*mods)] + [nn.Identity() for _ in mods[1:]]
    b = torch.ao.quantization.fuse_modules(model, [["0", "1"], ["2", "3"]], fuser_func=fuser_func)
    return {"repr mapping": repr(a), "out mapping": arr(a(x)), "repr fuser_func": repr(b), "out fuser_func": arr(b(x))}


@case("intrinsic containers forward and repr")
def _(torch, dev):
    nn, nni = torch.nn, torch.nn.intrinsic
    parts = setup(torch, nn.ModuleList([nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.Linear(3, 2),
                                        nn.BatchNorm1d(2), nn.Conv1d(2, 2, 1)]), dev, 69)
    c, bn, lin, bn1, c1 = parts
    x, xl, x1 = inp(torch, dev, (2, 2, 3, 3), 69), inp(torch, dev, (4, 3), 70), inp(torch, dev, (2, 2, 3), 71)
    x3 = inp(torch, dev, (2, 3, 2, 2), 76)
    mods = {"ConvReLU2d": (nni.ConvReLU2d(c, nn.ReLU()), x), "ConvBn2d": (nni.ConvBn2d(c, bn), x),
            "ConvBnReLU2d": (nni.ConvBnReLU2d(c, bn, nn.ReLU()), x), "BNReLU2d": (nni.BNReLU2d(bn, nn.ReLU()), x3),
            "LinearReLU": (nni.LinearReLU(lin, nn.ReLU()), xl), "LinearBn1d": (nni.LinearBn1d(lin, bn1), xl),
            "ConvReLU1d": (nni.ConvReLU1d(c1, nn.ReLU()), x1),
            "LinearLeakyReLU": (torch.ao.nn.intrinsic.LinearLeakyReLU(lin, nn.LeakyReLU(0.2)), xl),
            "LinearTanh": (torch.ao.nn.intrinsic.LinearTanh(lin, nn.Tanh()), xl)}
    out = {}
    for name, (m, t) in mods.items():
        out[f"{name} repr"], out[f"{name} out"] = repr(m.eval()), arr(m(t))
    add = torch.ao.nn.intrinsic.ConvAddReLU2d(nn.Conv2d(2, 3, 3, padding=1), torch.add, nn.ReLU())
    setup(torch, add, dev, 72)
    out["ConvAddReLU2d repr"], out["ConvAddReLU2d out"] = repr(add), arr(add(x, inp(torch, dev, (2, 3, 3, 3), 73)))
    add2 = setup(torch, torch.ao.nn.intrinsic.ConvAdd2d(nn.Conv2d(2, 3, 1), torch.add), dev, 74)
    out["ConvAdd2d out"] = arr(add2(x, inp(torch, dev, (2, 3, 3, 3), 75)))
    return out


# ---- errors --------------------------------------------------------------------------------------------------

def _seq(torch, *mods):
    return torch.nn.Sequential(*mods)


@case("fuse_modules conv bn in train mode")
def _(torch, dev):
    torch.ao.quantization.fuse_modules(_seq(torch, torch.nn.Conv2d(1, 2, 1), torch.nn.BatchNorm2d(2)), ["0", "1"])


@case("fuse_modules conv bn relu in train mode")
def _(torch, dev):
    nn = torch.nn
    torch.ao.quantization.fuse_modules(_seq(torch, nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2), nn.ReLU()), ["0", "1", "2"])


@case("fuse_modules conv eval, bn train")
def _(torch, dev):
    m = _seq(torch, torch.nn.Conv2d(1, 2, 1).eval(), torch.nn.BatchNorm2d(2))
    torch.ao.quantization.fuse_modules(m, ["0", "1"])


@case("fuse_modules relu in another mode")
def _(torch, dev):
    nn = torch.nn
    m = _seq(torch, nn.Conv2d(1, 2, 1).eval(), nn.BatchNorm2d(2).eval(), nn.ReLU())
    torch.ao.quantization.fuse_modules(m, ["0", "1", "2"])


@case("fuse_modules linear eval, bn train")
def _(torch, dev):
    torch.ao.quantization.fuse_modules(_seq(torch, torch.nn.Linear(2, 2).eval(), torch.nn.BatchNorm1d(2)), ["0", "1"])


@case("fuse_modules convtranspose eval, bn train")
def _(torch, dev):
    m = _seq(torch, torch.nn.ConvTranspose2d(2, 2, 1).eval(), torch.nn.BatchNorm2d(2))
    torch.ao.quantization.fuse_modules(m, ["0", "1"])


@case("fuse_modules unknown pattern")
def _(torch, dev):
    torch.ao.quantization.fuse_modules(_seq(torch, torch.nn.Conv2d(1, 2, 1), torch.nn.Linear(2, 2)).eval(), ["0", "1"])


@case("fuse_modules conv1d with bn2d")
def _(torch, dev):
    m = _seq(torch, torch.nn.Conv1d(1, 2, 1), torch.nn.BatchNorm2d(2)).eval()
    torch.ao.quantization.fuse_modules(m, ["0", "1"])


@case("fuse_modules missing name")
def _(torch, dev):
    torch.ao.quantization.fuse_modules(_seq(torch, torch.nn.Conv2d(1, 2, 1), torch.nn.ReLU()), ["0", "relu"])


@case("fuse_modules_qat bn affine=False")
def _(torch, dev):
    m = _seq(torch, torch.nn.Conv2d(1, 2, 1), torch.nn.BatchNorm2d(2, affine=False))
    torch.ao.quantization.fuse_modules_qat(m, ["0", "1"])


@case("fuse_modules_qat bn without running stats")
def _(torch, dev):
    nn = torch.nn
    m = _seq(torch, nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2, track_running_stats=False), nn.ReLU())
    torch.ao.quantization.fuse_modules_qat(m, ["0", "1", "2"])


@case("fuse_modules_qat conv bn channel mismatch")
def _(torch, dev):
    torch.ao.quantization.fuse_modules_qat(_seq(torch, torch.nn.Conv2d(1, 3, 1), torch.nn.BatchNorm2d(2)), ["0", "1"])


@case("fuse_modules_qat linear bn mismatch")
def _(torch, dev):
    torch.ao.quantization.fuse_modules_qat(_seq(torch, torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(2)), ["0", "1"])


@case("fuse_modules_qat convtranspose")
def _(torch, dev):
    m = _seq(torch, torch.nn.ConvTranspose2d(2, 2, 1), torch.nn.BatchNorm2d(2))
    torch.ao.quantization.fuse_modules_qat(m, ["0", "1"])


@case("ConvReLU2d of a Linear")
def _(torch, dev):
    torch.nn.intrinsic.ConvReLU2d(torch.nn.Linear(2, 2), torch.nn.ReLU())


@case("ConvBnReLU2d of a BatchNorm1d")
def _(torch, dev):
    torch.nn.intrinsic.ConvBnReLU2d(torch.nn.Conv2d(1, 2, 1), torch.nn.BatchNorm1d(2), torch.nn.ReLU())


@case("BNReLU2d of a BatchNorm3d")
def _(torch, dev):
    torch.ao.nn.intrinsic.BNReLU2d(torch.nn.BatchNorm3d(2), torch.nn.ReLU6())


ALL_CASES = UTIL_CASES + MODEL_CASES
