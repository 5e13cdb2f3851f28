"""``reverie.langgraph.ReverieStore`` against real LangGraph, LangMem and a real daemon."""

from __future__ import annotations

import asyncio
import json
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, ListNamespacesOp, MatchCondition
from langmem import create_manage_memory_tool, create_search_memory_tool

from reverie import InvalidArgument
from reverie.langgraph import ReverieStore, namespace_scope
from reverie.langgraph.meaning import unpack
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.frameworks.relay import Relay


@pytest.fixture
def store(daemon: DaemonProcess) -> ReverieStore:
    return ReverieStore(daemon.socket)


def test_put_get_delete_and_the_namespace_is_a_scope(
    daemon: DaemonProcess, store: ReverieStore
) -> None:
    assert isinstance(store, BaseStore)
    assert store.get(("user", "alice"), "food") is None
    store.put(("user", "alice"), "food", {"likes": "pizza"})
    item = store.get(("user", "alice"), "food")
    assert item is not None and item.value == {"likes": "pizza"}
    assert (item.namespace, item.key) == (("user", "alice"), "food")
    created = item.created_at
    store.put(("user", "alice"), "food", {"likes": "soup"})
    updated = store.get(("user", "alice"), "food")
    assert updated is not None and updated.value == {"likes": "soup"}
    assert updated.created_at == created and updated.updated_at >= created
    with daemon.client() as client:  # the same key, seen as reverie's working memory
        assert client.wm_get("user/alice", "food").value["value"] == {"likes": "soup"}
    store.delete(("user", "alice"), "food")
    assert store.get(("user", "alice"), "food") is None


def test_search_filters_pages_and_ranks_a_query(store: ReverieStore) -> None:
    for n, (colour, size) in enumerate([("red", 1), ("blue", 2), ("red", 3), ("green", 4)]):
        store.put(("docs", "a" if n < 2 else "b"), f"k{n}", {"colour": colour, "size": size})
    store.put(("other",), "x", {"colour": "red", "size": 9})
    everything = store.search(("docs",), limit=10)
    assert [i.key for i in everything] == ["k3", "k2", "k1", "k0"]  # newest first
    assert [i.key for i in store.search(("docs",), limit=2, offset=1)] == ["k2", "k1"]
    assert [i.key for i in store.search(("docs", "b"))] == ["k3", "k2"]
    assert [i.key for i in store.search(("docs",), filter={"colour": "red"})] == ["k2", "k0"]
    big = store.search(("docs",), filter={"size": {"$gte": 2}, "colour": {"$ne": "green"}})
    assert [i.key for i in big] == ["k2", "k1"]
    store.put(("notes",), "n1", {"text": "the cat sleeps on the sofa"})
    store.put(("notes",), "n2", {"text": "invoices are due on friday"})
    ranked = store.search(("notes",), query="when are invoices due")
    assert [i.key for i in ranked] == ["n2", "n1"]
    assert ranked[0].score is not None and ranked[0].score > (ranked[1].score or 0.0)
    with pytest.raises(InvalidArgument, match="operator '\\$near' is unknown"):
        store.search(("docs",), filter={"size": {"$near": 2}})


def test_list_namespaces_with_conditions_depth_and_paging(store: ReverieStore) -> None:
    for ns in [("a", "x", "1"), ("a", "y", "1"), ("b", "x", "1"), ("c",)]:
        store.put(ns, "k", {"v": 1})
    assert store.list_namespaces() == [("a", "x", "1"), ("a", "y", "1"), ("b", "x", "1"), ("c",)]
    assert store.list_namespaces(prefix=("a",)) == [("a", "x", "1"), ("a", "y", "1")]
    assert store.list_namespaces(suffix=("x", "1")) == [("a", "x", "1"), ("b", "x", "1")]
    assert store.list_namespaces(prefix=("*", "x")) == [("a", "x", "1"), ("b", "x", "1")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("b",), ("c",)]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "y", "1"), ("b", "x", "1")]
    store.delete(("c",), "k")  # an emptied namespace is no longer listed
    assert ("c",) not in store.list_namespaces()
    both = ListNamespacesOp(
        match_conditions=(MatchCondition("prefix", ("*", "x")), MatchCondition("suffix", ("1",))),
        limit=10,
    )
    assert store.batch([both]) == [[("a", "x", "1"), ("b", "x", "1")]]


def test_ttl_expires_an_item(daemon: DaemonProcess, store: ReverieStore) -> None:
    store.put(("tmp",), "short", {"v": 1}, ttl=0.01)  # minutes: 0.6 s
    store.put(("tmp",), "long", {"v": 2}, ttl=60)
    # A read refreshes the TTL by default (LangGraph's refresh_on_read); these do not.
    poll(
        lambda: store.get(("tmp",), "short", refresh_ttl=False) is None,
        what="the short TTL expired",
    )
    assert store.get(("tmp",), "long") is not None
    with daemon.client() as client:
        expires = client.wm_get("tmp", "long").expires_at
        assert expires is not None


