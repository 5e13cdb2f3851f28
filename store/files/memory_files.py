"""The Markdown memory tree: the source of truth for long-term memory.

Layout, one directory per scope::

    <root>/<encode_scope(scope)>/MEMORY.md               the scope's distilled memory
    <root>/<encode_scope(scope)>/history/YYYY-MM-DD.md   consolidated episodes, by UTC day

Scope names come from clients, so a path is never built from one directly:
``encode_scope`` turns any string into one safe path component that fits
the file-name limit (``scope_of_dir`` maps it back).

Guarantees:

- Every write replaces a whole file atomically (temp file in the same
  directory, fsync, rename, fsync of the directory): a crash leaves the old
  file or the new one, never a torn one.
- ``append_entry`` is idempotent by entry id across all of a scope's history
  files, so replaying a consolidation job after a crash is a no-op.
- No symbolic link under the tree is followed: a file is opened with
  ``O_NOFOLLOW``, a scope or history directory that is a link is refused
  (logged, ``StoreError``), and deleting a scope removes such a link itself.
- History files are meant to be read and edited by people (their format is
  ``history.py``'s).

Everything here blocks; actors reach it through ``MemoryStore``
(``memory_store.py``), which runs it in a worker thread. Mutations are
serialised by one lock per ``MemoryFiles``, so two threads appending to the
same scope cannot lose each other's entries.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote_to_bytes

from reverie.config import InvalidArgument

from ..errors import MemoryUnreadable, StoreError, translate
from ..history import HistoryEntry, entry_day, parse_history, render_entry

__all__ = ["MemoryFiles", "decode_scope", "encode_scope", "read_bytes", "scope_of_dir"]

log = logging.getLogger(__name__)

MEMORY_FILE = "MEMORY.md"
HISTORY_DIR = "history"
_MAX_COMPONENT_BYTES = 255  # NAME_MAX on every file system reverie supports
_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
#: Marks a name ``encode_scope`` cut short; never part of a percent-encoding.
_CUT = "~"
_HASH_CHARS = 32  # 128 bits of sha256: no two scopes share a cut name
SCOPE_FILE = ".scope"  # the scope of a directory whose name was cut
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")


def encode_scope(scope: str) -> str:
    """One path component for ``scope``: percent-encoding of every byte outside
    ``[A-Za-z0-9._-]`` (UTF-8), plus a leading ``.``, so ``.``, ``..`` and hidden
    names cannot occur. Reversible with ``decode_scope``.

    An encoding longer than the file-name limit is cut (never inside a
    ``%XX``) and completed by ``~`` and a hash of the whole scope: still one
    name per scope and always short enough, but no longer reversible, so the
    directory keeps the scope in its ``.scope`` file (``scope_of_dir``).
    Scopes whose encoding fits are named as they always were.

    Raises ``InvalidArgument`` for the empty scope.
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
    if len(encoded) <= _MAX_COMPONENT_BYTES:
        return encoded
    cut = _MAX_COMPONENT_BYTES - len(_CUT) - _HASH_CHARS
    if "%" in encoded[cut - 2 : cut]:
        cut = encoded.rindex("%", 0, cut)
    return f"{encoded[:cut]}{_CUT}{hashlib.sha256(raw).hexdigest()[:_HASH_CHARS]}"


def decode_scope(name: str) -> str:
    """The scope ``encode_scope`` turned into ``name`` (a name it did not cut).

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


def scope_of_dir(directory: Path) -> str:
    """The scope kept in ``directory``: decoded from its name, or, for a name
    ``encode_scope`` cut, read from its ``.scope`` file and checked against the name.

    Raises ``InvalidArgument`` for any directory that is not a scope's.
    """
    if _CUT not in directory.name:
        return decode_scope(directory.name)
    try:
        scope = read_bytes(directory / SCOPE_FILE).decode("utf-8")
    except (OSError, UnicodeDecodeError, StoreError):
        scope = ""
    if scope and encode_scope(scope) == directory.name:
        return scope
    raise InvalidArgument(f"{directory.name!r} is not a scope directory (no matching {SCOPE_FILE})")


def _linked(path: Path) -> StoreError:
    log.warning("refused to follow the symbolic link %s in the memory tree", path)
    return MemoryUnreadable(
        f"{path} is a symbolic link; reverie follows no link under memory/: "
        "replace it with a file or directory of its own, or forget its scope"
    )


def read_bytes(path: Path) -> bytes:
    """``path``'s bytes, never through a symbolic link (``StoreError`` if it is one).

    A missing file raises ``FileNotFoundError``, for the caller to treat.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _linked(path) from exc
        raise
    with os.fdopen(fd, "rb") as f:
        return f.read()


