"""The translation layer (i18n.py) and narration (narrate.py): complete, consistent catalogues in
English and Dutch, the locale rule of default_language(), and narration that tells every event and
never a secret a seat may not know (docs/rules.md R7, R8)."""

from __future__ import annotations

import dataclasses
import locale
import random
import string

import pytest

from loveletter.engine import (
    CLASSIC,
    EDITION_2019,
    Action,
    Card,
    Event,
    IllegalActionError,
    Match,
    NotationError,
    Round,
    view,
)
from loveletter.engine.errors import MESSAGES as ENGINE_MESSAGES
from loveletter.i18n import (
    CARD_EFFECTS,
    CARD_NAMES,
    ERRORS_NL,
    LANGUAGES,
    MESSAGES,
    YOUR_ERRORS,
    Translator,
)
from loveletter.language import default_language
from loveletter.narrate import event_lines, narrate, narrate_all

DUTCH = {  # docs/rules.md R1
    Card.SPY: "spion", Card.GUARD: "wachter", Card.PRIEST: "priester", Card.BARON: "baron",
    Card.HANDMAID: "kamermeisje", Card.PRINCE: "prins", Card.CHANCELLOR: "kanselier", Card.KING: "koning",
    Card.COUNTESS: "gravin", Card.PRINCESS: "prinses",
}
EVENT_KINDS = {"setup", "deal", "draw", "play", "priest", "baron", "discard", "king", "chancellor", "bottom",
               "out", "showdown", "reveal", "round_end"}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def sample(name: str):
    """A plausible value for a placeholder."""
    if name in ("card", "guess", "keep"):
        return Card.PRINCESS
    if name in ("cards", "bottom"):
        return [Card.GUARD, Card.PRIEST]
    if name == "options":
        return [1, 2, 3]
    if name == "edition":
        return "classic"
    return 3


def replaced(event, **changes):
    """``event`` with some fields changed (events are named tuples or frozen dataclasses)."""
    if hasattr(event, "_replace"):
        return event._replace(**changes)
    return dataclasses.replace(event, **changes)


# ------------------------------------------------------------------------------------ catalogues


def test_languages():
    assert LANGUAGES == ("en", "nl")
    with pytest.raises(ValueError, match=r"^unknown language 'fr': choose en or nl$"):
        Translator("fr")


def test_same_keys_in_both_languages():
    assert set(MESSAGES["en"]) == set(MESSAGES["nl"])
    assert set(CARD_NAMES["en"]) == set(CARD_NAMES["nl"]) == set(Card)
    assert set(CARD_EFFECTS["en"]) == set(CARD_EFFECTS["nl"]) == set(Card)


def test_every_table_of_words_has_every_language():
    """A language added to LANGUAGES but missing from one of these tables fails here, not by
    speaking another (the engine's refusals were Dutch in any language but English)."""
    from loveletter import i18n

    every = [i18n.CARD_NAMES, i18n.TWO_CARDS, i18n._KEYWORDS, i18n._ARTICLE, i18n._DEFAULT_ARTICLE,
             i18n.RECORD_KINDS, i18n.CARD_EFFECTS, MESSAGES, i18n.YOUR_ERRORS, i18n.NOTATION_ERRORS,
             i18n.DECIMAL_MARK]
    for table in every:
        assert set(table) == set(LANGUAGES), table
    assert set(i18n.ENGINE_ERRORS) == set(LANGUAGES) - {"en"}  # (English: the engine's own words)


@pytest.mark.parametrize("key", sorted(MESSAGES["en"]))
def test_every_message_formats_with_its_placeholders(key):
    assert fields(MESSAGES["en"][key]) == fields(MESSAGES["nl"][key]), key
    params = {name: f"<{name}>" for name in fields(MESSAGES["en"][key])}
    for lang in LANGUAGES:
        text = Translator(lang)(key, **params)
        assert text.strip()
        assert all(f"<{name}>" in text for name in params)
        assert "{" not in text and "}" not in text


def test_dutch_messages_are_translated():
    same = [k for k in MESSAGES["en"] if MESSAGES["en"][k] == MESSAGES["nl"][k]]
    assert set(same) <= {"title", "status", "move_fmt_target", "move_fmt_none", "edition_2019", "web_title",
                         "web_bot", "web_level_beginner", "web_level_expert", "level_beginner", "level_expert", "serve_db",
                         "web_bot_beginner", "web_bot_expert", "web_replay_hand",
                         "tour_col_rating"}, same


def test_dutch_says_startgetal_and_names_seed_only_beside_it():
    """The option is --seed in both languages; the Dutch text calls the number a 'startgetal' and gives
    the English word only in brackets beside it."""
    for key, text in MESSAGES["nl"].items():
        if "seed" in text.replace("--seed", "").lower():
            assert "startgetal (seed)" in text.lower() or text.count("seed") == text.count("{seed}"), key


