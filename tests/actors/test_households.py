"""Who someone lives with, said as a list: "we live in Otahuhu, me, my wife Losa, our three
kids and Losa's brother Sione" is where, and each one they live with (not a clause "Our
three kids and Losa's brother Sione" of no one); "we live in …" after "Thuy here." is no
trade."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines


def test_a_household_said_as_a_list_is_each_one_they_live_with() -> None:
    lines = _lines(
        "Tevita",
        "we live in Otahuhu, me, my wife Losa, our three kids and Losa's brother Sione.",
    )
    assert lines == [
        "Tevita lives in Otahuhu.",
        "Tevita lives with their wife Losa.",
        "Tevita lives with their three kids.",
        "Tevita lives with Losa's brother Sione.",
    ], lines


def test_a_clause_after_their_name_is_no_trade() -> None:
    lines = _lines(
        "Thuy",
        "hi hi! Thuy here. we live in Footscray too, me, my husband Phong, our son Minh",
    )
    assert not any(" works as" in line or " is a " in line for line in lines), lines
    assert "Thuy lives with their husband Phong." in lines, lines


def test_where_they_live_said_after_their_trade_is_apart_from_whom_with() -> None:
    """ "a notary in Bordeaux, living in Chartrons with my boyfriend Gaspard": a break-up
    ends the boyfriend, not where they live or work."""
    lines = _lines(
        "Marguerite",
        "bonjour! I'm Marguerite, a notary in Bordeaux, living in Chartrons with my boyfriend "
        "Gaspard.",
        "big changes. my boyfriend and I have split up, mutual-ish.",
    )
    assert "Marguerite is based in Bordeaux." in lines, lines
    assert "Marguerite lives in Chartrons." in lines, lines
    assert not any("Gaspard" in line for line in lines), lines


def test_a_subject_of_two_after_when_is_one_subject() -> None:
    """ "after the harvest Rui and I both start at Quinta das Lajes" is the two of them (before,
    the clause was cut at "and I", leaving "After the harvest Rui." and "Joana boths start …");
    "I live with Leo and I work at Acme" is still two clauses."""
    lines = _lines("Joana", "after the harvest Rui and I both start at Quinta das Lajes.")
    assert lines == ["After the harvest Joana and Rui both start at Quinta das Lajes."], lines
    lines = _lines("Joana", "I live with Leo and I work at Acme.")
    assert lines == ["Joana lives with Leo.", "Joana works at Acme."], lines
