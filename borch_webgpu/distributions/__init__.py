r"""``torch.distributions``: parameterizable probability distributions and sampling functions, with
PyTorch 2.13's names, signatures, defaults and error messages, computed with this library's tensor ops
(so they run on ``cpu`` and ``webgpu`` alike, and ``log_prob`` / ``rsample`` are differentiable).

Random draws come from this library's stream (``torch.manual_seed`` repeats them); they cannot equal
PyTorch's draws. Gamma, Beta and Dirichlet draw on the host (numpy) and have implicit
reparameterization gradients.

Example::

    >>> from borch_webgpu.distributions import Categorical, Normal
    >>> probs = torch.tensor([0.1, 0.2, 0.7])
    >>> m = Categorical(probs)
    >>> action = m.sample()
    >>> bool(m.log_prob(action) <= 0), m.entropy()
    (True, tensor(0.8018))
    >>> Normal(torch.tensor(0.0), torch.tensor(1.0)).rsample().shape
    torch.Size([])
"""
from . import constraints, transforms
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .cauchy import Cauchy
from .chi2 import Chi2
from .constraint_registry import biject_to, transform_to
from .categorical import Categorical
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_cauchy import HalfCauchy
from .half_normal import HalfNormal
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .pareto import Pareto
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .studentT import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import *  # noqa: F403
from .uniform import Uniform
from .weibull import Weibull

__all__ = ["Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "Dirichlet", "Distribution",
           "ExponentialFamily", "Exponential", "Gamma", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal",
           "Independent", "Laplace", "LogNormal", "Multinomial", "MultivariateNormal", "Normal", "OneHotCategorical",
           "OneHotCategoricalStraightThrough", "Pareto", "Poisson", "StudentT", "TransformedDistribution", "Uniform",
           "Weibull", "biject_to", "constraints", "kl_divergence", "register_kl", "transform_to", "transforms"]
__all__.extend(transforms.__all__)
