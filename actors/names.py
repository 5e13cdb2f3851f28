"""Validation of the names clients give to sessions and scopes.

A name is any printable text of 1 to 256 characters (``cli:alice``,
``tg:123``, unicode). Names are keys, never paths: code that needs a file
for a name encodes it first (see ``reverie.store`` memory files).
"""

from __future__ import annotations

from reverie.config import InvalidArgument

__all__ = ["MAX_NAME_CHARS", "validate_name"]

MAX_NAME_CHARS = 256


def validate_name(kind: str, name: object) -> str:
    """``name`` if it is an acceptable session or scope name, else ``InvalidArgument``."""
    if not isinstance(name, str):
        raise InvalidArgument(f"{kind} name must be a string")
    if not name:
        raise InvalidArgument(
            f"{kind} name is empty; give 1 to {MAX_NAME_CHARS} printable characters"
        )
    if len(name) > MAX_NAME_CHARS:
        raise InvalidArgument(
            f"{kind} name is {len(name)} characters; the limit is {MAX_NAME_CHARS}"
        )
    if not name.isprintable():
        raise InvalidArgument(
            f"{kind} name contains control or non-printable characters; use printable text only"
        )
    return name
