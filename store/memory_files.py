"""The Markdown memory tree: the source of truth for long-term memory.

Layout, one directory per scope::

    <root>/<encode_scope(scope)>/MEMORY.md               the scope's distilled memory
    <root>/<encode_scope(scope)>/history/YYYY-MM-DD.md   consolidated episodes, by UTC day

Scope names come from clients, so a path is never built from one directly:
``encode_scope`` turns any string into one safe, reversible path component.

Guarantees:

- Every write replaces a whole file atomically (temp file in the same
  directory, fsync, rename, fsync of the directory): a crash leaves the old
  file or the new one, never a torn one.
- ``append_entry`` is idempotent by entry id across all of a scope's history
  files, so replaying a consolidation job after a crash is a no-op.
- History files are meant to be read and edited by people: an entry's
  metadata sits in one HTML comment line that round-trips exactly; the summary
  and the facts list around it may be edited freely.

Everything here blocks; the caller runs it in a worker thread. Mutations are
serialised by one lock per ``MemoryFiles``, so two threads appending to the
same scope cannot lose each other's entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote_to_bytes

import msgspec

from reverie.config import InvalidArgument

from .errors import StoreError, translate
from .facts import merge_facts

__all__ = [
    "HistoryEntry",
    "MemoryFiles",
    "decode_scope",
    "encode_scope",
    "history_problems",
    "merge_facts",
    "parse_history",
    "render_entry",
    "without_entries",
]

log = logging.getLogger(__name__)

MEMORY_FILE = "MEMORY.md"
HISTORY_DIR = "history"
_MAX_COMPONENT_BYTES = 255  # NAME_MAX on every file system reverie supports
_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")
_META = re.compile(r"^<!-- reverie:entry (\{.*\}) -->$")
_FACTS_MARKER = "**Facts**"
_BULLET = re.compile(r"^\s*[-*+]\s+")


def encode_scope(scope: str) -> str:
    """One path component for ``scope``: percent-encoding of every byte outside
    ``[A-Za-z0-9._-]`` (UTF-8), plus a leading ``.``, so ``.``, ``..`` and hidden
    names cannot occur. Reversible with ``decode_scope``.

    Raises ``InvalidArgument`` for the empty scope and for scopes whose encoding
    would exceed the file-name limit.
    """
    if not scope:
        raise InvalidArgument("scope must not be empty")
    raw = scope.encode("utf-8", errors="surrogatepass")
    out = []
    for i, byte in enumerate(raw):
        if byte in _SAFE and not (i == 0 and byte == ord(".")):
            out.append(chr(byte))
        else:
            out.append(f"%{byte:02X}")
    encoded = "".join(out)
    if len(encoded) > _MAX_COMPONENT_BYTES:
        raise InvalidArgument(
            f"scope is too long: its file name would be {len(encoded)} bytes "
            f"(at most {_MAX_COMPONENT_BYTES}); use a shorter scope"
        )
    return encoded


def decode_scope(name: str) -> str:
    """The scope ``encode_scope`` turned into ``name``.

    Raises ``InvalidArgument`` unless ``name`` is exactly what ``encode_scope``
    produces, so stray files in the tree are never mistaken for scopes.
    """
    if name.isascii():
        try:
            scope = unquote_to_bytes(name).decode("utf-8", errors="surrogatepass")
            if encode_scope(scope) == name:
                return scope
        except (UnicodeDecodeError, InvalidArgument):
            pass
    raise InvalidArgument(f"{name!r} is not an encoded scope name")


class HistoryEntry(msgspec.Struct, kw_only=True):
    """One consolidated episode of a session, as stored in a history file.

    ``summary`` is stripped and each fact is one line with single spaces (done
    on construction), which is what lets ``parse_history(render_entry(e))``
    give back ``e`` exactly.
    """

    id: str
    scope: str
    session: str
    start_ts: float
    end_ts: float
    message_ids: list[str]
    first_seq: int
    last_seq: int
    summary: str
    facts: list[str]
    raw: bool = False

    def __post_init__(self) -> None:
        self.summary = self.summary.replace("\r\n", "\n").strip()
        self.facts = [f for f in (" ".join(fact.split()) for fact in self.facts) if f]


class _Meta(msgspec.Struct, kw_only=True):
    """Everything of an entry except the parts people edit (summary, facts)."""

    id: str
    scope: str
    session: str
    start_ts: float
    end_ts: float
    message_ids: list[str]
    first_seq: int
    last_seq: int
    raw: bool = False


_meta_decoder = msgspec.json.Decoder(_Meta)


def _utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _heading(entry: HistoryEntry) -> str:
    start, end = _utc(entry.start_ts), _utc(entry.end_ts)
    end_fmt = "%H:%M:%S" if start.date() == end.date() else "%Y-%m-%d %H:%M:%S"
    span = f"{start:%Y-%m-%d %H:%M:%S}–{end.strftime(end_fmt)} UTC"
    label = " ".join(entry.id.split())
    return f"## {span} · {label}" + (" · raw" if entry.raw else "")


def _meta_line(entry: HistoryEntry) -> str:
    meta = _Meta(
        id=entry.id,
        scope=entry.scope,
        session=entry.session,
        start_ts=entry.start_ts,
        end_ts=entry.end_ts,
        message_ids=entry.message_ids,
        first_seq=entry.first_seq,
        last_seq=entry.last_seq,
        raw=entry.raw,
    )
    # "<" and ">" only occur inside JSON strings; escaping them keeps "-->" out
    # of the comment. JSON already escapes newlines, so this stays one line.
    text = msgspec.json.encode(meta).decode().replace("<", "\\u003c").replace(">", "\\u003e")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"<!-- reverie:entry {text} -->"


def render_entry(entry: HistoryEntry) -> str:
    """The Markdown section for ``entry``, ending in a newline.

    The heading is for people and is regenerated from the metadata; the
    summary is free Markdown (it must not contain a reverie metadata line);
    facts follow the ``**Facts**`` line as a bulleted list.
    """
    parts = [_heading(entry), _meta_line(entry), ""]
    if entry.summary:
        parts += [entry.summary, ""]
    parts.append(_FACTS_MARKER)
    parts += [f"- {fact}" for fact in entry.facts]
    return "\n".join(parts) + "\n"


def _entry_from(meta: _Meta, body: list[str]) -> HistoryEntry:
    marker = max((i for i, line in enumerate(body) if line.strip() == _FACTS_MARKER), default=None)
    summary_lines, fact_lines = (
        (body, []) if marker is None else (body[:marker], body[marker + 1 :])
    )
    facts = [_BULLET.sub("", line) for line in fact_lines if _BULLET.match(line)]
    return HistoryEntry(
        id=meta.id,
        scope=meta.scope,
        session=meta.session,
        start_ts=meta.start_ts,
        end_ts=meta.end_ts,
        message_ids=meta.message_ids,
        first_seq=meta.first_seq,
        last_seq=meta.last_seq,
        summary="\n".join(summary_lines),
        facts=facts,
        raw=meta.raw,
    )


def _sections(lines: list[str]) -> list[tuple[int, int, _Meta | None]]:
    """Each entry's line range ``[start, end)`` and its metadata (None when a person broke it)."""
    starts = [
        (i, match)
        for i in range(len(lines) - 1)
        if lines[i].startswith("## ") and (match := _META.match(lines[i + 1]))
    ]
    sections: list[tuple[int, int, _Meta | None]] = []
    for n, (start, match) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        try:
            meta: _Meta | None = _meta_decoder.decode(match.group(1))
        except msgspec.DecodeError as exc:
            log.warning("skipping history entry with broken metadata: %s", exc)
            meta = None
        sections.append((start, end, meta))
    return sections


