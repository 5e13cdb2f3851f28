"""A thing given a new name (``renaming.py``, through the extractive path): the line that
held the old name carries the new one, however the old one was said, and nobody else's."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def _lines(*said: tuple[str, str]) -> list[str]:
    """The memory's lines after one job per (speaker, turn), a day apart, in one scope."""
    return _facts(_memory_after(*((text, speaker, "s") for speaker, text in said)))


@pytest.mark.parametrize(
    ("first", "then", "now", "gone"),
    [
        (  # the old name said beside the new one, in the line "called"
            "I own a small pho restaurant in Houston called Pho Saigon Corner.",
            "We're rebranding. Pho Saigon Corner sounds dated, so from the 1st we're Little Mekong.",
            "Quang owns a small pho restaurant in Houston called Little Mekong.",
            "restaurant in Houston called Pho Saigon Corner",
        ),
        (  # … in a line that says it in other words
            "On Saturdays I sell bread at a stall in Peckham under the name Akos Bakes.",
            "Also we're rebranding. Akos Bakes was a placeholder; the new name is Sika Crust.",
            "On Saturdays Quang sells bread at a stall in Peckham under the name Sika Crust.",
            "under the name Akos Bakes",
        ),
        (  # … where the rename is said in the sentence before, and the name has an "&"
            "I co-host a small beer podcast called Hop Talk.",
            "We renamed the podcast! Hop Talk felt generic, so it's Foam & Folklore now.",
            "Quang co-hosts a small beer podcast called Foam & Folklore.",
            "podcast called Hop Talk",
        ),
        (  # the old name not said: the name after the thing renamed
            "I run my own business, Voltwise Electrics, so weeknights I'm knackered.",
            "I've renamed the business Northlight Electrical, the old name sounded silly.",
            "Quang runs their own business, Northlight Electrical, so weeknights they're knackered.",
            "Voltwise",
        ),
        (  # a thing given a new name is the same thing, not a new one of its kind
            "I run a coffee truck in Addis Ababa called Tizita.",
            "We gave the truck a new name, Abol.",
            "Quang runs a coffee truck in Addis Ababa called Abol.",
            "Tizita",
        ),
        (  # … said as its name changed
            "I run a taco truck called Los Compas in Guadalajara.",
            "We changed the truck's name, it's La Fogata now.",
            "Quang runs a taco truck called La Fogata.",
            "Los Compas",
        ),
        (  # … said in an opener, the name it goes out "as"
            "I work under the name WordBridge, and I need help tracking invoices.",
            "I've rebranded: invoices now go out as Baltic Lingo.",
            "Quang works under the name Baltic Lingo.",
            "WordBridge",
        ),
        (  # … or the name of the same kind
            "I'm a tour guide at Ness Water Distillery just outside Inverness.",
            "We got bought and the whole place is rebranded as Glen Corran Distillery.",
            "Quang works at Glen Corran Distillery just outside Inverness.",
            "Ness Water",
        ),
    ],
)
def test_the_line_holding_the_old_name_takes_the_new_one(
    first: str, then: str, now: str, gone: str
) -> None:
    lines = _lines(("Quang", first), ("Quang", then))
    assert now in lines, lines
    assert not any(gone in line for line in lines), lines


def test_a_rename_takes_no_line_of_another_person_nor_a_name_said_elsewhere() -> None:
    """Bob's "Flourish sounds dated, we're Rise now" is his shop's, not Ana's bakery; a
    rename by the shop across the street renames nothing of the speaker's."""
    ana = "I run a small bakery in Bristol called Flourish. I bake every night."
    lines = _lines(
        ("Ana", ana), ("Bob", "We're rebranding. Flourish sounds dated, so we're Rise now.")
    )
    assert "Ana runs a small bakery in Bristol called Flourish." in lines, lines
    lines = _lines(
        ("Ana", ana),
        ("Ana", "The shop across the street renamed itself. Flourish Two is now Boba Lab."),
    )
    assert "Ana runs a small bakery in Bristol called Flourish." in lines, lines


