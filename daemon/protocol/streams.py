"""Wire frames for stream leases: a host declares its own live completion so consolidation waits.

Same conventions as the package: the tag is the op name, and a reply has the
same tag as its request.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from .frames import Frame

#: The longest a stream lease lives without being renewed or ended.
MAX_STREAM_TTL = 3600.0

__all__ = ["MAX_STREAM_TTL", "StreamBegin", "StreamBeginReply", "StreamEnd", "StreamEndReply"]


class StreamBegin(Frame, tag="stream_begin"):
    """A host declares its own live completion on ``backend``: consolidation waits."""

    backend: str = "default"
    ttl: Annotated[float, msgspec.Meta(gt=0, le=MAX_STREAM_TTL)] = 60.0


class StreamEnd(Frame, tag="stream_end"):
    lease: str


class StreamBeginReply(Frame, tag="stream_begin"):
    lease: str
    expires_in: float


class StreamEndReply(Frame, tag="stream_end"):
    ended: bool