def test_dutch_uses_the_words_of_rules_r8():
    text = " ".join(MESSAGES["nl"].values()).lower() + " " + " ".join(ERRORS_NL.values()).lower()
    for word in ("teken van liefde", "ronde", "trekstapel", "weggelegde kaart", "aflegstapel",
                 "ligt uit de ronde", "beschermd", "beurt", "spel"):
        assert word in text, word


@pytest.mark.parametrize("card", list(Card), ids=lambda c: c.word)
def test_every_card_has_a_name_and_effect_in_both_languages(card):
    en, nl = Translator("en"), Translator("nl")
    assert en.card(card) == card.word.title()
    assert nl.card(card).lower() == DUTCH[card]
    assert en.effect(card).strip() and nl.effect(card).strip()
    assert en.effect(card) != nl.effect(card)
    assert en.the(card) == f"the {card.word.title()}"
    assert nl.the(card) == ("het " if card is Card.HANDMAID else "de ") + DUTCH[card].title()
    # the names typed in either language are read back as the notation's word
    assert nl.card_word(DUTCH[card]) == nl.card_word(DUTCH[card].upper()) == card.word
    assert en.card_word(card.word) == en.card_word(card.word.title()) == card.word


def test_card_lists_and_names():
    nl = Translator("nl")
    assert nl.cards([Card.GUARD, Card.HANDMAID]) == "Wachter, Kamermeisje"
    assert nl.join_names(["Anna"]) == "Anna"
    assert nl.join_names(["Anna", "Bram", "Cas"]) == "Anna, Bram en Cas"
    assert Translator("en").join_names(["Anna", "Bram"]) == "Anna and Bram"
    assert Translator("en").card_word("wachter") == "guard"  # moves are read in either language
    assert Translator("en").card_word("draak") is None


# ------------------------------------------------------------------------------------ engine refusals


def test_every_engine_refusal_has_a_dutch_wording():
    assert set(ERRORS_NL) == set(ENGINE_MESSAGES)
    for key, english in ENGINE_MESSAGES.items():
        assert fields(english) == fields(ERRORS_NL[key]), key
        rule = english[english.rfind("(R"):] if "(R" in english else None
        if rule:
            assert ERRORS_NL[key].endswith(rule), key  # the same rule is named


@pytest.mark.parametrize("key", sorted(ENGINE_MESSAGES))
def test_every_refusal_formats_in_both_languages(key):
    err = IllegalActionError(key, **{name: sample(name) for name in fields(ENGINE_MESSAGES[key])})
    en, nl = Translator("en").error(err), Translator("nl").error(err)
    assert en == str(err)
    assert nl.strip() and "{" not in nl and nl != en
    if "card" in err.params:
        assert "Prinses" in nl and "Princess" not in nl
    if "options" in err.params:
        assert "1, 2 of 3" in nl and "1, 2 or 3" in en  # (it read "1 or 2 or 3")


@pytest.mark.parametrize("key", ["face_up", "ev_setup_face_up", "web_face_up"])
def test_dutch_names_the_face_up_cards_apart_from_the_set_aside_card(key):
    """docs/rules.md (R3.2, R3.3): the face-down card is "weggelegd", the face-up ones "open
    weggenomen". They were "Open weggelegd", and "De weggelegde kaart was de Priester" then read as
    one of them."""
    said = Translator("nl")(key, cards="Prins, Koning", round=1, name="Ann")
    assert "weggenomen" in said and "weggelegd" not in said


def test_a_chancellor_is_told_its_cards_to_keep_as_choices():
    """The cards a Chancellor may keep, as a sentence offers them ("Wachter, Priester, Kanselier
    houden" read as if all three were to be kept)."""
    err = IllegalActionError("chancellor_keep", seat=0, options=[Card.GUARD, Card.PRIEST, Card.CHANCELLOR])
    assert str(err) == "seat 0 must keep one of these cards: Guard, Priest or Chancellor (R5.9)"
    assert Translator("nl").error(err, yours=True) == (
        "je moet één van deze kaarten houden: Wachter, Priester of Kanselier (R5.9)")


@pytest.mark.parametrize(("key", "english", "dutch"), [
    ("chancellor_keep_one", "you must keep the Guard (R5.9)", "je moet de Wachter houden (R5.9)"),
    ("chancellor_pending_one", "you played the Chancellor and must now keep the Guard (R5.9)",
     "je speelde de Kanselier en moet nu de Wachter houden (R5.9)"),
])
def test_a_chancellor_with_one_card_to_keep_is_told_that_card(key, english, dutch):
    """A Chancellor's hand of two or three Guards was told "must keep one of these cards: Guard"."""
    err = IllegalActionError(key, seat=0, card=Card.GUARD)
    assert str(err) == english.replace("you", "seat 0", 1)
    assert Translator("en").error(err, yours=True) == english
    assert Translator("nl").error(err, yours=True) == dutch
    assert Translator("nl").error(err) == dutch.replace("je", "stoel 0", 1)


