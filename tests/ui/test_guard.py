"""Every answer of the inspector forbids framing, sniffing, referrers and caching; an unknown
Host, an unsigned notice and an out-of-range number get nowhere; a page reads a bounded amount.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import httpx

from reverie.daemon.ui.pages import MAX_K, TURN_PAGE, TURN_PAGES
from tests.ui.conftest import ERRANDS, TRIP, Inspector
from tests.ui.test_access import EVERY_ROUTE

#: What every answer must carry, header by header.
GUARDED = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


def _guarded(answer: httpx.Response) -> None:
    for name, value in GUARDED.items():
        assert answer.headers.get(name) == value, (answer.request.url, name, answer.headers)
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy


def _signed_in(inspector: Inspector) -> httpx.Client:
    return httpx.Client(
        base_url=inspector.url, headers={"Authorization": f"Bearer {inspector.token}"}
    )


def test_every_answer_carries_the_headers_signed_in_or_not(inspector: Inspector) -> None:
    query = {"name": TRIP, "session": TRIP, "q": "green tea", "ids": "nope"}
    with _signed_in(inspector) as signed, httpx.Client(base_url=inspector.url) as stranger:
        for http in (signed, stranger):
            for method, path in EVERY_ROUTE:
                data = {"session": "nobody"} if method == "POST" else None
                _guarded(http.request(method, path, params=query, data=data))
            _guarded(http.get("/no-such-page"))
        _guarded(signed.get("/sessions", headers={"Host": "evil.test"}))


#: Hosts the inspector on 127.0.0.1 must not answer to (DNS rebinding, another port).
STRANGE_HOSTS = ("evil.test", "127.0.0.1", "localhost:1", "127.0.0.1.nip.io:80")


def test_an_unknown_host_is_refused_before_the_gate(inspector: Inspector) -> None:
    with _signed_in(inspector) as http:
        form = http.get("/forget", params={"session": ERRANDS}).text
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form)
        assert csrf is not None
        for host in STRANGE_HOSTS:
            answer = http.post(
                "/forget", data={"session": ERRANDS, "csrf": csrf[1]}, headers={"Host": host}
            )
            assert answer.status_code == 400 and "does not answer to the host" in answer.text
            assert "kayak" not in answer.text
    with inspector.daemon.client() as client:
        assert [s.name for s in client.sessions(prefix=ERRANDS)] == [ERRANDS]


def test_loopbacks_names_with_the_port_are_answered(inspector: Inspector) -> None:
    port = urlparse(inspector.url).port
    with _signed_in(inspector) as http:
        for host in (
            f"localhost:{port}",
            f"127.0.0.1:{port}",
            f"[::1]:{port}",
            f"LOCALHOST:{port}",
        ):
            assert http.get("/health", headers={"Host": host}).status_code == 200, host


def test_only_a_notice_the_inspector_signed_is_shown(inspector: Inspector) -> None:
    with _signed_in(inspector) as http:
        forged = http.get("/sessions", params={"notice": "Your token expired: go to evil.test"})
        assert forged.status_code == 200 and "evil.test" not in forged.text
        page = http.get("/session", params={"name": TRIP})
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
        assert csrf is not None
        done = http.post("/consolidate", data={"session": TRIP, "csrf": csrf[1]})
        assert done.status_code == 303
        shown = http.get(done.headers["location"])
        assert 'id="notice">consolidation asked for' in shown.text
        notice = parse_qs(urlparse(done.headers["location"]).query)
        notice["notice"] = ["consolidation asked for; now visit evil.test"]
        replayed = http.get("/session", params={k: v[0] for k, v in notice.items()})
        assert replayed.status_code == 200 and "evil.test" not in replayed.text


#: Numbers out of range, each with the parameter the answer must name.
OUT_OF_RANGE = [
    ("/search", {"q": "tea", "k": str(2**64)}, "k"),
    ("/search", {"q": "tea", "k": str(MAX_K + 1)}, "k"),
    ("/search", {"q": "tea", "k": "9" * 5000}, "k"),
    ("/session", {"name": TRIP, "after_seq": str(2**64)}, "after_seq"),
    ("/session", {"name": TRIP, "after_seq": "-1"}, "after_seq"),
    ("/turns", {"session": TRIP, "ids": "x", "after_seq": str(2**63)}, "after_seq"),
]


def test_a_number_out_of_range_is_a_400_naming_it(inspector: Inspector) -> None:
    with _signed_in(inspector) as http:
        for path, query, named in OUT_OF_RANGE:
            answer = http.get(path, params=query)
            assert answer.status_code == 400, (path, query, answer.status_code, answer.text[-300:])
            assert f"{named} must be a whole number from 0 to" in answer.text
            assert "Traceback" not in answer.text


def test_a_turns_lookup_reads_a_bounded_stretch_and_offers_the_next(inspector: Inspector) -> None:
    stretch = TURN_PAGE * TURN_PAGES
    with inspector.daemon.client() as client:
        for start in range(0, stretch + 10, 500):
            batch = range(start, min(start + 500, stretch + 10))
            client.append_many(
                "long", [{"role": "user", "content": f"n{i}", "id": f"m{i}"} for i in batch]
            )
    wanted = f"m{stretch + 5}"
    with _signed_in(inspector) as http:
        first = http.get("/turns", params={"session": "long", "ids": f"{wanted},unknown"})
        assert first.status_code == 200 and f"n{stretch + 5}" not in first.text
        further = re.search(r'id="further".*?<a href="([^"]+)"', first.text, re.S)
        assert further is not None
        query = parse_qs(urlparse(further[1].replace("&amp;", "&")).query)
        assert query["after_seq"] == [str(stretch)]
        rest = http.get(further[1].replace("&amp;", "&"))
        assert rest.status_code == 200 and f"n{stretch + 5}" in rest.text
        assert "Not in the session any more" in rest.text and "unknown" in rest.text
