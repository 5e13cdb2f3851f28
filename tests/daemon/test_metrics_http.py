"""``daemon.metrics_listen``: GET /metrics over HTTP, read by Prometheus' own text parser."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from reverie.daemon.metrics_http import parse_listen
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, status

WORDS = " ".join(["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog"] * 4)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _config(port: int, llm: FakeLLM) -> str:
    return (
        f'[daemon]\nmetrics_listen = "127.0.0.1:{port}"\n'
        "[consolidation]\nidle_after = 3600.0\nbudget_tokens = 60\ntarget_tokens = 20\n"
        "retry_base = 0.05\n"
        f'[llm]\nbase_url = "{llm.base_url}"\nmodel = "fake"\ntimeout = 5.0\n'
    )


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_get_metrics_over_http_is_prometheus_text(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM
) -> None:
    port = _free_port()
    daemon = make_daemon(config=_config(port, fake_llm))
    fake_llm.script(status(500))  # the first call fails: one retry, then done
    with daemon.client() as client:
        for i in range(6):
            client.append("m:http", "user" if i % 2 == 0 else "assistant", f"{i} {WORDS}")
        poll(lambda: client.consolidate("m:http", wait=True) is not None, what="a consolidation")
    url = f"http://127.0.0.1:{port}/metrics"
    reply = httpx.get(url, timeout=30)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain; version=0.0.4")
    families = {f.name: f for f in text_string_to_metric_families(reply.text)}
    assert families["reverie_index_lag_messages"].type == "gauge"
    assert families["reverie_consolidation_outcomes"].type == "counter"
    assert "reverie_consolidations" not in families  # one family per concept
    assert families["reverie_llm_call_duration_seconds"].type == "histogram"
    samples = _samples(reply.text)
    assert ("reverie_index_lag_seconds", ()) in samples
    outcome = "reverie_consolidation_outcomes_total"
    assert samples[(outcome, (("backend", "default"), ("outcome", "done")))] == 1
    assert samples[(outcome, (("backend", "default"), ("outcome", "retried")))] == 0  # jobs
    assert samples[(outcome, (("backend", "default"), ("outcome", "extractive")))] == 0
    assert samples[("reverie_llm_calls_total", (("backend", "default"), ("outcome", "ok")))] == 1
    llm_down = (("backend", "default"), ("outcome", "llm.unavailable"))
    assert samples[("reverie_llm_calls_total", llm_down)] == 1
    # failed calls are the calls whose outcome is not ok: the two families add up
    assert samples[("reverie_llm_failed_calls_total", (("backend", "default"),))] == 1
    assert samples[("reverie_llm_refused_total", (("backend", "default"),))] == 0
    assert samples[("reverie_llm_call_duration_seconds_count", (("backend", "default"),))] == 2
    assert ("reverie_llm_tokens_total", (("backend", "default"), ("kind", "prompt"))) in samples
    assert samples[("reverie_busy_answers_total", ())] == 0
    assert samples[("reverie_appends_total", ())] == 6


def test_metrics_endpoint_refuses_other_paths_and_methods(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM
) -> None:
    port = _free_port()
    make_daemon(config=_config(port, fake_llm))
    base = f"http://127.0.0.1:{port}"
    assert httpx.get(f"{base}/", timeout=30).status_code == 404
    assert httpx.get(f"{base}/metrics/../status", timeout=30).status_code == 404
    assert httpx.post(f"{base}/metrics", content=b"x", timeout=30).status_code == 405
    assert httpx.delete(f"{base}/metrics", timeout=30).status_code == 405
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"NONSENSE\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 400 ")
    assert httpx.get(f"{base}/metrics?x=1", timeout=30).status_code == 200  # still serving


def test_a_bad_metrics_listen_stops_the_start_with_one_line(tmp_path: Path) -> None:
    config = tmp_path / "reverie.toml"
    config.write_text('[daemon]\nmetrics_listen = "127.0.0.1:http"\n')
    data, sock = str(tmp_path / "d"), str(tmp_path / "s.sock")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "reverie.daemon",
            "serve",
            "--data-dir",
            data,
            "--socket",
            sock,
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "metrics_listen" in out.stderr and "Traceback" not in out.stderr


def test_parse_listen_defaults_to_loopback() -> None:
    assert parse_listen("9464") == ("127.0.0.1", 9464)
    assert parse_listen(":9464") == ("127.0.0.1", 9464)
    assert parse_listen("[::1]:9464") == ("::1", 9464)
    assert parse_listen("0.0.0.0:9464") == ("0.0.0.0", 9464)
