"""Idle consolidation against a real llama.cpp server and a real (small) model.

SmolLM2-135M-Instruct is what a 2-core machine can run in a test: it loops
and invents when left to it, which is what these tests need. They check
that every job ends, that only facts found in the turns reach
``MEMORY.md``, that a host's stream lease holds jobs back, that jobs of one
scope reuse the server's cached prompt prefix, and that a server killed
mid-job loses nothing. Deadlines are generous: they bound a poll, they do
not measure speed (``python -m bench kvcache`` does).
"""

from __future__ import annotations

import re
from typing import Any

from reverie.actors.consolidation.prompt import (
    CONSOLIDATION_SYSTEM_PROMPT,
    EMPTY_MEMORY,
    memory_block,
)
from reverie.daemon import Client
from reverie.store import parse_memory
from tests.checks import assert_each_id_once, jobs, poll
from tests.daemon_process import DaemonProcess
from tests.llm.llama_server import LlamaServer

#: A poll's deadline for work the model does (several jobs of a few seconds each).
MODEL_DEADLINE = 300.0

CONVERSATION = [
    ("user", "Hi! I'm Carl. I moved to Lisbon in 2021 and I work at Acme Robotics."),
    ("assistant", "Welcome, Carl! What do you do at Acme Robotics?"),
    ("user", "I repair delivery robots, mostly on night shifts at the Alcantara depot."),
    ("assistant", "Night shifts sound tiring. How do you unwind?"),
    ("user", "I surf at Carcavelos beach on Sundays, and my dog Rex comes along."),
    ("assistant", "That sounds lovely. Any plans coming up?"),
    ("user", "My sister Ana is visiting from Berlin in March; we will hike in Sintra."),
    ("assistant", "Sintra is beautiful in spring. Anything else I should remember?"),
    ("user", "I am allergic to peanuts, so please never suggest satay recipes."),
    ("assistant", "Noted: no peanuts. Enjoy the visit!"),
]


#: The tail's budget (tokens) in these tests: a session over it is consolidated when idle.
BUDGET = 60


def config(server: LlamaServer, **llm: Any) -> str:
    values = {"base_url": server.base_url, "model": "smollm2", "timeout": 120.0, "slot_id": 0}
    values |= {"max_job_tokens": 200, **llm}
    lines = [
        "[consolidation]",
        "idle_after = 0.3",
        f"budget_tokens = {BUDGET}",
        "target_tokens = 20",
        "retry_base = 0.2",
        "max_attempts = 3",
        "[llm]",
        *(f"{k} = {v!r}" for k, v in values.items()),
        "[index]",
        "enabled = false",
    ]
    return "\n".join(lines).replace("'", '"') + "\n"


def converse(client: Client, session: str, scope: str, turns: list[tuple[str, str]]) -> list[str]:
    """Append ``turns`` (the user is Carl); their ids."""
    acked = []
    for role, text in turns:
        name = "Carl" if role == "user" else None
        acked.append(client.append(session, role, text, name=name, scope=scope).id)  # type: ignore[arg-type]
    return acked


def consolidated(client: Client, session: str) -> bool:
    """The tail is down to the budget and no job is open or queued."""
    backend = client.status().consolidation["default"]
    settled = backend.queued == 0 and backend.running == 0 and jobs(client).get("open", 0) == 0
    view = client.context(session, max_tokens=0)  # its tokens: the memory's and the tail's
    return settled and view.tokens - view.memory_tokens <= BUDGET


def _names_and_numbers(text: str) -> set[str]:
    words = re.findall(r"[^\W_][\w'-]*", text)
    return {w.casefold() for w in words[1:] if w[0].isupper() or any(c.isdigit() for c in w)}


def test_idle_consolidation_ends_and_writes_only_grounded_facts(
    make_daemon: Any, llama: LlamaServer
) -> None:
    daemon: DaemonProcess = make_daemon(config=config(llama, max_job_tokens=60))
    with daemon.client() as client:
        acked = converse(client, "cli:carl", "user/carl", CONVERSATION)
        poll(lambda: consolidated(client, "cli:carl"), MODEL_DEADLINE, "consolidation")
        backend = client.status().consolidation["default"]
        assert backend.outcomes["done"] >= 2  # the job cap splits the tail into several jobs
        assert backend.llm["calls"].get("ok", 0) >= 1
        view = client.memory("user/carl", limit=100)
        said = {m.id: m.content for m in client.history("cli:carl", limit=100)}
        facts, problems = parse_memory(view.memory)
        assert not problems
        for fact in facts:
            (ids,) = fact.sources.values()
            source = " ".join(said[i] for i in ids) + " Carl"
            missing = _names_and_numbers(fact.text) - _names_and_numbers("X " + source)
            assert not missing, f"{fact.text!r} names {missing}, absent from its turns {source!r}"
        kept = backend.facts["kept"] + backend.facts["extractive"]
        assert len(facts) <= kept
        assert_each_id_once(client, "cli:carl", "user/carl", acked)


