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
    "nn.Softmax2d()", "nn.LPPool1d(2, 3)", "nn.LPPool1d(1.5, (3,), stride=2, ceil_mode=True)", "nn.LPPool2d(2, 3)",
    "nn.LPPool2d(float('inf'), (2, 3), stride=(1, 2))", "nn.LocalResponseNorm(3)",
    "nn.LocalResponseNorm(5, alpha=0.001, beta=0.5, k=2.0)",
    "nn.Unfold(2)", "nn.Unfold((2, 3), dilation=2, padding=1, stride=(1, 2))", "nn.Fold((4, 5), 2)",
    "nn.Fold(4, (2, 3), stride=2)",
    "nn.EmbeddingBag(10, 3)", "nn.EmbeddingBag(10, 3, mode='sum', padding_idx=-1, max_norm=1.0, norm_type=1.0)",
    "nn.EmbeddingBag(5, 2, scale_grad_by_freq=True, mode='max', include_last_offset=True)",
    "nn.CTCLoss()", "nn.CTCLoss(blank=3, reduction='sum', zero_infinity=True)",
    "nn.Conv3d(4, 8, 3, padding=1)", "nn.Conv3d(2, 4, (2, 3, 1), groups=2, bias=False, padding='same')",
    "nn.MaxPool3d(2)", "nn.MaxPool3d((2, 3, 1), stride=1, padding=1, ceil_mode=True, return_indices=True)",
    "nn.AvgPool3d(2, stride=1)", "nn.AvgPool3d((2, 3, 1), padding=1, ceil_mode=True)",
    # nn.init.dirac_ is deterministic: its values are compared through the printed tensor
    "nn.init.dirac_(torch.empty(4, 2, 3))", "nn.init.dirac_(torch.empty(2, 3, 3, 3))",
    "nn.init.dirac_(torch.empty(6, 2, 3, 2), groups=2)", "nn.init.dirac_(torch.empty(2, 2, 1, 3, 3))",
]

STRUCTURE = [
    "nn.MultiMarginLoss(weight=torch.ones(3))",
    "nn.MultiLabelSoftMarginLoss(weight=torch.ones(2))",
    "nn.TripletMarginWithDistanceLoss()",
    "nn.EmbeddingBag(6, 4, padding_idx=2)",
    "nn.Conv3d(4, 6, 3, groups=2)",
]

ERRORS = [
    ("soft_margin_loss target requires grad", "F.soft_margin_loss(torch.ones(2), torch.ones(2, requires_grad=True))"),
    ("MultiMarginLoss p", "nn.MultiMarginLoss(p=3)"),
    ("MultiMarginLoss 2-D weight", "nn.MultiMarginLoss(weight=torch.ones(2, 2))"),
    ("multi_margin_loss 2-D weight", "F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), "
     "weight=torch.ones(3, 1))"),
    ("TripletMarginLoss margin", "nn.TripletMarginLoss(margin=0.0)"),
    ("TripletMarginWithDistanceLoss margin", "nn.TripletMarginWithDistanceLoss(margin=-1.0)"),
    ("Softmax2d 2-D", "nn.Softmax2d()(torch.ones(2, 3))"),
    ("local_response_norm 2-D", "F.local_response_norm(torch.ones(2, 3), 2)"),
    ("dirac_ 2-D", "nn.init.dirac_(torch.empty(3, 3))"),
    ("dirac_ groups", "nn.init.dirac_(torch.empty(5, 2, 3), groups=2)"),
    ("sparse_ 3-D", "nn.init.sparse_(torch.empty(3, 3, 3), 0.5)"),
    ("EmbeddingBag padding_idx", "nn.EmbeddingBag(10, 3, padding_idx=10)"),
    ("EmbeddingBag negative padding_idx", "nn.EmbeddingBag(10, 3, padding_idx=-11)"),
    ("EmbeddingBag _weight shape", "nn.EmbeddingBag(10, 3, _weight=torch.ones(3, 3))"),
    ("EmbeddingBag from_pretrained 1-D", "nn.EmbeddingBag.from_pretrained(torch.ones(3))"),
    ("gaussian_nll_loss int var", "F.gaussian_nll_loss(torch.ones(2), torch.ones(2), 1)"),
]