def test_a_rename_takes_the_name_of_the_thing_it_renames() -> None:
    """ "Rebranded the clinic, it's Pharos Dental now" renames the clinic of "Nour's clinic is
    Lumina Dental" (no "called" needed), not the running club."""
    older = ["Nour's clinic is Lumina Dental.", "Nour's running club is Corniche Striders."]
    memory = _merged("Nour", older, "Nour rebranded the clinic, it's Pharos Dental now.").memory
    assert "Nour's clinic is Pharos Dental." in memory and "Lumina" not in memory
    assert "Nour's running club is Corniche Striders." in memory


def test_a_new_title_replaces_the_answered_name_and_no_one_elses_rename_does() -> None:
    """ "Retitled the album Third Mainland" replaces the answer to "What's it called?"; the
    shop across the street renaming itself leaves the speaker's shop its name."""
    answer = 'Femi, asked "What\'s it called?", answered "Midnight Danfo"'
    said = "Femi and others have retitled the album Third Mainland."
    assert _merge("Femi", [answer, "Femi is a producer."], said) == [answer]
    # (a quoted line cannot take the new name: it goes, and the rename stands alone)
    answer = 'Femi, asked "Any plans?", answered "The label will be Eko Tapes"'
    said = "Femi renamed it Lagoon Tapes, the other name was taken."
    assert _merge("Femi", [answer, "Femi is a producer."], said) == [answer]
    shop = "Weijun runs a small bubble tea shop called Cloudpearl."
    said = "Funny, the shop across the street just renamed itself Boba Lab, copying us."
    memory = _merged("Weijun", [shop, "Weijun is based in Taichung."], said).memory
    assert shop in memory and "called Boba Lab" not in memory


def test_a_name_in_apposition_is_renamed_and_a_language_is_no_place() -> None:
    """ "Coaches a team in Kumasi, the Zongo Stars" holds the team's name for "we're the
    Kejetia Kings from this season"; "needs help writing a CV in English" says nothing of
    where she is."""
    team = "Kwame coaches an under-15 football team in Kumasi, the Zongo Stars."
    said = "Kwame and others are the Kejetia Kings from this season."
    memory = _merged("Kwame", [team, "Kwame drives a Nissan."], said).memory
    assert "Zongo" not in memory and "Kejetia Kings" in memory
    memory = _merged("Vale", [], "Vale needs help writing a CV in English.").memory
    assert "based in English" not in memory


def test_a_new_name_sharing_a_word_with_the_old_one_and_a_name_after_its_noun() -> None:
    """ "the team's called the Otahuhu Hawks now" renames "the Otahuhu Tigers" (a word in
    common is no same name), after any kind of news ("Mean news, …"); "the label is now
    Adire House" renames "their label Kaftan Kulture" (a name right after the thing's noun)."""
    assert (
        _lines(
            ("Sione", "I coach a kids rugby league team, the Otahuhu Tigers, under-10s."),
            (
                "Sione",
                "Mean news, the club got a new sponsor and the team's called the Otahuhu Hawks now",
            ),
        )[0]
        == "Sione coaches a kids rugby league team, the Otahuhu Hawks, under-10s."
    )
    lines = _lines(
        ("Amara", "I sell ready-to-wear under my label Kaftan Kulture."),
        ("Amara", "We're rebranding! The label is now Adire House, new logo drops Friday."),
    )
    assert "Kulture" not in " ".join(lines) and "Adire House" in lines[0]


def test_a_name_with_small_words_inside_is_renamed_whole() -> None:
    """ "Las Lectoras del Paraná" is one name: "we're Club Rayuela now" replaces all of it
    (not "Club Rayuela del Paraná")."""
    lines = _lines(
        ("Florencia", "I run a little book club called Las Lectoras del Paraná."),
        ("Florencia", "The group voted for a new name, we're Club Rayuela now."),
    )
    assert lines[0] == "Florencia runs a little book club called Club Rayuela."


