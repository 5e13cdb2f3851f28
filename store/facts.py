"""The facts of a ``MEMORY.md``: text, the date of their newest source, and their sources.

One fact is one bullet line that a person can read and edit::

    - [2026-11-24] Carl moved to Lisbon. <!-- from {"cli:carl":["m7"]} -->

The date (UTC day of the newest message behind the fact) comes first so the
prompt says which of two facts is newer; the sources (session name → message
ids) sit in an HTML comment at the end, where Markdown viewers hide them.
Both parts are optional: a hand-written ``- Prefers tea`` is a fact without
date or sources. A fact's id (``fact_id``) is a short hash of its words:
the same words give the same id in every read, on every restart, wherever
the line moves, and a fact whose words change is a new fact with a new id. Sources are what makes ``forget`` exact: a fact whose every
source session is forgotten goes, one also supported by another session
stays with that session as its source, and a fact without sources (written
by hand) is never removed by a forget.

A line that looks like a fact but whose source comment does not parse is
kept verbatim as text (nothing a person wrote is dropped) and reported by
``parse_memory`` as a problem.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable

import msgspec

__all__ = [
    "Fact",
    "drop_fact",
    "drop_session",
    "fact_id",
    "fact_key",
    "merge_facts",
    "parse_memory",
    "prompt_view",
    "render_memory",
    "replace_fact",
]

_BULLET = re.compile(r"^\s*[-*+]\s+")
_DATE = re.compile(r"^\[(\d{4}-\d{2}-\d{2})\]\s+")
_SOURCES = re.compile(r"\s*<!-- from (\{.*\}) -->\s*$")
_sources_decoder = msgspec.json.Decoder(dict[str, list[str]])


class Fact(msgspec.Struct, kw_only=True):
    """One line of ``MEMORY.md``; ``sources`` maps session names to message ids."""

    text: str
    date: str = ""
    sources: dict[str, list[str]] = msgspec.field(default_factory=dict)

    def line(self) -> str:
        date = f"[{self.date}] " if self.date else ""
        if not self.sources:
            return f"- {date}{self.text}"
        ordered = {k: sorted(set(v)) for k, v in sorted(self.sources.items())}
        raw = msgspec.json.encode(ordered).decode()
        # "<" and ">" only occur inside JSON strings: escaped, "-->" cannot end the comment early.
        raw = raw.replace("<", "\\u003c").replace(">", "\\u003e")
        return f"- {date}{self.text} <!-- from {raw} -->"


def fact_key(text: str) -> str:
    """Case-, whitespace- and punctuation-insensitive identity of a fact's text."""
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())


def fact_id(text: str) -> str:
    """The fact's id: 8 hex digits of the hash of its ``fact_key`` (its words)."""
    return hashlib.sha256(fact_key(text).encode()).hexdigest()[:8]


