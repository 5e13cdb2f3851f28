"""Changes and non-changes said in passing, as in a working chat: a group that "now meets
at" a café is no new employer, a day that "works for everyone" no job; a move into "the flat
above the studio" leaves the business; a price put "up to £52 cos of the costs"; a truck
that is "a write-off" or a ute that "carked it"; a move only thought about; a colleague's
phone; a number moved to another network; a rebrand the jars "now say"; "a correction on the badminton thing"; a trade in "the
port of Rotterdam"; an amount the "same"; a sentence opening with "Same" or "Still"; a pet
that "now lives" elsewhere; "New job. Jorvi Hospital, Espoo."."""

from __future__ import annotations

from reverie.actors.consolidation.attributes import keys
from tests.actors.merging import lines_after as _lines
from tests.actors.merging import merged as _merged


def test_a_doing_now_at_a_place_and_a_time_that_suits_are_no_employer() -> None:
    """ "The group now meets at Café Weidinger", "Wednesday works for everyone": no work key;
    "now works at", "is now backend lead at" still are."""
    assert not keys("Hamid's backgammon group now meets at Café Weidinger.")
    assert not keys("No, Wednesday works for everyone.")
    assert [k.attribute for k in keys("Maya now works at Acme.")] == ["work"]
    assert [k.attribute for k in keys("Maya is now backend lead at Tessa AI.")] == ["work"]
    lines = _lines(
        "Hamid",
        "Now I have my own small business, Tanin Piano Service.",
        "Our backgammon group now meets at Café Weidinger, the other place closed.",
    )
    assert "Now Hamid has their own small business, Tanin Piano Service." in lines, lines


def test_a_course_done_at_a_level_or_a_school_is_no_employer() -> None:
    """ "I'm also doing German at A2 level" is no job at "A2" (before, it took the hotel the
    speaker works at), nor "taking a course at Kaplan"; "is managing director at" is."""
    assert not keys("Alejandro is also doing German at A2 level, lots of German guests here.")
    assert not keys("Sam is taking a course at Kaplan.")
    assert [k.attribute for k in keys("Sam is managing director at Acme Foods.")] == ["work"]
    lines = _lines(
        "Alejandro",
        "Alejandro here, I'm a receptionist at Hotel Molina Lario in Málaga, on the night shift.",
        "thanks. I'm also doing German at A2 level, lots of German guests here",
    )
    assert any("Molina Lario" in line for line in lines), lines


def test_a_move_into_a_flat_leaves_the_business_the_line_names() -> None:
    """ "moved in the flat above the studio": a move of home, not of the business."""
    lines = _lines(
        "Mateus",
        "big news!! left the old studio, opened my own place, Agulha Studio, in graca",
        "also i moved in the flat above the studio so no more commute",
    )
    assert any("Agulha Studio" in line for line in lines), lines


def test_a_price_put_up_with_why_after_it_replaces_the_old_price() -> None:
    """ "putting full groom up to £52 cos of all the costs": "cos" is no unit of 52."""
    lines = _lines(
        "Chi",
        "prices mainly. full groom is £45, nail trim £10.",
        "and im putting full groom up to £52 cos of all the costs",
    )
    assert not any("£45" in line for line in lines), lines
    assert "Chi's full groom is £52, nail trim £10." in lines, lines


def test_a_vehicle_dead_or_wrecked_as_people_say_it_ends_the_one_they_drive() -> None:
    """ "the old ute finally carked it" ends the ute they drive, typed in lower case; a line
    of no thing had stays ("tigers n lions from Monday")."""
    lines = _lines(
        "Aroha",
        "fyi i drive an old toyota hilux to all the sites",
        "tigers n lions from monday, been chasing this for 2 years",
        "the old ute finally carked it on the back road",
    )
    assert not any("hilux" in line for line in lines), lines
    assert any("Tigers n lions" in line for line in lines), lines