def test_a_name_before_its_thing_is_renamed_by_the_turn_that_says_so() -> None:
    """ "Our band got a new name this week: we're Strada Brass now" renames "Fanfara Veche, a
    little brass-and-folk band" (the thing is said in the turn, the name before it); "no
    idea how I'll get there" puts nobody in a band."""
    lines = _lines(
        (
            "Bogdan",
            "I play bass in Fanfara Veche, a little brass-and-folk band, Thursdays at eight.",
        ),
        ("Bogdan", "Also, our band got a new name this week: we're Strada Brass now."),
    )
    assert (
        lines[0]
        == "Bogdan plays bass in Strada Brass, a little brass-and-folk band, Thursdays at eight."
    )
    said = "I play bass in Fanfara Veche, and I have no idea how I'll get there with the amp."
    assert "get there" in " ".join(_lines(("Bogdan", said)))


def test_a_rename_beside_others_and_a_name_holding_the_speakers_own() -> None:
    """A rename is the speaker's though another sentence of the turn speaks of others
    ("Three other salons had the old name"), and a new name that holds the speaker's own
    ("Wiremu's Barber Co") is one name: the line keeps its other claims (where it is)."""
    lines = _lines(
        ("Wiremu", "I run a barbershop called Sharp Edge in Rotorua."),
        ("Wiremu", "Rebrand! We're Wiremu's Barber Co now. Two other shops had the old name."),
    )
    assert lines[:2] == [
        "Wiremu runs a barbershop called Wiremu's Barber Co.",
        "Wiremu is based in Rotorua.",
    ]
    assert not any("Sharp Edge" in line for line in lines)


def test_a_new_name_said_with_too() -> None:
    """ "The trio has a new name too, Tres Lunas": the line that called it by the old name
    takes the new one."""
    lines = _lines(
        ("Inés", "On Thursdays I sing with my trio, Las Voces del Sur, at a café in Salta."),
        ("Inés", "The trio has a new name too, Tres Lunas, because a band up north had ours."),
    )
    assert not any("Voces" in line for line in lines) and any("Tres Lunas" in x for x in lines)


def test_a_rename_reaches_every_line_that_calls_the_thing_by_its_old_name() -> None:
    """An answer about the thing, kept with its question ('asked "What's Driftwood about?"'),
    calls it by the new name too once it is renamed; nothing else of the line changes."""
    older = [
        "Ilka is writing a novel at night called Driftwood.",
        'Ilka, asked "What\'s Driftwood about?", answered "A ferry in the fog".',
    ]
    memory = _merged("Ilka", older, "Ilka renamed the novel Tidewater.").memory
    assert "Driftwood" not in memory
    assert 'Ilka, asked "What\'s Tidewater about?", answered "A ferry in the fog". <!--' in memory


def test_a_business_run_by_its_name_is_renamed_by_its_noun() -> None:
    """ "I run Golden Scissors Salon in Osu" holds the name "we changed the salon's name"
    takes, though no "called" says it is one."""
    lines = _lines(
        ("Efua", "I'm Efua, I run Golden Scissors Salon in Osu, Accra."),
        ("Efua", "Big news, we changed the salon's name, it's Velvet Crown now."),
    )
    assert "Efua runs Velvet Crown in Osu, Accra." in lines, lines
    assert not any("Golden Scissors" in line for line in lines)


def test_a_new_name_said_after_a_colon() -> None:
    """ "The café has a new name with the new awning: Mokka Hus" renames the café."""
    lines = _lines(
        ("Sigrid", "I own a tiny café in Tromsø called Kaffekoppen."),
        ("Sigrid", "And the café has a new name with the new awning: Mokka Hus."),
    )
    assert "Sigrid owns a tiny café in Tromsø called Mokka Hus." in lines, lines


