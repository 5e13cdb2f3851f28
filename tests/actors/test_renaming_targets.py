"""Which line a rename takes (``renaming.py``, through the extractive path): the one naming
the thing renamed by its noun, and none for a name chosen that the memory already holds, a
name suggested and declined, or a currency's letter."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines


def test_a_thing_renamed_by_its_noun_is_the_line_naming_it() -> None:
    """ "renamed the shop" renames the shop "under the shop name KadrajLab", not the
    employer the speaker works at."""
    lines = _lines(
        "Mehmet",
        "Auditor at Deloitte in Istanbul by day, but what I actually love is fixing old film "
        "cameras. I sell them on Etsy under the shop name KadrajLab.",
        "Good news round: I renamed the shop to Obscura Camera Co., felt more grown-up.",
    )
    assert any("Deloitte" in line for line in lines)
    assert any("shop name Obscura Camera Co" in line for line in lines)
    assert not any("KadrajLab" in line for line in lines)


def test_a_name_chosen_again_renames_nothing() -> None:
    """ "Campinas it is", of where they already live, is a decision, no rename; nor is
    "R$45" a name to replace."""
    lines = _lines(
        "Larissa",
        "I'm from Campinas. A box of 12 costs me R$28 and I sell it for R$45.",
        "Nah, just dreaming. My clients are here. Campinas it is.",
    )
    assert any("sells it for R$45" in line for line in lines), lines


def test_a_name_suggested_and_declined_renames_nothing() -> None:
    """ "Joost keeps saying I should switch to Ironman Hamburg, but no, Almere it is": the
    choice said last is the one made, and it is a race they already entered."""
    lines = _lines(
        "Femke",
        "My husband Joost works shifts for the NS so time is tight lol",
        "I cancelled and entered Challenge Almere-Amsterdam in September instead.",
        "Yes pls, extend to September. Joost keeps saying I should switch to Ironman "
        "Hamburg, but no, Almere it is.",
    )
    assert any("works shifts for the NS" in line for line in lines), lines


def test_of_lines_naming_what_they_belong_to_a_rename_takes_the_one_it_names() -> None:
    """ "Rebranded the DJ business. It's Kente Sound now" renames "as DJ Kwamzy" (the line
    naming the DJ business), never the curling club's Granite."""
    lines = _lines(
        "Kwame",
        "I DJ weddings on weekends as DJ Kwamzy. I curl with the Granite club Wednesday nights.",
        "Rebranded the DJ business. It's Kente Sound now, Abena's idea.",
    )
    assert "Kwame curls with the Granite club Wednesday nights." in lines, lines
    assert any("as Kente Sound" in line for line in lines), lines
    assert not any("Kwamzy" in line for line in lines), lines


def test_a_new_signboard_says_the_new_name() -> None:
    """ "New signboard says Adire House" renames the shop "called Golden Needle Fabrics"."""
    lines = _lines(
        "Chiamaka",
        "I run a fabric shop called Golden Needle Fabrics in Balogun Market, Lagos.",
        "And we don rebrand. New signboard says Adire House. My daughter designed the logo.",
    )
    assert any("shop called Adire House" in line for line in lines), lines
    assert not any("Golden Needle" in line for line in lines), lines


def test_a_new_name_said_as_now_its() -> None:
    """ "New name for the shop! … so now it's Spaak & Ketting" renames "called Fietsdokter
    Lombok"."""
    lines = _lines(
        "Youssef",
        "I run a small bike repair shop in Lombok, Utrecht, called Fietsdokter Lombok.",
        "New name for the shop! Samira said we need something modern, so now it's Spaak & Ketting.",
    )
    assert any("called Spaak & Ketting" in line for line in lines), lines


def test_the_speaker_is_never_a_things_new_name() -> None:
    """ "For now it's me and my old Vespa doing the market run" names no new restaurant."""
    lines = _lines(
        "Mateo",
        "Hola! I'm Mateo, I run a little restaurant in Montevideo called Candela.",
        "For now it's me and my old Vespa doing the market run at 6am.",
    )
    assert any("called Candela" in line for line in lines), lines


def test_of_two_names_the_rename_takes_the_thing_it_is_of_not_the_latest() -> None:
    """ "we renamed the shop: Kvas & Co." is the bakery's new name, not the sourdough
    starter's, though "the new one is called Igor" was said since."""
    lines = _lines(
        "Marek",
        "I run a little bakery called Zlatý Klas in Bratislava.",
        "the starter went mouldy, had to bin him. the new one is called Igor",
        "we renamed the shop: Kvas & Co. younger customers couldn't pronounce the old one lol",
    )
    assert any("Igor" in line for line in lines), lines
    assert not any("Klas" in line for line in lines), lines


def test_a_rebrand_under_way_names_what_it_will_be_particles_and_all() -> None:
    """ "we're rebranding, it'll be Bayt al-Ward" renames the stall, the whole name."""
    lines = _lines(
        "Hiba",
        "I run a flower stall called Yasmeen Flowers in Jabal Amman.",
        "ok big step: signed a lease on a real shop in Shmeisani!! and we're rebranding, it'll be Bayt al-Ward",
    )
    assert "Hiba runs a flower stall called Bayt al-Ward." in lines, lines
    assert not any("Yasmeen" in line for line in lines), lines


def test_a_price_said_now_is_no_new_name() -> None:
    """ "the sourdough loaf is now Rs 180", said beside the bakery's name, renames nothing:
    a sum in a currency's letters is not a name."""
    lines = _lines(
        "Arjun",
        "I'm Arjun, I run a small bakery called Crumb Story in Pune.",
        "That we are closed on Mondays and that the sourdough loaf is now Rs 180.",
    )
    assert any("called Crumb Story" in line for line in lines), lines
    assert not any("called Rs" in line for line in lines), lines
