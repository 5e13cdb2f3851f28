"""Working-memory scopes: one actor per scope, the only writer of that scope's state.

A scope is a name such as ``global``, ``project/<p>``,
``project/<p>/agent/<a>`` or ``project/<p>/agent/<a>/session/<s>``. Every
write to a scope (keys, task, scratchpad, checkpoints, TTL sweeps) goes
through its ``ScopeActor``, so compare-and-set needs no lock. Writes
waiting in the mailbox together are applied in one transaction, each with
its own outcome (a refused write does not disturb the others), and each is
acknowledged only after that transaction committed. The scope's keys,
their bytes and its checkpoints are bounded by ``working_memory.max_keys``,
``max_scope_bytes`` and ``max_checkpoints``, checked in that transaction.

Reads do not queue behind writes: they run on a snapshot of committed
state, so they see every acknowledged write (see ``scope_chain`` for how
``inherit`` looks up a key).

``ScopeRegistry`` starts scope actors on demand and passivates idle ones
exactly like sessions (``ActorRegistry``); a passivated scope keeps nothing
in memory but its pending TTL deadlines in the sweeper's heap.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections import deque
from dataclasses import dataclass
from typing import Any

import msgspec
import trio

from reverie.config import InvalidArgument, ReverieError, WorkingMemoryConfig
from reverie.store import (
    AddScratch,
    Clock,
    DropCheckpoint,
    ExpireKeys,
    KeyRecord,
    LoadCheckpoint,
    PatchTask,
    PutKey,
    PutTask,
    RemoveKey,
    RemoveKeys,
    RemoveScratch,
    SaveCheckpoint,
    ScopeBounds,
    ScopeWrite,
    TaskRecord,
    Tx,
    apply_writes,
)

from .expiry import Duty, ExpirySweeper
from .mailbox import Envelope
from .names import validate_name
from .registry import ActorRegistry, Unplanned
from .scope_requests import (
    TASK_FIELDS,
    AppendScratch,
    ClearKeys,
    ClearScratch,
    CreateCheckpoint,
    DeleteCheckpoint,
    DeleteKey,
    RestoreCheckpoint,
    ScopeRequest,
    SetKey,
    SetTask,
    Sweep,
    UpdateTask,
)
from .services import Services

__all__ = ["GLOBAL_SCOPE", "ScopeActor", "ScopeRegistry", "scope_chain", "validate_key"]

log = logging.getLogger(__name__)

GLOBAL_SCOPE = "global"
#: Writes taken from the mailbox into one transaction at most.
MAX_BATCH = 256


def scope_chain(scope: str) -> list[str]:
    """Where ``inherit`` looks, in order: the scope, its ancestors, then ``global``.

    Each ancestor drops the last two path levels (``…/session/<s>`` →
    ``…/agent/<a>`` → ``project/<p>``).
    """
    chain = [scope]
    parts = scope.split("/")
    while len(parts) > 2:
        parts = parts[:-2]
        chain.append("/".join(parts))
    if scope != GLOBAL_SCOPE:
        chain.append(GLOBAL_SCOPE)
    return chain


def validate_key(key: object) -> str:
    """A key is 1..256 printable characters; a leading ``_`` is reserved."""
    name = validate_name("key", key)
    if name.startswith("_"):
        raise InvalidArgument(f"key {name!r} starts with '_', which is reserved; rename it")
    return name


@dataclass(slots=True)
class _Prepared:
    """A validated write, ready for the transaction (no clock or uuid calls inside it)."""

    envelope: Envelope[ScopeRequest]
    now: float
    write: ScopeWrite


class ScopeActor(Unplanned):
    """One live scope. Created by the registry; holds no state between requests."""

    __slots__ = ("clock", "expiries", "idle_since", "name", "services")

    def __init__(
        self, name: str, services: Services, clock: Clock, expiries: ExpirySweeper
    ) -> None:
        self.name = name
        self.services = services
        self.clock = clock
        self.expiries = expiries
        self.idle_since = 0.0

    async def load(self) -> None:
        """Nothing to load: every request reads what it needs inside its transaction."""

    def take(self, mail: deque[Envelope[ScopeRequest]]) -> list[Envelope[ScopeRequest]]:
        """The next write plus those queued behind it, up to ``MAX_BATCH``."""
        return [mail.popleft() for _ in range(min(len(mail), MAX_BATCH))]

    async def handle(self, batch: list[Envelope[ScopeRequest]]) -> bool:
        """Apply the batch in one transaction; reply to each once it committed."""
        prepared: list[_Prepared] = []
        for env in batch:
            try:
                prepared.append(self._prepare(env))
            except ReverieError as exc:
                env.reply(exc)
        if not prepared:
            return True
        writes = [(p.write, p.now) for p in prepared]
        bounds = _bounds(self.services.config.working_memory)
        outcomes = await self.services.db.write(
            lambda t: apply_writes(t, self.name, writes, bounds)
        )
        for item, outcome in zip(prepared, outcomes, strict=True):
            self._schedule(item, outcome)
            item.envelope.reply(outcome)
        return True

    # -- before the transaction: validation, encoding, clock, ids ---------------

    def _prepare(self, env: Envelope[ScopeRequest]) -> _Prepared:
        now = self.clock.now()
        return _Prepared(env, now, self._write(env.request, now))

    def _write(self, request: ScopeRequest, now: float) -> ScopeWrite:
        """``request`` validated and encoded as the store's write (refusals raise here)."""
        match request:
            case SetKey(key=key, value=value, ttl=ttl, expected_version=expected):
                validate_key(key)
                if ttl is not None and not (math.isfinite(ttl) and ttl > 0):
                    raise InvalidArgument("ttl must be a positive number of seconds")
                expires = None if ttl is None else now + ttl
                return PutKey(key, self._encode("value", value), expires, expected)
            case DeleteKey(key=key):
                return RemoveKey(validate_key(key))
            case ClearKeys():
                return RemoveKeys()
            case SetTask() as task:
                return PutTask(TaskRecord(**self._checked(_fields(task)), created=now, updated=now))
            case UpdateTask(fields=fields):
                unknown = set(fields) - TASK_FIELDS
                if unknown:
                    raise InvalidArgument(f"unknown task fields: {', '.join(sorted(unknown))}")
                return PatchTask(self._checked(fields))
            case AppendScratch(text=text):
                self._encode("scratchpad text", text)
                capacity = self.services.config.working_memory.scratch_capacity
                return AddScratch(text, capacity)
            case ClearScratch():
                return RemoveScratch()
            case CreateCheckpoint(label=label):
                if label is not None:
                    validate_name("checkpoint label", label)
                return SaveCheckpoint(str(uuid.uuid4()), label)
            case RestoreCheckpoint(id=checkpoint_id):
                return LoadCheckpoint(checkpoint_id)
            case DeleteCheckpoint(id=checkpoint_id):
                return DropCheckpoint(checkpoint_id)
            case Sweep(keys=keys):
                return ExpireKeys(keys)
        raise AssertionError(f"unknown working-memory request {request!r}")

    def _encode(self, what: str, value: Any) -> bytes:
        limit = self.services.config.working_memory.max_value_bytes
        try:
            encoded = msgspec.msgpack.encode(value)
        except (TypeError, msgspec.EncodeError) as exc:
            raise InvalidArgument(f"{what} cannot be encoded as msgpack: {exc}") from None
        if len(encoded) > limit:
            raise InvalidArgument(
                f"{what} is {len(encoded)} bytes as msgpack; the limit is {limit} bytes"
                " (working_memory.max_value_bytes)"
            )
        return encoded

    def _checked(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The task fields given, validated, with ``data`` as msgpack.

        Status, step counts and types are the wire schema's, checked when the
        request was decoded; fields not given keep their stored values.
        """
        checked = dict(fields)
        if "task_id" in fields:
            checked["task_id"] = validate_name("task id", fields["task_id"])
        if fields.get("data") is not None:
            checked["data"] = self._encode("task data", fields["data"])
        return checked

    # -- after the commit -----------------------------------------------------------

    def _schedule(self, item: _Prepared, outcome: object) -> None:
        """Give the sweeper the deadlines this write created."""
        match item.envelope.request:
            case SetKey(key=key, ttl=ttl) if ttl is not None and isinstance(outcome, int):
                self.expiries.schedule(item.now + ttl, self.name, key)
            case RestoreCheckpoint() if isinstance(outcome, list):
                for record in outcome:
                    assert isinstance(record, KeyRecord)
                    if record.expires_at is not None:
                        self.expiries.schedule(record.expires_at, self.name, record.key)


def _bounds(settings: WorkingMemoryConfig) -> ScopeBounds:
    """The scope bounds of the settings now (a reload changes them for the next batch)."""
    return ScopeBounds(settings.max_keys, settings.max_scope_bytes, settings.max_checkpoints)


def _fields(task: SetTask) -> dict[str, Any]:
    return {name: getattr(task, name) for name in TASK_FIELDS}


class ScopeRegistry(ActorRegistry[ScopeActor]):
    """The scope actors, one per scope, and the TTL sweeper that feeds them."""

    def __init__(self, services: Services, clock: Clock, duty: Duty | None = None) -> None:
        self.clock = clock
        self.expiries = ExpirySweeper(clock, self._sweep, duty)
        super().__init__(
            services,
            "scope",
            lambda name: ScopeActor(name, services, clock, self.expiries),
        )

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Own the actors and the sweeper (its heap rebuilt from the database) until cancelled."""
        agenda = await self.services.db.read(Tx.expiring_keys)
        async with trio.open_nursery() as nursery:
            await nursery.start(super().run)
            await nursery.start(self.expiries.run, agenda)
            log.info("working memory ready: %d TTL deadlines pending", len(self.expiries))
            task_status.started()

    async def _sweep(self, scope: str, keys: list[str]) -> None:
        try:
            await self.send(scope, Envelope(Sweep(keys), self._swept))
        except ReverieError as exc:  # the sweeper must outlive one scope's trouble
            log.warning("TTL sweep of scope %r not queued: %s", scope, exc)

    def _swept(self, outcome: object) -> None:
        if isinstance(outcome, BaseException):
            log.warning("TTL sweep failed (retried at the next start): %s", outcome)
        elif isinstance(outcome, int):
            self.services.counters["wm_keys_expired"] += outcome