def _parse_line(line: str) -> tuple[Fact | None, str | None]:
    """The fact on ``line`` (None for layout: headings, blank lines) and a problem, if any."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None, None
    body = " ".join(_BULLET.sub("", stripped).split())
    problem = None
    sources: dict[str, list[str]] = {}
    match = _SOURCES.search(body)
    if match:
        try:
            sources = _sources_decoder.decode(match.group(1))
            body = body[: match.start()].rstrip()
        except msgspec.DecodeError as exc:
            problem = f"unreadable sources, kept as text: {stripped[:80]!r} ({exc})"
    elif "<!--" in body:
        problem = f"a comment that is not a source list, kept as text: {stripped[:80]!r}"
    date = ""
    if dated := _DATE.match(body):
        date, body = dated.group(1), body[dated.end() :]
    if not fact_key(body):
        return None, problem
    return Fact(text=body, date=date, sources=sources), problem


def parse_memory(text: str) -> tuple[list[Fact], list[str]]:
    """The facts of a ``MEMORY.md`` in order, and what could not be read exactly.

    Never loses a line that has words: an unreadable source comment leaves
    the line's text as the fact.
    """
    facts, problems = [], []
    for line in text.splitlines():
        fact, problem = _parse_line(line)
        if fact is not None:
            facts.append(fact)
        if problem is not None:
            problems.append(problem)
    return facts, problems


def prompt_view(memory_text: str) -> str:
    """``MEMORY.md`` as a prompt shows it: every line as written, less its source comment.

    Sources are bookkeeping for ``forget`` and search provenance, not words
    for the model (they were half the prompt's memory tokens). Line by line,
    so a fact appended to the file appends a line to the view: the prefix a
    host's KV cache holds survives. A comment that does not parse as
    sources is text someone wrote and stays.
    """
    lines = []
    for line in memory_text.splitlines(keepends=True):
        match = _SOURCES.search(line)
        if match and _sources_parse(match.group(1)):
            ending = line[len(line.rstrip("\r\n")) :]
            line = line[: match.start()] + ending
        lines.append(line)
    return "".join(lines)


def _sources_parse(raw: str) -> bool:
    try:
        _sources_decoder.decode(raw)
    except msgspec.DecodeError:
        return False
    return True


def render_memory(facts: Iterable[Fact]) -> str:
    lines = [fact.line() for fact in facts]
    return "# Memory\n\n" + "".join(f"{line}\n" for line in lines) if lines else ""


def merge_facts(
    memory_text: str,
    new_facts: Iterable[str | Fact],
    max_tokens: int,
    count_tokens: Callable[[str], int],
) -> str:
    """``MEMORY.md`` as a bulleted list: the facts in ``memory_text``, then ``new_facts``.

    Append-ordered, so the memory block a host or a consolidation prompt
    last sent is still a prefix of the new one and a server's KV cache of it
    survives: a fact that repeats an earlier one (same ``fact_key``) leaves
    the earlier line as it is, byte for byte, where it is (its sources are
    not joined: a forget of the earlier sources then removes the fact even
    though the repeat said it too, which errs on the side of forgetting).
    Only over ``max_tokens`` (the oldest fact goes first) does an earlier
    line go; consolidation's merge, which also retires what stopped being
    true, is ``actors/consolidation/truth.py``. The output depends only on
    the arguments.
    """
    merged: dict[str, Fact] = {}
    old, _ = parse_memory(memory_text)
    for item in [*old, *new_facts]:
        fact = item if isinstance(item, Fact) else _parse_line(item)[0]
        if fact is None:
            continue
        key = fact_key(fact.text)
        if key in merged:
            continue
        merged[key] = fact
    facts = list(merged.values())
    while facts and count_tokens(render_memory(facts)) > max_tokens:
        facts.pop(0)
    return render_memory(facts)


def drop_session(memory_text: str, session: str) -> tuple[str, int]:
    """``MEMORY.md`` without ``session`` as a source; facts left with no source go.

    Returns the new text and how many facts went. Facts that never had a
    source (written by hand) stay.
    """
    facts, _ = parse_memory(memory_text)
    if not any(session in fact.sources for fact in facts):
        return memory_text, 0
    kept, dropped = [], 0
    for fact in facts:
        if session not in fact.sources:
            kept.append(fact)
            continue
        sources = {k: v for k, v in fact.sources.items() if k != session}
        if sources:
            kept.append(Fact(text=fact.text, date=fact.date, sources=sources))
        else:
            dropped += 1
    return render_memory(kept), dropped


def replace_fact(memory_text: str, old_id: str, new: Fact) -> str | None:
    """``MEMORY.md`` with the fact ``old_id`` replaced by ``new`` in its place; None if absent.

    The fact keeps its sources (a forget of them still removes it). The
    lines before it are unchanged, so a prompt's cached prefix up to it holds.
    """
    facts, _ = parse_memory(memory_text)
    at = next((i for i, f in enumerate(facts) if fact_id(f.text) == old_id), None)
    if at is None:
        return None
    facts[at] = Fact(text=new.text, date=new.date, sources=facts[at].sources)
    return render_memory(facts)


def drop_fact(memory_text: str, text: str) -> tuple[str, int]:
    """``MEMORY.md`` without the facts whose ``fact_key`` is that of ``text``; how many went."""
    key = fact_key(text)
    facts, _ = parse_memory(memory_text)
    kept = [fact for fact in facts if fact_key(fact.text) != key]
    if len(kept) == len(facts):
        return memory_text, 0
    return render_memory(kept), len(facts) - len(kept)