def test_a_move_thought_about_moves_no_one() -> None:
    """ "Sometimes I think about moving to Galway": where they are based stays."""
    lines = _lines(
        "Siobhan",
        "I'm a farrier based in Naas, County Kildare.",
        "Sometimes I think about moving to Galway, the west is gorgeous.",
    )
    assert "Siobhan is based in Naas, County Kildare." in lines, lines


def test_a_colleagues_phone_is_not_the_speakers() -> None:
    """ "A colleague swears by her Pixel" leaves the iPhone they now use."""
    older = ["Now using an iPhone 13 that Kwame's mum gave Amara."]
    after = _merged("Amara", older, "A colleague swears by her Pixel.")
    assert older[0] in after.memory and not after.retired


def test_a_number_taken_to_another_network_is_the_phone_changed() -> None:
    """ "moved my number to STC", "changed my number to Lowi": the phone line goes (before,
    the number was no phone, and "phone is Ooredoo" stayed); a sister's number is hers."""
    older = ["Zainab's phone is Ooredoo, the package is fine.", "Zainab lives in Hawalli."]
    for said in ("I moved my number to STC, better deal.", "changed my number to Lowi, 25 GB"):
        lines = _lines("Zainab", "my phone is Ooredoo, the package is fine.", said)
        assert not any("Ooredoo" in line for line in lines), lines
    after = _merged("Zainab", older, "Zainab's sister moved her number to STC.")
    assert not after.retired, after.retired


def test_a_rebrand_the_jars_now_say_renames_the_name_answered() -> None:
    """ "jars now say Tui Ridge Honey" renames the stall answered as "Kowhai Hill Honey"."""
    older = ['Aroha, asked "What\'s the stall called?", answered "Kowhai Hill Honey".']
    after = _merged("Aroha", older, "We rebranded btw, jars now say Tui Ridge Honey.")
    assert "Kowhai" not in after.memory and "Tui Ridge Honey" in after.memory, after.memory


def test_a_correction_on_a_thing_corrects_that_thing() -> None:
    """ "Also a correction on the badminton thing: it's Thursdays at 8": the badminton's
    day, not "also a"."""
    lines = _lines(
        "Priya",
        "Tuesday badminton at 8.",
        "Also a correction on the badminton thing: it's Thursdays at 8, I mixed it up before.",
    )
    assert not any("Tuesday" in line or "also a" in line for line in lines), lines
    assert "Priya's badminton is Thursdays at 8." in lines, lines


def test_a_trade_in_a_part_of_a_city_keeps_its_trade_when_the_employer_changes() -> None:
    """ "a crane operator at the Euromax terminal in the port of Rotterdam" is a trade, an
    employer and a city: a new employer keeps the other two."""
    lines = _lines(
        "Kwame",
        "I work as a crane operator at the Euromax terminal in the port of Rotterdam.",
        "Big week. Started at APM Terminals on Monday, better shift pattern.",
    )
    assert "Kwame works as a crane operator." in lines, lines
    assert "Kwame is based in Rotterdam." in lines, lines
    assert not any("Euromax" in line for line in lines), lines


def test_what_else_they_are_then_living_somewhere_is_two_claims() -> None:
    """ "wedding photographer, brazilian but living in Porto since 2019": a finer home
    replaces Porto, not the trade."""
    lines = _lines(
        "Larissa",
        "I'm wedding photographer, brazilian but living in Porto since 2019.",
        "I live in Bonfim with my husband Rui.",
    )
    assert "Larissa is wedding photographer, brazilian." in lines, lines


def test_an_amount_said_to_be_the_same_or_of_another_thing_changes_no_amount() -> None:
    """ "same 10 euros" is no new amount; "football, 10 euros" is no new mortgage of "1,300
    euros"; "90kg" is ninety kilos, not ninety thousand."""
    older = ["Mortgage is 1,300 euros for Kwame's house in Schiedam."]
    for said in (
        "Five-a-side football every Tuesday at 20:00, 10 euros.",
        "The five-a-side moved to Wednesdays, same time, same 10 euros.",
    ):
        assert "1,300 euros" in _merged("Kwame", older, said).memory, said
    lines = _lines("Tevita", "I'm 96 kg right now.", "Weighed myself after the run: 90kg!!")
    assert not any("96" in line for line in lines), lines


