"""torch.distributions on the cpu device, against PyTorch's answers frozen in tests/golden/dist.json by
tests/golden/generate_dist.py (torch 2.13.0): log_prob / entropy / cdf / icdf / mean / variance / mode /
kl_divergence values and their gradients with respect to the parameters, shapes, supports, reprs, the
errors (type and message), and sampling statistics (our random stream is not PyTorch's: shapes, dtypes,
support, empirical means and the unbiasedness of the reparameterization gradients). Then what the
goldens cannot pin down: the host-side incomplete gamma function and implicit gradient, validation
switches, the RL idioms."""
from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import dist_cases  # noqa: E402
import replay_dist  # noqa: E402

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import distributions as D  # noqa: E402
from borch_webgpu.distributions import _gamma_impl  # noqa: E402

GOLD = replay_dist.load()
NUMERIC = dict(dist_cases.NUMERIC)
SAMPLING = {c[0]: c[1:] for c in dist_cases.SAMPLING}
ERRORS = dict(dist_cases.ERRORS)


def test_dist_json_is_up_to_date_with_the_cases():
    stale = "dist_cases.py changed: run python tests/golden/generate_dist.py (needs torch==2.13.0)"
    assert GOLD["torch_version"].startswith("2.13.0")
    assert [c["id"] for c in GOLD["numeric"]] == list(NUMERIC), stale
    assert [c["id"] for c in GOLD["sampling"]] == list(SAMPLING), stale
    assert [e["id"] for e in GOLD["errors"]] == list(ERRORS), stale


@pytest.mark.parametrize("case", GOLD["numeric"], ids=[c["id"] for c in GOLD["numeric"]])
def test_matches_pytorch_values_and_gradients(case):
    errs = replay_dist.check_numeric(case, NUMERIC[case["id"]])
    assert not errs, "\n".join(errs)


@pytest.mark.parametrize("rec", GOLD["sampling"], ids=[c["id"] for c in GOLD["sampling"]])
def test_sampling_statistics_and_reparameterization(rec):
    torch.manual_seed(0)
    errs = replay_dist.check_sampling(rec, *SAMPLING[rec["id"]])
    assert not errs, "\n".join(errs)


@pytest.mark.parametrize("entry", GOLD["errors"], ids=[e["id"] for e in GOLD["errors"]])
def test_bad_input_raises_pytorchs_exception(entry):
    err = replay_dist.check_error(entry, ERRORS[entry["id"]])
    assert err is None, err


def test_every_family_and_transform_has_goldens():
    """A family or transform exported without a NUMERIC case fails here."""
    code = "\n".join(NUMERIC.values())
    for name in D.__all__:
        obj = getattr(D, name)
        if isinstance(obj, type) and name not in ("Distribution", "ExponentialFamily", "Transform",
                                                  "OneHotCategoricalStraightThrough", "IndependentTransform",
                                                  "ReshapeTransform", "AbsTransform", "PowerTransform",
                                                  # through transform_to(constraints.lower_cholesky / positive_definite)
                                                  "LowerCholeskyTransform", "PositiveDefiniteTransform"):
            assert f"D.{name}(" in code or f"T.{name}(" in code, f"{name} has no golden case in dist_cases.py"


# ---- the host-side gamma machinery -------------------------------------------------------------------

def test_gammainc_matches_closed_forms():
    x = np.array([0.0, 1e-3, 0.3, 1.0, 2.5, 7.0, 30.0])
    assert np.allclose(_gamma_impl.gammainc_np(np.ones_like(x), x), -np.expm1(-x), rtol=1e-13, atol=1e-15)
    erf = np.array([math.erf(math.sqrt(v)) for v in x])
    assert np.allclose(_gamma_impl.gammainc_np(np.full_like(x, 0.5), x), erf, rtol=1e-12, atol=1e-15)
    p2 = 1 - np.exp(-x) * (1 + x)   # a = 2
    assert np.allclose(_gamma_impl.gammainc_np(np.full_like(x, 2.0), x), p2, rtol=1e-11, atol=1e-15)


def _gamma_quantile(a: float, u: float) -> float:
    lo, hi = 0.0, 200.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if _gamma_impl.gammainc_np(np.array(a), np.array(mid)) < u:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@pytest.mark.parametrize("a", [0.3, 1.0, 2.5, 9.0])
def test_implicit_gamma_gradient_is_the_derivative_at_a_fixed_quantile(a):
    for u in (0.1, 0.5, 0.9):
        x = _gamma_quantile(a, u)
        h = 1e-5 * a
        fd = (_gamma_quantile(a + h, u) - _gamma_quantile(a - h, u)) / (2 * h)
        got = float(_gamma_impl._gamma_sample_grad(np.array(x), np.array(a)))
        assert got == pytest.approx(fd, rel=1e-4), (a, u)


