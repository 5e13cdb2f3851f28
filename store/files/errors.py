"""apsw's failures as the store's typed errors (see ``reverie.store.errors``)."""

from __future__ import annotations

import apsw

from .. import errors
from ..errors import StoreError, StoreFull, StoreReadOnly

__all__ = ["translate"]


def translate(exc: BaseException) -> StoreError:
    """The StoreError to raise for a failure of apsw or the file system."""
    if isinstance(exc, apsw.FullError):
        return StoreFull(f"storage is full: {exc}; free disk space, then retry")
    if isinstance(exc, apsw.ReadOnlyError):
        return StoreReadOnly(f"data directory is read-only: {exc}; fix its permissions, then retry")
    return errors.translate(exc)
