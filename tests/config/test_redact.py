"""The one scrubber: credentials never reach an error or a log line, the rest of the text does."""

from __future__ import annotations

import pytest

from reverie.config import scrub


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        ("llm backend (http://alice:hunter2@llm.lan:8080/v1)", "hunter2", "llm.lan:8080/v1"),
        ("POST https://alice@host/v1 failed", "alice", "host/v1 failed"),
        ("invalid header Authorization: Bearer sk-live-abc123def", "abc123def", "invalid header"),
        ("auth Basic YWxpY2U6aHVudGVyMg== refused", "YWxpY2U6aHVudGVyMg", "refused"),
        ('{"error": "bad key", "api_key": "k-9f8e7d6c"}', "9f8e7d6c", "bad key"),
        ("rejected: token=tok_4455aa&x=1", "tok_4455aa", "rejected"),
        ("key sk-proj-ZZZZZZZZZZ is revoked", "ZZZZZZZZZZ", "is revoked"),
    ],
)
def test_credentials_are_masked_and_the_rest_is_kept(text: str, secret: str, kept: str) -> None:
    out = scrub(text)
    assert secret not in out
    assert kept in out and "***" in out


def test_a_named_secret_of_any_shape_is_masked() -> None:
    assert scrub("the key plainword42 was refused", ["plainword42", None]) == (
        "the key *** was refused"
    )


def test_text_without_credentials_is_unchanged() -> None:
    text = "llm backend default (http://127.0.0.1:9/v1): no answer within 1s"
    assert scrub(text) == text
