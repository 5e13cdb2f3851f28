"""History files: the Markdown form of consolidated episodes, parsed and rendered.

A history file (``<scope>/history/YYYY-MM-DD.md``) is meant to be read and
edited by people: an entry's metadata sits in one HTML comment line that
round-trips exactly (``parse_history(render_entry(e)) == e``); the summary
and the facts list around it may be edited freely. An entry whose metadata
a person broke is skipped when reading but kept by every rewrite
(``without_entries``), so fixing the line brings it back.

Pure text functions: no file is touched here (``memory_files`` does that).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime

import msgspec

__all__ = [
    "HistoryEntry",
    "entry_day",
    "history_problems",
    "parse_history",
    "render_entry",
    "without_entries",
]

log = logging.getLogger(__name__)

_META = re.compile(r"^<!-- reverie:entry (\{.*\}) -->$")
_FACTS_MARKER = "**Facts**"
_RETIRED_MARKER = "**No longer true**"
_BULLET = re.compile(r"^\s*[-*+]\s+")


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
    #: Facts this episode took out of ``MEMORY.md`` because they stopped being true
    #: (superseded, corrected, retracted), true until the entry's day (``entry_day``).
    retired: list[str] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        self.summary = self.summary.replace("\r\n", "\n").strip()
        self.facts = _lines(self.facts)
        self.retired = _lines(self.retired)


def _lines(texts: list[str]) -> list[str]:
    return [f for f in (" ".join(text.split()) for text in texts) if f]


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
    facts follow the ``**Facts**`` line as a bulleted list, and the facts
    the episode retired follow a ``**No longer true** (until <day>)`` line.
    """
    parts = [_heading(entry), _meta_line(entry), ""]
    if entry.summary:
        parts += [entry.summary, ""]
    parts.append(_FACTS_MARKER)
    parts += [f"- {fact}" for fact in entry.facts]
    if entry.retired:
        parts += ["", f"{_RETIRED_MARKER} (until {entry_day(entry)})"]
        parts += [f"- {fact}" for fact in entry.retired]
    return "\n".join(parts) + "\n"


def _entry_from(meta: _Meta, body: list[str]) -> HistoryEntry:
    marker = max((i for i, line in enumerate(body) if line.strip() == _FACTS_MARKER), default=None)
    summary_lines, fact_lines = (
        (body, []) if marker is None else (body[:marker], body[marker + 1 :])
    )
    cut = next(
        (i for i, line in enumerate(fact_lines) if line.startswith(_RETIRED_MARKER)),
        len(fact_lines),
    )
    facts = _bullets(fact_lines[:cut])
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
        retired=_bullets(fact_lines[cut + 1 :]),
    )


def _bullets(lines: list[str]) -> list[str]:
    return [_BULLET.sub("", line) for line in lines if _BULLET.match(line)]


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


def entry_day(entry: HistoryEntry) -> str:
    """The UTC day (``YYYY-MM-DD``) whose history file holds ``entry`` (by ``end_ts``)."""
    return _utc(entry.end_ts).strftime("%Y-%m-%d")
