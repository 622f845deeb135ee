"""``torch.optim`` on the cpu device: the frozen PyTorch scenarios (trajectories, state_dicts,
learning-rate schedules, exceptions, signatures) and behaviour that a scenario cannot record."""
from __future__ import annotations

import inspect
import json
import sys
import warnings
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import optim_cases  # noqa: E402
import optim_more_cases  # noqa: E402
import replay_optim  # noqa: E402

import borch_webgpu as bw  # noqa: E402

DOC = json.loads((GOLDEN / "optim.json").read_text())
# the optimizers after the first five and swa_utils: their own file, so each browser test stays small
MORE = json.loads((GOLDEN / "optim_more.json").read_text())
optim = bw.optim


@pytest.mark.parametrize("doc,cases", [(DOC, optim_cases), (MORE, optim_more_cases)], ids=["optim", "optim_more"])
def test_golden_file_matches_the_cases(doc, cases):
    """optim.json / optim_more.json must be regenerated (generate_optim.py) whenever their cases change."""
    assert doc["prelude"] == cases.PRELUDE
    assert [[n, s] for n, s, _ in doc["cases"]] == [list(c) for c in cases.OPTIM_SNIPPETS]
    assert [[n, s] for n, s, _ in doc["errors"]] == [list(c) for c in cases.OPTIM_ERRORS]


def _cases(key):
    return [pytest.param(d["prelude"], *c, id=c[0]) for d in (DOC, MORE) for c in d[key]]


@pytest.mark.parametrize("prelude,name,snippet,want", _cases("cases"))
def test_scenario_matches_pytorch(prelude, name, snippet, want):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        errs = replay_optim.run_case(prelude, snippet, want, "cpu")
    assert not errs, "; ".join(errs)


@pytest.mark.parametrize("prelude,name,snippet,want", _cases("errors"))
def test_bad_input_raises_pytorchs_exception(prelude, name, snippet, want):
    err = replay_optim.run_error(snippet, want, "cpu")
    assert err is None, err


def _ours(path: str):
    obj = optim
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj.__init__ if inspect.isclass(obj) else obj


SIGNATURES = {**DOC["signatures"], **MORE["signatures"]}


@pytest.mark.parametrize("path", list(SIGNATURES))
def test_signature_matches_pytorch(path):
    got = [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
           for p in inspect.signature(_ours(path)).parameters.values()]
    assert got == SIGNATURES[path]


@pytest.mark.parametrize("golden", ["optim.json", "optim_more.json"])
def test_replay_script_on_cpu(golden):
    assert replay_optim.main(["--device", "cpu", "--golden", golden]) == 0


# ---- behaviour the scenarios cannot record -------------------------------------------------------
def _param(values=(1.0, -2.0)):
    return bw.tensor(list(values), device="cpu", requires_grad=True)


def test_duplicate_parameters_in_a_group_warn_like_pytorch():
    a = _param()
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate parameters"):
        optim.SGD([a, a], lr=0.1)


def test_scheduler_stepped_before_optimizer_warns_like_pytorch():
    opt = optim.SGD([_param()], lr=0.1)
    sched = optim.lr_scheduler.StepLR(opt, 2)
    with pytest.warns(UserWarning, match="Detected call of `lr_scheduler.step\\(\\)` before `optimizer.step\\(\\)`"):
        sched.step()


def test_step_pre_hook_must_return_none_or_args():
    opt = optim.SGD([_param()], lr=0.1)
    opt.register_step_pre_hook(lambda o, args, kwargs: 5)
    with pytest.raises(RuntimeError, match="must return None or a tuple of \\(new_args, new_kwargs\\)"):
        opt.step()


def test_global_step_hooks_and_custom_optimizer_subclass():
    from borch_webgpu.optim.optimizer import register_optimizer_step_post_hook

    class Halve(optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {})

        @bw.no_grad()
        def step(self, closure=None):
            for g in self.param_groups:
                for p in g["params"]:
                    p.mul_(0.5)

    calls = []
    h = register_optimizer_step_post_hook(lambda o, a, k: calls.append(type(o).__name__))
    try:
        a = _param()
        Halve([a]).step()
        optim.SGD([a], lr=0.1).step()
    finally:
        h.remove()
    assert calls == ["Halve", "SGD"]
    assert a.tolist() == [0.5, -1.0]


def test_update_keeps_parameter_storage_and_bumps_its_version():
    a = _param()
    view = a.detach()
    v0 = a._version
    opt = optim.Adam([a], lr=0.1)
    (a * a).sum().backward()
    opt.step()
    assert view.tolist() == a.detach().tolist() != [1.0, -2.0]  # written in place, through the same memory
    assert a._version > v0 and a.is_leaf and a.grad_fn is None


def test_step_runs_under_no_grad_and_closure_under_grad():
    a = _param()
    opt = optim.SGD([a], lr=0.1, momentum=0.9)

    def closure():
        assert bw.is_grad_enabled()
        opt.zero_grad()
        loss = (a * a).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.requires_grad and bw.is_grad_enabled()
    assert not opt.state[a]["momentum_buffer"].requires_grad


def test_state_dict_tensors_are_the_live_state():
    a = _param()
    opt = optim.Adam([a], lr=0.1)
    (a * a).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sd["state"][0]["exp_avg"] is opt.state[a]["exp_avg"]
    assert sd["state"][0]["step"].device.type == "cpu" and sd["state"][0]["step"].dim() == 0


def test_lr_scheduler_module_names():
    names = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
             "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
             "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler"]
    assert sorted(optim.lr_scheduler.__all__) == sorted(names)
    assert bw.optim.lr_scheduler is sys.modules["borch_webgpu.optim.lr_scheduler"]


@pytest.mark.parametrize("module", ["", ".optimizer", ".sgd", ".adam", ".adamw", ".rmsprop", ".adagrad",
                                    ".lr_scheduler", ".nadam", ".radam", ".adamax", ".adadelta", ".asgd", ".rprop",
                                    ".lbfgs", ".sparse_adam", ".swa_utils"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    mod = importlib.import_module("borch_webgpu.optim" + module)
    result = doctest.testmod(mod, extraglobs={"torch": bw}, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("name", ["Adam", "RMSprop", "Adagrad"])
def test_loaded_plain_number_step_becomes_a_tensor(name):
    """A state dict whose ``step`` is a plain number (older PyTorch saved them so) loads with the step
    as a float tensor, as PyTorch's __setstate__ converts it."""
    w = bw.ones(2, requires_grad=True)
    opt = getattr(bw.optim, name)([w], lr=0.1)
    w.sum().backward()
    opt.step()
    sd = opt.state_dict()
    sd["state"][0]["step"] = 3
    fresh = getattr(bw.optim, name)([w], lr=0.1)
    fresh.load_state_dict(sd)
    step = fresh.state[w]["step"]
    assert isinstance(step, bw.Tensor) and step.dtype == bw.float32 and step.item() == 3.0
