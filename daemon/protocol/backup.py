"""Wire frames for ``backup``: a consistent copy of the data dir, taken while the daemon serves.

Same conventions as the package (which folds these into its ``Request`` and
``Reply`` unions). A reply has the same tag as its request.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

from .frames import Data, Frame

__all__ = ["Backup", "BackupReply", "BackupView"]


class Backup(Frame, tag="backup"):
    """Copy the database and the Markdown tree into ``dest``, a new directory.

    ``dest`` is an absolute path as the daemon sees it; it must not exist or
    be empty. The copy holds every message acknowledged before the request.
    """

    dest: str


class BackupView(Data):
    path: str
    bytes: int
    messages: int
    seconds: float


class BackupReply(Frame, tag="backup"):
    backup: BackupView