def test_gamma_rsample_keeps_float64_and_repeats_with_the_seed():
    a = torch.tensor([2.0, 0.5], dtype=torch.float64, requires_grad=True)
    torch.manual_seed(3)
    x = D.Gamma(a, 1.0).rsample((5,))
    torch.manual_seed(3)
    y = D.Gamma(a, 1.0).rsample((5,))
    assert x.dtype == torch.float64 and bool((x == y).all())
    x.sum().backward()
    assert a.grad.dtype == torch.float64 and bool(torch.isfinite(a.grad).all())


def test_gamma_cdf_gradient_wrt_value():
    v = torch.tensor([0.5, 2.0], requires_grad=True)
    d = D.Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
    d.cdf(v).sum().backward()
    assert torch.allclose(v.grad, d.log_prob(v.detach()).exp(), rtol=1e-5)


# ---- behaviour the goldens do not show ----------------------------------------------------------------

def test_reinforcement_learning_idioms():
    torch.manual_seed(0)
    logits = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]], requires_grad=True)
    m = D.Categorical(logits=logits)
    action = m.sample()
    assert action.shape == (2,) and action.dtype == torch.int64 and not action.requires_grad
    loss = -(m.log_prob(action) * torch.tensor([1.0, -2.0])).sum() - 0.01 * m.entropy().sum()
    loss.backward()
    assert logits.grad.shape == (2, 3) and bool((logits.grad.abs().sum(-1) > 0).all())
    mu = torch.tensor([0.5], requires_grad=True)
    sigma = torch.tensor([0.2], requires_grad=True)
    a = D.Normal(mu, sigma).rsample()
    a.sum().backward()
    assert mu.grad.tolist() == [1.0] and sigma.grad is not None


def test_logits_and_probs_are_both_available():
    b = D.Bernoulli(probs=torch.tensor([0.25]))
    assert "logits" not in b.__dict__
    assert torch.allclose(b.logits, torch.tensor([math.log(1 / 3)]))
    assert "logits" in b.__dict__           # computed once, then stored (lazy_property)
    c = D.Categorical(logits=torch.tensor([0.0, math.log(3.0)]))
    assert torch.allclose(c.probs, torch.tensor([0.25, 0.75]))
    assert isinstance(D.Categorical.__dict__["probs"], D.utils.lazy_property)


def test_set_default_validate_args():
    try:
        D.Distribution.set_default_validate_args(False)
        d = D.Normal(0.0, -1.0)             # no check
        assert not d._validate_args
        assert D.Normal(0.0, 1.0).log_prob(torch.tensor([float("nan")])).isnan().all()
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError, match="Expected parameter scale"):
        D.Normal(0.0, -1.0)
    D.Normal(0.0, -1.0, validate_args=False)  # per instance


def test_sample_n_warns_and_samples():
    with pytest.warns(FutureWarning, match=r"`sample_n\(n\)` will be deprecated"):
        s = D.Normal(torch.zeros(2), torch.ones(2)).sample_n(3)
    assert s.shape == (3, 2)


def test_sample_shapes_follow_batch_and_event_shapes():
    d = D.MultivariateNormal(torch.zeros(4, 3), torch.eye(3))
    assert d.batch_shape == (4,) and d.event_shape == (3,)
    assert d.sample((2, 5)).shape == (2, 5, 4, 3) and d.log_prob(d.sample((2,))).shape == (2, 4)
    assert D.Dirichlet(torch.ones(2, 5)).sample((7,)).shape == (7, 2, 5)
    assert D.Multinomial(10, torch.ones(3, 4)).sample().sum(-1).tolist() == [10.0, 10.0, 10.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert D.Bernoulli(0.5).sample((3,)).shape == (3,)


def test_register_kl_dispatches_to_the_most_specific_pair():
    class MyNormal(D.Normal):
        pass

    assert torch.allclose(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)), torch.tensor(0.5))

    @D.register_kl(MyNormal, D.Normal)
    def _kl(p, q):
        return torch.tensor(7.0)

    try:
        assert D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)).item() == 7.0
    finally:
        from borch_webgpu.distributions import kl
        del kl._KL_REGISTRY[MyNormal, D.Normal]
        kl._KL_MEMOIZE.clear()


def test_straight_through_gradient():
    p = torch.tensor([0.2, 0.8], requires_grad=True)
    s = D.OneHotCategoricalStraightThrough(p).rsample()
    (s * torch.tensor([1.0, 2.0])).sum().backward()
    # the gradient of w . (p / p.sum()) at p.sum() == 1: w - (w . p)
    assert p.grad.tolist() == pytest.approx([1.0 - 1.8, 2.0 - 1.8], abs=1e-6)


def test_torch_distributions_is_the_package():
    assert torch.distributions is D and D.constraints.positive is D.constraints.positive
    assert D.Normal.__module__ == "borch_webgpu.distributions.normal"
