"""A scope's bounds on both engines, and ``apply_writes`` (store/scope_writes.py) run on each.

The cases of tests/daemon/test_wm_bounds.py that the store decides, with
the same assertions on SQLite and Postgres; then batches of every kind of
scope write, applied by the unedited ``apply_writes`` over each engine's
functions, must give the same outcomes and leave the same state.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from reverie.config import Conflict, InvalidArgument, LimitReached, NotFound
from reverie.store import ScopeBounds, TaskRecord
from reverie.store import scope_writes as w
from reverie.store.scope_writes import apply_writes

from .engine import Engine

S = "project/p/agent/a"
T0 = 1_764_241_733.25
OPEN = ScopeBounds(max_keys=8, max_bytes=1000, max_checkpoints=1)


def bounded(e: Engine, scope: str = S, **bounds: int) -> Any:
    settings = {"max_keys": 1024, "max_bytes": 1 << 20, "max_checkpoints": 16, **bounds}
    return e.tx.tally(scope, ScopeBounds(**settings))


def put(e: Engine, tally: Any, key: str, value: bytes, scope: str = S) -> int:
    return int(
        e.working_memory.set_key(
            e.conn, scope, key, value, expires_at=None, expected_version=None, now=T0, tally=tally
        )
    )


def test_a_new_key_past_max_keys_is_refused_naming_the_setting(engine: Engine) -> None:
    e = engine
    for key in ("a", "b", "c"):
        put(e, bounded(e, max_keys=3), key, key.encode())
    tally = bounded(e, max_keys=3)
    with pytest.raises(LimitReached, match=r"holds 3 keys.*working_memory\.max_keys \(3\)"):
        put(e, tally, "d", b"d")
    assert put(e, tally, "a", b"again") == 2  # an existing key may still change
    other = "project/other"
    put(e, bounded(e, other, max_keys=3), "d", b"d", scope=other)  # the bound is per scope
    e.working_memory.delete_key(e.conn, S, "b", T0)
    put(e, bounded(e, max_keys=3), "d", b"d")
    assert [k.key for k in e.working_memory.list_keys(e.conn, S, "", T0)] == ["a", "c", "d"]


def test_values_and_lines_past_max_scope_bytes_are_refused_and_a_smaller_one_passes(
    engine: Engine,
) -> None:
    e = engine
    tally = bounded(e, max_bytes=1000)
    put(e, tally, "big", b"x" * 600)
    with pytest.raises(LimitReached, match=r"1200 bytes.*working_memory\.max_scope_bytes"):
        put(e, tally, "more", b"y" * 600)
    with pytest.raises(LimitReached, match=r"working_memory\.max_scope_bytes"):
        put(e, tally, "big", b"x" * 1200)  # growing one key counts too
    put(e, tally, "big", b"x" * 100)
    put(e, bounded(e, max_bytes=1000), "more", b"y" * 600)  # usage read afresh agrees
    assert e.working_memory.scope_stats(e.conn, S, T0).bytes == 700
    line = "é" * 200  # 400 bytes of UTF-8: the bound counts bytes, not characters
    with pytest.raises(LimitReached, match=r"1100 bytes.*scratchpad line is not appended"):
        e.working_memory.append_scratch(e.conn, S, line, T0, 10, bounded(e, max_bytes=1000))
    e.working_memory.delete_key(e.conn, S, "more", T0)
    e.working_memory.append_scratch(e.conn, S, line, T0, 10, bounded(e, max_bytes=1000))
    assert [r.text for r in e.working_memory.read_scratch(e.conn, S, None)] == [line]
    e.working_memory.append_scratch(
        e.conn, S, line, T0, 1, bounded(e, max_bytes=500)
    )  # drops the first
    put(e, bounded(e, max_bytes=500), "big", b"x" * 100)  # 500 bytes held: not growing, passes
    with pytest.raises(LimitReached, match=r"would hold 501 bytes"):
        put(e, bounded(e, max_bytes=500), "big", b"x" * 101)


def test_a_checkpoint_past_max_checkpoints_is_refused_until_one_is_deleted(engine: Engine) -> None:
    e = engine
    put(e, bounded(e), "k", b"1")
    for i in range(2):
        bounded(e, max_checkpoints=2).checkpoint()
        e.working_memory.create_checkpoint(e.conn, S, f"c{i}", None, T0 + i)
    with pytest.raises(LimitReached, match=r"keeps 2 checkpoints.*max_checkpoints \(2\)"):
        bounded(e, max_checkpoints=2).checkpoint()
    e.working_memory.delete_checkpoint(e.conn, S, "c0")
    bounded(e, max_checkpoints=2).checkpoint()


def _batch() -> list[Any]:
    """One of every scope write, refusals included, in one batch (times ascending)."""
    task = TaskRecord("t1", "ship", "running", 1, 4, msgspec.msgpack.encode({"pr": 1}), T0, T0)
    writes = [
        w.PutKey("a", b"1", None, 0),
        w.PutKey("a", b"2", None, 0),  # Conflict, returned
        w.PutKey("b", b"x" * 500, T0 + 5, None),
        w.PutKey("c", b"x" * 600, None, None),  # past max_scope_bytes, returned
        w.PutKey("d", b"4", T0 + 1, None),
        w.PutTask(task),
        w.PatchTask({"step": 2, "status": "blocked"}),
        w.AddScratch("one", 2),
        w.AddScratch("two", 2),
        w.AddScratch("three", 2),
        w.SaveCheckpoint("cp1", "first"),
        w.SaveCheckpoint("cp2", None),  # past max_checkpoints, returned
        w.RemoveKey("a"),
        w.RemoveScratch(),
        w.ExpireKeys(["d", "b"]),
        w.LoadCheckpoint("cp1"),
        w.LoadCheckpoint("missing"),  # NotFound, returned
        w.DropCheckpoint("missing"),
        w.RemoveKeys(),
        w.PutTask(task),
        w.DropCheckpoint("cp1"),
    ]
    return [(write, T0 + i / 4) for i, write in enumerate(writes)]


def _comparable(outcome: object) -> object:
    if isinstance(outcome, Exception):
        return type(outcome), str(outcome)
    return outcome


def test_apply_writes_gives_each_write_the_same_outcome_on_both_engines(engine: Engine) -> None:
    e = engine
    bounds = ScopeBounds(max_keys=8, max_bytes=1000, max_checkpoints=1)
    with e.transaction():
        outcomes = apply_writes(e.tx, S, _batch(), bounds)
    conflict = (
        "key 'a' in scope 'project/p/agent/a' is at version 1, not 0; read it again and retry"
    )
    assert [_comparable(o) for o in outcomes[:3]] == [1, (Conflict, conflict), 1]
    assert isinstance(outcomes[3], LimitReached)
    assert (outcomes[6].step, outcomes[6].status, outcomes[6].updated) == (2, "blocked", T0 + 1.5)
    assert outcomes[7:10] == [(1, 0), (2, 0), (3, 1)]
    assert outcomes[10] == "cp1" and isinstance(outcomes[11], LimitReached)
    assert outcomes[12:15] == [True, 2, 1]  # removed a, cleared 2 lines, swept d (b unexpired)
    assert [k.key for k in outcomes[15]] == ["a", "b", "d"]
    assert isinstance(outcomes[16], NotFound) and isinstance(outcomes[17], NotFound)
    assert outcomes[18] == 2  # after the restore: a and b live, d expired by then
    assert outcomes[20] is None
    assert e.working_memory.list_keys(e.conn, S, "", 0.0) == []
    task = e.working_memory.load_task(e.conn, S)
    assert task is not None and (task.step, task.status) == (1, "running")
    assert [r.text for r in e.working_memory.read_scratch(e.conn, S, None)] == ["two", "three"]
    stats = e.working_memory.scope_stats(e.conn, S, T0)
    assert (stats.checkpoints, stats.expired_swept) == (0, 1)


def test_a_refused_write_leaves_the_batch_it_is_in_untouched(engine: Engine) -> None:
    e = engine
    bounds = ScopeBounds(max_keys=2, max_bytes=1000, max_checkpoints=4)
    with e.transaction():
        outcomes = apply_writes(
            e.tx,
            S,
            [
                (w.PutKey("a", b"1", None, None), T0),
                (w.PutKey("b", b"2", None, 5), T0),
                (w.PutKey("c", b"3", None, None), T0),
                (w.PutKey("d", b"4", None, None), T0),
                (w.PatchTask({"step": 1}), T0),
            ],
            bounds,
        )
    assert [type(o) for o in outcomes] == [int, Conflict, int, LimitReached, NotFound]
    assert [(k.key, k.version) for k in e.working_memory.list_keys(e.conn, S, "", T0)] == [
        ("a", 1),
        ("c", 1),
    ]


def test_a_nul_in_text_is_that_writes_own_refusal_on_postgres(engine: Engine) -> None:
    """SQLite keeps a NUL; Postgres refuses it as one write's error, the batch goes on."""
    e = engine
    task = TaskRecord("t\x00", "d", "running", 0, 0, None, T0, T0)
    batch = [w.AddScratch("a\x00b", 10), w.PutTask(task), w.PutKey("k", b"\x00", None, None)]
    with e.transaction():
        outcomes = apply_writes(e.tx, S, [(write, T0) for write in batch], bounds=OPEN)
    assert (
        outcomes[2] == 1 and e.working_memory.lookup_key(e.conn, [S], "k", T0)[1].value == b"\x00"
    )
    if e.name == "files":
        assert outcomes[:2] == [(1, 0), task]
        return
    for what, refused in zip(("scratchpad text", "task task_id"), outcomes, strict=False):
        assert isinstance(refused, InvalidArgument) and what in str(refused)
    assert (
        e.working_memory.read_scratch(e.conn, S, None),
        e.working_memory.load_task(e.conn, S),
    ) == ([], None)
