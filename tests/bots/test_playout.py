"""The expert's simulated players (bots/playout.py): their memory follows the rules of what each player
can know (docs/rules.md R5, R7), their policy uses it, and the chance of a play is a true distribution."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from scenarios import deck as scenario_deck

from loveletter.bots.facts import links
from loveletter.bots.odds import EVEN, even, play_odds
from loveletter.bots.playout import (
    Memory,
    chance_at_random,
    chance_of_play,
    memory_at,
    move,
    policy,
    remember,
    step,
    unknown_counts,
    unseen_counts,
)
from loveletter.bots.rule_based import countess_tells
from loveletter.engine import (
    CLASSIC,
    EDITION_2019,
    Action,
    Card,
    Phase,
    Round,
    draws_from_under,
    known_hands,
    standing_ties,
    view,
)

EDITIONS = [CLASSIC, EDITION_2019]


def deck_with(edition, middle: list[Card], players: int = 2) -> list[Card]:
    """A full deck, top first, with ``middle`` dealt from the first card after the set-aside card (and,
    with two players, the three face-up cards)."""
    rest = Counter(edition.full_deck)
    rest.subtract(middle)
    assert min(rest.values()) >= 0
    pool = sorted(rest.elements(), reverse=True)
    head = 4 if players == 2 else 1
    return pool[:head] + middle + pool[head:]


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.name)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_memory_agrees_with_what_the_engine_says_each_seat_knows(edition, players):
    """Played through whole rounds from the deal, every seat's memory is what the engine's own
    bookkeeping (known_hands over the events as that seat saw them) says it knows, at every turn
    (but for the cards a seat put under the deck and another drew: the simulated players do not
    follow the deck, which is rare to matter and would slow every play-out). The Countess's tells
    kept up move by move are those read from the log (a King's trade moves one, a Prince's discard
    ends it), and so are the play odds (bots/odds.py: a King's trade swaps two seats', a Prince's
    discard and a Chancellor's return forget one, a missed Guard rules a card out) and the Baron ties
    (engine/ties.py)."""
    rng = random.Random(f"memory-{edition.name}-{players}")
    checked = told = traded = read = tied = 0
    for _ in range(150):
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players))
        memory = Memory({} for _ in range(players))
        while not rnd.over:
            log = rnd.log or []
            assert memory.tells == countess_tells(log), log[-3:]
            assert memory.odds == play_odds(log, edition, players), log[-3:]
            assert memory.ties == standing_ties(log), log[-3:]
            tied += bool(memory.ties)
            told += memory.tells != 0
            read += memory.odds != even(players)
            traded += memory.tells != countess_tells(e for e in log if e.kind != "king")
            if rnd.phase is Phase.PLAY:
                for seat in range(players):
                    if rnd.is_alive(seat):
                        seen = [e.seen_by(seat) for e in rnd.log or ()]
                        expected = {s: c for s, c in known_hands(seen, seat, under_deck=False).items()
                                    if rnd.is_alive(s)}
                        got = {s: c for s, c in memory[seat].items() if rnd.is_alive(s)}
                        assert got == expected, f"seat {seat} after {rnd.log[-3:]}"  # type: ignore[index]
                        checked += 1
            legal = rnd.legal_actions()
            card = rng.choice(sorted({a.card for a in legal}))
            step(rnd, rng.choice([a for a in legal if a.card is card]), memory)
        assert memory.ties == standing_ties(rnd.log or []), (rnd.log or [])[-3:]  # (a last Chancellor)
    assert checked > 1000 and told > 50 and traded > 0 and read > 300 and (tied > 20 or players == 2)


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.name)
def test_what_the_others_know_of_my_card_is_what_they_know(edition):
    """At every decision of random rounds (2 players up to the edition's most), what the deciding
    seat works out that each other player knows of its card (``memory_at``) is never a card that
    player does not know it holds (the engine's own bookkeeping, from that player's view). It may
    miss some second-hand knowledge: a look between two others that later reached this seat's hand
    by a King, once the holder had played (taken as forgotten: see ``facts.links``)."""
    rng = random.Random(f"knows-mine-{edition.name}")
    checked = missed = told = 0
    for _ in range(200):
        players = rng.randint(2, edition.max_players)
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players), log=True)
        while not rnd.over:
            me = rnd.current
            memory, links = memory_at(view(rnd, me))
            told += memory.tells != 0  # the Countess's tells, read from the events, carried by a copy
            assert memory.tells == remember(memory, links, rnd, 0.0).tells == countess_tells(rnd.log or ())
            assert memory.odds == remember(memory, links, rnd, 0.0).odds == play_odds(rnd.log or (), edition, players)
            for other in range(players):
                if other != me and rnd.is_alive(other):
                    truth = view(rnd, other).known.get(me)
                    thought = memory[other].get(me)
                    assert thought is None or thought is truth, (other, me, rnd.log[-4:])  # type: ignore[index]
                    checked += 1
                    missed += thought is None and truth is not None
            rnd.apply(rng.choice(rnd.legal_actions()))
    assert checked > 2000 and missed * 200 <= checked  # at most 0.5% missed
    assert told > 20


@pytest.mark.parametrize("kept", [True, False])
def test_a_look_at_a_card_i_know_stays_sure_or_goes_with_its_play(kept):
    """Seats 0 and 1 both look at seat 2's Countess; seat 2 draws a Guard. Seat 0 knows which card
    seat 2 plays: where it keeps the Countess, seat 1 surely still knows it (as the engine says);
    where it plays her, seat 1 surely knows nothing. Neither is an even-odds (unsure) link."""
    middle = [Card.PRIEST, Card.PRIEST, Card.COUNTESS, Card.HANDMAID, Card.GUARD, Card.GUARD]
    rnd = Round(CLASSIC, 3, deck_with(CLASSIC, middle, players=3), log=True)
    rnd.apply(Action(Card.PRIEST, 2))
    rnd.apply(Action(Card.PRIEST, 2))
    rnd.apply(Action(Card.GUARD, 0, Card.PRINCE) if kept else Action(Card.COUNTESS))
    memory, found = memory_at(view(rnd, 0))
    assert found == (([(1, 2)], []) if kept else ([], []))
    assert remember(memory, found, rnd, 0.99)[1] == view(rnd, 1).known == ({2: Card.COUNTESS} if kept else {})


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.name)
def test_the_links_between_others_are_what_the_engine_says_they_know(edition):
    """At every decision of random rounds (3 players up to the edition's most), each link the
    deciding seat works out between two others (``facts.links``) is knowledge the engine's own
    bookkeeping gives the knower: a sure link always; an unsure one (its holder played once since)
    never where the card now held is the one played (the knower cannot tell which copy went). Else it
    may be known or not, and both happen about evenly (``facts.STILL_KNOWN``: random players keep
    either card alike)."""
    rng = random.Random(f"links-{edition.name}")
    sure = again = still = lost = 0
    for _ in range(300):
        players = rng.randint(3, edition.max_players)
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players), log=True)
        while not rnd.over:
            found = links(view(rnd, rnd.current).events, rnd.current)
            for knower, holder in found.sure:
                assert view(rnd, knower).known.get(holder) is rnd.hands[holder][0], rnd.log[-4:]  # type: ignore[index]
                sure += 1
            for knower, holder, card in found.unsure:
                known = view(rnd, knower).known.get(holder)
                if rnd.hands[holder][0] is card:
                    # (but where the knower's Chancellor put the card drawn under the deck: not followed)
                    draw = max(i for i, e in enumerate(rnd.log or ()) if e.kind == "draw" and e.seat == holder)
                    put = draws_from_under(rnd.log or (), holder).get(draw)
                    assert known is None or (put and (rnd.log or ())[put[0]].seat == knower), rnd.log[-4:]  # type: ignore[index]
                    again += 1
                else:
                    assert known in (None, rnd.hands[holder][0]), rnd.log[-4:]  # type: ignore[index]
                    still += known is not None
                    lost += known is None
            rnd.apply(rng.choice(rnd.legal_actions()))
    assert sure > 200 and again > 5 and 0.3 < still / (still + lost) < 0.7, (sure, again, still, lost)


def test_what_the_public_events_show_every_simulated_player_knows():
    """Seats 2 and 0 tie on Priests, and seat 3's Guard then knocks seat 0 out showing its Priest:
    every player knows seat 2 holds a Priest, and the play-outs seat 1 starts (memory_at) say so,
    as the memory kept from the deal does."""
    moves = ("guard 1 prince", "guard 0 prince", "baron 0", "guard 0 priest")
    cards = "princess priest guard priest guard guard guard baron guard baron handmaid handmaid prince prince king countess"
    rnd = Round(CLASSIC, 4, [Card.from_word(word) for word in cards.split()], 0)  # set aside, dealt, drawn
    memory = Memory({} for _ in range(4))
    for notation in moves:
        step(rnd, Action.parse(notation), memory)
    assert rnd.hands[2] == [Card.PRIEST] and not rnd.is_alive(0)
    started = remember(*memory_at(view(rnd, 1)), rnd, 0.0)
    for seat in (1, 3):
        assert started[seat] == memory[seat] == {2: Card.PRIEST}
    # and seat 2 is not told it as another's hand (counted again, it would take a Priest from the
    # cards it has not seen)
    assert all(seat not in known for seat, known in enumerate(started))


def _round(edition, hands, current: int, *, deck: bool) -> Round:
    """A round with these hands, the Princess set aside, the other cards in the deck (or discarded)."""
    rest = Counter(edition.full_deck)
    rest.subtract([card for hand in hands for card in hand] + [Card.PRINCESS])
    others = sorted(rest.elements())
    return Round.from_parts(edition, hands=hands, discards=[[] if deck else others] + [[]] * (len(hands) - 1),
                            deck=others if deck else [], set_aside=Card.PRINCESS, face_up=[],
                            alive=[True] * len(hands), protected=[False] * len(hands), knocked_out=[],
                            current=current)


def test_a_tied_card_traded_by_a_king_tells_both_traders_its_twin():
    """Seats 1 and 2 tied on Priests; seat 1's King (not a card a tie can be on) gives its Priest to
    seat 0, which now knows seat 2 holds the other (and seat 1 the Guard); seat 1 knows both Priests."""
    P, G = Card.PRIEST, Card.GUARD
    rnd = _round(CLASSIC, [[G], [Card.KING, P], [P]], 1, deck=True)
    memory = Memory(({}, {2: P}, {1: P}), ties=[(1, 2, 0, 0)])
    step(rnd, Action(Card.KING, 0), memory)
    assert memory.ties == [(0, 2, 0, 0)]
    assert memory[0] == {1: G, 2: P} and memory[1] == {0: P, 2: P}


def test_a_side_of_a_tie_a_king_brings_is_followed_by_its_new_holder():
    """Seats 0 and 1 tie on Guards; seat 1 plays a Guard and keeps a Countess, which seat 2's King
    takes (it cannot tell the tie from that); seat 2 later discards a Guard to a Prince, having played
    only that Countess since: the tie was on Guards, which seat 2 works out as every other seat does
    (its view had dropped the side it was brought)."""
    rnd = scenario_deck("princess | guard guard king handmaid | baron countess priest handmaid priest baron guard prince ...",
                        players=4)
    memory = Memory({} for _ in range(4))
    for notation in ("baron 1", "guard 3 prince", "king 1", "handmaid", "priest 1", "priest 0", "countess", "prince 2"):
        step(rnd, Action.parse(notation), memory)
    seen = view(rnd, 2)
    assert seen.known == memory[2] == remember(*memory_at(seen), rnd, 0.0)[2] == {0: Card.GUARD} == view(rnd, None).known


def test_a_chancellor_on_an_empty_deck_leaves_its_players_tie():
    """R5.9: with the deck empty the Chancellor does nothing, and its player keeps the tied Guard."""
    rnd = _round(EDITION_2019, [[Card.CHANCELLOR, Card.GUARD], [Card.PRIEST], [Card.GUARD]], 0, deck=False)
    memory = Memory(({2: Card.GUARD}, {}, {0: Card.GUARD}), ties=[(0, 2, 0, 0)])
    step(rnd, Action(Card.CHANCELLOR), memory)
    assert rnd.over and memory.ties == [(0, 2, 1 << Card.CHANCELLOR, 0)]


def test_the_simulated_players_read_the_countess_tells_their_memory_carries():
    """Seat 1 last played the Countess: seat 0's simulated Guard names a Prince there (two unseen, the
    King gone); told nothing, it would rather play its Handmaid, as the beginner does."""
    G, H, C, PRINCE = Card.GUARD, Card.HANDMAID, Card.COUNTESS, Card.PRINCE
    rnd = Round.from_parts(CLASSIC, hands=[[G, H], [PRINCE], [Card.BARON]], discards=[[], [C], [Card.KING]],
                           deck=[G] * 3, set_aside=None, face_up=(), alive=[True] * 3, protected=[False] * 3,
                           knocked_out=[], current=0, phase=Phase.PLAY, turn=4)
    for seed in range(4):
        assert move(rnd, Memory(({}, {}, {}), tells=0b010), random.Random(seed), 0) == Action(G, 1, PRINCE)
        assert move(rnd, Memory(({}, {}, {}), tells=0), random.Random(seed), 0) == Action(H)


def test_the_simulated_players_weigh_by_the_play_odds_their_memory_carries():
    """Unseen by seat 0: a Guard, two Priests, two Barons. Read evenly, its simulated Guard names the
    Baron at seat 1 (as likely as the Priest, and higher); with play odds that make the Priest three
    times likelier there, the Priest."""
    G, H, PRIEST, BARON = Card.GUARD, Card.HANDMAID, Card.PRIEST, Card.BARON
    rnd = Round.from_parts(CLASSIC, hands=[[G, H], [PRIEST]],
                           discards=[[Card.PRINCESS, Card.COUNTESS, G, G], [Card.KING, G]],
                           deck=[PRIEST, BARON, BARON], set_aside=None,
                           face_up=(Card.PRINCE, Card.PRINCE, H), alive=[True] * 2, protected=[False] * 2,
                           knocked_out=[], current=0, phase=Phase.PLAY, turn=4)
    likelier = [1.0] * len(Card)
    likelier[PRIEST] = 3.0
    for seed in range(4):
        assert move(rnd, Memory(({}, {})), random.Random(seed), 0) == Action(G, 1, BARON)
        assert move(rnd, Memory(({}, {}), odds=[EVEN, tuple(likelier)]), random.Random(seed), 0) == Action(G, 1, PRIEST)


def test_an_opponent_who_saw_my_card_is_remembered_until_i_play_it():
    # seat 0 priest+guard, seat 1 priest; seat 0 plays its guard (a miss), seat 1 draws a baron and
    # looks at seat 0's priest, seat 0 draws a handmaid, seat 1 then a prince
    rnd = Round(CLASSIC, 2, deck_with(CLASSIC, [Card.PRIEST, Card.PRIEST, Card.GUARD, Card.BARON, Card.HANDMAID]))
    rnd.apply(Action(Card.GUARD, 1, Card.PRINCESS))
    rnd.apply(Action(Card.PRIEST, 0))
    memory, links = memory_at(view(rnd, 0))
    assert memory[1] == {0: Card.PRIEST} and links == ([], [])
    rnd.apply(Action(Card.HANDMAID))  # keeps the priest: still known
    assert memory_at(view(rnd, 0))[0][1] == {0: Card.PRIEST}
    rnd.apply(Action(Card.BARON))  # seat 0 is protected: no one to choose (R4.6)
    rnd.apply(Action(Card.PRIEST, 1))  # R4.3: it may have been the known card: forgotten
    assert memory_at(view(rnd, 0))[0][1] == {}


def test_only_the_player_i_trade_with_knows_my_card_after_a_king():
    # three players: seat 0 (King, Guard) trades its Guard with seat 1's Baron; seat 2 saw nothing
    rnd = Round(CLASSIC, 3, deck_with(CLASSIC, [Card.KING, Card.BARON, Card.PRIEST, Card.GUARD], players=3))
    rnd.apply(Action(Card.KING, 1))
    assert rnd.hands[0] == [Card.BARON] and Card.GUARD in rnd.hands[1]  # (seat 1 has drawn)
    memory, links = memory_at(view(rnd, 0))
    assert memory == [{1: Card.GUARD}, {0: Card.BARON}, {}] and links == ([], [])
    # seat 2's own view: it knows neither hand
    assert view(rnd, 2).known == {}


def test_a_look_between_two_others_is_a_link_filled_from_the_sample():
    # three players: seat 0 plays a handmaid, seat 1 looks at seat 2 (a baron)
    rnd = Round(CLASSIC, 3, deck_with(CLASSIC, [Card.HANDMAID, Card.PRIEST, Card.BARON, Card.GUARD,
                                                Card.GUARD, Card.COUNTESS], players=3))
    rnd.apply(Action(Card.HANDMAID))
    rnd.apply(Action(Card.PRIEST, 2))
    memory, links = memory_at(view(rnd, 0))
    assert links.sure == [(1, 2)] and memory[1] == {}  # seat 0 cannot know which card seat 1 saw
    assert remember(memory, links, rnd, 0.0)[1] == {2: Card.BARON}
    rnd.apply(Action(Card.COUNTESS))  # seat 2 plays: it may have been the card seen, or the card drawn
    memory, links = memory_at(view(rnd, 0))
    assert links == ([], [(1, 2, Card.COUNTESS)])
    # seat 1 knows the Baron kept where the Countess was drawn: at even odds, by the luck's digits
    assert [remember(memory, links, rnd, luck)[1] for luck in (0.0, 0.49, 0.5, 0.99)] == [{2: Card.BARON}] * 2 + [{}] * 2
    rnd.apply(Action(Card.GUARD, 1, Card.PRIEST))  # seat 0 plays, then seat 1 (Guards that miss)
    rnd.apply(Action(Card.GUARD, 0, Card.PRINCE))
    assert memory_at(view(rnd, 0))[1] == ([], [(1, 2, Card.COUNTESS)])  # seat 2's card unchanged
    rnd.apply(Action(Card.PRINCE, 1))  # seat 2 plays again: the look is forgotten
    assert memory_at(view(rnd, 0))[1] == ([], [])


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.name)
def test_the_policy_uses_what_it_remembers(edition):
    rng = random.Random(1)
    # seat 0 holds guard + handmaid; it remembers seat 1's card
    rnd = Round(edition, 2, deck_with(edition, [Card.GUARD, Card.KING, Card.HANDMAID]))
    for known in (Card.KING, Card.BARON, Card.PRINCESS):
        assert policy(rnd, {1: known}, rng) == Action(Card.GUARD, 1, known)
    # a Prince at a known Princess; a Baron only against a lower known card
    rnd = Round(edition, 2, deck_with(edition, [Card.PRINCE, Card.PRINCESS, Card.HANDMAID]))
    assert policy(rnd, {1: Card.PRINCESS}, rng) == Action(Card.PRINCE, 1)
    rnd = Round(edition, 2, deck_with(edition, [Card.BARON, Card.PRIEST, Card.COUNTESS]))
    assert policy(rnd, {1: Card.PRIEST}, rng) == Action(Card.BARON, 1)
    assert policy(rnd, {1: Card.PRINCESS}, rng) == Action(Card.COUNTESS)


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.name)
def test_the_chance_of_each_play_is_a_distribution(edition):
    """For any hand, who may be chosen and what has been seen, the chances of the legal plays sum to
    one (both ways of playing), and an illegal play has none."""
    rng = random.Random(f"chance-{edition.name}")
    cards = list(edition.full_deck)
    for _ in range(400):
        players = rng.randint(2, edition.max_players)
        seat = rng.randrange(players)
        hand = (rng.choice(cards), rng.choice(cards))
        mask = rng.randrange(1 << players) & ~(1 << seat)
        seen = [0] * len(Card)
        for card in rng.sample(cards, rng.randint(0, 8)):
            seen[card] += 1
        known = {s: rng.choice(cards) for s in range(players) if mask >> s & 1 and rng.random() < 0.3}
        care = rng.random()
        rnd = Round.from_parts(edition, hands=[list(hand) if s == seat else [Card.GUARD] for s in range(players)],
                               discards=[[] for _ in range(players)], deck=[Card.GUARD], set_aside=None,
                               face_up=(), alive=[True] * players,
                               protected=[not (mask >> s & 1) and s != seat for s in range(players)],
                               knocked_out=[], current=seat, phase=Phase.PLAY, turn=1)
        legal = rnd.legal_actions()
        sensible = [chance_of_play(edition, hand, a, seat, mask, seen, known, care) for a in legal]
        wild = [chance_at_random(edition, hand, a, seat, mask, seen, known) for a in legal]
        assert sum(sensible) == pytest.approx(1.0) and min(sensible) >= 0
        assert sum(wild) == pytest.approx(1.0)
        assert chance_of_play(edition, hand, Action(Card.PRINCESS, seat), seat, mask, seen, known, care) == 0


def test_a_baron_tie_between_two_others_is_a_link_both_ways():
    # three players: seat 0 hides; seat 1 (priest, draws a baron) challenges seat 2 (a priest): a tie
    rnd = Round(CLASSIC, 3, deck_with(CLASSIC, [Card.HANDMAID, Card.PRIEST, Card.PRIEST, Card.GUARD, Card.BARON],
                                      players=3))
    rnd.apply(Action(Card.HANDMAID))
    rnd.apply(Action(Card.BARON, 2))
    assert next(e for e in reversed(rnd.log or ()) if e.kind == "baron").result == "tie"
    memory, links = memory_at(view(rnd, 0))
    assert links.sure == [(1, 2), (2, 1)]  # each saw the other's card (R5.3); seat 0 only knows they match
    filled = remember(memory, links, rnd, 0.0)
    assert filled[1] == {2: Card.PRIEST} and filled[2] == {1: Card.PRIEST}


def _guessing(edition, known: dict[int, Card]) -> tuple[Round, list[int]]:
    """Seat 0 of three holds two Guards; seat 2 is protected; both Princes and both Handmaids are
    discarded, so the Priest and the Baron are the likeliest unseen cards (two each)."""
    rnd = Round.from_parts(edition, hands=[[Card.GUARD, Card.GUARD], [Card.KING], [Card.BARON]],
                           discards=[[Card.PRINCE, Card.HANDMAID], [Card.PRINCE], [Card.HANDMAID]],
                           deck=[Card.GUARD], set_aside=None, face_up=(), alive=[True] * 3,
                           protected=[False, False, True], knocked_out=[], current=0, phase=Phase.PLAY, turn=4)
    seen = [0] * len(Card)
    for pile in rnd.discards:
        for card in pile:
            seen[card] += 1
    return rnd, seen


def test_a_card_known_elsewhere_is_not_guessed():
    # unknown to seat 0, the Baron wins the tie between the Priest and the Baron (the higher card);
    # knowing seat 2 holds a Baron, only one is left for seat 1, and the Priest is likelier
    for known, guess in (({}, Card.BARON), ({2: Card.BARON}, Card.PRIEST)):
        rnd, seen = _guessing(CLASSIC, known)
        assert policy(rnd, known, random.Random(1)) == Action(Card.GUARD, 1, guess)
        hand = (Card.GUARD, Card.GUARD)
        assert chance_of_play(CLASSIC, hand, Action(Card.GUARD, 1, guess), 0, 0b010, seen, known, 1.0) == 1.0


def test_a_careless_player_picks_a_card_then_one_of_its_plays():
    # guard + handmaid, one seat to choose: at random a card (1/2), then one of its plays (seven
    # guesses for the Guard); with care, the policy's choice (the Handmaid: nothing is known)
    hand, seen = (Card.GUARD, Card.HANDMAID), [0] * len(Card)
    hide, guess = Action(Card.HANDMAID), Action(Card.GUARD, 1, Card.PRIEST)
    assert chance_of_play(CLASSIC, hand, hide, 0, 0b10, seen, {}, 0.0) == pytest.approx(1 / 2)
    assert chance_of_play(CLASSIC, hand, guess, 0, 0b10, seen, {}, 0.0) == pytest.approx(1 / 14)
    assert chance_of_play(CLASSIC, hand, hide, 0, 0b10, seen, {}, 0.9) == pytest.approx(0.9 + 0.1 / 2)
    assert chance_at_random(CLASSIC, hand, guess, 0, 0b10, seen, {}) == pytest.approx(1 / 8)


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.name)
def test_the_simulated_players_choose_as_the_beginner_does(edition):
    """The policy is the beginner's (the expert's model of a sensible player): at random decisions
    of whole rounds, from the same knowledge, the simulated player counts the same unknown cards as
    the beginner's view, both pick only moves the beginner likes best (on the round's last play, of
    those that win the showdown most often), at random among equals, and the reading (all care) gives
    each of those moves an equal chance and the others none. All three read the plays alike (bots/odds.py)."""
    from loveletter.bots import RuleBasedBot
    from loveletter.bots.last_play import last_play_chances, winning_most
    from loveletter.bots.playout import unknown_counts, unknown_to
    from loveletter.bots.rule_based import TIE, view_unknown_counts

    rng = random.Random(f"same-{edition.name}")
    beginner = RuleBasedBot(1)
    compared = 0
    ties: list[tuple[int, int]] = []  # in each tie, how many moves the policy and the beginner picked
    last_plays = read = 0
    for _ in range(60):
        players = rng.randint(2, edition.max_players)
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players))
        while not rnd.over:
            if rnd.phase is Phase.PLAY and len(rnd.legal_actions()) > 1:
                seen = view(rnd, rnd.current)
                assert unknown_counts(rnd, seen.known) == view_unknown_counts(seen)
                chances = last_play_chances(seen, view_unknown_counts(seen))  # None but on the last play
                counted_best = seen.legal_actions if chances is None else winning_most(chances)
                scores = {a: beginner.score(seen, a) for a in counted_best}
                liked = {a for a, score in scores.items() if score > max(scores.values()) - TIE}
                last_plays += chances is not None
                tells, odds = countess_tells(seen.events), play_odds(seen.events, edition, players)
                read += odds != even(players)
                picked = {policy(rnd.clone(), dict(seen.known), random.Random(k), tells, odds) for k in range(8)}
                chosen = {RuleBasedBot(k).choose(seen) for k in range(8)}
                assert picked <= liked and chosen <= liked
                cards_seen = Counter(seen.face_up) + Counter(c for pile in seen.discards for c in pile)
                counted = [cards_seen[card] for card in Card]
                assert unknown_to(edition, tuple(seen.hand), counted, seen.known) == view_unknown_counts(seen)
                choosable = sum(1 << s for s in range(players)
                                if s != seen.seat and seen.alive[s] and not seen.protected[s])
                for action in seen.legal_actions if chances is None else ():  # (a last play is never read)
                    chance = chance_of_play(edition, tuple(seen.hand), action, rnd.current, choosable, counted,
                                            seen.known, 1.0, tells, odds)
                    assert chance == pytest.approx(1 / len(liked) if action in liked else 0.0), action
                if len(liked) > 1:
                    ties.append((len(picked), len(chosen)))
                compared += 1
            rnd.apply(rng.choice(rnd.legal_actions()))
    assert compared > 300 and last_plays > 10 and read > 200
    for side in (0, 1):  # equals really are drawn at random, by both
        assert sum(tie[side] > 1 for tie in ties) > len(ties) // 2


@pytest.mark.parametrize("chooser", ["beginner", "simulated player"])
def test_scores_equal_but_for_rounding_are_taken_as_equal(monkeypatch, chooser):
    """Two moves whose scores differ by less than TIE (the order of a sum) are equal: the beginner, and
    the simulated players alike, draw between them."""
    from loveletter.bots import RuleBasedBot, playout, rule_based

    rnd = Round.shuffled(CLASSIC, 2, random.Random(3))
    seen = view(rnd, rnd.current)
    first, second = seen.legal_actions[:2]
    nudged = {first: 1.0, second: 1.0 + 1e-12}
    monkeypatch.setattr(rule_based if chooser == "beginner" else playout, "score_move",
                        lambda action, *_: nudged.get(action, 0.0))
    chosen = ({RuleBasedBot(k).choose(seen) for k in range(20)} if chooser == "beginner"
              else {policy(rnd, {}, random.Random(k)) for k in range(20)})
    assert chosen == {first, second}


def test_a_look_at_a_hand_a_king_then_takes_follows_the_card():
    """Seat 1 looks at seat 3's Baron; seat 2's King then takes it, giving seat 3 its Guard. Seat 1
    saw the trade: it knows seat 2 holds the Baron now, and nothing of seat 3's card."""
    middle = [Card.HANDMAID, Card.PRIEST, Card.KING, Card.BARON, Card.GUARD, Card.GUARD, Card.GUARD]
    rnd = Round(CLASSIC, 4, deck_with(CLASSIC, middle, players=4))
    rnd.apply(Action(Card.HANDMAID))
    rnd.apply(Action(Card.PRIEST, 3))
    assert memory_at(view(rnd, 0))[1] == ([(1, 3)], [])
    rnd.apply(Action(Card.KING, 3))
    memory, links = memory_at(view(rnd, 0))
    assert links == ([(1, 2), (2, 3), (3, 2)], [])
    assert remember(memory, links, rnd, 0.0)[1] == {2: Card.BARON} == view(rnd, 1).known