def test_async_operations(store: ReverieStore) -> None:
    async def scenario() -> list[Any]:
        await store.aput(("async",), "k", {"v": "hello"})
        got = await store.aget(("async",), "k")
        found = await store.asearch(("async",), query="hello")
        spaces = await store.alist_namespaces(prefix=("async",))
        await store.adelete(("async",), "k")
        gone = await store.aget(("async",), "k")
        return [got.value if got else None, [i.key for i in found], spaces, gone]

    assert asyncio.run(scenario()) == [{"v": "hello"}, ["k"], [("async",)], None]


def test_namespaces_that_cannot_be_scopes_are_refused_naming_the_limit(
    store: ReverieStore,
) -> None:
    assert namespace_scope(("user", "alice")) == "user/alice"
    with pytest.raises(InvalidArgument, match="contains '/'"):
        store.put(("a/b",), "k", {"v": 1})
    with pytest.raises(InvalidArgument, match="the limit is 255"):
        store.put(("x" * 300,), "k", {"v": 1})
    with pytest.raises(InvalidArgument, match="non-printable"):
        store.put(("bad\x07label",), "k", {"v": 1})
    with pytest.raises(InvalidArgument, match="256"):  # the daemon's own key limit
        store.put(("ok",), "k" * 300, {"v": 1})
    with pytest.raises(InvalidArgument, match="max_value_bytes"):
        store.put(("ok",), "big", {"v": "x" * 70_000})
    assert store.list_namespaces() == []


def test_items_survive_daemon_restarts_without_loss_or_duplication(
    daemon: DaemonProcess, store: ReverieStore
) -> None:
    for n in range(6):
        store.put(("restart",), f"k{n}", {"n": n})
        if n % 2:
            daemon.kill9()
            daemon.restart()
    assert sorted((i.key, i.value["n"]) for i in store.search(("restart",), limit=50)) == [
        (f"k{n}", n) for n in range(6)
    ]
    assert store.list_namespaces() == [("restart",)]


class State(TypedDict):
    user: str
    text: str
    reply: str


def test_a_graph_node_reads_and_writes_memory_through_the_store(store: ReverieStore) -> None:
    def remember(state: State, *, store: BaseStore) -> dict[str, str]:
        namespace = ("user", state["user"])
        known = [i.value["fact"] for i in store.search(namespace, limit=10)]
        store.put(namespace, f"fact{len(known)}", {"fact": state["text"]})
        return {"reply": " | ".join(known)}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(store=store)
    assert graph.invoke({"user": "ada", "text": "likes tea", "reply": ""})["reply"] == ""
    second = graph.invoke({"user": "ada", "text": "lives in Porto", "reply": ""})
    assert second["reply"] == "likes tea"
    assert graph.invoke({"user": "bob", "text": "x", "reply": ""})["reply"] == ""


def test_langmem_memory_tools_work_on_it_unchanged(store: ReverieStore) -> None:
    manage = create_manage_memory_tool(namespace=("memories", "ada"), store=store)
    search = create_search_memory_tool(namespace=("memories", "ada"), store=store)
    created = manage.invoke({"content": "Ada prefers green tea", "action": "create"})
    assert "created memory" in created.lower()
    manage.invoke({"content": "Ada lives in Porto", "action": "create"})
    found = json.loads(search.invoke({"query": "what tea does Ada like"}))
    assert found[0]["value"]["content"] == "Ada prefers green tea"
    memory_id = found[0]["key"]
    manage.invoke({"action": "delete", "id": memory_id})
    left = json.loads(search.invoke({"query": "tea"}))
    assert [m["value"]["content"] for m in left] == ["Ada lives in Porto"]


def test_values_other_clients_wrote_into_the_scope_read_as_items(
    daemon: DaemonProcess, store: ReverieStore
) -> None:
    store.put(("user", "bob"), "fact0", {"fact": "likes tea"})
    with daemon.client() as client:  # `reverie wm set` or MCP, into the same scope
        client.wm_set("user/bob", "note", "written by hand")
        client.wm_set("user/bob", "obj", {"colour": "red"})
        written = client.wm_list("user/bob", prefix="note")[0].updated
    note = store.get(("user", "bob"), "note")
    assert note is not None and note.value == {"value": "written by hand"}
    assert note.created_at == note.updated_at
    assert note.updated_at.timestamp() == pytest.approx(written, abs=1e-5)  # the key's write
    obj = store.get(("user", "bob"), "obj")
    assert obj is not None and obj.value == {"colour": "red"}
    found = {i.key: i.value for i in store.search(("user",))}
    assert found == {
        "fact0": {"fact": "likes tea"},
        "note": {"value": "written by hand"},
        "obj": {"colour": "red"},
    }
    assert [i.key for i in store.search(("user",), filter={"colour": "red"})] == ["obj"]
    store.put(("user", "bob"), "note", {"text": "now the store's"})  # over a plain value
    assert store.get(("user", "bob"), "note").value == {"text": "now the store's"}  # type: ignore[union-attr]


