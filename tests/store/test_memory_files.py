"""The Markdown memory tree, on real files under tmp_path."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reverie.config import InvalidArgument
from reverie.store import (
    HistoryEntry,
    StoreError,
    TokenCounter,
    merge_facts,
    parse_history,
    prompt_view,
    render_entry,
)
from reverie.store.files.memory_files import MemoryFiles, decode_scope, encode_scope

HOSTILE_SCOPES = [
    "session/cli:alice",
    "project/x/agent/y",
    "../x",
    "..",
    ".",
    ".hidden",
    "/etc/passwd",
    "a\\b",
    "ünïcødé 会话 🧠",
    "a\x00b",
    "line\nbreak",
    "%2F",
    "CON",
]

DAY = 1_795_000_000.0  # 2026-11-18 UTC


def entry(n: int, *, scope: str = "project/x", ts: float = DAY, **kw: object) -> HistoryEntry:
    fields: dict[str, object] = {
        "id": f"ep_job{n}",
        "scope": scope,
        "session": "session/cli:alice",
        "start_ts": ts,
        "end_ts": ts + 60.5,
        "message_ids": [f"m{n}a", f"m{n}b"],
        "first_seq": 2 * n + 1,
        "last_seq": 2 * n + 2,
        "summary": f"Alice talked about topic {n}.\n\nShe wants **bold** things.",
        "facts": [f"Alice likes number {n}", "Alice lives in Lisbon"],
        "raw": False,
    }
    fields.update(kw)
    return HistoryEntry(**fields)  # type: ignore[arg-type]


def all_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("scope", HOSTILE_SCOPES)
def test_hostile_scope_stays_one_component_inside_root(tmp_path: Path, scope: str) -> None:
    name = encode_scope(scope)
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert name not in (".", "..") and not name.startswith(".")
    assert decode_scope(name) == scope
    mf = MemoryFiles(tmp_path / "mem")
    mf.write_memory(scope, "- fact\n")
    mf.append_entry(entry(1, scope=scope))
    root = (tmp_path / "mem").resolve()
    for path in all_files(tmp_path):
        assert path.resolve().is_relative_to(root)
        assert path.relative_to(root).parts[0] == name
    assert mf.read_memory(scope) == "- fact\n"
    assert mf.scopes() == [scope]


@given(st.text(min_size=1, max_size=21))  # 21 four-byte characters encode to 252 bytes
def test_scope_encoding_round_trips_any_text(scope: str) -> None:
    name = encode_scope(scope)
    assert decode_scope(name) == scope
    assert name.isascii() and "/" not in name and not name.startswith(".")


@pytest.mark.parametrize("name", ["", "..", ".x", "a%2f", "a%zz", "a/b", "é", "%2E%2E%"])
def test_decode_rejects_names_encode_never_makes(name: str) -> None:
    with pytest.raises(InvalidArgument):
        decode_scope(name)


def test_empty_scope_is_invalid() -> None:
    with pytest.raises(InvalidArgument):
        encode_scope("")


@pytest.mark.parametrize(
    "scope", ["session/" + "д" * 60, "session/" + "会" * 200, "x" * 300, "%" * 90]
)
def test_a_scope_too_long_to_name_gets_a_cut_name_that_fits(tmp_path: Path, scope: str) -> None:
    name = encode_scope(scope)
    assert len(name.encode()) <= 255 and name.isascii() and "/" not in name
    assert encode_scope(scope + "!") != name  # the hash tells scopes with one prefix apart
    mf = MemoryFiles(tmp_path)
    mf.write_memory(scope, "- fact\n")
    mf.append_entry(entry(1, scope=scope))
    assert mf.read_memory(scope) == "- fact\n"
    assert [e.id for e in mf.entries(scope)] == [entry(1, scope=scope).id]
    assert mf.scopes() == [scope]
    mf.delete_scope(scope)
    assert mf.scopes() == [] and list(tmp_path.iterdir()) == []


def test_a_scope_that_fits_keeps_its_old_name() -> None:
    assert encode_scope("session/" + "é" * 20) == "session%2F" + "%C3%A9" * 20


def test_stray_directories_are_not_scopes(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    mf.write_memory("real", "x")
    (tmp_path / ".deleting-old").mkdir()
    (tmp_path / "not%2fcanonical").mkdir()
    assert mf.scopes() == ["real"]


def test_entry_round_trips_through_markdown() -> None:
    entries = [entry(1), entry(2, raw=True, facts=[]), entry(3, summary="", facts=["- dash"])]
    text = "# History\n\n" + "\n".join(render_entry(e) for e in entries)
    assert parse_history(text) == entries
    assert "\n".join(render_entry(e) for e in parse_history(text)) == text[len("# History\n\n") :]


@given(
    summary=st.text(max_size=200),
    facts=st.lists(st.text(max_size=40), max_size=5),
    ids=st.lists(st.text(max_size=10), max_size=3),
    scope=st.text(min_size=1, max_size=20),
)
def test_any_entry_round_trips(summary: str, facts: list[str], ids: list[str], scope: str) -> None:
    e = entry(7, scope=scope, summary=summary, facts=facts, message_ids=ids, id=f"ep_{scope}-->")
    assert parse_history(render_entry(e)) == [e]


def test_person_editing_summary_and_facts_is_read_back(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    mf.append_entry(entry(1))
    mf.append_entry(entry(2))
    (path,) = (tmp_path / encode_scope("project/x") / "history").iterdir()
    text = path.read_text()
    text = text.replace("Alice talked about topic 1.", "Alice (edited) talked\r\nabout topic one.")
    text = text.replace("- Alice likes number 2\n", "* Alice likes number two\n- Added by hand\n")
    path.write_text(text)
    first, second = mf.entries("project/x")
    assert first.summary.startswith("Alice (edited) talked\nabout topic one.")
    assert first.facts == ["Alice likes number 1", "Alice lives in Lisbon"]
    assert second.facts == ["Alice likes number two", "Added by hand", "Alice lives in Lisbon"]
    assert (second.first_seq, second.message_ids) == (5, ["m2a", "m2b"])


def test_broken_metadata_skips_only_that_entry(tmp_path: Path) -> None:
    text = render_entry(entry(1)) + "\n" + render_entry(entry(2))
    broken = text.replace('"first_seq":3', '"first_seq":"three"')
    assert [e.id for e in parse_history(broken)] == ["ep_job2"]


def test_append_entry_is_idempotent_across_day_files(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    assert mf.append_entry(entry(1)) is True
    history = tmp_path / encode_scope("project/x") / "history"
    before = {p.name: p.read_bytes() for p in history.iterdir()}
    # A replay of the same job, even with a later end_ts (another day), changes nothing.
    assert mf.append_entry(entry(1)) is False
    assert mf.append_entry(entry(1, ts=DAY + 3 * 86400)) is False
    assert {p.name: p.read_bytes() for p in history.iterdir()} == before
    assert mf.entry_ids("project/x") == {"ep_job1"}


def test_a_day_file_copied_under_another_days_name_lists_its_entries_once(
    tmp_path: Path,
) -> None:
    mf = MemoryFiles(tmp_path)
    mf.append_entry(entry(1, ts=DAY))
    mf.append_entry(entry(2, ts=DAY + 86400))
    history = tmp_path / encode_scope("project/x") / "history"
    (own,) = [p for p in history.iterdir() if p.name == "2026-11-18.md"]
    (history / "2026-11-20.md").write_bytes(own.read_bytes())  # a hand-made backup
    assert [e.id for e in mf.entries("project/x")] == ["ep_job1", "ep_job2"]
    assert [e.id for e in mf.entries("project/x", limit=2)] == ["ep_job1", "ep_job2"]


def test_concurrent_appends_to_one_scope_lose_nothing(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    threads = [threading.Thread(target=mf.append_entry, args=(entry(n),)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert mf.entry_ids("project/x") == {f"ep_job{n}" for n in range(20)}


def test_entries_go_to_their_utc_day_and_come_back_newest_last(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    mf.append_entry(entry(2, ts=DAY + 86400))
    mf.append_entry(entry(1, ts=DAY))
    mf.append_entry(entry(3, ts=DAY + 86400 + 600))
    names = sorted(p.name for p in (tmp_path / encode_scope("project/x") / "history").iterdir())
    assert names == ["2026-11-18.md", "2026-11-19.md"]
    assert [e.id for e in mf.entries("project/x")] == ["ep_job1", "ep_job2", "ep_job3"]
    assert [e.id for e in mf.entries("project/x", limit=2)] == ["ep_job2", "ep_job3"]
    assert mf.entries("other") == []


def test_write_memory_is_atomic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    assert mf.read_memory("s") == ""
    for n in range(5):
        mf.write_memory("s", f"# Memory\n\n- fact {n}\n")
        mf.append_entry(entry(n, scope="s"))
    assert mf.read_memory("s") == "# Memory\n\n- fact 4\n"
    leftovers = [p for p in all_files(tmp_path) if p.name.startswith(".") or p.suffix == ".tmp"]
    assert leftovers == []


def test_failed_write_keeps_old_memory_and_no_temp_file(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    mf.write_memory("s", "old")
    with pytest.raises(UnicodeEncodeError):
        mf.write_memory("s", "bad \udc80 surrogate")
    assert mf.read_memory("s") == "old"
    assert [p.name for p in (tmp_path / "s").iterdir()] == ["MEMORY.md"]


def test_delete_scope_removes_everything_of_that_scope_only(tmp_path: Path) -> None:
    mf = MemoryFiles(tmp_path)
    for scope in ("a", "b"):
        mf.write_memory(scope, "m")
        mf.append_entry(entry(1, scope=scope))
    mf.delete_scope("a")
    mf.delete_scope("never-existed")
    assert mf.scopes() == ["b"]
    assert mf.read_memory("a") == "" and mf.entries("a") == []
    assert os.listdir(tmp_path) == ["b"]
    assert [(e.scope, e.id) for e in mf.iter_all_entries()] == [("b", "ep_job1")]


def words(text: str) -> int:
    return len(text.split())


def test_merge_facts_keeps_a_repeated_fact_in_place_ignoring_case_space_punctuation() -> None:
    memory = merge_facts("", ["Alice likes tea.", "Bob is 42"], 1000, words)
    merged = merge_facts(memory, ["alice   LIKES tea", "Carol lives in Rome"], 1000, words)
    assert merged == "# Memory\n\n- Alice likes tea.\n- Bob is 42\n- Carol lives in Rome\n"
    assert merged.startswith(memory)  # the old block is a prefix: a KV cache of it survives


def test_merge_facts_drops_oldest_over_cap() -> None:
    facts = [f"fact number {n}" for n in range(10)]
    memory = merge_facts("", facts, 14, words)
    # "# Memory" (2 words) + 4 bullets of 4 words each = 18 > 14; 3 bullets = 14.
    assert memory == "# Memory\n\n- fact number 7\n- fact number 8\n- fact number 9\n"
    assert merge_facts("", ["far too many words for this cap"], 3, words) == ""


def test_merge_facts_is_byte_stable_with_real_tokenizer() -> None:
    count = TokenCounter().count
    hand_written = "# Memory\n\nSome prose line\n\n* starred fact\n## Section\n- Same fact\n"
    runs = {merge_facts(hand_written, ["same FACT!", "New one"], 50, count) for _ in range(3)}
    assert runs == {"# Memory\n\n- Some prose line\n- starred fact\n- Same fact\n- New one\n"}


def test_the_prompt_view_drops_only_source_comments_line_by_line() -> None:
    memory = (
        "# Memory\n\n"
        '- [2026-11-24] Carl moved to Lisbon. <!-- from {"cli:carl":["m7"]} -->\n'
        "- Prefers tea <!-- a note someone wrote -->\n"
        "- [2026-11-25] Carl works at Acme. <!-- from {broken -->\n"
        '- Hand-written fact\r\n- [2026-11-26] Carl has a dog. <!-- from {"cli:carl":["m9"]} -->'
    )
    assert prompt_view(memory) == (
        "# Memory\n\n"
        "- [2026-11-24] Carl moved to Lisbon.\n"
        "- Prefers tea <!-- a note someone wrote -->\n"
        "- [2026-11-25] Carl works at Acme. <!-- from {broken -->\n"
        "- Hand-written fact\r\n- [2026-11-26] Carl has a dog."
    )
    appended = memory + '\n- Carl swims. <!-- from {"cli:carl":["m10"]} -->\n'
    assert prompt_view(appended).startswith(prompt_view(memory))


def test_a_linked_memory_file_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "passwd"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
    mf = MemoryFiles(tmp_path / "mem")
    mf.write_memory("s", "- fact\n")
    mf.append_entry(entry(1, scope="s"))
    memory = tmp_path / "mem" / "s" / "MEMORY.md"
    memory.unlink()
    memory.symlink_to(outside)
    (day,) = (tmp_path / "mem" / "s" / "history").iterdir()
    day.unlink()
    day.symlink_to(outside)
    with pytest.raises(StoreError, match="symbolic link"):
        mf.read_memory("s")
    with pytest.raises(StoreError, match="symbolic link"):
        mf.entries("s")
    assert outside.read_text().startswith("root:")


@pytest.mark.parametrize("linked", ["scope", "history"])
def test_a_linked_directory_is_never_written_through(tmp_path: Path, linked: str) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    root = tmp_path / "mem"
    link = root / "s" if linked == "scope" else root / "s" / "history"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside, target_is_directory=True)
    mf = MemoryFiles(root)
    with pytest.raises(StoreError, match="symbolic link"):
        mf.write_memory("s", "- fact\n")
    with pytest.raises(StoreError, match="symbolic link"):
        mf.append_entry(entry(1, scope="s"))
    assert list(outside.iterdir()) == []

    mf.delete_scope("s")  # the link goes, never what it points at

    assert not (root / "s").exists() and outside.is_dir()
    assert mf.scopes() == []