def test_a_new_name_named_after_someone_is_no_new_name_of_theirs() -> None:
    """ "A new name for the new place: Amara Crafts, after the baby" does not rename the
    daughter "Her name is Amara" into "Amara Crafts"."""
    lines = _lines(
        ("Kofi", "We had another daughter on Monday! Her name is Amara."),
        ("Kofi", "And a new name for the new place: Amara Crafts, after the baby."),
    )
    assert not any("name is Amara Crafts" in line for line in lines), lines


def test_a_name_changed_by_the_things_noun_renames_the_line_naming_it_after_a_comma() -> None:
    """ "We changed the band name, we're Maré Cheia now" renames "a band, Os Carapaus", and
    "the shop will be Thread & Co from now on" the shop: a rename said before its new name
    retires nothing by itself."""
    lines = _lines(
        ("Tiago", "I play bass in a band, Os Carapaus."),
        ("Tiago", "We changed the band name, we're Maré Cheia now."),
    )
    assert "Tiago plays bass in a band, Maré Cheia." in lines, lines
    lines = _lines(
        ("Nimal", "I'm a tailor, running a small shop called Silk Route."),
        ("Nimal", "And I'm rebranding: the shop will be Thread & Co from now on."),
    )
    assert "Nimal runs a small shop called Thread & Co." in lines, lines


def test_a_new_name_after_a_colon_clause_and_premises_moved_to_a_name() -> None:
    """ "My son talked me into it: the salon is now Glow Studio" renames the salon (the clause
    after the colon is its own statement); "we moved the salon to Kaneshie" moves the salon's
    line, and no town is claimed for Kaneshie: nothing said which one it is in."""
    memory = _memory_after(
        ("I own a small hair salon called Ama's Touch in Osu, Accra.", "Ama", "s"),
        ("New name! My son talked me into it: the salon is now Glow Studio.", "Ama", "s"),
        ("The rent doubled, so we moved the salon to Kaneshie.", "Ama", "s"),
    )
    facts = _facts(memory)
    assert "Ama owns a small hair salon called Glow Studio in Kaneshie." in facts
    assert "Osu" not in memory and "Ama's Touch" not in memory


def test_a_rename_forced_by_another_name_is_the_speakers() -> None:
    """ "The league made us rename, another club in the division had nearly the same name.
    We're the Harbour Gulls now": "another" names why, not whose rename it is."""
    memory = _memory_after(
        ("I coach an under-9s netball team in Napier, the Harbour Terns.", "Mere", "s"),
        (
            "The league made us rename, another club in the division had nearly the same "
            "name. We're the Harbour Gulls now.",
            "Mere",
            "s",
        ),
    )
    assert "Mere coaches an under-9s netball team in Napier, the Harbour Gulls." in memory
    assert "Terns" not in memory


def test_a_new_name_given_with_another_as_the_reason_is_the_speakers() -> None:
    """ "The choir has a new name, Sea Shanty Six, because another group already used ours":
    the other group is why, after the rename; the choir's line takes the name."""
    memory = _memory_after(
        ("I sing in a choir, Harbour Voices, on Tuesdays.", "Kai", "s"),
        (
            "The choir has a new name, Sea Shanty Six, because another group already used ours.",
            "Kai",
            "s",
        ),
    )
    assert "Kai sings in a choir, Sea Shanty Six, on Tuesdays." in memory


def test_a_name_changed_to_a_new_one_after_an_emoji_line_is_renamed() -> None:
    """ "I lead a dance crew called Starlit in Busan 🌙 we need a schedule" is two sentences
    (an emoji ends one before "we"); "we changed our crew name to Velvet Tiger" renames it."""
    memory = _memory_after(
        ("I lead a dance crew called Starlit in Busan 🌙 we need a schedule!!", "Jiwoo", "s"),
        ("NEWS 📣 we changed our crew name to Velvet Tiger!!", "Jiwoo", "s"),
    )
    assert "Jiwoo leads a dance crew called Velvet Tiger in Busan 🌙." in _facts(memory)


