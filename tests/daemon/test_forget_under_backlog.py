"""Forget does not wait for the index's backlog, and a retry does not answer early (issue 48).

The embeddings come from the fake OpenAI-compatible server, which holds every
embeddings request while the test says so: the indexer cannot index a single
message meanwhile, so "forget returned while the index was still N messages
behind" is read from ``status`` with no timing in the outcome. A forget held
mid-way (``REVERIE_TEST_HOLD_FORGET``) makes "a retry made while it runs"
just as certain.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from reverie.actors.memory.forget import HOLD_ENV
from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, extractive_config
from tests.inprocess import InProcessDaemon

from .forget_checks import everywhere, holders, say_secret

pytestmark = pytest.mark.in_process

BACKLOG = 12_000
_CHUNK = 1_000  # messages per append_many


def _flood(client: Client, messages: int) -> None:
    """``messages`` user messages over a few sessions, none holding a secret."""
    for first in range(0, messages, _CHUNK):
        turns = [{"role": "user", "content": f"flood line {first + i}"} for i in range(_CHUNK)]
        client.append_many(f"flood-{first // _CHUNK % 4}", turns)


def test_a_forget_under_an_index_backlog_returns_without_waiting_for_it(
    make_daemon: Callable[..., InProcessDaemon], fake_llm: FakeLLM
) -> None:
    daemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        secret = say_secret(client, "bob")
        everywhere(daemon, client, "bob", secret)  # in the database, Markdown and LanceDB
        fake_llm.hold_embeddings()
        _flood(client, BACKLOG)
        assert client.status().index.messages_behind == BACKLOG

        assert client.forget("bob") == 2

        assert client.status().index.messages_behind == BACKLOG  # not one of them indexed
        assert holders(daemon, secret) == []
        assert client.history("bob") == []
        assert client.search(secret, mode="text", everywhere=True).hits == []

        fake_llm.release_embeddings()
        poll(lambda: client.status().index.settled, what="the backlog indexed", timeout=600)
        assert client.status().index.messages_behind == 0
        assert client.search(secret, mode="text", everywhere=True).hits == []
    assert holders(daemon, secret) == []


def test_a_batch_embedded_before_a_forget_does_not_bring_its_rows_back(
    make_daemon: Callable[..., InProcessDaemon], fake_llm: FakeLLM
) -> None:
    """The indexer read and began embedding the secret's message before the forget; its
    write, once the embeddings come, must leave the forgotten message out."""
    daemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        client.append("kept", "user", "an older message, indexed before the hold")
        poll(lambda: client.status().index.settled, what="indexed")
        fake_llm.hold_embeddings()
        secret = say_secret(client, "late")
        client.append("after", "user", "a message after the secret, in the same batch")
        poll(
            lambda: any(
                secret in str(r.body)
                for r in fake_llm.all_requests
                if r.path.endswith("/embeddings")
            ),
            what="the secret's batch being embedded",
        )

        assert client.forget("late") == 2

        indexed = client.status().index.indexed
        fake_llm.release_embeddings()
        after = poll(
            lambda: (s := client.status().index).settled and s.indexed > indexed and s,
            what="the batch written without the forgotten messages",
        )
        assert after.indexed == indexed + 1  # "after" alone: the secret's two stayed out
        assert after.messages_behind == 0
        assert client.search(secret, mode="text", everywhere=True).hits == []
    assert holders(daemon, secret) == []


def test_a_retry_of_a_running_forget_answers_only_when_it_is_done(
    make_daemon_process: Callable[..., DaemonProcess], fake_llm: FakeLLM, tmp_path
) -> None:
    hold = tmp_path / "hold-forget"
    daemon = make_daemon_process(config=extractive_config(fake_llm), env={HOLD_ENV: str(hold)})
    with daemon.client() as client:
        secret = say_secret(client, "dave")
        everywhere(daemon, client, "dave", secret)
    hold.touch()
    answers: dict[str, tuple[int, list[str]]] = {}
    errors: list[BaseException] = []

    def forget(name: str) -> None:
        try:
            with Client(daemon.socket, timeout=60) as c:
                deleted = c.forget("dave")
                answers[name] = (deleted, holders(daemon, secret))
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    first = threading.Thread(target=forget, args=("first",))
    first.start()
    poll(hold.with_suffix(".reached").exists, what="the first forget paused mid-way")
    retry = threading.Thread(target=forget, args=("retry",))
    retry.start()
    with daemon.client() as client:
        poll(lambda: client.status().forgets.retries_waiting == 1, what="the retry waiting")
        assert answers == {} and not errors  # the first is held, so the retry waits

        hold.unlink()
        first.join(timeout=60)
        retry.join(timeout=60)

        assert not errors, errors
        assert answers == {"first": (2, []), "retry": (2, [])}
        assert client.status().forgets.retries_waiting == 0
        assert client.forget("dave") == 0  # nothing running any more: nothing to wait for
