"""Training in PyTorch on manaka's data (needs the optional ``torch`` extra).

Phase 2 of shared/spec/chess-supervised-pretraining.txt, supervised
pre-training on the npz corpus, and the ``pretrained.pt`` contract
(docs/chess-training.md)::

    python -m manaka.train pretrain --config configs/chess-pretrain-small.toml

    from manaka.train import Trainer
    trainer = Trainer.load_from_checkpoint("pretrained.pt")   # iteration 0, next 1

``import manaka`` does not import this package (nor torch).
"""

from manaka.train.checkpoint import CHECKPOINT_KEYS
from manaka.train.config import ConfigError, PretrainConfig, load_config
from manaka.train.network import POLICY_SIZE, PolicyValueNet, count_parameters, mask_illegal, policy_value_loss
from manaka.train.pretrain import PretrainResult, fit, pretrain
from manaka.train.trainer import Trainer

__all__ = [
    "CHECKPOINT_KEYS",
    "ConfigError",
    "PretrainConfig",
    "load_config",
    "POLICY_SIZE",
    "PolicyValueNet",
    "count_parameters",
    "mask_illegal",
    "policy_value_loss",
    "PretrainResult",
    "fit",
    "pretrain",
    "Trainer",
]