def test_refusals_met_in_play_are_worded_in_dutch():
    """Illegal actions tried at random in random rounds: each refusal has a Dutch wording."""
    rng = random.Random("refusals")
    nl, en = Translator("nl"), Translator("en")
    seen: set[str] = set()
    for _ in range(60):
        edition = rng.choice([CLASSIC, EDITION_2019])
        players = rng.randint(2, edition.max_players)
        rnd = Round.shuffled(edition, players, rng)
        while not rnd.over:
            legal = rnd.legal_actions()
            for _ in range(8):
                card = rng.choice(list(Card))
                action = Action(card, rng.choice([None, *range(-1, players + 1)]),
                                rng.choice([None, *Card]))
                if rnd.phase.name == "CHANCELLOR" and rng.random() < 0.5:
                    action = Action(Card.CHANCELLOR, keep=rng.choice(list(Card)),
                                    bottom=tuple(rng.sample(list(Card), 2)))
                if action in legal:
                    continue
                with pytest.raises(IllegalActionError) as info:
                    rnd.clone().apply(action)
                err = info.value
                seen.add(err.key)
                dutch = nl.error(err)
                assert dutch and "{" not in dutch
                assert en.error(err) == str(err)
                if err.rule:
                    assert dutch.endswith(f"({err.rule})")
            rnd.apply(rng.choice(legal))
    assert len(seen) >= 10, seen


# ------------------------------------------------------------------------------------ default_language


LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def clean_env(monkeypatch):
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(locale, "getlocale", lambda *a: ("en_US", "UTF-8"))
    return monkeypatch


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "nl_NL.UTF-8"}, "nl"),
    ({"LANG": "nl_BE"}, "nl"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "nl_NL.UTF-8"}, "nl"),
    ({"LANG": "nl_NL.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "nl_NL.UTF-8"}, "nl"),
    ({"LC_ALL": "en_US.UTF-8", "LANGUAGE": "nl"}, "nl"),
    ({"LANG": "nl_NL.UTF-8", "LANGUAGE": "en"}, "en"),
    ({"LANGUAGE": "nl:en"}, "nl"),
    ({"LANGUAGE": "fr:nl"}, "nl"),  # a list in order of preference: the first language we have
    ({"LANGUAGE": "fy:nl_NL:en", "LANG": "en_US.UTF-8"}, "nl"),
    ({"LANGUAGE": "fr:en:nl"}, "en"),
    ({"LANGUAGE": "fr", "LANG": "nl_NL.UTF-8"}, "en"),  # none of ours: not translated, as with gettext
    ({"LANGUAGE": "C:nl"}, "en"),  # C and POSIX are the untranslated messages: the list stops there
    ({"LANGUAGE": "fr:POSIX:nl"}, "en"),
    ({"LANGUAGE": "C.UTF-8:nl"}, "en"),
    ({"LANGUAGE": ":nl"}, "nl"),
    ({"LANGUAGE": "", "LANG": "nl_NL.UTF-8"}, "nl"),
])
def test_default_language_follows_the_environment(clean_env, env, expected):
    for var, value in env.items():
        clean_env.setenv(var, value)
    assert default_language() == expected


def test_default_language_falls_back_to_the_locale(clean_env):
    assert default_language() == "en"
    clean_env.setattr(locale, "getlocale", lambda *a: ("nl_NL", "UTF-8"))
    assert default_language() == "nl"
    clean_env.setattr(locale, "getlocale", lambda *a: (None, None))
    assert default_language() == "en"


# ------------------------------------------------------------------------------------ narration


def random_rounds(count: int, seed: str):
    rng = random.Random(seed)
    for i in range(count):
        edition = EDITION_2019 if i % 3 else CLASSIC
        players = rng.randint(2, edition.max_players)
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players))
        while not rnd.over:
            rnd.apply(rng.choice(rnd.legal_actions()))
        yield rnd


@pytest.fixture(scope="module")
def rounds():
    return list(random_rounds(400, "narrate"))


def test_narrate_tells_every_kind_of_event(rounds):
    kinds: dict[str, int] = {}
    set_aside_draws = 0
    for lang in LANGUAGES:
        t = Translator(lang)
        for rnd in rounds:
            names = [f"P{s}" for s in range(rnd.players)]
            for event in rnd.log:
                line = narrate(event, names, t, 2)
                assert isinstance(line, str) and line.strip(), event  # the whole event: always a line
                assert "{" not in line and "None" not in line
                kinds[event.kind] = kinds.get(event.kind, 0) + 1
                set_aside_draws += event.kind == "draw" and event.result == "set_aside"
            assert narrate_all(rnd.log, names, t, 2)
    assert set(kinds) == EVENT_KINDS
    assert set_aside_draws > 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_narrate_a_priest_seeing_the_spy(lang):
    from loveletter.engine import Event

    event = Event("priest", seat=0, target=1, card=Card.SPY, secret=("card",), privy=frozenset({0}))
    expected = {"en": "Anna sees that Bram holds the Spy.", "nl": "Anna ziet dat Bram de Spion heeft."}[lang]
    assert narrate(event, ["Anna", "Bram"], Translator(lang)) == expected


