"""The file engine's flags: one daemon per data dir, which ``reverie backup`` copies."""

from __future__ import annotations

from ..base.features import Features as BaseFeatures

__all__ = ["Features"]


class Features(BaseFeatures):
    backs_up_data_dir = True
