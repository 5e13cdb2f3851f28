"""Working-memory operations: writes go to the scope's actor, reads to a snapshot.

``Handlers.dispatch`` forwards every working-memory request here. A write
is answered after its transaction committed (by the scope actor, the only
writer of that scope); a read runs as a task of the connection on a read
connection, so it never waits behind writes and sees every acknowledged one.
Expiry is decided with the scope registry's clock on every read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import trio

from reverie.actors import (
    AppendScratch,
    ClearKeys,
    ClearScratch,
    CreateCheckpoint,
    DeleteCheckpoint,
    DeleteKey,
    RestoreCheckpoint,
    ScopeRegistry,
    SetKey,
    SetTask,
    UpdateTask,
    scope_chain,
    validate_key,
    validate_name,
)
from reverie.config import InvalidArgument, NotFound, ReverieError
from reverie.store import CheckpointRecord, KeyRecord, ReadFn, TaskRecord

from .. import protocol as p
from ..protocol import working_memory as w
from .calls import Replier, ask, convert_nothing, run

__all__ = ["WorkingMemoryHandlers"]


def _decode(value: bytes | None) -> Any:
    return None if value is None else msgspec.msgpack.decode(value)


def _task_view(task: TaskRecord) -> w.TaskView:
    return w.TaskView(
        task_id=task.task_id,
        description=task.description,
        status=task.status,
        step=task.step,
        total_steps=task.total_steps,
        progress=task.progress,
        data=_decode(task.data),
        created=task.created,
        updated=task.updated,
    )


def _key_info(record: KeyRecord, with_value: bool) -> w.KeyInfo:
    return w.KeyInfo(
        key=record.key,
        version=record.version,
        expires_at=record.expires_at,
        updated=record.updated,
        value=_decode(record.value) if with_value else msgspec.UNSET,
    )


def _checkpoint(record: CheckpointRecord) -> w.CheckpointInfo:
    return msgspec.convert(record, w.CheckpointInfo, from_attributes=True)


#: Each wire write, the scope actor's request it converts to (field by field,
#: by name: the actor's request is the wire's minus ``rid`` and ``scope``), and
#: how the actor's result (with the wire request) becomes the reply.
_WRITES: dict[type, tuple[type, Callable[[Any, Any], p.Reply]]] = {
    w.WmSet: (SetKey, lambda q, v: w.WmSetReply(rid=q.rid, version=v)),
    w.WmDelete: (DeleteKey, lambda q, d: w.WmDeleteReply(rid=q.rid, deleted=d)),
    w.WmClear: (ClearKeys, lambda q, n: w.WmClearReply(rid=q.rid, deleted=n)),
    w.TaskSet: (SetTask, lambda q, t: w.TaskSetReply(rid=q.rid, task=_task_view(t))),
    w.ScratchAppend: (
        AppendScratch,
        lambda q, nd: w.ScratchAppendReply(
            rid=q.rid, appended=w.ScratchAppended(n=nd[0], dropped=nd[1])
        ),
    ),
    w.ScratchClear: (ClearScratch, lambda q, n: w.ScratchClearReply(rid=q.rid, deleted=n)),
    w.CheckpointCreate: (CreateCheckpoint, lambda q, i: w.CheckpointCreateReply(rid=q.rid, id=i)),
    w.CheckpointRestore: (
        RestoreCheckpoint,
        lambda q, ks: w.CheckpointRestoreReply(rid=q.rid, keys=len(ks)),
    ),
    w.CheckpointDelete: (
        DeleteCheckpoint,
        lambda q, _: w.CheckpointDeleteReply(rid=q.rid, id=q.id),
    ),
}


class WorkingMemoryHandlers:
    """The working-memory operations, bound to the scope registry."""

    def __init__(self, scopes: ScopeRegistry) -> None:
        self.scopes = scopes
        self.db = scopes.services.db

    async def dispatch(self, request: Any, replier: Replier, nursery: trio.Nursery) -> None:
        rid: int = request.rid
        scope: str = request.scope
        if type(request) in _WRITES:
            actor_request, answer = _WRITES[type(request)]
            write: object = msgspec.convert(request, actor_request, from_attributes=True)
            await ask(self.scopes, scope, write, replier(rid, lambda r: answer(request, r)))
        elif isinstance(request, w.TaskUpdate):
            fields = {
                f: v
                for f in request.__struct_fields__
                if f not in ("rid", "scope") and (v := getattr(request, f)) is not msgspec.UNSET
            }
            reply = replier(rid, lambda t: w.TaskUpdateReply(rid=rid, task=_task_view(t)))
            await ask(self.scopes, scope, UpdateTask(fields), reply)
        else:
            await self._read(request, replier, nursery)

    async def _read(self, request: Any, replier: Replier, nursery: trio.Nursery) -> None:
        """Start a read as a task of the connection; its result converts in the writer."""
        try:
            validate_name("scope", request.scope)
            fn, convert = self._reader(request, self.scopes.clock.now())
        except ReverieError as exc:
            replier(request.rid, convert_nothing)(exc)
            return
        nursery.start_soon(run, replier(request.rid, convert), self.db.read, fn)

    def _reader(self, request: Any, now: float) -> tuple[ReadFn[Any], Callable[[Any], p.Reply]]:
        """The read function for ``request`` and how its result becomes the reply."""
        rid, scope = request.rid, request.scope
        match request:
            case w.WmGet(key=key, inherit=inherit):
                validate_key(key)
                chain = scope_chain(scope) if inherit else [scope]

                def found(hit: tuple[str, KeyRecord] | None) -> p.Reply:
                    if hit is None:
                        where = "or its ancestors" if inherit else ""
                        raise NotFound(f"no key {key!r} in scope {scope!r} {where}".rstrip())
                    at, record = hit
                    item = w.WmValue(
                        value=_decode(record.value),
                        version=record.version,
                        scope=at,
                        expires_at=record.expires_at,
                        updated=record.updated,
                    )
                    return w.WmGetReply(rid=rid, item=item)

                return lambda t: t.lookup_key(chain, key, now), found
            case w.WmList(prefix=prefix, values=values):
                return lambda t: t.list_keys(scope, prefix, now), lambda ks: w.WmListReply(
                    rid=rid, keys=[_key_info(k, values) for k in ks]
                )
            case w.WmStats():
                return lambda t: t.scope_stats(scope, now), lambda s: w.WmStatsReply(
                    rid=rid, stats=msgspec.convert(s, w.ScopeStats, from_attributes=True)
                )
            case w.TaskGet():

                def task(t: TaskRecord | None) -> p.Reply:
                    if t is None:
                        raise NotFound(f"scope {scope!r} has no task")
                    return w.TaskGetReply(rid=rid, task=_task_view(t))

                return lambda t: t.load_task(scope), task
            case w.ScratchGet(last=last):
                return lambda t: t.read_scratch(scope, last), lambda es: w.ScratchGetReply(
                    rid=rid, entries=[w.ScratchEntry(n=e.n, text=e.text, ts=e.ts) for e in es]
                )
            case w.CheckpointList():
                return lambda t: t.list_checkpoints(scope), lambda cs: w.CheckpointListReply(
                    rid=rid, checkpoints=[_checkpoint(c) for c in cs]
                )
        raise InvalidArgument(f"{type(request).__name__} is not a working-memory read")
