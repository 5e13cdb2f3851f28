"""Memory that stays true: conversations whose facts change, through a real daemon (issue 47).

The measure is the one in ``../shared/evaldata/README.md`` ("Facts that
change"): every conversation of ``truth-dev.json`` is appended to its own
session in its own scope (``name`` = the speaker on user turns, ``ts`` from
the turn's day offset), consolidated now at the end of each day, and the
scope's ``context().memory`` is read at the end. Each path runs in three
layouts (``LAYOUTS``): all days in one session; each day in a session of
its own in the same scope (a user's memory, written by many sessions: a
change said in a later session must replace the fact an earlier one said);
and the same with no ``name``, where reverie writes "The user" for the
speaker and the speaker's name in a ``current`` entry is read as "the
user". Per path it prints:

- current-fact recall: a ``current`` entry is found when all its words occur
  (case-insensitive) in one fact line (``- …``) of the memory;
- stale rate: the share of ``stale`` values found in any fact line;
- chatter lines: fact lines holding a ``chatter`` phrase;
- facts per conversation;
- on a path with a model, the shown facts it updated and deleted by id and
  the revisions dropped (``status``'s ``facts`` counts).

Paths (``paths()``): ``extractive`` (no LLM), ``scripted`` (the fake LLM of
``tests/fakellm.py`` answering with ``evals.memory_truth.script.answer``, a careful
model's rules, so reverie's update and delete by id is measured without a
model's noise) and, with ``--llm-url`` or ``$REVERIE_TRUTH_LLM_URL`` (e.g. a
``make llm`` server), ``model``. A path is a context manager that yields the
daemon's TOML configuration.

The data is not part of the repository: the module reads ``truth-dev.json``
and ``truth-dev-2.json`` (36 conversations) from ``$REVERIE_TRUTH`` (their
folder, e.g. ``/work/shared/evaldata`` from a worktree, or one file) or
``../shared/evaldata/`` beside the checkout, and skips with a message where
they are absent. Two modes (``LAYOUTS``): consolidated at the end of each
day, and once after all days (``one job``); ``--no-name`` adds the unnamed
layout, ``--scripted`` the scripted path.

Run: ``python -m evals memory_truth [--scripted]`` or ``python -m evals.memory_truth --llm-url URL``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench._machine import mark, say
from bench.report import Section
from evals.memory_truth.script import answer
from reverie.daemon.cli.sessions import WAIT
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPO.parent / "shared" / "evaldata"
#: The development files (``../shared/evaldata/README.md``): issue 47's twelve, issue 59's 24.
FILES = ("truth-dev.json", "truth-dev-2.json")
#: 2026-01-05 00:00 UTC: day 0 of every conversation.
EPOCH = 1767571200.0
DAY = 86400.0
_LINE = re.compile(r"^\s*-\s+(.*)$")

#: A path's daemon configuration: a context manager yielding the TOML it runs with.
PathConfig = Callable[[], contextlib.AbstractContextManager[str]]


BASE = "[consolidation]\nidle_after = 3600.0\n"
#: What ``status`` counts of a model's revisions, printed for the paths that have one.
REVISIONS = (
    "updated",
    "deleted",
    "update_unknown",
    "update_refused",
    "update_ungrounded",
    "update_chatter",
    "delete_refused",
    "over_cap",
)


@contextlib.contextmanager
def extractive_path() -> Iterator[str]:
    """No LLM: the extractive consolidation."""
    yield BASE


def _llm(url: str, model: str, timeout: float) -> str:
    return f'{BASE}[llm]\nbase_url = "{url}"\nmodel = "{model}"\ntimeout = {timeout}\n'


@contextlib.contextmanager
def scripted_path() -> Iterator[str]:
    """The fake LLM answering as ``script.answer`` does: updates and deletes by id."""
    with FakeLLM(default=answer) as llm:
        yield _llm(llm.base_url, "scripted", 30.0)


def model_path(url: str) -> PathConfig:
    """An OpenAI-compatible server at ``url`` (the packaged model under ``make llm``)."""

    @contextlib.contextmanager
    def config() -> Iterator[str]:
        yield _llm(url, "local", 300.0)

    return config


@dataclass(frozen=True, slots=True)
class Layout:
    """How a conversation is appended: its days in one session or one each, named or not,
    consolidated at each day's end or once after all days (``one_job``: what the default
    budget does when a session's tail passes 4,000 tokens)."""

    label: str
    daily: bool
    named: bool
    one_job: bool = False


LAYOUTS = (
    Layout(", day by day", daily=False, named=True),
    Layout(", one job", daily=False, named=True, one_job=True),
    Layout(", a session a day, no name", daily=True, named=False),
)