def _refuse_links(*paths: Path) -> None:
    for path in paths:
        if path.is_symlink():
            raise _linked(path)


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
    _refuse_links(path)
    if path.is_dir():
        return
    _ensure_dir(path.parent)
    path.mkdir(exist_ok=True)
    _fsync_dir(path.parent)


class MemoryFiles:
    """The memory tree under ``root``. Errors from the file system become ``StoreError``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._lock = threading.RLock()  # re-entrant: ``MemoryStore`` composes steps under it
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
        """The scope's directory; ``StoreError`` if it or its history is a symbolic link."""
        directory = self.root / encode_scope(scope)
        _refuse_links(directory, directory / HISTORY_DIR)
        return directory

    def _make_scope_dir(self, scope: str) -> Path:
        """Create the scope's directory; one with a cut name records its scope."""
        directory = self._scope_dir(scope)
        _ensure_dir(directory)
        if _CUT in directory.name and not (directory / SCOPE_FILE).exists():
            self._write(directory / SCOPE_FILE, scope)
        return directory

    def read_memory(self, scope: str) -> str:
        """The scope's ``MEMORY.md``; ``""`` when it does not exist."""
        path = self._scope_dir(scope) / MEMORY_FILE
        try:
            return read_bytes(path).decode("utf-8")
        except FileNotFoundError:
            return ""
        except OSError as exc:
            raise translate(exc) from exc
        except UnicodeDecodeError as exc:  # a hand edit in another encoding
            raise MemoryUnreadable(f"{path} is not UTF-8 ({exc.reason}); save it as UTF-8") from exc

    def write_memory(self, scope: str, text: str) -> None:
        """Replace the scope's ``MEMORY.md`` atomically."""
        with self._lock:
            try:
                self._write(self._make_scope_dir(scope) / MEMORY_FILE, text)
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
            return parse_history(read_bytes(path).decode("utf-8"))
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
        day = entry_day(entry)
        history = self._scope_dir(entry.scope) / HISTORY_DIR
        path = history / f"{day}.md"
        with self._lock:
            if entry.id in self.entry_ids(entry.scope):
                log.info("history entry %s already in scope %r; skipped", entry.id, entry.scope)
                return False
            try:
                self._make_scope_dir(entry.scope)
                _ensure_dir(history)
                try:
                    current = read_bytes(path).decode("utf-8")
                except FileNotFoundError:
                    current = f"# History · {day}\n"
                sep = "" if current.endswith("\n\n") else "\n" if current.endswith("\n") else "\n\n"
                self._write(path, current + sep + render_entry(entry))
            except OSError as exc:
                raise translate(exc) from exc
        log.info("appended history entry %s to scope %r", entry.id, entry.scope)
        return True

    def entries(self, scope: str, limit: int | None = None) -> list[HistoryEntry]:
        """The scope's entries, oldest first (by ``end_ts``); the newest ``limit`` if given.

        An entry is listed once by its id: a day file copied under another
        day's name (a backup by hand) does not double it. The copy in the file
        of the entry's own day wins, as that is the one consolidation wrote.
        """
        found: dict[str, HistoryEntry] = {}
        for path in reversed(self._day_files(scope)):
            for entry in self._read_entries(path):
                if entry.id not in found or entry_day(entry) == path.stem:
                    found[entry.id] = entry
            if limit is not None and len(found) >= limit:
                break
        ordered = sorted(found.values(), key=lambda e: e.end_ts)
        return ordered if limit is None else ordered[max(len(ordered) - limit, 0) :]

    def delete_scope(self, scope: str) -> None:
        """Remove the scope's memory and history; nothing happens if it has none.

        The directory is first renamed to a hidden name (which ``scopes`` never
        lists), so a crash mid-delete never leaves a half-deleted scope visible.
        """
        directory = self.root / encode_scope(scope)
        with self._lock:
            if directory.is_symlink():  # never followed: the link itself goes
                try:
                    directory.unlink()
                except OSError as exc:
                    raise translate(exc) from exc
                log.warning(
                    "deleted the symbolic link %s that stood for scope %r", directory, scope
                )
                return
            if not directory.exists():
                return
            # A short fixed-length name: ``.deleting-`` and a 255-byte name would not fit.
            digest = hashlib.sha256(directory.name.encode()).hexdigest()[:_HASH_CHARS]
            doomed = self.root / f".deleting-{digest}"
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
            dirs = [p for p in self.root.iterdir() if p.is_dir() and not p.is_symlink()]
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise translate(exc) from exc
        found = []
        for directory in dirs:
            try:
                found.append(scope_of_dir(directory))
            except InvalidArgument:
                continue
        return sorted(found)

    def iter_all_entries(self) -> Iterator[HistoryEntry]:
        """Every entry of every scope, scope by scope: what a reindex reads."""
        for scope in self.scopes():
            yield from self.entries(scope)