def test_a_sentence_opening_with_same_changes_nothing() -> None:
    """ "Same boats, new logo on my jacket": the trade stays."""
    lines = _lines(
        "Sanne",
        "I'm a tugboat skipper in the port of Rotterdam, working for Maasboot Towage.",
        "From this month we're officially Nordhaven Marine. Same boats, new logo on my jacket.",
    )
    assert "Sanne works as a tugboat skipper." in lines, lines


def test_moving_around_and_a_job_thought_about_move_no_one() -> None:
    """ "I'm done with moving around" is no move to the place said before it; "Jonas is
    thinking about a job offer in Hamburg" puts no one in Hamburg."""
    lines = _lines(
        "Annika",
        "I live in Connewitz with my partner Jonas.",
        "Jonas is thinking about a job offer in Hamburg. I lived in Oslo for two years in my "
        "twenties, I'm done with moving around.",
    )
    assert "Annika lives in Connewitz." in lines, lines
    assert not any("Jonas is based in Hamburg" in line or "to Oslo" in line for line in lines)


def test_a_pet_that_now_lives_elsewhere_moves_no_one() -> None:
    """ "The dog now lives with my mother in Dresden": the dog's home, not the speaker's."""
    older = ["Annika lives in Connewitz."]
    after = _merged("Annika", older, "The dog now lives with Annika's mother in Dresden.")
    assert older[0] in after.memory, after.memory


def test_a_sentence_opening_with_still_changes_nothing() -> None:
    """ "Still living in Helsinki." after "Live in Kallio.": the finer home stays."""
    lines = _lines(
        "Sanna",
        "Hi. Sanna. Radiographer at Meilahti Hospital, Helsinki. Live in Kallio.",
        "New job. Jorvi Hospital, Espoo. Still radiographer. Still living in Helsinki.",
    )
    assert "Sanna lives in Kallio." in lines, lines


def test_a_workplace_named_alone_after_a_new_job_is_where_they_work() -> None:
    """ "New job. Jorvi Hospital, Espoo.": the new employer replaces the old; "Started
    Monday." or "Thrilled." after it names no workplace."""
    lines = _lines(
        "Sanna",
        "Hi. Sanna. Radiographer at Meilahti Hospital, Helsinki.",
        "New job. Jorvi Hospital, Espoo.",
    )
    assert "Sanna works at Jorvi Hospital." in lines, lines
    assert not any("Meilahti" in line for line in lines), lines
    for said in ("I got the job at Coco Bay Lodge! Started Monday.", "New job. Thrilled."):
        assert not any(
            "works at Started" in line or "Thrilled" in line for line in _lines("Kojo", said)
        )


def test_a_price_from_the_next_occasion_replaces_the_old_one() -> None:
    """ "From the next market the mugs go for 1,100": the mug's price, from then on."""
    lines = _lines(
        "Wanjiru",
        "A mug is 850 shillings, a big bowl 1,500.",
        "From the next market the mugs go for 1,100 and I will see what customers say",
    )
    assert "A mug is 1,100 shillings, a big bowl 1,500." in lines, lines


def test_pay_said_after_a_new_employer_replaces_the_old_pay() -> None:
    """ "Now I work at Velokontor, bigger shop, 2650 net.": a new employer and new pay."""
    lines = _lines(
        "Lukas",
        "I work at Kettenblatt, small bike shop. Salary 2400 net.",
        "Shop closed. Owner retired. Now I work at Velokontor, bigger shop, 2650 net.",
    )
    assert not any("2400" in line for line in lines), lines
    assert "Lukas earns 2650 net." in lines, lines