@dataclass(slots=True)
class Score:
    """One path's counts over the conversations."""

    current: int = 0
    found: int = 0
    stale: int = 0
    stale_found: int = 0
    chatter_lines: int = 0
    keep: int = 0
    kept: int = 0
    facts: int = 0
    jobs: int = 0
    job_seconds: float = 0.0
    conversations: int = 0
    misses: list[str] = field(default_factory=list)
    revisions: dict[str, int] = field(default_factory=dict)

    def add(self, conversation: dict, memory: str, *, named: bool = True) -> None:
        lines = [m.group(1).casefold() for m in map(_LINE.match, memory.splitlines()) if m]
        self.conversations += 1
        self.facts += len(lines)
        speaker = "" if named else conversation["speaker"].casefold()
        for entry in conversation["current"]:
            words = ["the user" if w.casefold() == speaker else w.casefold() for w in entry]
            self.current += 1
            if any(all(_has(line, w) for w in words) for line in lines):
                self.found += 1
            else:
                self.misses.append(f"{conversation['id']}: current {entry} missing")
        for value in conversation["stale"]:
            self.stale += 1
            if any(_has(line, value.casefold()) for line in lines):
                self.stale_found += 1
                self.misses.append(f"{conversation['id']}: stale {value!r} kept")
        for value in conversation.get("keep", ()):
            self.keep += 1
            if any(_has(line, value.casefold()) for line in lines):
                self.kept += 1
            else:
                self.misses.append(f"{conversation['id']}: distractor replaced {value!r}")
        for line in lines:
            if any(phrase.casefold() in line for phrase in conversation["chatter"]):
                self.chatter_lines += 1
                self.misses.append(f"{conversation['id']}: chatter line {line!r}")

    @property
    def recall(self) -> float:
        return self.found / self.current if self.current else 0.0

    @property
    def stale_rate(self) -> float:
        return self.stale_found / self.stale if self.stale else 0.0

    @property
    def kept_rate(self) -> float:
        return self.kept / self.keep if self.keep else 1.0


def _has(line: str, words: str) -> bool:
    """``words`` occur in ``line`` (case already folded), as the data's README counts."""
    return words in line


def run_conversation(
    client: object, conversation: dict, layout: Layout = LAYOUTS[0], score: Score | None = None
) -> str:
    """Append the conversation day by day, consolidating after each (or once at the end), as
    ``layout`` says; the final memory. ``score`` counts the jobs and their wall time."""
    cid = conversation["id"]
    session, scope = f"truth-{cid}", f"truth/{cid}"
    days: dict[int, list[dict]] = {}
    for turn in conversation["turns"]:
        days.setdefault(turn["day"], []).append(turn)
    for day, turns in sorted(days.items()):
        session = f"truth-{cid}-day{day}" if layout.daily else session
        for i, turn in enumerate(turns):
            user = turn["role"] == "user"
            client.append(  # type: ignore[attr-defined]
                session,
                turn["role"],
                turn["text"],
                name=conversation["speaker"] if user and layout.named else None,
                ts=EPOCH + day * DAY + 60.0 * i,
                scope=scope,
            )
        if not layout.one_job or day == max(days):
            started = time.perf_counter()
            client.consolidate(session, wait=True)  # type: ignore[attr-defined]
            if score is not None:
                score.jobs += 1
                score.job_seconds += time.perf_counter() - started
    return client.context(session).memory  # type: ignore[attr-defined]


def run_path(
    name: str, config: PathConfig, data: list[dict], verbose: bool, layout: Layout = LAYOUTS[0]
) -> Score:
    """Every conversation through a fresh daemon configured by ``config``."""
    score = Score()
    with config() as toml, tempfile.TemporaryDirectory() as tmp:
        daemon = DaemonProcess(Path(tmp), config=toml).start()
        try:
            # (a model's job may take minutes on a loaded machine: wait as the CLI does)
            with daemon.client(timeout=WAIT) as client:
                for conversation in data:
                    memory = run_conversation(client, conversation, layout, score)
                    score.add(conversation, memory, named=layout.named)
                    if verbose:
                        say(f"  -- {name} {conversation['id']}\n{memory.rstrip()}")
                backend = client.status().consolidation["default"]
                if backend.llm:  # empty for the extractive backend
                    score.revisions = {k: backend.facts.get(k, 0) for k in REVISIONS}
        finally:
            daemon.stop()
    return score


def load() -> list[dict] | None:
    """Every conversation of ``FILES`` in ``$REVERIE_TRUTH`` (a folder; a file: that one alone)
    or beside the checkout."""
    given = Path(os.environ.get("REVERIE_TRUTH", DEFAULT_DATA))
    found = [given] if given.is_file() else [given / name for name in FILES]
    if not all(path.exists() for path in found):
        return None
    return [conversation for path in found for conversation in json.loads(path.read_text())]


def paths(llm_url: str, scripted: bool) -> dict[str, PathConfig]:
    """The paths this run measures: extractive always, scripted if asked, the model given a URL."""
    found: dict[str, PathConfig] = {"extractive": extractive_path}
    if scripted:
        found["scripted"] = scripted_path
    if llm_url:
        found["model"] = model_path(llm_url)
    return found


