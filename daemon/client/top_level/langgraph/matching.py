"""What a LangGraph search and namespace listing select, decided on the client.

The filter language is the one LangGraph's own stores accept (its
``InMemoryStore`` and ``PostgresStore``): a value per field must be equal
(nested objects and lists compared part by part), or an object of operators
``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``. A namespace condition is
a prefix or a suffix of labels, ``*`` matching any label.

A natural-language query ranks by words: the score is the share of the
query's words the item's value holds (0 to 1), ties broken by the newest
update. Working-memory values are not embedded by the daemon (its vector
index holds messages, history and ``MEMORY.md``), so this is lexical, exact
and needs no model on the client.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reverie.config.errors import InvalidArgument

__all__ = ["matches", "namespace_matches", "query_score"]

_WORD = re.compile(r"\w+")
_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "$gt": lambda a, b: float(a) > float(b),
    "$gte": lambda a, b: float(a) >= float(b),
    "$lt": lambda a, b: float(a) < float(b),
    "$lte": lambda a, b: float(a) <= float(b),
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
}


def _operator(value: Any, name: str, operand: Any) -> bool:
    compare = _OPERATORS.get(name)
    if compare is None:
        raise InvalidArgument(
            f"filter operator {name!r} is unknown; use one of {', '.join(_OPERATORS)}"
        )
    try:
        return bool(compare(value, operand))
    except (TypeError, ValueError):  # a number compared with what is not one
        return False


def _compare(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(value, k, v) for k, v in wanted.items())
        return isinstance(value, Mapping) and all(
            _compare(value.get(k), v) for k, v in wanted.items()
        )
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(_compare(a, b) for a, b in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


def matches(value: Mapping[str, Any], wanted: Mapping[str, Any] | None) -> bool:
    """Whether an item's value passes a search's ``filter`` (None: every value does)."""
    return not wanted or all(_compare(value.get(k), v) for k, v in wanted.items())


def namespace_matches(kind: str, path: Sequence[str], namespace: Sequence[str]) -> bool:
    """Whether ``namespace`` has ``path`` as its prefix or suffix (``kind``)."""
    if len(namespace) < len(path):
        return False
    if kind == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif kind == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise InvalidArgument(f"match type {kind!r} is unknown; use 'prefix' or 'suffix'")
    return all(want in ("*", have) for have, want in pairs)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def query_score(query: str, value: Mapping[str, Any]) -> float:
    """The share of ``query``'s words found in ``value`` (its JSON text)."""
    wanted = _words(query)
    if not wanted:
        return 0.0
    held = _words(json.dumps(value, ensure_ascii=False, default=str))
    return len(wanted & held) / len(wanted)