def test_registry_keys_that_name_no_namespace_are_not_listed(
    daemon: DaemonProcess, store: ReverieStore
) -> None:
    store.put(("user", "ada"), "k", {"v": 1})
    with daemon.client() as client:
        for odd in ("nuser/x//y", "n", "nuser/", "n/user"):
            client.wm_set("langgraph", odd, ["x"])
    assert store.list_namespaces() == [("user", "ada")]
    assert [i.key for i in store.search(())] == ["k"]


def test_a_search_refreshes_the_ttl_of_what_it_returns_in_one_round_trip_a_namespace(
    daemon: DaemonProcess,
) -> None:
    path = daemon.socket.parent / "relay.sock"
    relay = Relay(daemon.socket, path)
    store = ReverieStore(path)
    for n in range(30):
        store.put(("big",), f"k{n}", {"i": n}, ttl=60)
    with daemon.client() as client:
        before = {k.key: k.version for k in client.wm_list("big")}
    relay.ops.clear()
    found = store.search(("big",), filter={"i": {"$gte": 28}})
    assert sorted(i.key for i in found) == ["k28", "k29"]
    # The registry, the namespace's keys with their values, then one refresh per item returned.
    assert relay.ops == ["wm_list", "wm_list", "wm_set", "wm_set"], relay.ops
    with daemon.client() as client:
        after = {k.key: k.version for k in client.wm_list("big")}
    assert {k for k in after if after[k] != before[k]} == {"k28", "k29"}
    relay.ops.clear()
    store.search(("big",), filter={"i": 999}, refresh_ttl=True)  # returns nothing
    assert relay.ops == ["wm_list", "wm_list"]


#: Unrelated memories; the dentist's shares more of the question's words than the manager's.
MEMORIES = [
    "My manager is called Priya.",
    "Who is my dentist? My dentist is Dr. Silva.",
    "I like green tea with mint.",
    "My cat sleeps on the sofa.",
    "The invoices are due on Friday.",
    "My sister is called Ana.",
]


def test_an_index_ranks_langmems_memories_by_meaning(daemon: DaemonProcess) -> None:
    store = ReverieStore(daemon.socket, index={"dims": 384})  # reverie's own embedder
    manage = create_manage_memory_tool(namespace=("memories", "ada"), store=store)
    search = create_search_memory_tool(namespace=("memories", "ada"), store=store)
    for text in MEMORIES:
        manage.invoke({"content": text, "action": "create"})
    hits = json.loads(search.invoke({"query": "Who is my boss?"}))
    assert [h["value"]["content"] for h in hits][:1] == ["My manager is called Priya."]
    assert hits[0]["score"] > hits[1]["score"]
    # By words alone the dentist comes first ("who is my"): what the index changes.
    lexical = ReverieStore(daemon.socket).search(("memories", "ada"), query="Who is my boss?")
    assert lexical[0].value["content"].startswith("Who is my dentist")


def test_an_index_embeds_fields_with_its_own_embed_and_items_put_before_it(
    daemon: DaemonProcess,
) -> None:
    plain = ReverieStore(daemon.socket)
    plain.put(("notes",), "old", {"text": "The cat is asleep on the couch.", "n": 1})
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> list[list[float]]:  # a toy embedder: cat, invoice, other
        calls.append(list(texts))
        return [[t.count("cat"), t.count("invoice"), 0.1] for t in texts]

    store = ReverieStore(daemon.socket, index={"dims": 3, "embed": embed, "fields": ["text"]})
    store.put(("notes",), "bill", {"text": "Pay the invoice.", "n": 2})
    store.put(("notes",), "skip", {"text": "cat cat cat", "n": 3}, index=False)
    assert calls == [["Pay the invoice."]]  # the field only; index=False embeds nothing
    with daemon.client() as client:  # kept beside the value, as float32s in base64
        kept = client.wm_get("notes", "bill").value["vectors"]
    assert isinstance(kept[0], str) and unpack(kept)[0] == pytest.approx([0, 1, 0.1])  # type: ignore[index]
    ranked = store.search(("notes",), query="cat")
    assert [i.key for i in ranked] == ["old", "bill", "skip"]  # no vector: last, unscored
    assert ranked[0].score is not None and ranked[2].score is None
    assert calls[1:] == [["The cat is asleep on the couch."], ["cat"]]  # put before the index
    with pytest.raises(InvalidArgument, match="dims is 5"):
        ReverieStore(daemon.socket, index={"dims": 5, "embed": embed}).put(
            ("notes",), "x", {"a": "b"}
        )
