"""The conversation the daemon search tests load, and how they wait on the index and
run the CLI: shared by ``test_search`` and ``test_search_rebuild_and_rank`` so both
search the same corpus the same way.
"""

from __future__ import annotations

import os
import subprocess
import sys

from reverie.daemon import Client
from tests.daemon_process import DaemonProcess

CONVERSATION = [
    ("trip", "user", "We are flying to Lisbon on the 14th of May for the conference."),
    ("trip", "assistant", "Noted: Lisbon, May 14th. Do you need a hotel near the venue?"),
    ("trip", "user", "Yes, a quiet hotel in Alfama, budget around 120 euros a night."),
    ("cooking", "user", "My sourdough starter smells like acetone, is it dead?"),
    ("cooking", "assistant", "No, it is hungry. Feed it twice a day at a 1:1:1 ratio."),
    ("cooking", "user", "Also, Maria is allergic to peanuts, keep that in mind for recipes."),
    ("work", "user", "The deploy of service billing-api failed with error code 503."),
    ("work", "assistant", "Roll back to version 2.4.1 and check the load balancer health."),
]


def load_conversation(client: Client) -> dict[str, str]:
    """Append the conversation (scopes: one per session, 'shared' for work); text by id."""
    by_id = {}
    for i, (session, role, text) in enumerate(CONVERSATION):
        scope = "shared" if session == "work" else None
        ack = client.append(f"s:{session}", role, text, id=f"m{i}", scope=scope)
        by_id[ack.id] = text
    return by_id


def caught_up(client: Client) -> bool:
    """Every acked message embedded and the index settled (poll this, never sleep)."""
    index = client.status().index
    return bool(index.ready and index.settled)


def run_reverie(daemon: DaemonProcess, *args: str) -> subprocess.CompletedProcess[str]:
    """The ``reverie`` CLI against ``daemon``, its output captured."""
    env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket)}
    return subprocess.run(
        [sys.executable, "-m", "reverie.daemon", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
