"""One job's content: the oldest turns distilled into a history entry and a new ``MEMORY.md``.

With an LLM backend the model writes a summary, new facts, and updates and
deletes of shown facts by id; only what the turns support is kept
(``answer.accept``), beside the extractive facts of the same turns, and
reverie applies it to ``MEMORY.md`` (replaced facts in place, new ones
appended), not the model, so the memory block up to the first changed fact
stays a prefix of the next prompt's. Failed calls are retried
with backoff, each attempt recorded on the job in the database. After ``max_attempts`` failed calls
the turns stay in the tail (the job stays open and is retried later), or,
once the tail is over ``hard_tokens``, they are archived raw with their
facts extracted without a model, so no user statement leaves the prompt
unrecorded. Without an LLM the extractive consolidation is the result.

Nothing here writes a file: ``prepare`` returns the result as data
(``ApplyRequest``) for the session actor to hand to the memory's owner.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

import msgspec
import trio

from reverie.config import LLMError, LLMRateLimited
from reverie.store import Job, MessageRecord, job_entry

from ..memory.keeper import MemoryKeeper
from ..services import Services
from .answer import REVISIONS_DROPPED, accept
from .backends import Backend
from .extractive import extractive_consolidation
from .prompt import ModelAnswer
from .requests import ApplyRequest
from .result import ConsolidationResult
from .retry import backoff_delay

__all__ = ["Distiller"]

log = logging.getLogger(__name__)
T = TypeVar("T")


def _raw_result(turns: list[MessageRecord], extracted: ConsolidationResult) -> ConsolidationResult:
    """The turns kept verbatim, with the facts extracted without a model: what gets
    archived when the LLM keeps failing."""
    lines = [f"{t.role}: {t.content}" for t in turns]
    return msgspec.structs.replace(extracted, summary="\n".join(lines))


class Distiller:
    """Turns a job's turns into its result; reads the memory through its owner, writes nothing."""

    def __init__(self, services: Services, memory: MemoryKeeper) -> None:
        self.services = services
        self.memory = memory
        self.cfg = services.config.consolidation

    async def prepare(self, job: Job, turns: list[MessageRecord], backend: Backend) -> ApplyRequest:
        """The job's result as data: its history entry and the scope's new ``MEMORY.md``."""
        if await self.memory.has_entry(job.scope, job.entry_id):
            return ApplyRequest(job, "done", None, "", "")  # written before a crash
        current = await self.memory.text(job.scope)
        result, state = await self._produce(job, current, turns, backend)
        entry = job_entry(
            job,
            turns,
            result.summary,
            result.facts,
            raw=state == "extractive",
            retired=[fact.text for fact in result.retired],
        )
        return ApplyRequest(job, state, entry, result.memory, base=current)

    async def _produce(
        self, job: Job, memory: str, turns: list[MessageRecord], backend: Backend
    ) -> tuple[ConsolidationResult, str]:
        if backend.llm is None:
            return await self._extract(memory, turns, job.session), "done"
        now = self.services.now()
        for attempt in range(1, self.cfg.max_attempts + 1):
            await backend.wait_no_stream()
            try:
                answer = await backend.llm.consolidate(
                    memory=memory, turns=turns, now=now, attempt=attempt
                )
            except LLMError as exc:
                await self._record_failure(job, exc)
                if attempt == self.cfg.max_attempts:
                    return await self._give_up(job, memory, turns, backend, exc)
                self.services.counters["consolidation_retries"] += 1
                retry_after = exc.retry_after if isinstance(exc, LLMRateLimited) else None
                await trio.sleep(
                    backoff_delay(attempt, base=self.cfg.retry_base, retry_after=retry_after)
                )
                continue
            return await self._accept(answer, memory, turns, job.session, backend), "done"
        raise AssertionError("unreachable: max_attempts is at least 1")

    async def _record_failure(self, job: Job, exc: LLMError) -> None:
        """Record a failed attempt on ``job`` (its error code, and when); the client counted it."""
        await self.services.db.write(lambda t: t.record_attempt(job.id, exc.code, time.time()))

    async def _give_up(
        self,
        job: Job,
        memory: str,
        turns: list[MessageRecord],
        backend: Backend,
        exc: LLMError,
    ) -> tuple[ConsolidationResult, str]:
        """After ``max_attempts`` failed calls: keep the turns in the tail, or past
        ``hard_tokens`` archive them raw with their facts extracted without a model.

        Keeping them raises ``exc`` (re-worded): the job stays open and the
        caller retries it after a backoff.
        """
        record = await self.services.db.read(lambda t: t.load_session(job.session))
        tail = 0 if record is None else record.tail_tokens
        if tail <= self.cfg.hard_tokens:
            backend.outcomes["retried"] += 1
            raise type(exc)(
                f"{exc.message} (after {self.cfg.max_attempts} attempts); the {job.count} "
                f"messages stay in the tail ({tail} tokens, hard limit "
                f"{self.cfg.hard_tokens}) and consolidation is retried"
            )
        log.error(
            "llm failed %d times and the tail is over hard_tokens (%d > %d): "
            "archiving the turns raw with extractive facts",
            self.cfg.max_attempts,
            tail,
            self.cfg.hard_tokens,
            extra={"session": job.session},
        )
        extracted = await self._extract(memory, turns, job.session)
        return _raw_result(turns, extracted), "extractive"

    async def _accept(
        self,
        answer: ModelAnswer,
        memory: str,
        turns: list[MessageRecord],
        session: str,
        backend: Backend,
    ) -> ConsolidationResult:
        """The grounded part of the model's answer as the job's result; what was dropped, counted."""
        count, cap = self.services.tokens.count, self.cfg.memory_max_tokens
        accepted = await _in_thread(
            lambda: accept(answer, memory, turns, session, max_tokens=cap, count_tokens=count)
        )
        backend.count_facts(accepted.counts)
        counts = accepted.counts
        dropped = {k: counts[k] for k in REVISIONS_DROPPED if counts[k]}
        if counts["dropped"] or counts["summary_dropped"] or counts["over_cap"] or dropped:
            log.info(
                "dropped %d facts and %d summary sentences not found in the turns (kept %d), "
                "%d facts, updates or deletes past the answer's bounds, and updates or deletes "
                "%s (unknown id, a fact the turns are not about, replacement not in the turns "
                "or chatter)",
                counts["dropped"],
                counts["summary_dropped"],
                counts["kept"],
                counts["over_cap"],
                dropped or "none",
                extra={"session": session},
            )
        return accepted.result

    async def _extract(
        self, memory: str, turns: list[MessageRecord], session: str
    ) -> ConsolidationResult:
        count, cap = self.services.tokens.count, self.cfg.memory_max_tokens
        return await _in_thread(
            lambda: extractive_consolidation(
                memory, turns, max_tokens=cap, count_tokens=count, session=session
            )
        )


async def _in_thread(work: Callable[[], T]) -> T:
    """CPU work of a job (checking, extracting, merging) off the event loop."""
    return await trio.to_thread.run_sync(work)
