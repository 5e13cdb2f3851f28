"""Without the inspector's token, every page and action is refused, and nothing changes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from reverie.daemon.ui.gate import COOKIE
from reverie.daemon.ui.pages import ROUTES
from tests.ui.conftest import ERRANDS, TRIP, Inspector

#: Every route the inspector serves, with each method it answers.
EVERY_ROUTE = sorted({(m, r.path) for r in ROUTES for m in (r.methods or ()) if m != "HEAD"})
#: What no refused answer may show: a session's name and a word of its turns.
SECRETS = ("trip/", "&lt;planning&gt;", "green tea", "kayak")


def _refused(answer: httpx.Response) -> None:
    assert answer.status_code == 401, (answer.status_code, answer.text[:300])
    assert not any(secret in answer.text for secret in SECRETS)


@pytest.mark.parametrize(
    "credentials",
    [
        {},
        {"headers": {"Authorization": "Bearer not-the-token-at-all-0000"}},
        {"cookies": {COOKIE: "0" * 64}},
    ],
    ids=["nothing", "wrong bearer", "forged cookie"],
)
def test_every_page_and_action_is_refused_without_the_token(
    inspector: Inspector, credentials: dict
) -> None:
    assert ("POST", "/forget") in EVERY_ROUTE and ("GET", "/health") in EVERY_ROUTE
    form = {"session": ERRANDS, "scope": f"session/{TRIP}", "id": "x", "text": "y"}
    with httpx.Client(base_url=inspector.url, **credentials) as http:
        for method, path in EVERY_ROUTE:
            query = {"name": TRIP, "session": TRIP, "q": "green tea"}
            answer = http.request(
                method, path, params=query, data=form if method == "POST" else None
            )
            _refused(answer)
        _refused(http.get("/sessions", params={"token": "not-the-token-at-all-0000"}))
        _refused(http.get("/sessions", params={"once": "not-the-code-at-all-0000"}))
    with inspector.daemon.client() as client:  # the forget was refused: the session is there
        assert [s.name for s in client.sessions(prefix=ERRANDS)] == [ERRANDS]


def test_the_token_signs_in_once_and_forms_need_their_own_token(inspector: Inspector) -> None:
    with httpx.Client(base_url=inspector.url) as http:
        wrong = http.post("/sign-in", data={"token": "guess" * 5, "next": "/health"})
        _refused(wrong)
        assert "not the inspector" in wrong.text

        # A link with the token: a cookie, and the token gone from the address.
        answer = http.get("/sessions", params={"token": inspector.token, "prefix": "trip"})
        assert answer.status_code == 303
        assert answer.headers["location"] == "/sessions?prefix=trip"
        cookie = answer.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert inspector.token not in cookie  # the cookie is derived from it, not it
        page = http.get("/sessions", params={"prefix": "trip"})
        assert page.status_code == 200 and "&lt;planning&gt;" in page.text

        # A signed-in browser's form posted by another page: no form token, no forget.
        forged = http.post("/forget", data={"session": ERRANDS})
        assert forged.status_code == 403
        # Sign-in never sends anyone to another site.
        elsewhere = http.post("/sign-in", data={"token": inspector.token, "next": "//evil.test/"})
        assert elsewhere.status_code == 303 and elsewhere.headers["location"] == "/"
    with inspector.daemon.client() as client:
        assert [s.name for s in client.sessions(prefix=ERRANDS)] == [ERRANDS]


def test_the_printed_link_signs_in_one_browser_once(inspector: Inspector) -> None:
    assert inspector.link.startswith(f"{inspector.url}/?once=")
    assert inspector.token not in inspector.link  # the token itself never reaches the terminal
    with httpx.Client() as browser:
        answer = browser.get(inspector.link)
        assert answer.status_code == 303 and answer.headers["location"] == "/"
        assert "HttpOnly" in answer.headers["set-cookie"]
        page = browser.get(f"{inspector.url}/sessions", params={"prefix": "trip"})
        assert page.status_code == 200 and "&lt;planning&gt;" in page.text
    with httpx.Client() as another:  # used up: the same link signs in nobody else
        _refused(another.get(inspector.link))
        _refused(another.get(f"{inspector.url}/sessions"))


def test_a_script_may_send_the_token_as_a_bearer_header(inspector: Inspector) -> None:
    headers = {"Authorization": f"Bearer {inspector.token}"}
    answer = httpx.get(f"{inspector.url}/health", headers=headers)
    assert answer.status_code == 200 and "<svg" in answer.text
    missing = httpx.get(f"{inspector.url}/session", params={"name": "nobody"}, headers=headers)
    assert missing.status_code == 404 and "there is no session" in missing.text
    bad = httpx.get(f"{inspector.url}/search", params={"q": "x", "min_score": "2"}, headers=headers)
    assert bad.status_code == 400 and "min score" in bad.text and "Traceback" not in bad.text


def test_the_inspector_refuses_a_remote_host_without_allow_remote() -> None:
    command = [sys.executable, "-m", "reverie.daemon", "ui", "--host", "0.0.0.0"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "--allow-remote" in out.stderr and "Traceback" not in out.stderr


def test_without_a_daemon_the_inspector_says_so_in_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "reverie.daemon", "ui", "--socket", str(tmp_path / "no.sock")]
    env = {"REVERIE_UI_TOKEN": "a-token-long-enough-0123", "PATH": "/usr/bin:/bin"}
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 1
    assert "no.sock" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