def parse_history(text: str) -> list[HistoryEntry]:
    """The entries of one history file, in file order.

    An entry starts at a ``## `` heading directly followed by its metadata
    line and runs to the next such pair. Text before the first entry (the file
    title) is ignored. An entry whose metadata a person broke is skipped with a
    warning rather than failing the whole file.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    return [
        _entry_from(meta, lines[start + 2 : end])
        for start, end, meta in _sections(lines)
        if meta is not None
    ]


def history_problems(text: str) -> list[str]:
    """What a person broke in a history file: entries whose metadata line no longer parses.

    Such an entry is skipped when reading but kept in the file by every
    rewrite, so fixing the line brings it back.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    problems = [
        f"entry at line {start + 1} has unreadable metadata and is ignored: {lines[start][:80]!r}"
        for start, _, meta in _sections(lines)
        if meta is None
    ]
    orphans = [
        i
        for i, line in enumerate(lines[:-1])
        if line.startswith("## ") and not _META.match(lines[i + 1])
    ]
    problems += [
        f"heading at line {i + 1} has no metadata line under it: {lines[i][:80]!r}" for i in orphans
    ]
    return problems


def without_entries(text: str, doomed: Callable[[HistoryEntry], bool]) -> tuple[str, int]:
    """The history file ``text`` without the entries ``doomed`` picks; and how many went.

    Everything else (the title, other entries, even ones whose metadata is
    broken) is kept byte for byte.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    cut = [
        (start, end)
        for start, end, meta in _sections(lines)
        if meta is not None and doomed(_entry_from(meta, lines[start + 2 : end]))
    ]
    for start, end in reversed(cut):
        del lines[start:end]
    return "\n".join(lines), len(cut)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: a crash leaves the old or the new file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _ensure_dir(path: Path) -> None:
    """Create ``path`` (and parents) durably: each new directory's parent is fsynced."""
    if path.is_dir():
        return
    _ensure_dir(path.parent)
    path.mkdir(exist_ok=True)
    _fsync_dir(path.parent)


