"""Working memory on every engine: TTL, CAS, key order, task, scratchpad, checkpoints, scope state.

Each case of the daemon-level suite (tests/daemon/test_working_memory.py)
that the store decides, with the same assertions on each engine, and the
same checkpoint bytes from both. What only PostgreSQL could get wrong (float
times across connections, a compare-and-set racing another transaction) is
in tests/store/postgres/test_working_memory.py.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from reverie.config import Conflict, NotFound
from reverie.store import KeyRecord, ScopeBounds, ScratchRecord, TaskRecord
from reverie.store.base.working_memory import _Snapshot

from .engine import Engine, opened

OPEN = ScopeBounds(max_keys=1 << 20, max_bytes=1 << 30, max_checkpoints=1 << 10)
T0 = 1_764_241_733.123456789  # more digits than a float keeps: it must come back to the bit


def put(e: Engine, scope: str, key: str, value: bytes, now: float = T0, **kw: object) -> int:
    kw.setdefault("expires_at", None)
    kw.setdefault("expected_version", None)
    return int(
        e.working_memory.set_key(e.conn, scope, key, value, now=now, tally=tally(e, scope), **kw)
    )


def tally(e: Engine, scope: str, bounds: ScopeBounds = OPEN) -> object:
    return e.tx.tally(scope, bounds)


def names(records: list[KeyRecord]) -> list[str]:
    return [r.key for r in records]


def test_a_ttl_key_is_seen_before_its_expiry_never_after_and_swept_once(engine: Engine) -> None:
    e, wm = engine, engine.working_memory
    put(e, "s", "short", b"soon gone", expires_at=T0 + 60)
    put(e, "s", "long", b"stays")
    assert wm.expiring_keys(e.conn) == [(T0 + 60, "s", "short")]
    found = wm.lookup_key(e.conn, ["s"], "short", T0 + 59)
    assert found is not None and found[1].value == b"soon gone"
    assert names(wm.list_keys(e.conn, "s", "", T0 + 59)) == ["long", "short"]
    later = T0 + 60  # expired at its deadline, before the sweeper deletes the row
    assert wm.lookup_key(e.conn, ["s"], "short", later) is None
    assert names(wm.list_keys(e.conn, "s", "", later)) == ["long"]
    assert wm.scope_stats(e.conn, "s", later).keys == 1
    assert wm.sweep_keys(e.conn, "s", ["short", "long", "short"], T0 + 59) == 0
    assert wm.sweep_keys(e.conn, "s", ["short", "long", "short"], later) == 1
    assert wm.sweep_keys(e.conn, "s", ["short"], later) == 0
    stats = wm.scope_stats(e.conn, "s", later)
    assert (stats.keys, stats.bytes, stats.expired_swept) == (1, len(b"stays"), 1)
    assert wm.expiring_keys(e.conn) == []


def test_overwriting_a_ttl_key_without_ttl_keeps_it_from_the_sweeper(engine: Engine) -> None:
    put(engine, "s", "k", b"1", expires_at=T0 + 10)
    put(engine, "s", "k", b"2", now=T0 + 1)
    assert engine.working_memory.sweep_keys(engine.conn, "s", ["k"], T0 + 20) == 0
    found = engine.working_memory.lookup_key(engine.conn, ["s"], "k", T0 + 20)
    assert found is not None and (found[1].value, found[1].version) == (b"2", 2)
    assert engine.working_memory.scope_stats(engine.conn, "s", T0 + 20).expired_swept == 0


def test_compare_and_set_and_an_expired_key_counts_as_absent(engine: Engine) -> None:
    e = engine
    assert put(e, "s", "k", b"a", expected_version=0) == 1
    for stale in (0, 7):
        with pytest.raises(Conflict, match=r"'k' in scope 's' is at version 1, not " + str(stale)):
            put(e, "s", "k", b"b", expected_version=stale)
    assert put(e, "s", "k", b"b", expected_version=1) == 2
    found = e.working_memory.lookup_key(e.conn, ["s"], "k", T0)
    assert found == ("s", KeyRecord("k", b"b", 2, None, T0))
    assert e.working_memory.delete_key(e.conn, "s", "k", T0) is True
    assert e.working_memory.delete_key(e.conn, "s", "k", T0) is False
    assert put(e, "s", "k", b"c", expected_version=0) == 1
    put(e, "s", "ttl", b"x", expires_at=T0 + 5)
    assert (
        e.working_memory.delete_key(e.conn, "s", "ttl", T0 + 5) is False
    )  # expired: was not there
    put(e, "s", "ttl", b"x", expires_at=T0 + 5)
    assert put(e, "s", "ttl", b"y", now=T0 + 5, expected_version=0) == 1


def test_a_scope_chain_finds_the_first_scope_holding_the_key(engine: Engine) -> None:
    chain = ["project/p/agent/a/session/s", "project/p/agent/a", "project/p", "global"]
    e = engine
    assert e.working_memory.lookup_key(e.conn, chain, "k", T0) is None
    for scope in reversed(chain):
        put(e, scope, "k", scope.encode())
        assert e.working_memory.lookup_key(e.conn, chain, "k", T0)[0] == scope
    put(e, chain[0], "k", b"gone", expires_at=T0)
    assert (
        e.working_memory.lookup_key(e.conn, chain, "k", T0)[0] == chain[1]
    )  # an expired key is skipped
    assert e.working_memory.lookup_key(e.conn, chain[2:], "k", T0)[0] == chain[2]
    assert e.working_memory.lookup_key(e.conn, ["elsewhere"], "k", T0) is None


def test_keys_list_by_prefix_in_byte_order_with_no_wildcards(engine: Engine) -> None:
    keys = ["b", "B", "a", "a/b", "ab", "é", "Z", "a%", "a_c", "z", "€", "😀", "aé"]
    for key in keys:
        put(engine, "s", key, b"v")
    put(engine, "other", "a", b"v")
    listed = names(engine.working_memory.list_keys(engine.conn, "s", "", T0))
    assert listed == sorted(keys, key=str.encode)  # bytewise on UTF-8, whatever the locale
    assert names(engine.working_memory.list_keys(engine.conn, "s", "a", T0)) == [
        "a", "a%", "a/b", "a_c", "ab", "aé"
    ]  # fmt: skip
    assert names(engine.working_memory.list_keys(engine.conn, "s", "a_", T0)) == ["a_c"]
    assert names(engine.working_memory.list_keys(engine.conn, "s", "a%", T0)) == ["a%"]
    assert names(engine.working_memory.list_keys(engine.conn, "s", "é", T0)) == ["é"]
    assert engine.working_memory.list_keys(engine.conn, "s", "c", T0) == []


def test_clear_keys_counts_the_unexpired_and_leaves_other_scopes(engine: Engine) -> None:
    put(engine, "s", "a", b"1")
    put(engine, "s", "b", b"2", expires_at=T0 + 1)
    put(engine, "s", "c", b"3", expires_at=T0 + 9)
    put(engine, "t", "a", b"1")
    assert engine.working_memory.clear_keys(engine.conn, "s", T0 + 1) == 2
    assert engine.working_memory.list_keys(engine.conn, "s", "", T0) == []
    assert engine.working_memory.expiring_keys(engine.conn) == []
    assert names(engine.working_memory.list_keys(engine.conn, "t", "", T0)) == ["a"]


def test_a_task_is_saved_replaced_and_removed(engine: Engine) -> None:
    e = engine
    assert e.working_memory.load_task(e.conn, "s") is None
    task = TaskRecord("t1", "ship it", "running", 1, 4, msgspec.msgpack.encode({"pr": 12}), T0, T0)
    e.working_memory.save_task(e.conn, "s", task)
    assert e.working_memory.load_task(e.conn, "s") == task
    done = msgspec.structs.replace(task, status="done", step=4, data=None, updated=T0 + 1)
    e.working_memory.save_task(e.conn, "s", done)
    assert e.working_memory.load_task(e.conn, "s") == done
    assert e.working_memory.load_task(e.conn, "t") is None
    e.working_memory.save_task(e.conn, "s", None)
    assert e.working_memory.load_task(e.conn, "s") is None


def test_the_scratchpad_drops_its_oldest_lines_past_capacity(engine: Engine) -> None:
    e = engine
    results = [
        e.working_memory.append_scratch(e.conn, "s", f"line {i}", T0 + i, 3, tally(e, "s"))
        for i in range(5)
    ]
    assert results == [(1, 0), (2, 0), (3, 0), (4, 1), (5, 1)]
    assert e.working_memory.read_scratch(e.conn, "s", None) == [
        ScratchRecord(n, f"line {n - 1}", T0 + n - 1) for n in (3, 4, 5)
    ]
    assert [r.text for r in e.working_memory.read_scratch(e.conn, "s", 2)] == ["line 3", "line 4"]
    assert e.working_memory.read_scratch(e.conn, "t", None) == []
    assert e.working_memory.clear_scratch(e.conn, "s") == 3
    assert e.working_memory.read_scratch(e.conn, "s", None) == []
    assert e.working_memory.append_scratch(e.conn, "s", "again", T0, 3, tally(e, "s")) == (1, 0)


def _state(e: Engine, scope: str, now: float) -> tuple[object, ...]:
    keys = e.working_memory.list_keys(e.conn, scope, "", now)
    return (
        keys,
        e.working_memory.load_task(e.conn, scope),
        e.working_memory.read_scratch(e.conn, scope, None),
    )


def test_a_checkpoint_restores_keys_task_and_scratchpad_and_outdates_old_versions(
    engine: Engine,
) -> None:
    e, s = engine, "project/p/agent/a/session/s"
    put(e, s, "plan", msgspec.msgpack.encode({"steps": ["read", "write"]}))
    put(e, s, "blob", b"\x00\x01binary")
    put(e, s, "ttl", b"later", expires_at=T0 + 3600)
    put(e, s, "gone", b"expired", expires_at=T0 + 1)
    e.working_memory.save_task(e.conn, s, TaskRecord("t1", "ship", "running", 1, 4, None, T0, T0))
    for line in ("thought one", "thought two"):
        e.working_memory.append_scratch(e.conn, s, line, T0, 10, tally(e, s))
    before = _state(e, s, T0 + 2)
    record = e.working_memory.create_checkpoint(e.conn, s, "c1", "before refactor", T0 + 2)
    assert (record.id, record.label, record.created) == ("c1", "before refactor", T0 + 2)

    put(e, s, "plan", b"changed", now=T0 + 3)
    e.working_memory.delete_key(e.conn, s, "blob", T0 + 3)
    put(e, s, "new", b"1", now=T0 + 3)
    e.working_memory.save_task(e.conn, s, None)
    e.working_memory.clear_scratch(e.conn, s)
    e.working_memory.append_scratch(e.conn, s, "other", T0 + 3, 10, tally(e, s))
    assert _state(e, s, T0 + 3) != before

    restored = e.working_memory.restore_checkpoint(e.conn, s, "c1")
    assert names(restored) == ["blob", "gone", "plan", "ttl"]  # the expired one with its expiry
    keys, task, scratch = _state(e, s, T0 + 2)
    assert [(k.key, k.value, k.expires_at, k.updated) for k in keys] == [
        (k.key, k.value, k.expires_at, k.updated) for k in before[0]
    ]
    assert (task, scratch) == before[1:]
    versions = {k.key: k.version for k in keys}
    assert versions == {"blob": 2, "plan": 3, "ttl": 2}  # past every version seen
    assert (
        e.working_memory.lookup_key(e.conn, [s], "gone", T0)[1].version == 2
    )  # expired at T0 + 2, kept
    with pytest.raises(Conflict):
        put(e, s, "plan", b"stale", now=T0 + 4, expected_version=2)
    assert e.working_memory.scope_stats(e.conn, s, T0).checkpoints == 1


def test_checkpoints_list_newest_first_and_unknown_ids_are_not_found(engine: Engine) -> None:
    e = engine
    for i, created in enumerate((T0, T0 + 1, T0 + 1, T0 + 1)):  # equal times: insertion order
        e.working_memory.create_checkpoint(e.conn, "s", f"c{i}", f"label {i}", created)
    assert [c.id for c in e.working_memory.list_checkpoints(e.conn, "s")] == [
        "c3",
        "c2",
        "c1",
        "c0",
    ]
    assert all(c.size > 0 for c in e.working_memory.list_checkpoints(e.conn, "s"))
    e.working_memory.delete_checkpoint(e.conn, "s", "c2")
    e.working_memory.create_checkpoint(e.conn, "s", "c4", None, T0 + 1)
    listed = e.working_memory.list_checkpoints(e.conn, "s")
    assert [(c.id, c.label) for c in listed] == [
        ("c4", None), ("c3", "label 3"), ("c1", "label 1"), ("c0", "label 0")
    ]  # fmt: skip
    for scope, checkpoint in (("s", "c2"), ("s", "nope"), ("other", "c0")):
        with pytest.raises(NotFound, match=f"no checkpoint '{checkpoint}' in scope '{scope}'"):
            e.working_memory.restore_checkpoint(e.conn, scope, checkpoint)
        with pytest.raises(NotFound):
            e.working_memory.delete_checkpoint(e.conn, scope, checkpoint)
    assert e.working_memory.list_checkpoints(e.conn, "other") == []
    assert len(e.working_memory.list_checkpoints(e.conn, "s")) == 4


def test_deleting_a_scopes_state_counts_its_rows_and_spares_the_others(engine: Engine) -> None:
    e = engine
    for scope in ("s", "t"):
        put(e, scope, "a", b"1")
        put(e, scope, "b", b"2", expires_at=T0 + 1)
        e.working_memory.sweep_keys(e.conn, scope, ["b"], T0 + 1)
        e.working_memory.save_task(
            e.conn, scope, TaskRecord("t", "d", "running", 0, 0, None, T0, T0)
        )
        e.working_memory.append_scratch(e.conn, scope, "line", T0, 10, tally(e, scope))
        e.working_memory.create_checkpoint(e.conn, scope, f"{scope}-cp", None, T0)
    assert (
        e.working_memory.delete_scope_state(e.conn, "s") == 5
    )  # key, task, line, checkpoint, stats
    assert _state(e, "s", T0) == ([], None, [])
    stats = e.working_memory.scope_stats(e.conn, "s", T0)
    assert (stats.keys, stats.checkpoints, stats.expired_swept) == (0, 0, 0)
    assert (
        _state(e, "t", T0)[0] != []
        and e.working_memory.scope_stats(e.conn, "t", T0).expired_swept == 1
    )
    assert e.working_memory.delete_scope_state(e.conn, "s") == 0


def test_restoring_a_checkpoint_of_an_empty_scope_empties_it(engine: Engine) -> None:
    e = engine
    e.working_memory.create_checkpoint(e.conn, "s", "empty", None, T0)
    put(e, "s", "k", b"v")
    e.working_memory.save_task(e.conn, "s", TaskRecord("t", "d", "running", 0, 0, None, T0, T0))
    e.working_memory.append_scratch(e.conn, "s", "line", T0, 10, tally(e, "s"))
    assert e.working_memory.restore_checkpoint(e.conn, "s", "empty") == []
    assert _state(e, "s", T0) == ([], None, [])


def test_both_engines_write_the_same_checkpoint_bytes(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """A checkpoint is one msgpack blob, the same bytes whichever engine wrote it."""
    with opened("files", request, tmp_path) as files, opened("postgres", request, tmp_path) as pg:
        engines = [files, pg]
        for e in engines:
            for key in ("é", "Z", "a", "😀"):
                put(e, "s", key, key.encode(), expires_at=T0 + 1)
            task = TaskRecord("t", "d", "running", 1, 2, b"x", T0, T0)
            e.working_memory.save_task(e.conn, "s", task)
            e.working_memory.append_scratch(e.conn, "s", "line", T0, 5, tally(e, "s"))
            e.working_memory.create_checkpoint(e.conn, "s", "cp", None, T0)
        blobs = [
            bytes(e.conn.execute("SELECT blob FROM wm_checkpoints WHERE id = 'cp'").fetchone()[0])
            for e in engines
        ]
    assert blobs[0] == blobs[1]
    assert [k.key for k in msgspec.msgpack.decode(blobs[0], type=_Snapshot).keys] == [
        "Z", "a", "é", "😀"
    ]  # fmt: skip
