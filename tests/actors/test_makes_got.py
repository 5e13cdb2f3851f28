"""A thing got by a make the key table reads as a kind (``change.displaced``, through the
extractive path): the one line of theirs holding a thing of that kind is the old one, and a
thing only wanted is none."""

from __future__ import annotations

from tests.actors.merging import lines_after
from tests.actors.merging import merge_retired as _merge


def test_a_make_read_as_a_phone_replaces_the_phone_a_line_names_by_its_make() -> None:
    """ "got a Pixel 7a" after "an old Redmi Note 10": the Redmi goes (before, the make got
    was matched to the old one's make, which the embedder puts far apart)."""
    lines = lines_after("Aditi", "I have an old Redmi Note 10.", "got a Pixel 7a yesterday")
    assert not any("Redmi" in line for line in lines), lines


def test_a_thing_wanted_is_no_thing_had_of_its_kind() -> None:
    """ "I need a new phone before any move" holds no phone: "Got a Galaxy S24", read as a
    phone, takes the Huawei whose camera died (read so without this, the wanted one went in
    its place)."""
    lines = lines_after(
        "Samir",
        "Also my Huawei's camera died, I need a new phone before any move.",
        "Got a Galaxy S24 at the airport, the camera is great.",
    )
    assert not any("Huawei" in line for line in lines), lines


def test_a_fall_that_finished_a_thing_ends_it_and_a_make_given_after_it_replaces_it() -> None:
    """ "the phone fell on the tiles and finished. My son bought me a Doro" ends the phone a
    line names by its make (before, a fall was no end); "the tablet fell … and the screen
    broke, she gave me a Lenovo" the tablet their daughter gave them, a line opening with
    the giver (before, the gift was read without the kind its end said, and the line was
    the daughter's). A fall that finished nothing ends nothing."""
    first = "my phone Alcatel with the buttons, the letters are too small now."
    said = "and the phone fell on the tiles and finished. My son bought me a Doro, very good."
    assert not any("Alcatel" in line for line in lines_after("Anselmo", first, said))
    said = "the phone fell in the sink but I dried it in rice and it works fine"
    assert any("Alcatel" in line for line in lines_after("Anselmo", first, said))
    first = "My daughter gave me a Samsung tablet and she says I can ask you things."
    said = "Also the tablet fell from the table and the screen broke, she gave me a Lenovo."
    lines = lines_after("Domingos", first, said)
    assert not any("Samsung" in line for line in lines) and any("Lenovo" in x for x in lines)


def test_a_make_got_beside_an_end_is_of_the_kind_that_ended_and_takes_no_other_line() -> None:
    """ "the phone finally died, my son bought me a Vivo": the phone's end takes the iPhone
    line, and the Vivo, of the kind that ended, takes no second line by nearness (before, it
    took the physio's schedule, "the agency sent Ma'am Carla …")."""
    lines = lines_after(
        "Evangeline",
        "my iPhone 7 won't update anymore, so the alarm for meds sometimes doesn't ring.",
        "Also the PT moved to Cebu, the agency sent Ma'am Carla, and now therapy is Tuesday "
        "and Friday 2pm.",
        "And the phone finally died, my son bought me a Vivo, big battery.",
    )
    assert not any("iPhone" in line for line in lines), lines
    assert any("Ma'am Carla" in line for line in lines), lines


def test_a_thing_someone_wants_to_give_them_is_no_thing_of_theirs_yet() -> None:
    """ "my dad wants to give me his old Mercedes …, I said no thanks, the Peugeot is
    perfect": a gift wished, declined, not given; before, it was read as given and took the
    line of the Peugeot they drive. Given, it replaces it."""
    older = ["Joana and Rui got a Peugeot 2008, second hand, grey.", "Joana lives in Matosinhos."]
    said = "Joana's dad wants to give them his old Mercedes since he's buying a new one."
    assert _merge("Joana", older, said) == []
    said = "Joana's dad gave them his old Mercedes since he's buying a new one."
    assert _merge("Joana", older, said) == older[:1]


def test_a_make_driven_with_no_article_is_the_car_sold() -> None:
    """ "I drive Avante, very old, 2011", as many who learnt English late say it, is their
    car: "we sold the old car" takes it, and not where they live (before, only "drive an
    Avante" was a car)."""
    older = ["Jisoo drives Avante, very old, 2011.", "Jisoo lives in Cheongju."]
    assert _merge("Jisoo", older, "Jisoo and Eunji sold the old car.") == older[:1]