@pytest.mark.parametrize(("lang", "tie", "won"), [
    # (the cards after the names, not in brackets beside them: a bot's name has brackets of its own,
    # "Bot 2 (beginner) (Princess)")
    ("en", "Anna compares hands with Bram: Handmaid against Handmaid, a tie, nothing happens.",
     "Anna compares hands with Bram: King against Handmaid."),
    ("nl", "Anna en Bram vergelijken hun handen: Kamermeisje tegen Kamermeisje, gelijk, er gebeurt niets.",
     "Anna en Bram vergelijken hun handen: Koning tegen Kamermeisje."),
])
def test_narrate_a_baron_tie_seen_by_one_of_the_two(lang, tie, won):
    """Seen by one of the two, a Baron shows both cards; a tie then says so (nothing else will)."""
    from loveletter.engine import Event

    seen = {"secret": ("cards",), "privy": frozenset({0, 1})}
    both = Event("baron", seat=0, target=1, cards=(Card.HANDMAID, Card.HANDMAID), result="tie", **seen)
    assert narrate(both, ["Anna", "Bram"], Translator(lang)) == tie
    beaten = Event("baron", seat=0, target=1, cards=(Card.KING, Card.HANDMAID), result=1, **seen)
    assert narrate(beaten, ["Anna", "Bram"], Translator(lang)) == won  # who is out: the next line


@pytest.mark.parametrize(("lang", "ended"), [
    ("en", "Left in the deck, top first: the Guard and the Handmaid. Bram wins the round."),
    ("nl", "Nog in de trekstapel, de bovenste eerst: de Wachter en het Kamermeisje. Bram wint de ronde."),
])
def test_narrate_a_round_ended_with_cards_left_in_the_deck(lang, ended):
    """R6.5: at the round's end the deck is public too, so the cards left in it are named."""
    from loveletter.engine import Event

    event = Event("round_end", seats=(1,), cards=(Card.GUARD, Card.HANDMAID))
    assert narrate(event, ["Anna", "Bram"], Translator(lang)) == ended
    assert narrate(event._replace(cards=()), ["Anna", "Bram"], Translator(lang)) == ended.split(". ")[-1]


def test_narrate_in_dutch_speaks_dutch(rounds):
    nl = Translator("nl")
    english = {c.word.title() for c in Card} - {"Baron"}
    for rnd in rounds[:100]:
        names = [f"P{s}" for s in range(rnd.players)]
        for line in narrate_all(rnd.log, names, nl):
            assert not any(word in line.replace(",", " ").replace(".", " ").split() for word in english), line


def test_narrate_each_view_without_error(rounds):
    for lang in LANGUAGES:
        t = Translator(lang)
        for rnd in rounds[:150]:
            names = [f"P{s}" for s in range(rnd.players)]
            for seat in [*range(rnd.players), None]:
                lines = narrate_all(view(rnd, seat).events, names, t)
                assert lines and all("None" not in x and "{" not in x for x in lines)


def _other_secret(event, rng: random.Random):
    """``event`` with every secret field set to other cards."""
    changes = {}
    for name in event.secret:
        value = getattr(event, name)
        if isinstance(value, Card):
            changes[name] = rng.choice([c for c in Card if c is not value])
        elif isinstance(value, tuple):
            changes[name] = tuple(rng.choice([c for c in Card if c is not v]) for v in value)
    return replaced(event, **changes)


def test_narrate_never_tells_a_secret_to_a_seat_not_privy(rounds):
    rng = random.Random("secrets")
    checked = {}
    for lang in LANGUAGES:
        t = Translator(lang)
        for rnd in rounds:
            names = [f"P{s}" for s in range(rnd.players)]
            for event in rnd.log:
                if not event.secret:
                    continue
                other = _other_secret(event, rng)
                assert other != event
                for seat in [*range(rnd.players), None]:
                    if seat is not None and seat in event.privy:
                        continue
                    told = narrate(event.seen_by(seat), names, t)
                    assert told == narrate(other.seen_by(seat), names, t), (event, seat)
                    if told is not None:
                        checked[event.kind] = checked.get(event.kind, 0) + 1
                    # nothing but the blanked event is told
                    for name in event.secret:
                        assert getattr(event.seen_by(seat), name) is None
    # the public part of these events is still told to everyone
    assert {"baron", "king", "chancellor", "bottom", "draw"} <= set(checked)