def test_an_amount_paid_every_month_is_theirs_and_changes_with_the_price() -> None:
    """ "For the stall I pay 400 euro every month." is kept, and "now stall is 475 euro for
    month" changes it, not the line of the stall itself."""
    lines = _lines(
        "Yusuf",
        "I have fish stall on Altona fish market in Hamburg. For the stall I pay 400 euro every month.",
        "Also bad news, market office raise the price, now stall is 475 euro for month. Expensive!",
    )
    assert "Yusuf has fish stall on Altona fish market in Hamburg." in lines, lines
    assert "For the stall Yusuf pays 475 euro every month." in lines, lines


def test_someone_moving_the_speakers_weekly_thing_moves_it() -> None:
    """ "Also the bouzouki teacher moved us to Thursday evenings.": the Monday lessons go (an
    "Also" opening the news is no second weekly thing)."""
    lines = _lines(
        "Stavros",
        "Also bouzouki lessons Monday nights.",
        "Yes. Also the bouzouki teacher moved us to Thursday evenings.",
    )
    assert not any("Monday" in line for line in lines), lines
    assert any("Thursday evenings" in line for line in lines), lines


def test_a_name_said_alone_after_someone_met_is_who_they_are_dating() -> None:
    """ "I've been seeing someone. Saoirse." names the someone; a name that is also a word
    ("Hugo.") where the turn speaks of a he; not "Finally." after "I met someone at last"."""
    lines = _lines(
        "Cormac", "and... I've been seeing someone. Saoirse. early days but she's lovely"
    )
    assert "Cormac is dating Saoirse." in lines, lines
    lines = _lines("Quentin", "I met someone at the climbing gym. Hugo. he's a ski patroller.")
    assert "Quentin is dating Hugo." in lines, lines
    lines = _lines(
        "Marguerite", "I've been seeing someone. Youssef, he's a cellist with the opera."
    )
    assert "Marguerite is dating Youssef, a cellist with the opera." in lines, lines
    lines = _lines("Quentin", "I met someone at last. Finally. We'll see.")
    assert not any("dating" in line for line in lines), lines


def test_a_thing_in_a_clause_of_someone_by_a_doers_noun_is_theirs() -> None:
    """ "…, now a supplier from Holland comes with a truck": the truck is the supplier's, no
    new vehicle of the speaker's (before, it retired the Kangoo, and the market run stayed)."""
    lines = _lines(
        "Krystyna",
        "I go to the Gdynia wholesale market myself every Tuesday at 4 am.",
        "I found a used Renault Kangoo, white, 2019, good price.",
        "Also I stopped driving to the market every week, too tired, now a supplier from "
        "Holland comes with a truck every Tuesday and Friday to the shop.",
    )
    assert any("Renault Kangoo" in line for line in lines), lines
    assert not any("Gdynia" in line for line in lines), lines


def test_a_thing_of_theirs_said_again_with_the_is_kept() -> None:
    """ "I sell handmade ceramic mugs. The mugs come from a family workshop in Bat Trang.":
    the mugs are the ones they sell, so where they come from is kept as "my mugs" would be;
    "the weather" their turn never spoke of is no thing of theirs."""
    lines = _lines(
        "Bao",
        "My name is Bao and I sell handmade ceramic mugs on Shopee. The mugs come from a "
        "family workshop in Bat Trang. Can you help me write better product descriptions?",
    )
    assert any("Bat Trang" in line for line in lines), lines
    lines = _lines("Bao", "I sell handmade ceramic mugs. The weather is grey in Hanoi.")
    assert not any("weather" in line for line in lines), lines


def test_what_a_place_is_is_no_diet_of_theirs() -> None:
    """ "it's a plant-based food company" says what the employer is: the vegetarian stays
    vegetarian; "I'm a vegetarian since May" is still a diet."""
    lines = _lines(
        "Gabriela",
        "also im vegetarian since last year so meal prep ideas are very welcome",
        "super nice. and it's a plant-based food company so lunch is perfect for me lol",
    )
    assert any("vegetarian since last year" in line for line in lines), lines
    assert [k.attribute for k in keys("Gabriela is a vegetarian since May.")] == ["diet"]
