"""Facts by id: list, add, replace and forget one fact of a scope, and find its history.

A fact's id is a hash of its words (``store.fact_id``). Edits go one at a
time through the ``MemoryKeeper`` (``change``), which re-reads the prompt
prefix and tells the index; a forget goes through the ``Forgetter`` like
``memory_forget_fact``. Each runs as a task of the connection.
"""

from __future__ import annotations

import time

import msgspec
import trio

from reverie.actors import Forgetter, MemoryKeeper, Services, validate_name
from reverie.config import Conflict, InvalidArgument, NotFound
from reverie.store import (
    Fact,
    HistoryEntry,
    entry_day,
    fact_id,
    fact_key,
    merge_facts,
    parse_memory,
    replace_fact,
)

from .. import protocol as p
from .calls import Replier, run

__all__ = ["FACT_REQUESTS", "MAX_FACT_CHARS", "FactOps"]

FACT_REQUESTS = (p.Facts, p.FactEdit, p.FactHistory)


class FactOps:
    """The fact operations, bound to the memory's owner and the forgetter."""

    def __init__(self, memory: MemoryKeeper, forgetter: Forgetter, services: Services) -> None:
        self.memory = memory
        self.forgetter = forgetter
        self.services = services

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        rid = request.rid
        match request:
            case p.Facts(scope=scope):
                reply = replier(rid, lambda f: p.FactsReply(rid=rid, facts=f))
                nursery.start_soon(run, reply, self._facts, scope)
            case p.FactEdit(scope=scope, id=fid, text=text):
                reply = replier(rid, lambda f: p.FactEditReply(rid=rid, fact=f))
                nursery.start_soon(run, reply, self._fact_edit, scope, fid, text)
            case p.FactHistory(scope=scope, id=fid):
                reply = replier(rid, lambda e: p.FactHistoryReply(rid=rid, entries=e))
                nursery.start_soon(run, reply, self._fact_history, scope, fid)

    async def _facts(self, scope: str) -> list[p.FactView]:
        validate_name("scope", scope)
        facts, _ = parse_memory(await self.memory.text(scope))
        return [_view(f) for f in facts]

    async def _fact_edit(self, scope: str, fid: str | None, text: str | None) -> p.FactView | None:
        """Add (no ``fid``), replace (``fid`` and ``text``) or forget (``fid``) one fact."""
        validate_name("scope", scope)
        if fid is None:
            return await self._fact_add(scope, _fact_text(text))
        old = await self._fact(scope, fid)
        if text is None:
            await self.forgetter.forget_fact(scope, old.text)
            return None
        return await self._fact_update(scope, fid, _fact_text(text))

    async def _fact_history(self, scope: str, fid: str) -> list[p.HistoryEntryView]:
        validate_name("scope", scope)
        entries = await self.memory.entries(scope)
        return [view for e in entries if (view := _history_view(e, fid)) is not None]

    async def _fact(self, scope: str, fid: str) -> Fact:
        facts, _ = parse_memory(await self.memory.text(scope))
        found = next((f for f in facts if fact_id(f.text) == fid), None)
        if found is None:
            raise NotFound(f"no fact {fid!r} in scope {scope!r} (`reverie fact list {scope}`)")
        return found

    async def _fact_add(self, scope: str, text: str) -> p.FactView:
        fact = Fact(text=text, date=self._today())
        cfg, tokens = self.services.config.consolidation, self.services.tokens
        await self.memory.change(
            scope, lambda m: merge_facts(m, [fact], cfg.memory_max_tokens, tokens.count)
        )
        return await self._fact_view(scope, fact_id(text))

    async def _fact_update(self, scope: str, fid: str, text: str) -> p.FactView:
        new = Fact(text=text, date=self._today())

        def change(memory: str) -> str:
            facts, _ = parse_memory(memory)
            if any(fact_key(f.text) == fact_key(text) and fact_id(f.text) != fid for f in facts):
                raise Conflict(f"scope {scope!r} already has the fact {text!r}")
            replaced = replace_fact(memory, fid, new)
            if replaced is None:  # deleted since it was looked up
                raise NotFound(f"no fact {fid!r} in scope {scope!r}")
            return replaced

        await self.memory.change(scope, change)
        return await self._fact_view(scope, fact_id(text))

    async def _fact_view(self, scope: str, fid: str) -> p.FactView:
        return _view(await self._fact(scope, fid))

    def _today(self) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self.services.now()))


#: The longest fact a host may write: one line a person reads at a glance.
MAX_FACT_CHARS = 500


def _fact_text(text: str | None) -> str:
    """``text`` as one fact line, or an ``InvalidArgument`` saying what is wrong with it."""
    line = " ".join((text or "").split())
    if not fact_key(line):
        raise InvalidArgument("a fact needs words: pass its text")
    if len(line) > MAX_FACT_CHARS:
        raise InvalidArgument(f"a fact is at most {MAX_FACT_CHARS} characters; this is {len(line)}")
    if "<!--" in line or line.startswith("#"):
        raise InvalidArgument("a fact cannot start with '#' or hold '<!--' (Markdown markup)")
    return line


def _history_view(entry: HistoryEntry, fid: str) -> p.HistoryEntryView | None:
    """``entry`` as the wire shows it if it recorded the fact ``fid`` (None if not), ``until``
    its day when it retired the fact; each of its facts' ids is computed once."""
    retired = any(fact_id(text) == fid for text in entry.retired)
    if not retired and not any(fact_id(text) == fid for text in entry.facts):
        return None
    view = msgspec.convert(entry, p.HistoryEntryView, from_attributes=True)
    return msgspec.structs.replace(view, until=entry_day(entry)) if retired else view


def _view(fact: Fact) -> p.FactView:
    return p.FactView(id=fact_id(fact.text), text=fact.text, date=fact.date, sources=fact.sources)