def test_a_look_whose_holder_then_plays_a_king_follows_the_card_given_unsure():
    """Seat 1 looks at seat 2's Baron; seat 2 draws the King and plays it at seat 3. Seat 0 cannot
    tell whether the look saw the King (then the Baron went nowhere known) or the card seat 3 now
    holds: an unsure link to seat 3, filled by the luck's first digit, as the engine has it here."""
    middle = [Card.HANDMAID, Card.PRIEST, Card.BARON, Card.GUARD, Card.GUARD, Card.GUARD, Card.KING]
    rnd = Round(CLASSIC, 4, deck_with(CLASSIC, middle, players=4))
    rnd.apply(Action(Card.HANDMAID))
    rnd.apply(Action(Card.PRIEST, 2))
    rnd.apply(Action(Card.KING, 3))
    memory, found = memory_at(view(rnd, 0))
    assert found == ([(2, 3), (3, 2)], [(1, 3, Card.KING)])
    assert remember(memory, found, rnd, 0.0)[1] == view(rnd, 1).known == {3: Card.BARON}
    assert remember(memory, found, rnd, 0.5)[1] == {}


def test_a_look_whose_holder_holds_another_copy_of_the_card_played_is_not_filled():
    """Seat 1 looks at seat 2's Guard; seat 2 draws another Guard and plays one: seat 1 cannot tell
    which copy went, and knows nothing, whatever the luck."""
    middle = [Card.HANDMAID, Card.PRIEST, Card.GUARD, Card.GUARD, Card.BARON, Card.GUARD]
    rnd = Round(CLASSIC, 3, deck_with(CLASSIC, middle, players=3))
    rnd.apply(Action(Card.HANDMAID))
    rnd.apply(Action(Card.PRIEST, 2))
    rnd.apply(Action(Card.GUARD, 1, Card.PRINCE))
    memory, found = memory_at(view(rnd, 0))
    assert found == ([], [(1, 2, Card.GUARD)]) and rnd.hands[2] == [Card.GUARD]
    assert remember(memory, found, rnd, 0.0)[1] == view(rnd, 1).known == {}