def test_narrate_hides_a_draw_but_not_the_set_aside_card_being_taken(rounds):
    t = Translator("en")
    for rnd in rounds:
        names = [f"P{s}" for s in range(rnd.players)]
        for event in rnd.log:
            if event.kind == "draw":
                stranger = next(s for s in range(rnd.players) if s != event.seat)
                line = narrate(event.seen_by(stranger), names, t)
                if event.result == "set_aside":
                    assert line == f"{names[event.seat]} takes the set-aside card (the deck is empty)."
                else:
                    assert line is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_notation_in_each_language_reads_back(lang):
    """Every legal move, written in the player's language (as the terminal shows it), reads back
    as the same move — Chancellor choices with 'houd'/'onder' in Dutch included."""
    t = Translator(lang)
    rng = random.Random(f"notation-{lang}")
    seen_choice = False
    for _ in range(150):
        rnd = Round.shuffled(EDITION_2019, rng.randint(2, 6), rng)
        while not rnd.over:
            for action in rnd.legal_actions():
                assert t.parse_action(t.notation(action)) == action
                seen_choice |= action.keep is not None
            rnd.apply(rng.choice(rnd.legal_actions()))
    assert seen_choice
    if lang == "nl":
        assert t.notation(Action.parse("chancellor keep baron bottom spy,priest")) == (
            "kanselier houd baron onder spion,priester"
        )
        assert t.parse_action("Wachter 1 PRIESTER") == Action.parse("guard 1 priest")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_moves_are_read_in_either_language_whatever_is_shown(lang):
    t = Translator(lang)
    for typed in ("guard 1 priest", "wachter 1 priester", "Wachter 1 priest"):
        assert t.parse_action(typed) == Action.parse("guard 1 priest")
    expected = Action.parse("chancellor keep baron bottom spy,priest")
    assert t.parse_action("kanselier houd baron onder spion,priester") == expected
    assert t.parse_action("chancellor keep baron bottom spy,priest") == expected


@pytest.mark.parametrize(("typed", "en", "nl"), [
    ("kanselier houd", "after 'keep' name the card you keep, e.g. 'chancellor keep baron bottom priest,guard'"
                       " (you wrote 'kanselier houd')",
     "na 'houd' (of 'keep') noem je de kaart die je houdt, bv. 'kanselier houd baron onder priester,wachter'"
     " (je schreef 'kanselier houd')"),
    ("wachter 1 prins extra", "unexpected 'extra' after 'wachter 1 prins'",
     "onverwacht 'extra' na 'wachter 1 prins'"),
    ("kanselier houd baron onder spion,prinsje", "unknown card 'prinsje'", "onbekende kaart 'prinsje'"),
    ("wachter een priester", "'een' stands where the seat goes", "op de plaats van het stoelnummer staat 'een'"),
    # quoted with its commas where they were typed (they were quoted as '1 ,' and 'guard,1'), and a comma
    # that parts no cards told as such ('prins 1,' was told that '1,' is no seat; then "unexpected ','",
    # and 'guard 1,priest' that ',' is an unknown card)
    ("1,", "a move starts with a card, not a number ('1,')", "een zet begint met een kaart, niet met een getal ('1,')"),
    ("wachter ,1", "a comma parts only the cards a Chancellor puts under the deck ('wachter ,1')",
     "een komma scheidt alleen de kaarten die een Kanselier onder de trekstapel legt ('wachter ,1')"),
    ("prins 1,", "a comma parts only the cards", "een komma scheidt alleen de kaarten"),
    ("wachter 1,priester", "a comma parts only the cards a Chancellor puts under the deck ('wachter 1,priester'):"
     " write a move's words with spaces between", "een komma scheidt alleen de kaarten die een Kanselier onder de"
     " trekstapel legt ('wachter 1,priester'): zet spaties tussen de woorden van een zet"),
    ("wachter 1 priester extra,x", "a comma parts only the cards", "een komma scheidt alleen de kaarten"),
    # the seat after the guess (was "unexpected '1' after 'wachter priester'")
    ("wachter priester 1", "the seat comes before the card named, e.g. 'guard 1 priest' (you wrote 'wachter priester 1')",
     "het stoelnummer komt vóór de genoemde kaart, bv. 'wachter 1 priester' (je schreef 'wachter priester 1')"),
])
def test_a_move_that_cannot_be_read_is_told_in_the_words_typed(typed, en, nl):
    """Moves typed in Dutch are read as the notation; what is wrong is quoted as typed, not as the
    English notation the player never wrote."""
    for lang, told in (("en", en), ("nl", nl)):
        t = Translator(lang)
        with pytest.raises(NotationError) as refused:
            t.parse_action(typed)
        assert t.notation_error(refused.value).startswith(told)


