"""More snippets for generate_nn_meta.py (same format): the distance, pooling, normalisation, folding and
embedding-bag modules and the remaining losses."""
from __future__ import annotations

REPRS = [
    "nn.CosineSimilarity()", "nn.CosineSimilarity(dim=0, eps=1e-6)", "nn.PairwiseDistance()",
    "nn.PairwiseDistance(p=1.0, keepdim=True)",
    "nn.PoissonNLLLoss()", "nn.PoissonNLLLoss(log_input=False, full=True)", "nn.GaussianNLLLoss(full=True)",
    "nn.MarginRankingLoss(margin=0.5)", "nn.HingeEmbeddingLoss()", "nn.MultiLabelMarginLoss()",
    "nn.SoftMarginLoss(reduction='sum')", "nn.MultiLabelSoftMarginLoss(weight=torch.ones(3))",
    "nn.CosineEmbeddingLoss(margin=0.1)", "nn.MultiMarginLoss(p=2, weight=torch.ones(3))",
    "nn.TripletMarginLoss(margin=2.0, swap=True)", "nn.TripletMarginWithDistanceLoss()",
    "nn.TripletMarginWithDistanceLoss(distance_function=nn.CosineSimilarity(), margin=0.5)",
]

STRUCTURE = [
    "nn.MultiMarginLoss(weight=torch.ones(3))",
    "nn.MultiLabelSoftMarginLoss(weight=torch.ones(2))",
    "nn.TripletMarginWithDistanceLoss()",
]

ERRORS = [
    ("soft_margin_loss target requires grad", "F.soft_margin_loss(torch.ones(2), torch.ones(2, requires_grad=True))"),
    ("MultiMarginLoss p", "nn.MultiMarginLoss(p=3)"),
    ("MultiMarginLoss 2-D weight", "nn.MultiMarginLoss(weight=torch.ones(2, 2))"),
    ("multi_margin_loss 2-D weight", "F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), "
     "weight=torch.ones(3, 1))"),
    ("TripletMarginLoss margin", "nn.TripletMarginLoss(margin=0.0)"),
    ("TripletMarginWithDistanceLoss margin", "nn.TripletMarginWithDistanceLoss(margin=-1.0)"),
    ("gaussian_nll_loss int var", "F.gaussian_nll_loss(torch.ones(2), torch.ones(2), 1)"),
]
