"""``context(max_tokens=N)``: what a prompt can hold, cut at whole turns, newest kept."""

from __future__ import annotations

import pytest

from reverie.store import TokenCounter
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process

#: tiktoken's cl100k_base, from the BPE file the package ships (no download).
_tokens = TokenCounter().count


def _fill(client, session: str, turns: int) -> None:
    client.memory_edit(
        "user/ann", "# Memory\n\n- Ann keeps bees in Porto.\n- Ann plays the cello.\n"
    )
    for i in range(turns):
        client.append(
            session, "user", f"Turn {i}: " + "tell me more about the hives " * 8, scope="user/ann"
        )
        client.append(session, "assistant", f"Answer {i}: " + "the bees are calm today " * 12)
        client.append(session, "tool", f"lookup {i} done")


def test_the_tail_is_cut_at_whole_turns_to_fit_beside_the_memory(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        _fill(client, "ann", 40)
        whole = client.context("ann", max_tokens=0)
        for cap in (2000, 700, 150):
            ctx = client.context("ann", max_tokens=cap)
            spent = _tokens(ctx.memory) + sum(_tokens(m.content) for m in ctx.messages)
            assert spent <= cap, (cap, spent)
            assert ctx.memory_tokens == _tokens(ctx.memory) and ctx.memory.startswith("# Memory")
            assert ctx.omitted == len(whole.messages) - len(ctx.messages) > 0
            assert [m.id for m in ctx.messages] == [m.id for m in whole.messages][ctx.omitted :]
            if ctx.messages:
                assert ctx.messages[0].role == "user"  # a whole turn, never half of one
        tight = client.context("ann", max_tokens=whole.memory_tokens + 10)
        assert tight.messages == [] and tight.omitted == 120  # less than one turn left
        assert whole.omitted == 0 and len(whole.messages) == 120


def test_the_default_bound_comes_from_the_configuration(make_daemon) -> None:
    daemon: InProcessDaemon = make_daemon(env={"REVERIE_SESSIONS__CONTEXT_MAX_TOKENS": "900"})
    with daemon.client() as client:
        _fill(client, "ann", 20)
        ctx = client.context("ann")
        assert ctx.omitted > 0
        assert ctx.memory_tokens + ctx.tokens <= 900
        assert client.context("ann", max_tokens=0).omitted == 0
