"""What the PettingZoo and Gymnasium adapters share: the bounds of the observation vector and the
text a ``render()`` shows (the rewards are :func:`loveletter.encoding.shares`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import gymnasium  # (its importers, the two adapters, name their extra where it is missing)
import numpy as np

from loveletter.encoding import Observations, Vector
from loveletter.engine import Event, View
from loveletter.engine.errors import check_true_or_false, check_whole
from loveletter.i18n import Translator
from loveletter.narrate import narrate_all

#: Parts of the observation vector that are one-hot or 0/1 flags (see ``observation_table``).
_FLAGS = ("seat", "current", "phase", "set_aside_taken", "alive_", "protected_", "known_", "under_deck_")


def check_settings(players: object, **switches: object) -> None:
    """Refuse settings of the wrong type at once: ``players`` a whole number (``"3"`` failed deep
    inside with a comparison of text and number), and each of ``switches`` (``match``, ``history``)
    True or False (``match="no"`` played whole matches)."""
    check_whole("players", players)
    for name, value in switches.items():
        check_true_or_false(name, value)


def observation_high(codec: Observations, target: int) -> Vector:
    """The largest value each number of ``codec``'s observation vector can take (all are >= 0), in
    matches played to ``target`` tokens."""
    edition = codec.edition
    copies = np.array([edition.copies[card] for card in codec.cards], dtype=np.float32)
    highs: list[Vector] = []
    for part in codec.observation_parts():
        name = part.name
        if name == "hand":  # two cards, three while a Chancellor's draw is held (R5.9)
            high = np.minimum(copies, 3)
        elif name in ("face_up", "unseen") or name.startswith("discards_"):
            high = copies
        elif name == "deck":
            high = np.full(part.size, len(edition.full_deck), dtype=np.float32)
        elif name.startswith("tokens_"):
            # Before the last round every seat is below the target; a round win and the Spy's
            # bonus (R6.4) add one token each.
            high = np.full(part.size, target + 1, dtype=np.float32)
        elif name.startswith(_FLAGS):
            high = np.ones(part.size, dtype=np.float32)
        else:  # (a catch-all bound gave the one-hot places under the deck 21, squeezing them when scaled)
            raise AssertionError(f"no bound for the observation part {name!r}")
        assert high.shape == (part.size,), part
        highs.append(high.astype(np.float32))
    return np.concatenate(highs)


def vector_high(codec: Observations, target: int, history: bool) -> Vector:
    """The bounds of the vector an environment observes: the observation, and with ``history`` the
    information state (the observation, then the round's plays in order: flags only)."""
    high = observation_high(codec, target)
    if not history:
        return high
    plays = np.ones(codec.information_size - codec.observation_size, dtype=np.float32)
    return np.concatenate([high, plays])


def vector_of(codec: Observations, v: View, history: bool) -> Vector:
    """The vector of ``v``: its observation, or with ``history`` its information state."""
    return codec.information_state(v) if history else codec.observation(v)


def shown(render_mode: str | None, text: Callable[[], str]) -> str | None:
    """What ``render()`` does in ``render_mode``: ``"ansi"`` returns the text, ``"human"`` prints it,
    and without a mode Gymnasium's usual warning."""
    if render_mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if render_mode == "ansi":
        return text()
    print(text() + "\n")
    return None


def describe(v: View, names: Sequence[str], t: Translator) -> str:
    """The table as text in ``t``'s language, for ``render()``: only what ``v``'s seat may know (the
    public table when ``v.seat`` is ``None``), and the last turn told as sentences."""
    deck = t("deck_size_one") if v.deck_size == 1 else t("deck_size", n=v.deck_size)
    lines = [f"{t('title')} — {t('round_title', round=v.round_number, turn=v.turn)} — {deck}"]
    if v.face_up:
        lines.append(t("face_up", cards=t.cards(v.face_up)))
    target = v.target if v.target is not None else v.edition.default_target(v.players)
    lines.append(f"{t('tokens', target=target)}: "
                 + ", ".join(f"{names[s]} {v.tokens[s]}" for s in range(v.players)))
    for seat in range(v.players):
        states = [t("status_out")] if not v.alive[seat] else []
        if v.protected[seat]:
            states.append(t("status_protected"))
        if seat == v.current and not v.over:
            states.append(t("status_turn"))
        line = f"{names[seat]}{' (' + ', '.join(states) + ')' if states else ''} — "
        line += f"{t('discards')}: {t.cards(v.discards[seat]) or '-'}"
        if seat == v.seat and v.hand:
            line += f" — {t('your_hand')}: {t.cards(v.hand)}"
        elif seat in v.known:
            line += " — " + t("known_hand", name=names[seat], card=t.the(v.known[seat]))
        lines.append(line)
    lines += narrate_all(_last_turn(v.events), names, t, v.round_number)
    if v.match_winners:
        winners = [names[s] for s in v.match_winners]
        lines.append(t("match_won_one", name=winners[0]) if len(winners) == 1
                     else t("match_won", names=t.join_names(winners)))
    return "\n".join(lines)


def _last_turn(events: Sequence[Event]) -> Sequence[Event]:
    """The events from the last play on (all of them before the first play: the deal)."""
    plays = [i for i, e in enumerate(events) if e.kind == "play"]
    return events[plays[-1]:] if plays else events