class MemoryFiles:
    """The memory tree under ``root``. Errors from the file system become ``StoreError``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._lock = threading.Lock()
        #: sha256 of what reverie itself last wrote to each file: a watcher tells hand edits apart.
        self.written: dict[Path, str] = {}

    def _write(self, path: Path, text: str) -> None:
        data = text.encode("utf-8")
        _atomic_write(path, data)
        self.written[path] = hashlib.sha256(data).hexdigest()

    @contextlib.contextmanager
    def paused(self) -> Iterator[Path]:
        """Hold every change to the tree off while the caller copies it (``backup``)."""
        with self._lock:
            yield self.root

    def _scope_dir(self, scope: str) -> Path:
        return self.root / encode_scope(scope)

    def read_memory(self, scope: str) -> str:
        """The scope's ``MEMORY.md``; ``""`` when it does not exist."""
        path = self._scope_dir(scope) / MEMORY_FILE
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""
        except OSError as exc:
            raise translate(exc) from exc
        except UnicodeDecodeError as exc:  # a hand edit in another encoding
            raise StoreError(f"{path} is not UTF-8 ({exc.reason}); save it as UTF-8") from exc

    def write_memory(self, scope: str, text: str) -> None:
        """Replace the scope's ``MEMORY.md`` atomically."""
        directory = self._scope_dir(scope)
        with self._lock:
            try:
                _ensure_dir(directory)
                self._write(directory / MEMORY_FILE, text)
            except OSError as exc:
                raise translate(exc) from exc
        log.debug("wrote memory of scope %r (%d chars)", scope, len(text))

    def _day_files(self, scope: str) -> list[Path]:
        history = self._scope_dir(scope) / HISTORY_DIR
        try:
            names = sorted(p.name for p in history.iterdir() if _DAY_FILE.match(p.name))
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise translate(exc) from exc
        return [history / name for name in names]

    @staticmethod
    def _read_entries(path: Path) -> list[HistoryEntry]:
        try:
            return parse_history(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise translate(exc) from exc
        except UnicodeDecodeError as exc:
            raise StoreError(f"history file {path} is not UTF-8: {exc}") from exc

    def entry_ids(self, scope: str) -> set[str]:
        """The ids of every entry in the scope's history."""
        return {e.id for path in self._day_files(scope) for e in self._read_entries(path)}

    def append_entry(self, entry: HistoryEntry) -> bool:
        """Append ``entry`` to the history file of its UTC day (by ``end_ts``).

        Returns False and changes nothing when an entry with the same id is
        already in any of the scope's history files; that makes a replay after
        a crash a no-op.
        """
        day = _utc(entry.end_ts).strftime("%Y-%m-%d")
        history = self._scope_dir(entry.scope) / HISTORY_DIR
        path = history / f"{day}.md"
        with self._lock:
            if entry.id in self.entry_ids(entry.scope):
                log.info("history entry %s already in scope %r; skipped", entry.id, entry.scope)
                return False
            try:
                _ensure_dir(history)
                try:
                    current = path.read_text(encoding="utf-8")
                except FileNotFoundError:
                    current = f"# History · {day}\n"
                sep = "" if current.endswith("\n\n") else "\n" if current.endswith("\n") else "\n\n"
                self._write(path, current + sep + render_entry(entry))
            except OSError as exc:
                raise translate(exc) from exc
        log.info("appended history entry %s to scope %r", entry.id, entry.scope)
        return True

    def entries(self, scope: str, limit: int | None = None) -> list[HistoryEntry]:
        """The scope's entries, oldest first (by ``end_ts``); the newest ``limit`` if given."""
        found: list[HistoryEntry] = []
        for path in reversed(self._day_files(scope)):
            found[:0] = self._read_entries(path)
            if limit is not None and len(found) >= limit:
                break
        found.sort(key=lambda e: e.end_ts)
        return found if limit is None else found[max(len(found) - limit, 0) :]

    def delete_scope(self, scope: str) -> None:
        """Remove the scope's memory and history; nothing happens if it has none.

        The directory is first renamed to a hidden name (which ``scopes`` never
        lists), so a crash mid-delete never leaves a half-deleted scope visible.
        """
        directory = self._scope_dir(scope)
        with self._lock:
            if not directory.exists():
                return
            doomed = self.root / f".deleting-{directory.name}"
            try:
                if doomed.exists():
                    shutil.rmtree(doomed)
                directory.rename(doomed)
                _fsync_dir(self.root)
                shutil.rmtree(doomed)
            except OSError as exc:
                raise translate(exc) from exc
        log.info("deleted memory of scope %r", scope)

    def scopes(self) -> list[str]:
        """Every scope with a directory in the tree, sorted."""
        try:
            names = [p.name for p in self.root.iterdir() if p.is_dir()]
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise translate(exc) from exc
        found = []
        for name in names:
            try:
                found.append(decode_scope(name))
            except InvalidArgument:
                continue
        return sorted(found)

    def iter_all_entries(self) -> Iterator[HistoryEntry]:
        """Every entry of every scope, scope by scope: what a reindex reads."""
        for scope in self.scopes():
            yield from self.entries(scope)