def tail_cpu(data: list[dict], tokens: int = 4000) -> float:
    """CPU seconds of one extractive consolidation of a ``tokens`` tail of the conversations'
    user and assistant turns, the embedder's load included (it is loaded per job)."""
    from reverie.actors.consolidation.extractive import extractive_consolidation
    from reverie.store import MessageRecord

    turns: list[MessageRecord] = []
    said = [(c["speaker"], t) for c in data for t in c["turns"]]
    for speaker, turn in said:
        if sum(t.tokens for t in turns) >= tokens:
            break
        text = turn["text"]
        turns.append(
            MessageRecord(
                seq=len(turns), id=f"m{len(turns)}", role=turn["role"], content=text,
                ts=EPOCH + turn["day"] * DAY, tokens=len(text) // 4 + 1,
                name=speaker if turn["role"] == "user" else None,
            )
        )  # fmt: skip
    started = time.process_time()
    extractive_consolidation("", turns, max_tokens=2000, count_tokens=lambda t: len(t) // 4)
    return time.process_time() - started


def main(argv: list[str] | None = None) -> Section:
    argv = sys.argv[1:] if argv is None else argv
    say(__doc__.strip().splitlines()[0])
    section = Section(title="Memory that stays true (`evals/memory_truth/`, issues 47, 59)")
    data = load()
    if data is None:
        section.intro = f"Skipped: no data ({DEFAULT_DATA}/{FILES} or `$REVERIE_TRUTH`)."
        say(section.intro)
        return section
    url = os.environ.get("REVERIE_TRUTH_LLM_URL", "")
    if "--llm-url" in argv:
        url = argv[argv.index("--llm-url") + 1]
    verbose = "--verbose" in argv or bool(os.environ.get("REVERIE_TRUTH_VERBOSE"))
    layouts = LAYOUTS if "--no-name" in argv else LAYOUTS[:2]
    section.intro = (
        f"{len(data)} conversations ({sum(len(c['turns']) for c in data)} turns) through a"
        " real daemon; measured on the final `context().memory`. Targets (issue 59, both"
        " modes): recall ≥ 0.95, stale ≤ 0.05, distractors kept ≥ 0.95, chatter ≤ 1 line."
        ' "Day by day": consolidated at the end of each day; "one job": once after all days.'
    )
    cpu = tail_cpu(data)
    say(
        f"extractive consolidation of a 4,000-token tail, the embedder's load included: {cpu:.2f} s CPU"
    )
    section.target("truth.tail_cpu", f"{cpu:.2f} s CPU", cpu < 3.0)
    table = section.table(
        "path",
        "current recall",
        "stale rate",
        "distractors kept",
        "chatter lines",
        "facts/conv.",
        "s/job",
        "updated/deleted",
    )
    runs = [
        (name, config, layout)
        for name, config in paths(url, "--scripted" in argv).items()
        for layout in layouts
    ]
    for name, config, layout in runs:
        row = name + layout.label
        score = run_path(row, config, data, verbose, layout)
        ok = _met(name, score)
        revised = (
            f"{score.revisions['updated']}/{score.revisions['deleted']}" if score.revisions else "–"
        )
        per_job = score.job_seconds / score.jobs if score.jobs else 0.0
        say(
            f"{row:11s} recall {score.recall:.2f} ({score.found}/{score.current})"
            f"  stale {score.stale_rate:.2f} ({score.stale_found}/{score.stale})"
            f"  kept {score.kept_rate:.2f} ({score.kept}/{score.keep})"
            f"  chatter lines {score.chatter_lines}"
            f"  facts/conv {score.facts / score.conversations:.1f}"
            f"  {per_job:.2f} s/job  [{mark(ok)}]"
        )
        if name in ("extractive", "scripted") and not layout.daily:
            section.target(
                f"truth.{name}",
                f"{layout.label.strip(', ')}: recall {score.recall:.2f}, stale"
                f" {score.stale_rate:.2f}, kept {score.kept_rate:.2f},"
                f" {score.chatter_lines} chatter lines{', by id ' + revised if score.revisions else ''}",
                ok,
            )
        if score.revisions:
            say("    by id: " + ", ".join(f"{k} {n}" for k, n in score.revisions.items()))
        for miss in score.misses:
            say(f"    {miss}")
        table.row(
            row,
            f"{score.recall:.2f} ({score.found}/{score.current})",
            f"{score.stale_rate:.2f} ({score.stale_found}/{score.stale})",
            f"{score.kept_rate:.2f} ({score.kept}/{score.keep})",
            score.chatter_lines,
            f"{score.facts / score.conversations:.1f}",
            f"{per_job:.2f}",
            revised,
        )
    return section


def _met(name: str, score: Score) -> bool:
    """Issue 59's development targets on the extractive path, the scripted model's (47)."""
    if name == "extractive":
        return (
            score.recall >= 0.95
            and score.stale_rate <= 0.05
            and score.kept_rate >= 0.95
            and score.chatter_lines <= 1
        )
    if name == "scripted":
        exercised = score.revisions.get("updated", 0) > 0 and score.revisions.get("deleted", 0) > 0
        return (
            score.recall >= 0.95 and not score.stale_found and not score.chatter_lines and exercised
        )
    return True
