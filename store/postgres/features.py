"""The Postgres engine's flags: members share the database, which its own tools back up."""

from __future__ import annotations

from ..base.features import Features as BaseFeatures

__all__ = ["Features"]


class Features(BaseFeatures):
    shared_members = True
