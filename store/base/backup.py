"""A backup's record: what ``reverie backup`` copied (``Features.backs_up_data_dir``).

The copy itself is the engine's (``files/backup.py``); the daemon hands its
record to the client as it is.
"""

from __future__ import annotations

import msgspec

__all__ = ["BackupInfo"]


class BackupInfo(msgspec.Struct, frozen=True, kw_only=True):
    path: str
    bytes: int
    messages: int
    seconds: float