def test_a_long_move_typed_in_dutch_is_cut_short_in_the_words_typed():
    """The engine cut the English notation short, and the words were mapped back after: a cut word
    stayed English ('gravin gravin gravin gravin coun…')."""
    t = Translator("nl")
    with pytest.raises(NotationError) as refused:
        t.parse_action("wachter 1 " + "gravin " * 12)
    told = t.notation_error(refused.value)
    assert told.startswith("onverwacht 'gravin gravin gravin") and "…' na 'wachter 1 gravin'" in told
    assert "countess" not in told and "coun" not in told


def test_a_name_on_one_line():
    from loveletter.narrate import one_line

    assert one_line("  Anna\nvan\tDijk\r\n") == "Anna van Dijk"
    assert one_line("Bo\x1b[31mred\x00") == "Bo [31mred"
    assert one_line("A\u2028B\u2029C") == "A B C"  # line and paragraph separators
    assert one_line("\u202eAnna\u202c") == "Anna"  # no reordering of what follows
    assert one_line("Zoë 👨\u200d👩\u200d👧 می\u200cخواهم") == "Zoë 👨\u200d👩\u200d👧 می\u200cخواهم"  # joiners stay
    assert one_line("A\ud800B") == "A B"  # a lone surrogate (JSON allows one) cannot be printed
    assert one_line("\n\x07") == ""
    # one space between words where it was typed with several (a Windows line end, spaces around a tab)
    assert one_line("Anna\r\nvan Dijk") == "Anna van Dijk"
    assert one_line("Anna  \t van   Dijk") == "Anna van Dijk"


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_text_quoted_in_a_message_is_escaped_once(lang):
    """A control code in text a message quotes ({word!r}) shows as Python writes it in a string, once
    (a record's "pri\\nest" showed as 'pri\\\\nest'); unquoted ({field}) it is escaped the same; a
    byte that was not UTF-8 shows as the byte either way."""
    t = Translator(lang)
    card = "onbekende kaart" if lang == "nl" else "unknown card"
    assert t("rec_unknown_card", word="pri\nest", field="pl\x1bay") == f"{card} 'pri\\nest' in 'pl\\x1bay'"
    assert t("rec_unknown_card", word="it's\u2028", field="x") == f"{card} \"it's\\u2028\" in 'x'"
    assert t("rec_unknown_card", word="a\\b\udcff\n", field="\udcff\t") == f"{card} 'a\\\\b\\xff\\n' in '\\xff\\t'"
    assert t("rec_unknown_card", word="typed\\udcff\n", field="x") == f"{card} 'typed\\\\udcff\\n' in 'x'"


@pytest.mark.parametrize(("name", "other", "alike"), [
    ("Ann", "ANN", True), ("Ann", "\u0410nn", True),  # a Cyrillic capital A
    ("Ann", "\u0391\u039d\u039d", True),  # Greek capitals, which look like Latin ones only as capitals
    ("vik", "\u03bdik", True),  # a Greek small nu, like "v" only as a small letter
    ("Bot 1", "Bot l", True), ("Kim", "Kirn", True), ("Ian", "ian", True), ("A nn", "Ann", True),
    ("Anna", "Anne", False), ("Zo\u00eb", "Zoe", False), ("Jan", "Jaan", False),
    ("\u0421\u0430\u0448\u0430", "Cawa", False),  # a Russian name beside a Latin one not alike
])
def test_names_that_print_alike(name, other, alike):
    from loveletter.narrate import looks_like_any

    assert looks_like_any(name, [other]) is alike
    assert looks_like_any(other, [name]) is alike
    assert not looks_like_any(name, [])


def test_a_refusal_of_your_own_move_says_you():
    """Told to the player whose move it refuses, a refusal says "you", not "seat 0"; with the same
    placeholders as the engine's wording, for every key in both languages."""
    assert set(YOUR_ERRORS["en"]) == set(YOUR_ERRORS["nl"]) <= set(ENGINE_MESSAGES)
    fields = lambda text: {name for _, name, _, _ in string.Formatter().parse(text) if name}  # noqa: E731
    for key, text in YOUR_ERRORS["en"].items():
        assert fields(text) == fields(ENGINE_MESSAGES[key]) - {"seat"}, key
        assert fields(YOUR_ERRORS["nl"][key]) == fields(ERRORS_NL[key]) - {"seat"}, key
    rnd = Match(CLASSIC, 2, seed=1).round
    missing = next(c for c in (Card.PRINCESS, Card.COUNTESS, Card.KING) if c not in rnd.hands[rnd.current])
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(Action(missing))
    assert Translator("en").error(refused.value) == f"seat {rnd.current} does not hold the {missing.name.title()} (R4.3)"
    assert Translator("en").error(refused.value, yours=True) == f"you do not hold the {missing.name.title()} (R4.3)"
    assert Translator("nl").error(refused.value, yours=True) == f"je hebt {Translator('nl').the(missing)} niet (R4.3)"


