"""Forgetting inside a scope's Markdown: one session's episodes and facts, or one fact.

A session that shares a scope (``user/carl``) leaves episodes in the scope's
history files and facts in its ``MEMORY.md``. Forgetting it removes its
episodes and the facts that only it supports (see ``facts.drop_session``);
forgetting a fact removes it from ``MEMORY.md`` and from the fact lists of
the scope's episodes. Each file is rewritten whole and atomically
(``memory_files``), so the old bytes leave with the old inode; everything
else in the files is kept byte for byte. Both are idempotent: a forget job
redone after a crash finds nothing more to remove.

Blocking, like ``MemoryFiles``; run in a worker thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import msgspec

from reverie.config import default_scope

from ..base.journal import ForgetJob
from ..errors import translate
from ..facts import drop_fact, drop_session, fact_key
from ..history import parse_history, render_entry, without_entries
from .memory_files import MEMORY_FILE, MemoryFiles, read_bytes

__all__ = ["forget_fact", "forget_files", "forget_session"]

log = logging.getLogger(__name__)


def _rewrite(files: MemoryFiles, scope: str, edit: Callable[[str, bool], tuple[str, int]]) -> int:
    """Apply ``edit(text, is_memory)`` to MEMORY.md and every history file; total count."""
    directory = files._scope_dir(scope)
    total = 0
    with files._lock:
        try:
            paths = [(p, False) for p in files._day_files(scope)]
            memory = directory / MEMORY_FILE
            if memory.exists():
                paths.append((memory, True))
            for path, is_memory in paths:
                text = read_bytes(path).decode("utf-8")
                new, count = edit(text, is_memory)
                if new != text:
                    files._write(path, new)
                total += count
        except OSError as exc:
            raise translate(exc) from exc
    return total


def forget_session(files: MemoryFiles, scope: str, session: str) -> int:
    """Remove ``session``'s episodes from ``scope`` and the facts only it supports."""

    def edit(text: str, is_memory: bool) -> tuple[str, int]:
        if is_memory:
            return drop_session(text, session)
        return without_entries(text, lambda e: e.session == session)

    removed = _rewrite(files, scope, edit)
    log.info("forgot session %r in scope %r: %d episodes and facts", session, scope, removed)
    return removed


def forget_fact(files: MemoryFiles, scope: str, fact: str) -> int:
    """Remove ``fact`` (by ``fact_key``) from ``MEMORY.md`` and the scope's episodes."""
    key = fact_key(fact)

    def edit(text: str, is_memory: bool) -> tuple[str, int]:
        if is_memory:
            return drop_fact(text, fact)
        touched = [
            e
            for e in parse_history(text)
            if any(fact_key(f) == key for f in [*e.facts, *e.retired])
        ]
        for entry in touched:
            kept = [f for f in entry.facts if fact_key(f) != key]
            retired = [f for f in entry.retired if fact_key(f) != key]
            replacement = msgspec.structs.replace(entry, facts=kept, retired=retired)
            text = text.replace(render_entry(entry), render_entry(replacement))
        return text, len(touched)

    return _rewrite(files, scope, edit)


def forget_files(files: MemoryFiles, job: ForgetJob) -> int:
    """Do ``job``'s part in the Markdown; how many episodes and facts it removed.

    A fact leaves ``MEMORY.md`` and the episodes; a session leaves a shared
    scope (its episodes and the facts only it supports), or takes its own
    scope (``session/<name>``) with it whole.
    """
    if job.session is None:
        assert job.fact is not None
        return forget_fact(files, job.scope, job.fact)
    if job.scope == default_scope(job.session):
        files.delete_scope(job.scope)
        return 0
    return forget_session(files, job.scope, job.session)