def test_a_new_name_said_after_the_rename_and_from_now_on_quoted_or_alone() -> None:
    """ "The choir voted on a new name. From now on we are 'Nordlys'." renames the choir's
    line, not the latest line calling anything by a name (a cat "named Pus"); "Solkorn from
    now on." after "we change the bakery name" renames the bakery's; an old one traded in,
    of a kind nothing named, takes no line by meaning."""
    memory = _memory_after(
        ("My choir, the Lindholm Singers, has a concert in May.", "Hanna", "s"),
        ("We adopted a grey cat named Pus.", "Hanna", "s"),
        ("First, the choir voted on a new name. From now on we are 'Nordlys'.", "Hanna", "s"),
    )
    lines = _facts(memory)
    assert "Hanna's choir, the Nordlys, has a concert in May." in lines
    assert "Hanna and others adopted a grey cat named Pus." in lines
    memory = _memory_after(
        ("My bakery is called Brødhuset.", "Hanna", "s"),
        ("Also we change the bakery name. Solkorn from now on.", "Hanna", "s"),
        ("Bakery news: traded the old one in.", "Hanna", "s"),
    )
    lines = _facts(memory)
    assert "Hanna's bakery is called Solkorn." in lines
    assert "Solkorn from now on." in lines
    memory = _memory_after(
        ("I run a podcast called Chalk Talk.", "Hanna", "s"),
        (
            "Also, we renamed the podcast. It is 'Sum It Up' now, my students chose it.",
            "Hanna",
            "s",
        ),
    )
    assert "Hanna runs a podcast called Sum It Up." in _facts(memory)


def test_a_new_name_said_as_its_own_short_sentence() -> None:
    """ "Renamed the app! It's Bukka now." is no chatter: "It's Bukka now" names the app the
    line "an app called ChopList" held."""
    memory = _memory_after(
        ("I'm building an app called Listo, a grocery list for flatmates.", "Amara", "s"),
        ("Renamed the app! It's Kanda now. Shorter.", "Amara", "s"),
    )
    assert "Amara is building an app called Kanda, a grocery list for flatmates." in _facts(memory)


def test_a_quoted_name_with_and_and_a_day_that_is_no_name() -> None:
    """ "We are now 'Rook and Pawn Academy'" renames "the club 'Black Bishop'" whole, quotes
    kept; "rehearsals are Sundays from now on" beside a new band name is a day, not a name."""
    memory = _memory_after(
        ("Lessons are Mondays at 17:00 in the club 'White Knight', near my flat.", "Giga", "s"),
        ("Club director decided new name: we are now 'Queen and Pawn Academy'.", "Giga", "s"),
    )
    assert "in the club 'Queen and Pawn Academy', near" in memory
    memory = _memory_after(
        ("I play fiddle in a trad band called The Galway Geese.", "Giga", "s"),
        (
            "New name, we're Reed and Rowan now. And rehearsals are Sundays from now on.",
            "Giga",
            "s",
        ),
    )
    assert "Giga plays fiddle in a trad band called Reed and Rowan." in _facts(memory)


