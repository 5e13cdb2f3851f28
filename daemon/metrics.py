"""The daemon's status as Prometheus text exposition (format 0.0.4).

There is one collection, ``Handlers.status``; this module only renders the
dict it returns, so ``reverie status`` and ``reverie metrics`` never
disagree. Every metric is prefixed ``reverie_``, has HELP and TYPE lines,
and is present even when zero (a scrape never loses a series). A missing
status key renders as 0 rather than failing the scrape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from .prometheus_text import escape, family, number, one, parts
from .protocol import DaemonStatus

__all__ = ["render_metrics"]


def render_metrics(view: DaemonStatus) -> str:
    """Render a ``status``; the result ends with a newline."""
    status: Mapping[str, Any] = msgspec.to_builtins(view)
    sessions = status.get("sessions", {})
    store = status.get("store", {})
    counters = status.get("counters", {})
    consolidation: Mapping[str, Mapping[str, Any]] = status.get("consolidation", {})
    depths: Mapping[str, int] = status.get("mailbox_depths", {})
    lines: list[str] = []
    lines += family(
        "info",
        "gauge",
        "Daemon version (always 1).",
        [({"version": str(status.get("version", ""))}, 1)],
    )
    lines += family(
        "uptime_seconds",
        "gauge",
        "Seconds since the daemon started.",
        one(status.get("uptime_seconds")),
    )
    process: Mapping[str, int] = status.get("process", {})
    lines += family(
        "process_resident_bytes",
        "gauge",
        "Resident memory of the daemon (VmRSS): the figure a memory budget is held to.",
        one(process.get("rss_bytes")),
    )
    lines += family(
        "process_peak_resident_bytes",
        "gauge",
        "The largest resident memory since start (VmHWM).",
        one(process.get("peak_rss_bytes")),
    )
    lines += family(
        "process_resident_part_bytes",
        "gauge",
        "Resident memory in parts: anonymous (the process's own) and file (mostly the"
        " libraries' code, which the kernel takes back under pressure).",
        parts("part", process, {"anon": "rss_anon_bytes", "file": "rss_file_bytes"}),
    )
    lines += family(
        "heap_bytes",
        "gauge",
        "The C heap: blocks in use, and free between them (resident where touched;"
        " a trim hands back only whole pages); Arrow's own pool in use.",
        parts(
            "state",
            process,
            {
                "in_use": "heap_in_use_bytes",
                "free": "heap_free_bytes",
                "arrow_in_use": "arrow_in_use_bytes",
            },
        ),
    )
    lines += family(
        "process_threads", "gauge", "Threads of the daemon.", one(process.get("threads"))
    )
    lines += family(
        "process_open_files",
        "gauge",
        "Open file descriptors (connections hold one each).",
        one(process.get("open_files")),
    )
    lines += family(
        "connections",
        "gauge",
        "Client connections open now (hosts, the CLI, MCP and the web inspector).",
        one(process.get("connections")),
    )
    lines += family(
        "sessions",
        "gauge",
        "Sessions by state: live (an actor is running), passivated, known (all stored).",
        [({"state": s}, sessions.get(s, 0)) for s in ("live", "passivated", "known")],
    )
    lines += family(
        "mailbox_queued_requests",
        "gauge",
        "Requests queued in all session mailboxes.",
        one(sum(depths.values())),
    )
    lines += family(
        "mailbox_queued_requests_max",
        "gauge",
        "Requests queued in the fullest session mailbox.",
        one(max(depths.values(), default=0)),
    )
    lines += family(
        "appends_total",
        "counter",
        "Messages appended since start.",
        one(counters.get("messages_appended")),
    )
    lines += family(
        "store_writes_total",
        "counter",
        "Writes committed to the database.",
        one(store.get("writes")),
    )
    lines += family(
        "store_batches_total",
        "counter",
        "Write batches (transactions) committed to the database.",
        one(store.get("batches")),
    )
    lines += family(
        "store_bytes", "gauge", "Size of the database on disk.", one(store.get("bytes"))
    )
    lines += family(
        "errors_total",
        "counter",
        "Error replies sent, by error code.",
        [({"code": code}, n) for code, n in sorted(status.get("errors", {}).items())],
    )
    lines += family(
        "consolidation_jobs",
        "gauge",
        "Durable consolidation jobs by backend and state.",
        [
            ({"backend": backend, "state": state}, n)
            for backend, b in sorted(consolidation.items())
            for state, n in sorted(b.get("jobs", {}).items())
        ],
    )
    lines += family(
        "consolidation_queued",
        "gauge",
        "Consolidation jobs waiting for a worker, by backend.",
        [({"backend": k}, b.get("queued", 0)) for k, b in sorted(consolidation.items())],
    )
    lines += family(
        "consolidation_running",
        "gauge",
        "Consolidation jobs running, by backend.",
        [({"backend": k}, b.get("running", 0)) for k, b in sorted(consolidation.items())],
    )
    lines += family(
        "llm_failed_calls_total",
        "counter",
        "LLM calls that failed, by backend: the sum of llm_calls_total's outcomes other than ok.",
        [({"backend": k}, b.get("failed_calls", 0)) for k, b in sorted(consolidation.items())],
    )
    lines += family(
        "consolidation_outcomes_total",
        "counter",
        "Consolidation job outcomes by backend: done, retried (the LLM failed, the turns"
        " stay in the tail), extractive (the LLM failed past hard_tokens).",
        [
            ({"backend": backend, "outcome": outcome}, n)
            for backend, b in sorted(consolidation.items())
            for outcome, n in sorted(b.get("outcomes", {}).items())
        ],
    )
    lines += family(
        "consolidation_facts_total",
        "counter",
        "The model's answers by what the checks made of them: facts kept, dropped (not in"
        " the turns), extractive (facts of the same turns added beside the model's), summary"
        " sentences dropped (summary_dropped), facts updated and deleted by id, updates"
        " or deletes dropped (update_unknown, update_refused, update_ungrounded,"
        " update_chatter, delete_unknown, delete_refused) and items past the answer's"
        " bounds (over_cap).",
        [
            ({"backend": backend, "outcome": outcome}, n)
            for backend, b in sorted(consolidation.items())
            for outcome, n in sorted(b.get("facts", {}).items())
        ],
    )
    lines += family(
        "llm_up",
        "gauge",
        "1 when the backend's start-up probe got an answer and its circuit breaker is not"
        " open (failed or unusable answers open it), else 0 (no LLM: absent).",
        [
            ({"backend": k}, b.get("probe") == "ok" and b.get("breaker") != "open")
            for k, b in sorted(consolidation.items())
            if b.get("probe", "none") != "none"
        ],
    )
    lines += family(
        "llm_streams",
        "gauge",
        "Live host stream leases, by backend.",
        [({"backend": k}, b.get("streams", 0)) for k, b in sorted(consolidation.items())],
    )
    lines += family(
        "scopes_live",
        "gauge",
        "Working-memory scopes loaded.",
        one(status.get("scopes", {}).get("live")),
    )
    lines += family(
        "config_reloads_total",
        "counter",
        "Successful configuration reloads (SIGHUP).",
        one(status.get("config_reloads")),
    )
    lines += family(
        "busy_answers_total",
        "counter",
        "Requests and connections refused with `busy` (overload).",
        one(status.get("errors", {}).get("busy")),
    )
    lines += _index(status.get("index", {}))
    lines += _cluster(status.get("cluster"))
    lines += _llm(consolidation)
    lines += family(
        "events_total",
        "counter",
        "Internal event counters, by name.",
        [({"event": k}, v) for k, v in sorted(counters.items())],
    )
    return "\n".join(lines) + "\n"


def _index(index: Mapping[str, Any]) -> list[str]:
    return [
        *family(
            "index_lag_messages",
            "gauge",
            "Acknowledged messages not yet in the search index.",
            one(index.get("messages_behind")),
        ),
        *family(
            "index_degraded",
            "gauge",
            "1 when the search index is more than index.max_backlog messages behind, else 0.",
            one(index.get("degraded")),
        ),
        *family(
            "index_lag_seconds",
            "gauge",
            "Age of the oldest message not yet in the search index (0 when caught up).",
            one(index.get("seconds_behind")),
        ),
        *family(
            "index_documents_indexed_total",
            "counter",
            "Documents written to the search index since start.",
            one(index.get("indexed")),
        ),
        *family(
            "index_optimizes_total",
            "counter",
            "Index optimizes (fragments folded, old versions dropped) since start.",
            one(index.get("optimized")),
        ),
        *family(
            "index_cache_bytes",
            "gauge",
            "Bytes in LanceDB's index and metadata caches (bounded by index.cache_mib and"
            " index.metadata_cache_mib).",
            one(index.get("cache_bytes")),
        ),
        *family(
            "embedding_model_loaded",
            "gauge",
            "1 while the local embedding model is in memory (dropped after"
            " embeddings.unload_after seconds unused).",
            one(int(bool(index.get("model_loaded")))),
        ),
        *family(
            "embedding_model_loads_total",
            "counter",
            "Times the local embedding model was loaded since start.",
            one(index.get("model_loads")),
        ),
        *family(
            "embedding_model_int8",
            "gauge",
            "1 when the local embedding model last loaded runs on its int8 weights (0: the"
            " shipped graph, about 60 MiB more resident).",
            one(int(bool(index.get("model_int8")))),
        ),
        *family(
            "idle_code_page_outs_total",
            "counter",
            "Times the idle daemon handed its libraries' code pages back to the kernel.",
            one(index.get("code_page_outs")),
        ),
        *family(
            "index_table_open",
            "gauge",
            "1 while the search index's table is open (closed, its caches dropped, after"
            " embeddings.unload_after seconds unused).",
            one(int(bool(index.get("table_open")))),
        ),
        *family(
            "index_table_opens_total",
            "counter",
            "Times the search index's table was opened since start (again after each close).",
            one(index.get("table_opens")),
        ),
        *family(
            "index_tables",
            "gauge",
            "LanceDB tables the search index holds: its home table and the generations of"
            " messages after it (index.generation_rows each, merged up to index.merged_rows).",
            one(index.get("tables")),
        ),
        *family(
            "index_merges_total",
            "counter",
            "Merges of the search index's sealed generations since start.",
            one(index.get("merges")),
        ),
    ]


def _cluster(cluster: Mapping[str, Any] | None) -> list[str]:
    """The members sharing a Postgres store; nothing on the file engine (no cluster)."""
    if not cluster:
        return []
    seen = [(m["role"], "alive" if m["alive"] else "dead") for m in cluster["members"]]
    mine = sum(m["sessions"] for m in cluster["members"] if m["id"] == cluster["member"])
    kinds = [(role, state) for role in ("daemon", "worker") for state in ("alive", "dead")]
    lines = family(
        "cluster_members",
        "gauge",
        "Daemons and workers sharing the Postgres store, by role and state (dead: no beat"
        " within cluster.owner_ttl or its connection closed; shown 10 owner_ttl).",
        [({"role": role, "state": state}, seen.count((role, state))) for role, state in kinds],
    )
    lines += family("cluster_sessions_owned", "gauge", "Sessions this daemon owns now.", one(mine))
    return lines + family(
        "cluster_jobs",
        "gauge",
        "Consolidation jobs of every member, by state.",
        [({"state": s}, n) for s, n in sorted({"running": 0, **cluster["jobs"]}.items())],
    )


def _llm(consolidation: Mapping[str, Mapping[str, Any]]) -> list[str]:
    stats = {k: b.get("llm") or {} for k, b in sorted(consolidation.items())}
    lines = family(
        "llm_calls_total",
        "counter",
        "Consolidation calls to the LLM by backend and outcome (ok or the error code).",
        [
            ({"backend": k, "outcome": outcome}, n)
            for k, s in stats.items()
            for outcome, n in sorted(s.get("calls", {}).items())
        ],
    )
    lines += family(
        "llm_refused_total",
        "counter",
        "Consolidation attempts not sent to the LLM because its circuit breaker was open,"
        " by backend (not calls: llm_calls_total does not count them).",
        [({"backend": k}, s.get("refused", 0)) for k, s in stats.items()],
    )
    lines += family(
        "llm_tokens_total",
        "counter",
        "Tokens the LLM reported using, by backend and kind (prompt, completion, and cached:"
        " the part of prompt served from the server's cache).",
        [
            ({"backend": k, "kind": kind}, s.get(f"{kind}_tokens", 0))
            for k, s in stats.items()
            for kind in ("prompt", "completion", "cached")
        ],
    )
    name = "reverie_llm_call_duration_seconds"
    lines += [
        f"# HELP {name} Latency of consolidation calls to the LLM, by backend.",
        f"# TYPE {name} histogram",
    ]
    for backend, s in stats.items():
        label = f'backend="{escape(backend)}"'
        count = sum(s.get("calls", {}).values())
        for bound, n in s.get("seconds_buckets", {}).items():
            lines.append(f'{name}_bucket{{{label},le="{bound}"}} {n}')
        lines.append(f'{name}_bucket{{{label},le="+Inf"}} {count}')
        lines.append(f"{name}_sum{{{label}}} {number(s.get('seconds_sum', 0.0))}")
        lines.append(f"{name}_count{{{label}}} {count}")
    return lines
