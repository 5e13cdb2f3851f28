"""``reverie fact list|add|update|delete|history``: one fact of a scope's memory, by id.

A fact's id is a short hash of its words (``reverie fact list`` shows them):
the same words keep their id; new words (an update) are a new fact with a
new id, in the old one's place. A delete forgets the fact everywhere it is
kept, as ``reverie memory forget-fact`` does.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from .common import Common, Runner, counted

__all__ = ["FACT_RUNNERS", "add_fact_parser"]


def add_fact_parser(sub: Any, common: Common) -> None:
    """Register ``fact list|add|update|delete``; ``common`` adds --socket and --json."""
    fact = sub.add_parser("fact", help="list, add, update or delete one fact of a scope, by id")
    actions = fact.add_subparsers(dest="fact_command", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the scope's facts with their ids")
    listing.add_argument("scope", help="e.g. user/alice or session/cli:alice")
    add = actions.add_parser("add", help="add a fact (dated today, written by hand)")
    add.add_argument("scope")
    add.add_argument("text")
    update = actions.add_parser("update", help="replace a fact's words, in its place")
    update.add_argument("scope")
    update.add_argument("id")
    update.add_argument("text")
    delete = actions.add_parser("delete", help="forget a fact everywhere it is kept")
    delete.add_argument("scope")
    delete.add_argument("id")
    history = actions.add_parser(
        "history", help="the history entries that recorded a fact (and when it stopped being true)"
    )
    history.add_argument("scope")
    history.add_argument("id")
    for parser in (listing, add, update, delete, history):
        common(parser)


def _render_facts(facts: list[Any]) -> None:
    for fact in facts:
        sources = sum(len(ids) for ids in fact.sources.values())
        dated = f"[{fact.date}] " if fact.date else ""
        print(
            f"{fact.id}  {dated}{fact.text}"
            + (f"  ({counted(sources, 'source')})" if sources else "")
        )
    if not facts:
        print("(no facts)")


def _render_history(entries: list[Any]) -> None:
    for entry in entries:
        day = time.strftime("%Y-%m-%d", time.gmtime(entry.end_ts))
        until = f"  until {entry.until}" if entry.until else ""
        messages = counted(len(entry.message_ids), "message")
        print(f"{entry.id}  {day}  {entry.session}  ({messages}){until}")
    if not entries:
        print("(no history entry recorded this fact)")


def _render_fact(fact: Any) -> None:
    print(f"{fact.id}  {fact.text}")


def _run_fact(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    match args.fact_command:
        case "list":
            return client.facts(args.scope), _render_facts
        case "add":
            return client.fact_add(args.scope, args.text), _render_fact
        case "update":
            return client.fact_update(args.scope, args.id, args.text), _render_fact
        case "history":
            return client.fact_history(args.scope, args.id), _render_history
    client.fact_delete(args.scope, args.id)
    return {"scope": args.scope, "deleted": args.id}, lambda r: print(
        f"fact {r['deleted']} forgotten in {r['scope']}"
    )


FACT_RUNNERS: dict[str, Runner] = {"fact": _run_fact}