def test_the_card_a_knocked_out_player_was_known_to_hold_is_counted_once():
    """Seat 1 is out, its Baron in its discard pile. A player who knew that Baron counts the other
    Baron as still unknown: the card known is public now, not in a hand."""
    rest = Counter(CLASSIC.full_deck)
    rest.subtract([Card.GUARD, Card.HANDMAID, Card.BARON, Card.PRIEST, Card.PRINCESS])
    state = Round.from_parts(CLASSIC, hands=[[Card.GUARD, Card.HANDMAID], [], [Card.PRIEST]],
                             discards=[[], [Card.BARON], []], deck=sorted(rest.elements()), set_aside=Card.PRINCESS,
                             face_up=[], alive=[True, False, True], protected=[False] * 3, knocked_out=[1], current=0)
    assert unknown_counts(state, {1: Card.BARON}) == unseen_counts(state)
    assert unseen_counts(state)[Card.BARON] == 1


def test_a_random_player_never_makes_an_illegal_play():
    """Played at random, a King or a Prince beside the Countess is never played (R4.4), nor a play
    at a protected player: their chance is nothing, and the legal plays share it all."""
    hand = (Card.KING, Card.COUNTESS)
    assert chance_at_random(CLASSIC, hand, Action(Card.KING, 1), 0, 0b10, [0] * len(Card), {}) == 0.0
    assert chance_at_random(CLASSIC, hand, Action(Card.COUNTESS), 0, 0b10, [0] * len(Card), {}) == 1.0
    guard = (Card.GUARD, Card.HANDMAID)
    assert chance_at_random(CLASSIC, guard, Action(Card.GUARD, 2, Card.PRIEST), 0, 0b010, [0] * len(Card), {}) == 0.0