def test_a_stream_lease_holds_jobs_back(make_daemon: Any, llama: LlamaServer) -> None:
    daemon: DaemonProcess = make_daemon(config=config(llama))
    with daemon.client() as client:
        lease = client.stream_begin("default", ttl=600.0)
        converse(client, "cli:lease", "user/lease", CONVERSATION[:4])
        poll(lambda: client.status().consolidation["default"].running == 1, 60, "a job taken")
        before = client.status().consolidation["default"]
        assert sum(before.llm["calls"].values()) == 0 and not llama.slot_busy()
        assert client.stream_end(lease) is True
        poll(lambda: consolidated(client, "cli:lease"), MODEL_DEADLINE, "consolidation")
        assert sum(client.status().consolidation["default"].llm["calls"].values()) >= 1


def test_jobs_of_one_scope_reuse_the_cached_prefix(make_daemon: Any, llama: LlamaServer) -> None:
    daemon: DaemonProcess = make_daemon(config=config(llama, max_job_tokens=10_000))
    with daemon.client() as client:
        known = "".join(
            f"- [2026-0{1 + i % 9}-1{i % 10}] Carl {fact}.\n"
            for i, fact in enumerate(
                [
                    "likes green tea",
                    "plays the cello",
                    "reads Saramago",
                    "cycles to work",
                    "keeps bees on the roof",
                    "speaks Portuguese and German",
                    "cooks bacalhau",
                ]
            )
        )
        client.memory_edit("user/carl", "# Memory\n\n" + known)
        converse(client, "cli:one", "user/carl", CONVERSATION[:4])
        poll(lambda: consolidated(client, "cli:one"), MODEL_DEADLINE, "the first job")
        first = client.status().consolidation["default"].llm
        converse(client, "cli:two", "user/carl", CONVERSATION[4:])
        poll(lambda: consolidated(client, "cli:two"), MODEL_DEADLINE, "the second job")
        second = client.status().consolidation["default"].llm
        memory = client.memory("user/carl", limit=100).memory
    calls = sum(second["calls"].values()) - sum(first["calls"].values())
    cached = second["cached_tokens"] - first["cached_tokens"]
    unchanged = _unchanged_lines(known, memory)
    prefix = llama.tokens(CONSOLIDATION_SYSTEM_PROMPT) + llama.tokens(unchanged)
    assert calls >= 1
    assert cached >= prefix * calls, (
        f"{cached} cached prompt tokens over {calls} calls, each should reuse at least "
        f"{prefix}: the system prompt and\n{unchanged}\nThe memory after both jobs:\n{memory}"
    )
    metrics = client_metrics(daemon)
    assert (
        f'reverie_llm_tokens_total{{backend="default",kind="cached"}} {second["cached_tokens"]}'
        in metrics
    )


def _unchanged_lines(known: str, memory: str) -> str:
    """The start of the memory block every prompt of the second job shares with the first's.

    The model may retire or update a known fact in either job (it sees
    "cycles to work" beside "I work at Acme Robotics"); the block is then the
    same only up to that fact's line. Facts are only appended or retired, so
    the known facts still current at the end, up to the first one that is
    not, were in every prompt in that order.
    """
    current = {fact.text for fact in parse_memory(memory)[0]}
    kept = []
    for line in known.splitlines(keepends=True):
        if parse_memory(line)[0][0].text not in current:
            break
        kept.append(line)
    return memory_block("".join(kept)).removesuffix("</memory>\n\n").removesuffix(EMPTY_MEMORY)


def client_metrics(daemon: DaemonProcess) -> str:
    with daemon.client() as client:
        return client.metrics()


def test_a_server_killed_mid_job_loses_nothing(
    make_daemon: Any, llama: LlamaServer, tmp_path: Any
) -> None:
    own = LlamaServer(llama.binary, llama.model, tmp_path / "own.log").start()
    try:
        daemon: DaemonProcess = make_daemon(config=config(own, timeout=30.0))
        with daemon.client() as client:
            acked = converse(client, "cli:kill", "user/kill", CONVERSATION)
            poll(own.slot_busy, 120, "the model at work")
            own.kill()
            poll(
                lambda: client.status().consolidation["default"].failed_calls >= 1, 120, "a failure"
            )
            assert_each_id_once(client, "cli:kill", "user/kill", acked)
            own.start()
            poll(lambda: consolidated(client, "cli:kill"), MODEL_DEADLINE, "consolidation")
            assert_each_id_once(client, "cli:kill", "user/kill", acked)
    finally:
        own.stop()