PLURALS = {  # in the cards' order
    "en": ["Spies", "Guards", "Priests", "Barons", "Handmaids", "Princes", "Chancellors", "Kings", "Countesses",
           "Princesses"],
    "nl": ["Spionnen", "Wachters", "Priesters", "Baronnen", "Kamermeisjes", "Prinsen", "Kanseliers", "Koningen",
           "Gravinnen", "Prinsessen"],
}


@pytest.mark.parametrize(("lang", "two", "pair"), [
    ("en", "the two Guards", "the Guard and the Spy"),
    ("nl", "de twee Wachters", "de Wachter en de Spion"),
])
def test_two_of_one_card_are_named_together(lang, two, pair):
    """A Chancellor may put two Guards under the deck: "the two Guards", not "the Guard and the Guard"."""
    t = Translator(lang)
    assert t.the_cards((Card.GUARD, Card.SPY)) == pair
    the_two = " ".join(two.split()[:2])
    assert {card: t.the_cards([card, card]) for card in Card} == {card: f"{the_two} {plural}" for card, plural in
                                                                  zip(Card, PLURALS[lang], strict=True)}



# ------------------------------------------------------------------ each event's sentence

NAMES = ["Anna", "Bram", "Cas"]


def _secret(kind: str, privy: set[int], secret: tuple[str, ...], **fields) -> Event:
    return Event(kind, secret=secret, privy=frozenset(privy), **fields)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_baron_that_knocks_out_is_no_tie_to_a_third_player(lang):
    """A third player sees no cards of a Baron: a tie is told (nothing else will say it), but a
    Baron that knocks a player out is not told as a tie (the "out" line that follows tells it)."""
    t = Translator(lang)
    for outcome, cards in (("win", (Card.KING, Card.HANDMAID)), ("loss", (Card.GUARD, Card.PRINCESS))):
        beaten = _secret("baron", {0, 1}, ("cards",), seat=0, target=1, cards=cards, result=outcome)
        assert narrate(beaten.seen_by(2), NAMES, t) is None
    tie = _secret("baron", {0, 1}, ("cards",), seat=0, target=1, cards=(Card.PRIEST, Card.PRIEST), result="tie")
    assert narrate(tie.seen_by(2), NAMES, t) == {
        "en": "Anna and Bram compare hands: a tie, nothing happens.",
        "nl": "Anna en Bram vergelijken hun handen: gelijk, er gebeurt niets.",
    }[lang]


KING = _secret("king", {0, 1}, ("cards",), seat=0, target=1, cards=(Card.PRINCESS, Card.GUARD))
CHANCELLOR_ONE = _secret("chancellor", {0}, ("cards",), seat=0, cards=(Card.GUARD,), result=1)
CHANCELLOR_TWO = _secret("chancellor", {0}, ("cards",), seat=0, cards=(Card.GUARD, Card.SPY), result=2)
BOTTOM_ONE = _secret("bottom", {0}, ("card", "cards"), seat=0, card=Card.BARON, cards=(Card.SPY,), result=1)
BOTTOM_TWO = _secret("bottom", {0}, ("card", "cards"), seat=0, card=Card.BARON, cards=(Card.SPY, Card.GUARD),
                     result=2)
#: Bram's Prince on an empty deck: he takes the set-aside card, the Princess (R5.5), and only he sees it.
SET_ASIDE_DRAW = _secret("draw", {1}, ("card",), seat=1, card=Card.PRINCESS, result="set_aside")