def test_a_new_name_is_no_person_s_and_no_subject_s_after_a_comma() -> None:
    """ "Mateo and i decided the brand is now Casa Nube" renames no partner Mateo; "our
    club rebranded, we're the Downs Thunder now" is no new name of "…, the Outlander does the
    job", nor is "Quarry Rock it is" (a name after a comma is in apposition only when nothing
    follows it)."""
    memory = _memory_after(
        ("i have a little ceramics brand called Barro Rojo.", "Luz", "s"),
        ("my partner Mateo says i shouldn't get involved.", "Luz", "s"),
        ("new name!! Mateo and i decided the brand is now Casa Nube.", "Luz", "s"),
    )
    assert "Luz's partner Mateo says they shouldn't get involved." in _facts(memory)
    memory = _memory_after(
        ("Not happening on our budget, the Outlander does the job.", "Luz", "s"),
        ("Our netball club rebranded, we're the Valley Storm now.", "Luz", "s"),
    )
    assert "the Outlander does the job" in memory
    # (nor of a name chosen alone, with no word for what it names)
    memory = _memory_after(
        ("moved!! East Van life, the Drive has the best coffee.", "Caleb", "s"),
        ("Quarry Rock it is", "Caleb", "s"),
    )
    assert "the Drive has the best coffee" in memory


def test_a_name_found_wanting_and_a_new_one_from_this_episode() -> None:
    """ "We agreed the podcast name was too niche, so from this episode we're Jollof Stack"
    says the podcast is renamed, and names it."""
    memory = _memory_after(
        ("I co-host a small tech podcast, Code & Banku.", "Kofi", "s"),
        (
            "Efua and I agreed the podcast name was too niche, so from this episode we're "
            "Waakye Stack.",
            "Kofi",
            "s",
        ),
    )
    assert "Kofi co-hosts a small tech podcast, Waakye Stack." in _facts(memory)


def test_a_new_name_sharing_a_word_with_the_old_one_renames_it() -> None:
    """ "Our netball club rebranded, we're the Downs Thunder now" renames the line at "the
    Darling Downs Dynamos": the names share "Downs", and nothing else is named."""
    memory = _memory_after(
        ("I play wing attack for the Lockyer Valley Vipers, Saturday comp.", "Grace", "s"),
        ("Our netball club rebranded over the break, we're the Valley Storm now.", "Grace", "s"),
    )
    assert "Grace plays wing attack for the Valley Storm, Saturday comp." in _facts(memory)


def test_now_a_thing_is_called_is_a_new_name() -> None:
    """ "Now the studio is called Brasa Norte" after "we rebranded!" renames the speaker's
    business, whatever noun the new sentence calls it by."""
    memory = _memory_after(
        ("My little business is called FotoRiso, mostly weddings and birthdays.", "Tiago", "s"),
        (
            "Big news: we rebranded! Now the studio is called Brasa Norte, more portraits.",
            "Tiago",
            "s",
        ),
    )
    assert "FotoRiso" not in memory and "business is called Brasa Norte" in memory


def test_names_said_in_why_do_not_stop_a_rename_in_place() -> None:
    """ "the studio is now Ria Ceramics — it works in both English and Portuguese": the
    languages are why, not more that changed, so the line keeps where the studio is."""
    memory = _memory_after(
        (
            "I'm a ceramicist with a small studio in Bonfim, Porto — it's called Barro Azul.",
            "Rita",
            "s",
        ),
        (
            "Big news: the studio is now Ria Ceramics — I wanted something that works in both "
            "English and Portuguese.",
            "Rita",
            "s",
        ),
    )
    assert "Barro Azul" not in memory
    assert "small studio in Bonfim, Porto — it's called Ria Ceramics." in memory


def test_a_group_or_brand_said_with_are_or_is_takes_a_new_name() -> None:
    """ "We're Harbour Voices" then "we're the Tidewater Chorus from now on"; "The brand is
    Kora Goods" then "the name sounds dated, so we're calling it Baobab Goods now"; "We call
    them Casas Ribera" then "the name is too plain … We changed it to Casas Alto"."""
    for first, then, old, new in [
        (
            "We're Harbour Voices, about 30 singers, rehearsals on Mondays.",
            "We needed a fresher name, so we're the Tidewater Chorus from now on.",
            "Harbour Voices",
            "Tidewater Chorus, about 30 singers",
        ),
        (
            "The brand is Kora Goods, my nephew made the logo.",
            "My nephew says the name sounds dated, so we're calling it Baobab Goods now.",
            "Kora Goods",
            "The brand is Baobab Goods.",
        ),
        (
            "We call them Casas Ribera, because they sit by the river.",
            "A friend said the name is too plain. We changed it to Casas Alto.",
            "Casas Ribera",
            "call them Casas Alto",
        ),
    ]:
        memory = _memory_after((first, "Nkechi", "s"), (then, "Nkechi", "s"))
        assert old not in memory and new in memory, then


