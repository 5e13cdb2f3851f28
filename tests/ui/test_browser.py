"""The inspector in a real browser: Debian's headless Chromium, driven through ChromeDriver.

Every page is loaded against a real daemon with real data, its content
checked, a fact edited and a session forgotten by clicking, and each
change checked where a host sees it (``context()`` and search through the
client). Each page's screenshot is saved and must not be blank. A page
served from another loopback port tries to frame the inspector, and must
find the frame empty.

``make test`` installs Chromium and ChromeDriver where it can (``make
browser``: Debian's ``chromium`` and ``chromium-driver``); where they are
missing these tests are skipped, saying so.
"""

from __future__ import annotations

import html
import shutil
import struct
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.checks import poll
from tests.ui.conftest import ERRANDS, TRIP, Inspector

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()) or shutil.which("chromium") is None,
    reason="Debian's chromium and chromium-driver are not installed (`make browser` installs them)",
)

webdriver = pytest.importorskip("selenium.webdriver")
By = pytest.importorskip("selenium.webdriver.common.by").By


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    """Headless Chromium with a fresh profile and no background traffic (the network is closed)."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _pixels(png: bytes) -> bytes:
    """The decompressed scanlines of a PNG (filter bytes included: enough to tell blank)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    return zlib.decompress(data)


def _shot(driver, tmp_path: Path, name: str) -> Path:
    """Save a screenshot of the page; a blank one (a single colour) fails the test."""
    path = tmp_path / f"{name}.png"
    assert driver.save_screenshot(str(path))
    assert len(set(_pixels(path.read_bytes()))) > 16, f"the screenshot of {name} is blank"
    return path


def _all(driver, css: str) -> list:
    """The elements ``css`` finds, once the page that has them has loaded.

    A click returns before the page it leads to has loaded, so every check
    after a click waits for an element only that page has.
    """
    return poll(lambda: driver.find_elements(By.CSS_SELECTOR, css), 60, f"{css} on the page")


def _text(driver, css: str) -> str:
    return str(_all(driver, css)[0].text)


def _notice(driver) -> str:
    """The notice of the page an action redirected to."""
    return _text(driver, "#notice")


def test_every_page_shows_the_daemons_data(inspector: Inspector, browser, tmp_path: Path) -> None:
    driver = browser
    driver.get(f"{inspector.url}/sessions?token={inspector.token}")
    assert driver.current_url == f"{inspector.url}/sessions"  # signed in; the token left the URL
    table = _text(driver, "#sessions")
    assert TRIP in table and ERRANDS in table
    _shot(driver, tmp_path, "sessions")

    driver.find_element(By.LINK_TEXT, TRIP).click()
    assert _text(driver, "#name") == TRIP
    assert "green tea at Porto station" in _text(driver, "#history")
    assert "green tea" in _text(driver, "#episodes")  # consolidated: an episode covers it
    assert "green tea" in _text(driver, "#memory")  # the memory prefix, shown unfolded
    _shot(driver, tmp_path, "session")

    driver.find_element(By.LINK_TEXT, f"session/{TRIP}").click()
    facts = _all(driver, "#facts tbody tr")
    assert facts and any("green tea" in f.get_attribute("innerHTML") for f in facts)
    assert f"{TRIP} (" in _text(driver, "#facts")  # each fact names the session it came from
    _shot(driver, tmp_path, "scope")
    driver.find_element(By.CSS_SELECTOR, "#facts .sources a").click()  # a fact's source turns
    assert "Porto" in _text(driver, "#turns") or "Lisbon" in _text(driver, "#turns")

    driver.get(f"{inspector.url}/search")
    box = driver.find_element(By.NAME, "q")
    box.send_keys("kayak permit")
    driver.find_element(By.NAME, "session").send_keys(ERRANDS)
    driver.find_element(By.CSS_SELECTOR, "#search-form button").click()
    hits = _all(driver, "#hits tbody tr")
    assert hits and "kayak permit" in hits[0].text
    score, words, meaning = (
        float(c.text) for c in hits[0].find_elements(By.CSS_SELECTOR, "td.num")
    )
    assert 0 < score <= 1 and 0 < words <= 1 and 0 <= meaning <= 1
    assert "threshold" in _text(driver, "#summary")
    _shot(driver, tmp_path, "search")

    driver.get(f"{inspector.url}/health")
    charts = _all(driver, "#charts svg polyline")
    assert len(charts) >= 7
    labels = {t.text for t in driver.find_elements(By.CSS_SELECTOR, "#charts svg text")}
    assert {"MiB", "count now", "0", "now"} <= labels  # each axis labelled, with its unit
    assert "connections" in _text(driver, "#now")
    _shot(driver, tmp_path, "health")


