"""``ReverieStore``: LangGraph's ``BaseStore`` over reverie's working memory.

A namespace is a reverie scope: its labels joined by ``/``
(``("user", "alice")`` is the scope ``user/alice``, the one reverie's
consolidation writes Alice's long-term memory to), an item a working-memory
key of that scope, its value kept with its times and TTL. So a store's items
are seen by ``reverie wm``, the web inspector and MCP, and forgotten with
the scope. The scope ``langgraph`` (a root label LangGraph itself refuses)
lists the namespaces written, for ``list_namespaces``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, NamedTuple

import anyio.to_thread
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from reverie.config.errors import Conflict, InvalidArgument, NotFound
from reverie.daemon.client import Client
from reverie.daemon.protocol.working_memory import KeyInfo

from .matching import matches, namespace_matches, query_score
from .meaning import Meaning, pack, unpack

__all__ = ["MAX_SCOPE_CHARS", "REGISTRY_SCOPE", "ReverieStore", "namespace_scope"]

#: The longest scope a namespace may join to: a scope name's 256 characters, less the
#: one that prefixes it as a key of the registry.
MAX_SCOPE_CHARS = 255
#: The scope whose keys name the namespaces written (``n`` + scope).
REGISTRY_SCOPE = "langgraph"


def namespace_scope(namespace: tuple[str, ...]) -> str:
    """The reverie scope of a LangGraph namespace; ``InvalidArgument`` naming the rule it breaks."""
    if not namespace:
        raise InvalidArgument("a namespace needs at least one label")
    for label in namespace:
        if not isinstance(label, str) or not label:
            raise InvalidArgument(f"namespace {namespace!r} has an empty or non-text label")
        if "/" in label:
            raise InvalidArgument(
                f"namespace label {label!r} contains '/', which joins labels into a scope;"
                " use another character"
            )
    scope = "/".join(namespace)
    if len(scope) > MAX_SCOPE_CHARS:
        raise InvalidArgument(
            f"namespace {namespace!r} joins to a scope of {len(scope)} characters; the limit"
            f" is {MAX_SCOPE_CHARS}"
        )
    if not scope.isprintable():
        raise InvalidArgument(f"namespace {namespace!r} has non-printable characters")
    return scope


def _time(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


class Kept(NamedTuple):
    """The item a working-memory value holds.

    The store keeps ``{"value", "created", "updated", "ttl"}``. A value another
    client wrote into the scope (``reverie wm set``, MCP) is an item too, dated by
    the key's last write: a JSON object as it is, anything else as
    ``{"value": it}`` — LangGraph's items are objects.
    """

    value: dict[str, Any]
    created: float
    updated: float
    ttl: float | None
    vectors: list[list[float]] | None = None  # its indexed fields' (``meaning``)

    @classmethod
    def of(cls, raw: Any, written: float) -> Kept:
        if (
            isinstance(raw, dict)
            and _KEPT_FIELDS <= raw.keys() <= _KEPT_FIELDS | {"vectors"}
            and isinstance(raw["value"], dict)
            and all(isinstance(raw[f], int | float) for f in ("created", "updated"))
            and (raw["ttl"] is None or isinstance(raw["ttl"], int | float))
        ):
            vectors = unpack(raw["vectors"]) if "vectors" in raw else None
            return cls(raw["value"], raw["created"], raw["updated"], raw["ttl"], vectors)
        value = raw if isinstance(raw, dict) else {"value": raw}
        return cls(value, written, written, None)

    def item(self, namespace: tuple[str, ...], key: str) -> Item:
        return Item(
            value=self.value,
            key=key,
            namespace=namespace,
            created_at=_time(self.created),
            updated_at=_time(self.updated),
        )


_KEPT_FIELDS = {"value", "created", "updated", "ttl"}


def _refresh(
    client: Client, scope: str, key: str, raw: Any, version: int, ttl: float | None
) -> None:
    """Start a key's TTL (minutes) again, unless it was written since ``version`` was read
    (that write set its TTL)."""
    if ttl:
        with contextlib.suppress(Conflict, NotFound):
            client.wm_set(scope, key, raw, ttl=ttl * 60, expected_version=version)


class ReverieStore(BaseStore):
    """LangGraph's store over reverie's working memory (``socket``: the daemon's).

    ``batch`` runs the operations in order on one connection; ``abatch`` runs
    ``batch`` in a worker thread. ``put``'s ``ttl`` (minutes) is the key's TTL;
    ``refresh_ttl`` on reads starts it again. Searches filter as LangGraph's
    stores do and rank a ``query`` by meaning with ``index`` (LangGraph's
    ``IndexConfig``: ``meaning``), else by its words (``matching``); results
    are newest first otherwise.
    """

    supports_ttl = True
    __slots__ = ("_known", "_meaning", "index_config", "socket")

    def __init__(
        self, socket: str | os.PathLike[str] | None = None, *, index: IndexConfig | None = None
    ) -> None:
        self.socket = socket
        self.index_config = index
        self._meaning = None if index is None else Meaning(index)
        self._known: set[str] = set()  # scopes this store has put in the registry

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        with Client(self.socket) as client:
            return [self._run(client, op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        listed = list(ops)
        return await anyio.to_thread.run_sync(self.batch, listed)

    def _run(self, client: Client, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(client, op.namespace, op.key, bool(op.refresh_ttl))
        if isinstance(op, PutOp):
            self._put(client, op)
            return None
        if isinstance(op, SearchOp):
            return self._search(client, op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(client, op)
        raise InvalidArgument(f"unknown store operation {type(op).__name__}")

    def _get(
        self, client: Client, namespace: tuple[str, ...], key: str, refresh: bool
    ) -> Item | None:
        scope = namespace_scope(namespace)
        try:
            found = client.wm_get(scope, key)
        except NotFound:
            return None
        kept = Kept.of(found.value, found.updated)
        if refresh:
            _refresh(client, scope, key, found.value, found.version, kept.ttl)
        return kept.item(namespace, key)

    def _put(self, client: Client, op: PutOp) -> None:
        scope = namespace_scope(op.namespace)
        if op.value is None:
            client.wm_delete(scope, op.key)
            return
        now = time.time()
        try:
            found = client.wm_get(scope, op.key)
            created = Kept.of(found.value, found.updated).created
        except NotFound:
            created = now
        ttl = op.ttl if isinstance(op.ttl, int | float) else None
        kept: dict[str, Any] = {"value": op.value, "created": created, "updated": now, "ttl": ttl}
        if self._meaning is not None:  # index=False: none, and none made later either
            texts = [] if op.index is False else self._meaning.texts(op.value, op.index)
            kept["vectors"] = pack(self._meaning.embed(client, texts))
        client.wm_set(scope, op.key, kept, ttl=None if ttl is None else ttl * 60)
        if scope not in self._known:
            client.wm_set(REGISTRY_SCOPE, "n" + scope, list(op.namespace))
            self._known.add(scope)

    def _registered(self, client: Client) -> list[tuple[str, ...]]:
        """Every namespace written through a ``ReverieStore`` of this daemon (a key is
        ``n`` + the scope, whose labels hold no ``/``); a key that names no namespace
        (written there by hand) is not one."""
        spaces = []
        for info in client.wm_list(REGISTRY_SCOPE, prefix="n"):
            labels = tuple(info.key[1:].split("/"))
            with contextlib.suppress(InvalidArgument):
                namespace_scope(labels)
                spaces.append(labels)
        return spaces

    def _search(self, client: Client, op: SearchOp) -> list[SearchItem]:
        """One round trip per namespace (its keys with their values), then the TTL of the
        items returned (not of those only scanned) starts again."""
        prefix = op.namespace_prefix
        found: list[tuple[Item, KeyInfo, Kept]] = []
        for ns in self._registered(client):
            if ns[: len(prefix)] != prefix:
                continue
            for info in client.wm_list(namespace_scope(ns), values=True):
                kept = Kept.of(info.value, info.updated)
                item = kept.item(ns, info.key)
                if matches(item.value, op.filter):
                    found.append((item, info, kept))
        found.sort(key=lambda row: row[0].updated_at, reverse=True)
        scores: list[float | None] = [None] * len(found)
        if op.query:
            scores = self._scores(client, op.query, found)
            ranked = sorted(
                zip(scores, found, strict=True),
                key=lambda p: (p[0] is None, -(p[0] or 0.0)),  # unscored last, newest first
            )
            scores, found = [s for s, _ in ranked], [i for _, i in ranked]
        window = slice(op.offset, op.offset + op.limit)
        chosen = list(zip(scores[window], found[window], strict=True))
        if op.refresh_ttl:
            for _, (item, info, kept) in chosen:
                scope = namespace_scope(item.namespace)
                _refresh(client, scope, item.key, info.value, info.version, kept.ttl)
        return [
            SearchItem(
                namespace=item.namespace,
                key=item.key,
                value=item.value,
                created_at=item.created_at,
                updated_at=item.updated_at,
                score=score,
            )
            for score, (item, _, _) in chosen
        ]

    def _scores(
        self, client: Client, query: str, found: list[tuple[Item, KeyInfo, Kept]]
    ) -> list[float | None]:
        """Each found item's score for ``query``: by meaning with an index, else by words."""
        meaning = self._meaning
        if meaning is None:
            return [query_score(query, item.value) for item, _, _ in found]
        kept = [k.vectors for _, _, k in found]
        return meaning.rank(client, query, kept, lambda i: meaning.texts(found[i][0].value))

    def _namespaces(self, client: Client, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces = [
            ns
            for ns in self._registered(client)
            if all(namespace_matches(c.match_type, c.path, ns) for c in op.match_conditions or ())
            and client.wm_list(namespace_scope(ns))  # still holds an item
        ]
        if op.max_depth is not None:
            spaces = [ns[: op.max_depth] for ns in spaces]
        return sorted(set(spaces))[op.offset : op.offset + op.limit]
