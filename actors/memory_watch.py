"""Hand edits of the memory tree reach the daemon: a cheap watcher by mtime, size and hash.

People edit ``MEMORY.md`` and history files with their own editor. Twice a
second the watcher stats every Markdown file under ``memory/`` (one
``stat`` per file, no reads); a file whose mtime or size moved is read and
hashed, and if its bytes differ from both what the watcher saw last and
what reverie itself last wrote there (``MemoryFiles.written``; unless they
replace a hand edit: a person may have reverted one), its scope
is reported edited (``SessionHooks.memory_edited``): the memory prefix is
re-read and the index's facts and episodes for the scope are rebuilt. A
deleted file counts as an edit too.

Every edit is also checked: an unreadable source comment in ``MEMORY.md``
or a broken metadata line in a history file is logged as a warning and
listed in ``status`` (``memory.problems``) until fixed. Nothing unreadable
is dropped: such lines stay in the files, and a fact line stays a fact.
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from reverie.config import InvalidArgument, ReverieError
from reverie.store import (
    MemoryFiles,
    decode_scope,
    encode_scope,
    history_problems,
    parse_memory,
)

from .services import Services

__all__ = ["MemoryWatcher", "scope_problems"]

log = logging.getLogger(__name__)
INTERVAL = 0.5


@dataclass(slots=True)
class _Seen:
    mtime_ns: int
    size: int
    digest: str
    hand: bool  # these bytes are not what reverie last wrote there


@dataclass(slots=True)
class _Scan:
    edited: dict[str, list[Path]] = field(default_factory=dict)


def scope_problems(memory: MemoryFiles, scope: str) -> list[str]:
    """What cannot be read exactly in the scope's Markdown, file by file."""
    try:
        problems = [f"MEMORY.md: {p}" for p in parse_memory(memory.read_memory(scope))[1]]
    except ReverieError as exc:
        problems = [f"MEMORY.md: {exc.message}"]
    history = memory.root / encode_scope(scope) / "history"
    for path in sorted(history.glob("*.md")) if history.is_dir() else []:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"history/{path.name}: unreadable: {exc}")
            continue
        problems += [f"history/{path.name}: {p}" for p in history_problems(text)]
    return problems


class MemoryWatcher:
    """Polls the memory tree; ``run`` is its task."""

    def __init__(self, services: Services, memory: MemoryFiles) -> None:
        self.services = services
        self.memory = memory
        self._seen: dict[Path, _Seen] = {}
        self.problems: dict[str, list[str]] = {}
        self.edits = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        await trio.to_thread.run_sync(self._scan, True)  # the state at start is not an edit
        task_status.started()
        while True:
            await trio.sleep(INTERVAL)
            try:
                scan = await trio.to_thread.run_sync(self._scan)
            except OSError as exc:
                log.warning("memory watcher: %s", exc)
                continue
            for scope, paths in scan.edited.items():
                self.edits += 1
                log.info(
                    "memory of scope %r edited outside reverie (%s)",
                    scope,
                    ", ".join(p.name for p in paths),
                )
                self.services.hooks.memory_edited(scope)
                await self._check(scope)

    async def _check(self, scope: str) -> None:
        problems = await trio.to_thread.run_sync(scope_problems, self.memory, scope)
        if problems:
            self.problems[scope] = problems
            for problem in problems:
                log.warning("memory of scope %r: %s", scope, problem)
        else:
            self.problems.pop(scope, None)

    def _files(self) -> list[Path]:
        found = []
        try:
            scopes = [d for d in os.scandir(self.memory.root) if d.is_dir()]
        except FileNotFoundError:
            return []
        for entry in scopes:
            base = Path(entry.path)
            found.append(base / "MEMORY.md")
            history = base / "history"
            if history.is_dir():
                found += [p for p in history.iterdir() if p.suffix == ".md"]
        return found

    def _scan(self, initial: bool = False) -> _Scan:
        scan = _Scan()
        current: dict[Path, _Seen] = {}
        for path in self._files():
            try:
                info = path.stat()
            except FileNotFoundError:
                continue
            seen = self._seen.get(path)
            if seen is not None and (seen.mtime_ns, seen.size) == (info.st_mtime_ns, info.st_size):
                current[path] = seen
                continue
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except FileNotFoundError:
                continue
            ours = self.memory.written.get(path) == digest
            current[path] = _Seen(info.st_mtime_ns, info.st_size, digest, hand=not ours)
            if seen is None:
                changed = not initial and not ours  # a file a person added
            else:  # ours after a hand edit: a person may have reverted it
                changed = seen.digest != digest and (not ours or seen.hand)
            if changed:
                self._note(scan, path)
        for path in self._seen.keys() - current.keys():
            if _scope_dir(path).exists():  # deleted by hand; a forget takes the whole directory
                self._note(scan, path)
        self._seen = current
        return scan

    def _note(self, scan: _Scan, path: Path) -> None:
        try:
            scope = decode_scope(_scope_dir(path).name)
        except InvalidArgument:
            return  # not a scope (a hidden temp or deleting directory)
        scan.edited.setdefault(scope, []).append(path)

    def status(self) -> dict[str, Any]:
        return {"edits_noticed": self.edits, "problems": dict(self.problems)}

    async def problems_of(self, scope: str) -> list[str]:
        """What cannot be read exactly in ``scope``'s Markdown now (read off the event loop)."""
        return await trio.to_thread.run_sync(scope_problems, self.memory, scope)


def _scope_dir(path: Path) -> Path:
    return path.parent if path.name == "MEMORY.md" else path.parent.parent
