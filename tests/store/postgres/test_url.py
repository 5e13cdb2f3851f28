"""A store URL shown without its password, whatever form the password takes."""

from __future__ import annotations

import pytest

from reverie.store.postgres.url import redact_secrets, redact_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "postgresql://alice:s3cret@db.example:5432/reverie?sslmode=require",
            "postgresql://alice@db.example:5432/reverie?sslmode=require",
        ),
        ("postgres://:s3cret@db/x", "postgres://db/x"),
        ("postgresql://al%40ce:s3c%3Aret%40x@h1:5432,h2/db", "postgresql://al%40ce@h1:5432,h2/db"),
        (
            "postgresql:///x?host=%2Ftmp%2Fpg&password=s3cret&application_name=r",
            "postgresql:///x?host=%2Ftmp%2Fpg&application_name=r",
        ),
        ("postgresql://db/x?pass%77ord=s3cret", "postgresql://db/x"),
        ("postgresql://alice@db/x", "postgresql://alice@db/x"),
        (
            "postgresql://alice@db/x?sslpassword=s3cret&sslkey=%2Fk.pem&oauth_client_secret=s3cret",
            "postgresql://alice@db/x?sslkey=%2Fk.pem",
        ),
        ("postgresql://alice:s3cret@[db/x", "postgresql://alice@[db/x"),  # malformed: as text
        ("host=db sslpassword=s3cret dbname=x", "host=db sslpassword=<redacted> dbname=x"),
        ("host=db user=alice password=s3cret dbname=x", "host=db user=alice password=<redacted> dbname=x"),
        ("host=db password = 'it\\'s s3cret' dbname=x", "host=db password=<redacted> dbname=x"),
    ],
)  # fmt: skip
def test_the_password_is_removed_and_the_rest_kept(url: str, shown: str) -> None:
    assert redact_url(url) == shown
    assert "s3cret" not in shown


def test_a_message_quoting_a_url_or_a_conninfo_loses_the_passwords() -> None:
    text = (
        'connection to "postgresql://bob:hunter2@db:5432/r" failed;'
        " conninfo: host=db PASSWORD=hunter3 user=bob; password authentication failed"
    )
    shown = redact_secrets(text)
    assert "hunter2" not in shown and "hunter3" not in shown
    assert "postgresql://bob@db:5432/r" in shown and "password authentication failed" in shown
