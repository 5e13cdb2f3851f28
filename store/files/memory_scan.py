"""Noticing hand edits of the memory tree: a cheap scan by mtime, size and hash, and a check.

People edit ``MEMORY.md`` and history files with their own editor.
``MemoryScan.scan`` stats every Markdown file under the tree (one ``stat``
per file, no reads); a file whose mtime or size moved is read and hashed,
and if its bytes differ from both what the scan saw last and what reverie
itself last wrote there (``MemoryFiles.written``; unless they replace a
hand edit: a person may have reverted one), its scope is reported edited. A
deleted file counts as an edit too (a forget takes a whole directory, which
is not one).

``scope_problems`` lists what cannot be read exactly in a scope's Markdown.

Blocking; actors reach both through ``MemoryStore``.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from reverie.config import InvalidArgument, ReverieError

from ..facts import parse_memory
from ..history import history_problems
from .memory_files import (
    HISTORY_DIR,
    MEMORY_FILE,
    MemoryFiles,
    encode_scope,
    read_bytes,
    scope_of_dir,
)

__all__ = ["MemoryScan", "scope_problems"]


@dataclass(slots=True)
class _Seen:
    mtime_ns: int
    size: int
    digest: str
    hand: bool  # these bytes are not what reverie last wrote there


def scope_problems(memory: MemoryFiles, scope: str) -> list[str]:
    """What cannot be read exactly in the scope's Markdown, file by file."""
    try:
        problems = [f"MEMORY.md: {p}" for p in parse_memory(memory.read_memory(scope))[1]]
    except ReverieError as exc:
        problems = [f"MEMORY.md: {exc.message}"]
    history = memory.root / encode_scope(scope) / HISTORY_DIR
    linked = history.is_symlink()
    if linked:
        problems.append(f"{HISTORY_DIR}: a symbolic link, never followed")
    for path in sorted(history.glob("*.md")) if history.is_dir() and not linked else []:
        try:
            text = read_bytes(path).decode("utf-8")
        except (OSError, UnicodeDecodeError, ReverieError) as exc:
            problems.append(f"history/{path.name}: unreadable: {exc}")
            continue
        problems += [f"history/{path.name}: {p}" for p in history_problems(text)]
    return problems


class MemoryScan:
    """What the tree looked like at the last scan; ``scan`` reports what changed since."""

    def __init__(self, memory: MemoryFiles) -> None:
        self.memory = memory
        self._seen: dict[Path, _Seen] = {}

    def _files(self) -> list[Path]:
        found = []
        try:
            scopes = [d for d in os.scandir(self.memory.root) if d.is_dir(follow_symlinks=False)]
        except FileNotFoundError:
            return []
        for entry in scopes:
            base = Path(entry.path)
            found.append(base / MEMORY_FILE)
            history = base / HISTORY_DIR
            if history.is_dir() and not history.is_symlink():
                found += [p for p in history.iterdir() if p.suffix == ".md"]
        return found

    def scan(self, initial: bool = False) -> dict[str, list[Path]]:
        """The scopes edited outside reverie since the last scan, with their files.

        ``initial``: the state at start is remembered, not reported.
        """
        edited: dict[str, list[Path]] = {}
        current: dict[Path, _Seen] = {}
        for path in self._files():
            try:
                info = path.lstat()
            except FileNotFoundError:
                continue
            seen = self._seen.get(path)
            if seen is not None and (seen.mtime_ns, seen.size) == (info.st_mtime_ns, info.st_size):
                current[path] = seen
                continue
            try:
                digest = hashlib.sha256(read_bytes(path)).hexdigest()
            except FileNotFoundError:
                continue
            except ReverieError:  # a symbolic link: an edit, which the reader will refuse
                digest = ""
            ours = self.memory.written.get(path) == digest
            current[path] = _Seen(info.st_mtime_ns, info.st_size, digest, hand=not ours)
            if seen is None:
                changed = not initial and not ours  # a file a person added
            else:  # ours after a hand edit: a person may have reverted it
                changed = seen.digest != digest and (not ours or seen.hand)
            if changed:
                _note(edited, path)
        for path in self._seen.keys() - current.keys():
            if _scope_dir(path).exists():  # deleted by hand; a forget takes the whole directory
                _note(edited, path)
        self._seen = current
        return edited


def _note(edited: dict[str, list[Path]], path: Path) -> None:
    try:
        scope = scope_of_dir(_scope_dir(path))
    except InvalidArgument:
        return  # not a scope (a hidden temp or deleting directory)
    edited.setdefault(scope, []).append(path)


def _scope_dir(path: Path) -> Path:
    return path.parent if path.name == MEMORY_FILE else path.parent.parent