def test_a_rename_said_while_it_is_done() -> None:
    """ "I'm renaming the van to Dumpling Express" renames "a food van called Bao Wagon"."""
    memory = _memory_after(
        ("I run a food van in Leeds called Bao Wagon, mostly buns.", "Mei", "s"),
        ("Also I'm renaming the van to Dumpling Express, nobody knew what bao was.", "Mei", "s"),
    )
    assert "Bao Wagon" not in memory and "food van in Leeds called Dumpling Express" in memory


def test_a_group_that_voted_to_rename_itself_takes_its_new_name() -> None:
    """ "the quiz team voted to rename ourselves Brain Drain" renames the group they are
    called by."""
    memory = _memory_after(
        (
            "On Tuesdays our quiz team, we're called Quizzly Bears, plays at the Crown.",
            "Ffion",
            "s",
        ),
        ("Oh and the quiz team voted to rename ourselves Brain Drain, a bit naff.", "Ffion", "s"),
    )
    assert "Quizzly" not in memory and "Brain Drain" in memory
    # (or to "call ourselves the …", the old name in apposition after the team)
    memory = _memory_after(
        ("I bowl on Fridays with my team, the Pin Pals, at the Lanes.", "Ffion", "s"),
        ("The team voted to call ourselves the Gutter Kings. I lost that vote.", "Ffion", "s"),
    )
    assert "Pin Pals" not in memory and "the Gutter Kings, at the Lanes" in memory, memory


def test_a_team_renamed_takes_the_name_they_play_for() -> None:
    """ "The team got a new name, we're Tide Runners now" renames the team the speaker
    plays for ("plays for the Harbour Hawks on Thursdays")."""
    memory = _memory_after(
        ("Evenings are netball though! I play for the Harbour Hawks on Thursdays.", "Ana", "s"),
        ("The team got a new name, we're Tide Runners now, the league asked.", "Ana", "s"),
    )
    assert "Harbour Hawks" not in memory and "plays for the Tide Runners" in memory


def test_a_new_name_may_open_with_a_month() -> None:
    """ "we have a new name: May Roastery" is a name, though "May" alone is a month."""
    memory = _memory_after(
        ("I roast coffee in Kandy. The roastery is tiny and it's called Hill Bean.", "Nuwan", "s"),
        ("And we have a new name: May Roastery, because the mist looks like clouds.", "Nuwan", "s"),
    )
    assert "Hill Bean" not in memory and "May Roastery" in memory


def test_a_group_named_before_that_s_our_group_or_after_of_our_is_renamed() -> None:
    """ "The Harbour Lads, that's our walking group" and "secretary of our Sahara Circle"
    hold the name a rename of the group takes, when no line says "called"."""
    lines = _lines(
        ("Wendell", "On Fridays I walk with the Harbour Lads, that's our walking group."),
        ("Wendell", "The walking group picked a new name, we're the Quay Striders now."),
    )
    assert "Quay Striders, that's their walking group" in lines[0] and "Harbour" not in lines[0]
    lines = _lines(
        ("Meera", "I am secretary of our Sahara Circle, we meet on Sundays."),
        ("Meera", "Our group has a new name, we are now called Nisarg Kendra."),
    )
    assert "secretary of their Nisarg Kendra" in lines[0] and "Sahara" not in " ".join(lines)
    # (or before "their … group", with no "that's")
    lines = _lines(
        ("Meera", "I am secretary of Sahara Circle, our Sunday reading group."),
        ("Meera", "The group decided on a new name, it is Nisarg Kendra now."),
    )
    assert "secretary of Nisarg Kendra" in lines[0] and "Sahara" not in " ".join(lines)