#: (the event as the reader sees it, English, Dutch): each sentence whole, as a player reads it.
SENTENCES = [
    # a King's trade, told to the two who traded: each their new card (Anna played it, now holds the Princess)
    (KING, "Anna and Bram trade hands: Anna now holds the Princess, Bram holds the Guard.",
     "Anna en Bram ruilen van hand: Anna heeft nu de Prinses, Bram heeft de Wachter."),
    (KING.seen_by(1), "Anna and Bram trade hands: Anna now holds the Princess, Bram holds the Guard.",
     "Anna en Bram ruilen van hand: Anna heeft nu de Prinses, Bram heeft de Wachter."),
    (KING.seen_by(2), "Anna and Bram trade hands.", "Anna en Bram ruilen van hand."),
    # a Chancellor's draw and return as others see them: how many, singular and plural
    (CHANCELLOR_ONE.seen_by(1), "Anna draws 1 card.", "Anna trekt 1 kaart."),
    (CHANCELLOR_TWO.seen_by(1), "Anna draws 2 cards.", "Anna trekt 2 kaarten."),
    (BOTTOM_ONE.seen_by(1), "Anna puts 1 card under the deck.", "Anna legt 1 kaart onder de trekstapel."),
    (BOTTOM_TWO.seen_by(1), "Anna puts 2 cards under the deck.", "Anna legt 2 kaarten onder de trekstapel."),
    (BOTTOM_TWO, "Anna keeps the Baron and puts the Spy and the Guard under the deck.",
     "Anna houdt de Baron en legt de Spion en de Wachter onder de trekstapel."),
    # the set-aside card taken: named to the one who took it, only taken to the others (R7)
    (SET_ASIDE_DRAW, "Bram takes the set-aside card: the Princess.", "Bram neemt de weggelegde kaart: de Prinses."),
    (SET_ASIDE_DRAW.seen_by(0), "Bram takes the set-aside card (the deck is empty).",
     "Bram neemt de weggelegde kaart (de trekstapel is leeg)."),
    # out with nothing to show (a Prince made them discard the Princess), or with a card
    (Event("out", seat=1, cards=(), result="princess"), "Bram is out of the round.", "Bram ligt uit de ronde."),
    (Event("out", seat=1, cards=(Card.PRIEST,), result="guard"), "Bram is out of the round and shows the Priest.",
     "Bram ligt uit de ronde en toont de Priester."),
    # the Guard: right and wrong
    (Event("play", seat=0, target=1, card=Card.GUARD, guess=Card.PRIEST, result="hit"),
     "Anna plays the Guard on Bram and names the Priest: right!",
     "Anna speelt de Wachter op Bram en noemt de Priester: goed!"),
    (Event("play", seat=0, target=1, card=Card.GUARD, guess=Card.PRIEST, result="miss"),
     "Anna plays the Guard on Bram and names the Priest: wrong.",
     "Anna speelt de Wachter op Bram en noemt de Priester: fout."),
    # a Prince on oneself, on another; a King with no one to choose; the Handmaid
    (Event("play", seat=0, target=0, card=Card.PRINCE), "Anna plays the Prince on themselves.",
     "Anna speelt de Prins op zichzelf."),
    (Event("play", seat=0, target=2, card=Card.PRINCE), "Anna plays the Prince on Cas.", "Anna speelt de Prins op Cas."),
    (Event("play", seat=0, card=Card.KING), "Anna plays the King, but no one can be chosen: no effect.",
     "Anna speelt de Koning, maar niemand kan gekozen worden: geen effect."),
    (Event("play", seat=0, card=Card.HANDMAID), "Anna plays the Handmaid and is protected until their next turn.",
     "Anna speelt het Kamermeisje en is beschermd tot diens volgende beurt."),  # (not "zijn": Anna, Eva; nor the name twice)
    (Event("play", seat=0, card=Card.CHANCELLOR, result="no_effect"),
     "Anna plays the Chancellor, but the deck is empty: no effect.",
     "Anna speelt de Kanselier, maar de trekstapel is leeg: geen effect."),
    # the round's end: the set-aside card, shared winners, the Spy's token for seat 0
    (Event("showdown", seats=(0, 2)),
     "The deck is empty: every player still in the round shows their hand, and the highest card wins.",
     "De trekstapel is leeg: iedere speler die nog in de ronde is laat zijn hand zien, en de hoogste kaart wint."),
    (Event("reveal", card=Card.BARON), "The set-aside card was the Baron.", "De weggelegde kaart was de Baron."),
    (Event("reveal", seat=2, card=Card.BARON), "Cas shows the Baron.", "Cas toont de Baron."),
    (Event("round_end", seats=(0, 2), target=0, cards=()),
     "Anna and Cas win the round. Anna gains a token for the Spy.",
     "Anna en Cas winnen de ronde. Anna krijgt een teken van liefde voor de Spion."),
    (Event("round_end", seats=(1,), target=None, cards=(Card.GUARD, Card.GUARD, Card.PRIEST)),
     "Left in the deck, top first: the Guard, the Guard and the Priest. Bram wins the round.",
     "Nog in de trekstapel, de bovenste eerst: de Wachter, de Wachter en de Priester. Bram wint de ronde."),
]


@pytest.mark.parametrize(("event", "en", "nl"), SENTENCES, ids=[f"{e.kind}-{i}" for i, (e, *_) in enumerate(SENTENCES)])
def test_each_event_is_told_in_whole_sentences_in_both_languages(event, en, nl):
    assert narrate(event, NAMES, Translator("en")) == en
    assert narrate(event, NAMES, Translator("nl")) == nl


def test_a_rounds_end_is_told_on_lines_of_its_own():
    """In a log (a replay, the browser's story), the deck left, the winners and the Spy's token are
    three lines, as the terminal game tells them."""
    ended = Event("round_end", seats=(1,), target=1, cards=(Card.GUARD,))
    assert event_lines(ended, NAMES, Translator("en")) == [
        "Left in the deck, top first: the Guard.", "Bram wins the round.", "Bram gains a token for the Spy."]
