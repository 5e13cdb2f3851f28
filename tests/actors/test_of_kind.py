"""The one line of a thing of a kind (``of_kind.same_kind``): a line that says what its make
is ("their old Dell laptop") is no line of another kind that ended, however it is the one
thing of theirs owned by name. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from reverie.actors.consolidation.modifiers import is_modifier
from reverie.actors.consolidation.of_kind import kind_after
from tests.actors.merging import lines_after
from tests.actors.merging import merge_retired as _merge


def test_a_line_saying_its_makes_kind_is_no_other_kind_that_ended() -> None:
    """ "Dropped my old defence" (a chess opening) ends no laptop; "my old laptop finally
    died" does. A verb after the make ("Anh's Sirius wouldn't start") says no kind."""
    older = ["Kofi prepares everything on their old Dell laptop.", "Kofi lives in Kumasi."]
    assert _merge("Kofi", older, "Kofi has dropped their old defence.") == []
    assert _merge("Kofi", older, "Kofi's old laptop finally died.") == [older[0]]
    assert not is_modifier("Anh's Sirius wouldn't start", len("Anh's Sirius"))


def test_a_make_got_with_its_kind_said_after_it_replaces_the_line_of_that_kind() -> None:
    """ "Bought a Juki industrial machine" replaces "their old Singer machine" (the small
    embedder knows neither make): the kind said after the make finds the line; "a Samsung
    phone case" is a case, which ends no machine and no phone."""
    older = [
        "Akosua's old Singer machine keeps jamming.",
        "Akosua's phone is an iPhone 12.",
        "Akosua lives in Madina.",
    ]
    said = "Akosua bought a Juki industrial machine, sold the old one to their aunty."
    assert _merge("Akosua", older, said) == [older[0]]
    assert _merge("Akosua", older, "Akosua bought a Samsung phone case.") == []
    assert kind_after("Aroha is on a Sym Jet these days", "Sym Jet") == ""


def test_a_partner_in_a_game_is_no_one_they_are_with_and_a_gift_replaces_its_kind() -> None:
    """ "Wayan's wife bought them a new racket, Li-Ning Axforce": the wife takes no line of
    a doubles partner (a partner in a game), and the racket given replaces the old racket."""
    older = ["Wayan's doubles partner Komang is moving to Denpasar.", "Wayan's racket is Yonex."]
    said = "Wayan's wife bought them a new racket, Li-Ning Axforce, very light!"
    retired = _merge("Wayan", older, said)
    assert older[0] not in retired, retired


def test_a_thing_given_replaces_its_kind_though_a_key_took_another_line() -> None:
    """ "Wayan's wife bought them a new racket" retires the old racket even when the wife's
    word took a line by its key ("needs a new partner"): a gift got is a make got."""
    older = ["Wayan's racket is Yonex, old one.", "Wayan needs a new partner."]
    said = "Wayan's wife bought them a new racket, Li-Ning Axforce, very light!"
    assert older[0] in _merge("Wayan", older, said)


def test_people_who_meet_to_do_a_thing_are_one_kind_by_any_of_their_nouns() -> None:
    """ "Switched clubs!" is of "runs with a crew called Dawn Patrol": a club, a group, a crew
    and a squad switched are one kind (before, only a line saying "club" was its old one).
    A group got is not of them: ``test_records``, "gave Kofi a second group" of students."""
    older = [
        "Wiremu runs with a crew called Dawn Patrol in Hagley Park.",
        "Wiremu lives in Riccarton.",
        "Wiremu works at Fonterra.",
    ]
    assert _merge("Wiremu", older, "Wiremu switched clubs!") == older[:1]


def test_a_name_joined_after_leaving_a_gym_is_no_new_employer() -> None:
    """ "I left the old gym, the AC was always broken. joined Body Works": the name joined in
    the turn that left a gym is a membership, not a job, so the employer stays (before,
    "joined Body Works" read as work retired the speaker's employer); a team left is not, it
    may be one at work."""
    lines = lines_after(
        "Kemi",
        "First week at Paystack done!",
        "I left the old gym, the AC was always broken. joined Body Works, closer to my house",
    )
    assert any("Paystack" in line for line in lines), lines
    # (a team left may be one at work: the name joined then is the new employer)
    lines = lines_after(
        "Kemi", "I work at Paystack.", "I left the team last month, joined Moniepoint."
    )
    assert not any("Paystack" in line for line in lines), lines


def test_a_street_named_after_on_is_no_make_of_a_thing_that_ended() -> None:
    """ "Sold my car" ends "Caleb's 2008 Civic needs new brakes" though a line of the same
    job found a room "on Commercial Drive": a name of words after "on" is a street, no make
    (before, the embedder put "Drive" as near a car as "Civic", and the car stayed)."""
    older = [
        "Caleb's basement suite in Kitsilano has a tiny fridge, $1,100 a month.",
        "Caleb's 2008 Civic needs new brakes, $600 quote.",
        "Caleb found a room on Commercial Drive with two other guys, $900.",
    ]
    said = "Caleb sold their car to a guy from Surrey for $2,500."
    assert _merge("Caleb", older, said) == [older[1]]