def test_a_name_opening_with_the_things_noun_is_renamed() -> None:
    """ "Project Heron" is the project's name: "rebranded the project, it's called Blue
    Harbour now" takes it."""
    lines = _lines(
        ("Ngozi", "Main thing is Project Heron, a data migration due in May."),
        ("Ngozi", "They rebranded the project, it's called Blue Harbour now."),
    )
    assert "Heron" not in " ".join(lines) and "Blue Harbour, a data migration" in lines[0]


def test_a_pet_renamed_takes_the_name_it_was_given() -> None:
    """ "They had named her Pepper" holds the name "we renamed the cat, she's Mango now"
    replaces."""
    lines = _lines(
        ("Ama", "We adopted a cat from the shelter, they had named her Pepper."),
        ("Ama", "we renamed the cat, she's Mango now."),
    )
    assert "Pepper" not in " ".join(lines) and "named her Mango" in lines[0]


def test_a_name_given_in_the_passive_renames_the_line() -> None:
    """ "The home's been taken over and renamed Tamar House" renames the home's line, as
    "they renamed the home Tamar House" does."""
    older = ["The home Hollie works at is Seaview, it's dementia care.", "Hollie lives in Leeds."]
    said = "The home's been taken over and renamed Tamar House."
    assert _merge("Hollie", older, said) == [older[0]]


def test_a_thing_named_after_where_it_is_takes_a_new_name_whoever_had_the_idea() -> None:
    """ "Renamed the club to Agora, new logo and all, Selin's idea" renames "the debate club
    here, Minerva Debate": "here" may stand between the thing and its name, and whose idea
    it was names no old name (a line naming Selin stays)."""
    older = [
        "Zeynep runs the debate club here, Minerva Debate.",
        'Zeynep, asked "Who\'s a likely candidate?", answered "Probably Selin".',
        "Zeynep studies economics.",
    ]
    said = "Zeynep and others renamed the club to Agora, new logo and all, Selin's idea."
    assert _merge("Zeynep", older, said) == [older[0]]


def test_a_team_played_with_takes_the_new_name() -> None:
    """ "Plays five-a-side on Tuesday nights with the Landore Lions" names the team: "the
    team voted to rename ourselves, we're the Hafod Hornets now" renames it."""
    memory = _memory_after(
        ("I also play five-a-side on Tuesday nights with the Landore Lions.", "Dafydd", "s"),
        ("Also the team voted to rename ourselves, we're the Hafod Hornets now.", "Dafydd", "s"),
    )
    assert "Landore" not in memory and "Hafod Hornets" in memory, memory


def test_a_workplace_renamed_with_what_stays_the_same_keeps_the_trade_the_pet_and_the_name() -> (
    None
):
    """ "the clinic has been acquired and renamed. We are now Vestland Physio Group, although
    my role is unchanged.": the clinic they work at takes the new name; not their trade (the
    role said unchanged changes nothing), not the cat "named Tindra", not their own name."""
    said = [
        "My name is Ingrid Solberg and I work as a physiotherapist at Fjordside Rehabilitation "
        "Clinic in Bergen. I share my home with a grey cat named Tindra.",
        "A brief update: the clinic has been acquired and renamed. We are now Vestland Physio "
        "Group, although my role is unchanged.",
    ]
    memory = _memory_after(*((text, "Ingrid", "s") for text in said))
    facts = _facts(memory)
    for line in (
        "Ingrid works as a physiotherapist.",
        "Ingrid works at Vestland Physio Group.",
        "Ingrid shares their home with a grey cat named Tindra.",
        "Ingrid's role is unchanged.",
    ):
        assert line in facts, facts
    assert "Fjordside" not in memory and "Ingrid Solberg" in memory, facts
