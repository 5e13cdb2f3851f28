"""Wire frames for the daemon's own state: ``status`` and ``metrics``.

Same conventions as the package: the tag is the op name, and a reply has the
same tag as its request.
"""

from __future__ import annotations

from typing import Any

from .frames import Frame

__all__ = ["Metrics", "MetricsReply", "Status", "StatusReply"]


class Status(Frame, tag="status"):
    pass


class Metrics(Frame, tag="metrics"):
    """The daemon's status as Prometheus text exposition (the same data as ``status``)."""


class StatusReply(Frame, tag="status"):
    status: dict[str, Any]


class MetricsReply(Frame, tag="metrics"):
    text: str
