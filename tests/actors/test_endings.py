"""A thing of the speaker's that ended (``signals.ending``, ``change.displaced``, through
``truth.merge``): it retires the line naming it, and gives no value of its sentence to
that line (docs/design.md, "Facts that stay true")."""

from __future__ import annotations

from tests.actors.merging import merge_retired as _merge


def test_a_course_finished_ends_its_line_and_work_finished_nothing() -> None:
    """ "Finished the Excel course" ends the course; "finished work at 6" is a day's end."""
    older = [
        "Mere is doing a night course in Excel at the Harbour Skills Centre on Mondays.",
        "Mere works at the front desk of the Kauri Hotel.",
    ]
    assert _merge("Mere", older, "Mere finished the Excel course.") == [older[0]]
    assert _merge("Mere", older, "Mere finished work at 6 and went home.") == []