def test_a_fact_edited_and_a_session_forgotten_in_the_browser_reach_context_and_search(
    inspector: Inspector, browser
) -> None:
    driver = browser
    scope = f"session/{TRIP}"
    driver.get(f"{inspector.url}/sessions?token={inspector.token}")
    driver.get(f"{inspector.url}/scope?name={_quoted(scope)}")

    row = next(
        r
        for r in driver.find_elements(By.CSS_SELECTOR, "#facts tbody tr")
        if "green tea" in r.find_element(By.NAME, "text").get_attribute("value")
    )
    field = row.find_element(By.NAME, "text")
    field.clear()
    field.send_keys("The user drinks jasmine tea at Porto station every morning.")
    row.find_element(By.CSS_SELECTOR, "form[action='/fact/edit'] button").click()
    assert _notice(driver) == "fact saved"

    with inspector.daemon.client() as client:
        memory = client.context(TRIP).memory
        assert "jasmine tea" in memory and "green tea" not in memory
        # A fact edit reaches the index when the indexer re-reads the scope; until then a
        # search finds the fact's old text (it shares "tea"), so wait for the new one on top.
        poll(
            lambda: (
                (hits := client.search("jasmine tea", scope=scope, kinds=["fact"]))
                and "jasmine tea" in hits[0].text
            ),
            60,
            "the edited fact found first by search",
        )

    driver.get(f"{inspector.url}/session?name={ERRANDS}")
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()  # to the confirmation
    _all(driver, "#confirm-forget")[0].click()
    assert _notice(driver).startswith(f"forgot {ERRANDS}")
    assert ERRANDS not in _text(driver, "#sessions")

    with inspector.daemon.client() as client:
        assert client.sessions(prefix=ERRANDS) == []
        poll(
            lambda: (
                not any(
                    "kayak" in h.text or h.session == ERRANDS
                    for h in client.search("kayak permit regatta", everywhere=True, min_score=0)
                )
            ),
            60,
            "the forgotten session's turns gone from search",
        )


def test_a_fact_deleted_after_the_browsers_confirm_is_gone(inspector: Inspector, browser) -> None:
    driver = browser
    scope = f"session/{TRIP}"
    driver.get(f"{inspector.url}/scope?name={_quoted(scope)}&token={inspector.token}")
    before = len(driver.find_elements(By.CSS_SELECTOR, "#facts tbody tr"))
    row = next(
        r
        for r in driver.find_elements(By.CSS_SELECTOR, "#facts tbody tr")
        if "Lisbon" in r.find_element(By.NAME, "text").get_attribute("value")
    )
    row.find_element(By.CSS_SELECTOR, "form[action='/fact/delete'] button").click()
    driver.switch_to.alert.accept()  # the page asks before it deletes
    assert _notice(driver) == "fact deleted"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#facts tbody tr")) == before - 1
    with inspector.daemon.client() as client:
        assert "Lisbon" not in client.context(TRIP).memory


def test_sessions_are_paged_and_found_by_prefix(inspector: Inspector, browser) -> None:
    with inspector.daemon.client() as client:
        for i in range(55):
            client.append(f"bulk/{i:03d}", "user", f"note number {i}")
    driver = browser
    driver.get(f"{inspector.url}/sessions?prefix=bulk/&token={inspector.token}")
    first = _all(driver, "#sessions tbody tr")
    assert len(first) == 50 and "bulk/000" in first[0].text
    driver.find_element(By.ID, "next").click()
    poll(lambda: "after=" in driver.current_url, 60, "the next page")
    rest = [r.text.split()[0] for r in _all(driver, "#sessions tbody tr")]
    assert rest == [f"bulk/{i:03d}" for i in range(50, 55)]


def _quoted(name: str) -> str:
    from urllib.parse import quote

    return quote(name, safe="")


def test_a_page_on_another_loopback_port_cannot_frame_the_inspector(
    inspector: Inspector, browser, tmp_path: Path
) -> None:
    """The clickjacking of the red team: a signed-in browser, a page of the same site framing
    ``/forget``. The frame must stay empty; a page of the framer's own, framed beside it, shows
    (so an empty frame is the inspector's refusal, not a broken test page).
    """
    driver = browser
    driver.get(f"{inspector.url}/sessions?token={inspector.token}")  # signed in: the cookie
    assert ERRANDS in _text(driver, "#sessions")
    target = f"{inspector.url}/forget?session={_quoted(ERRANDS)}"
    with _framing_page(tmp_path, target) as framer:
        driver.get(framer)
        poll(lambda: driver.execute_script("return window.loaded") == 2, 60, "both frames loaded")
        driver.switch_to.frame(driver.find_element(By.ID, "own"))
        assert driver.find_elements(By.ID, "own-content")  # a frame that may render, renders
        driver.switch_to.default_content()
        driver.switch_to.frame(driver.find_element(By.ID, "inspector"))
        assert not driver.find_elements(By.ID, "confirm-forget")
        assert "Forget" not in driver.find_element(By.TAG_NAME, "body").text
        driver.switch_to.default_content()
    with inspector.daemon.client() as client:
        assert [s.name for s in client.sessions(prefix=ERRANDS)] == [ERRANDS]


@contextmanager
def _framing_page(root: Path, target: str) -> Iterator[str]:
    """A page on another loopback port that frames ``target`` and a page of its own."""
    site = root / "site"
    site.mkdir()
    count = "window.loaded = (window.loaded || 0) + 1"
    (site / "index.html").write_text(
        f'<!doctype html><iframe id="inspector" src="{html.escape(target)}" '
        f'onload="{count}"></iframe><iframe id="own" src="own.html" onload="{count}"></iframe>'
    )
    (site / "own.html").write_text('<!doctype html><p id="own-content">framed fine</p>')
    handler = partial(_QuietHandler, directory=str(site))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
        finally:
            server.shutdown()
            thread.join(30)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Nothing: the test's output is its assertions."""
