"""Moves, turns and results in plain words, in either language.

A log entry keeps its values (seats, cards, counts), not text, so the log can be
shown again in the other language.

>>> from durak import Game, Rules
>>> g = Game(Rules(), deck="6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", dealer=1)
>>> names = ["Ivan", "Anna"]
>>> [render(e, "en", names) for e in play(g, "6♠")]
['Ivan leads 6♠ against Anna']
>>> [render(e, "ru", names) for e in play(g, "6♠/7♠")]
['Anna бьёт 6♠ картой 7♠']
>>> [render(e, "en", names) for e in play(g, "pass")]
['Ivan passes', 'Beaten off: 2 cards to the discard']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from durak.enums import Kind, Phase

from ..actions import Action
from ..cards import Card, CardSet
from ..game import Game
from .i18n import card_text, cards_text, plural, rank_text, tr


class Seat(int):
    """A seat number, shown as the seat's name."""


class Count(int):
    """A number of cards, shown as «3 cards» / «3 карты»."""


class CountTaken(Count):
    """A number of cards as an object: «picks up 1 card» / «забирает 1 карту»."""


class Ranks(tuple[int, ...]):
    """Ranks, shown as «6, 10, K» (or «6, 10, К» in Russian)."""


class Team(tuple[int, ...]):
    """Seats of one side, shown as their names joined by «+»."""


class TrumpSuit(int):
    """A trump suit shown as its symbol, or «no trumps» (4: ``trump=none``)."""


class OwnTrumps(tuple[int, ...]):
    """двухкозырный: each seat's own trump suit, shown as «Anna ♥, Boris ♠»."""


def own_trumps_text(trumps: tuple[int, ...], names: list[str]) -> str:
    """двухкозырный: «Anna ♥, Boris ♠»."""
    return ", ".join(f"{names[s]} {'♠♥♦♣'[t]}" for s, t in enumerate(trumps))


def deal_trump(game: Game) -> Card | TrumpSuit | OwnTrumps:
    """What a deal's trump is called: the turned card when it names the trump, else the
    suit (a fixed trump, «пики пиками»), «no trumps» (бескозырный), or each seat's own
    (двухкозырный)."""
    own = game.observation(0).trumps
    if own:
        return OwnTrumps(own)
    t = game.trump
    if t is not None and t.suit == game.trump_suit:
        return t
    return TrumpSuit(game.trump_suit)


@dataclass(frozen=True)
class Entry:
    """One line of the log: a key of the string table and its values."""

    key: str
    values: dict[str, object] = field(default_factory=dict)
    seat: int | None = None  # whose move it was, for colouring


def render(entry: Entry, lang: str, names: list[str]) -> str:
    """The entry as text in ``lang``."""
    out: dict[str, object] = {}
    for k, v in entry.values.items():
        if isinstance(v, Seat):
            out[k] = names[v]
        elif isinstance(v, Count):
            word = "cards_acc" if isinstance(v, CountTaken) else "cards"
            out[k] = plural(lang, int(v), word)
        elif isinstance(v, Card):
            out[k] = card_text(v, lang)
        elif isinstance(v, OwnTrumps):
            out[k] = own_trumps_text(v, names)
        elif isinstance(v, TrumpSuit):
            out[k] = "♠♥♦♣"[v] if v < 4 else tr(lang, "term.no_trump")
        elif isinstance(v, Ranks):
            out[k] = ", ".join(rank_text(r, lang) for r in v)
        elif isinstance(v, Team):
            out[k] = " + ".join(names[s] for s in v)
        elif isinstance(v, tuple | CardSet):  # (an action's cards are a CardSet)
            out[k] = cards_text(v, lang)
        elif isinstance(v, CardSet):  # (an action's cards: В Д К Т in Russian too)
            out[k] = cards_text(tuple(v), lang)
        elif isinstance(v, Entry):
            out[k] = render(v, lang, names)
        else:
            out[k] = v
    return tr(lang, entry.key, **out)


def play(game: Game, action: Action | str, reveal: bool = False) -> list[Entry]:
    """Apply ``action`` to ``game`` and return what happened, in order. ``reveal`` (a
    replay, after the deal): a cheat (шулерский) is named as such; at the table a cheat
    reads as the move it pretends to be, for the attentive to spot."""
    if isinstance(action, str):
        action = Action.parse(action)
    seat = game.to_act
    assert seat is not None
    phase = game.phase
    defender = game.defender
    table_cards = sum(1 + (b is not None) for _, b in game.table)
    discard_before = len(game.discard)
    out_before = list(game.out)
    bout_before = game.bout
    trump_before = game.trump
    # шулерский: a call catches a cheat the whole table saw (cheating=open), or is wrong
    caught = bool(action.cards & game.observation(seat).cheated)
    game.apply(action)
    entries = [move_entry(action, seat, phase, defender, game, trump_before)]
    if reveal and action.kind == Kind.CHEAT:
        entries.append(Entry("ev_cheat_revealed", {"card": cards_of(action)}, seat))
    if action.kind == Kind.CALL:
        entries.append(
            Entry("ev_caught" if caught else "ev_wrong_call", {"card": cards_of(action)})
        )
        if not caught and seat != defender:
            defender = seat  # a wrong call: the caller takes the table, if anyone does
    if game.bout != bout_before:
        gone = len(game.discard) - discard_before
        if gone:
            entries.append(Entry("ev_beaten", {"n": Count(gone)}))
        else:
            laid = (
                len(action.cards) if action.kind in (Kind.ATTACK, Kind.TRANSFER, Kind.DEFEND) else 0
            )
            entries.append(
                Entry("ev_taken", {"who": Seat(defender), "n": CountTaken(table_cards + laid)})
            )
    for s, was_out in enumerate(out_before):
        if game.out[s] and not was_out:
            entries.append(Entry("ev_out", {"who": Seat(s)}))
    if game.is_over:
        entries.extend(outcome_entries(game))
    return entries


def cards_of(action: Action) -> Card:
    """The one card of a call (or of any one-card action)."""
    return action.cards[0]


def move_entry(
    action: Action, seat: int, phase: Phase, defender: int, after: Game, trump: Card | None
) -> Entry:
    """One action as a log entry; ``phase`` and ``defender`` as they were before it."""
    who = Seat(seat)
    cards = tuple(action.cards)
    kind = action.kind
    if kind == Kind.ATTACK:
        if phase == Phase.ATTACK:
            return Entry("mv_lead", {"who": who, "cards": cards, "target": Seat(defender)}, seat)
        key = "mv_pile" if phase == Phase.PILE_ON else "mv_throw"
        return Entry(key, {"who": who, "cards": cards}, seat)
    if kind == Kind.DEFEND or (kind == Kind.CHEAT and action.target is not None):
        # (a false beat reads as the beat it pretends to be: the card shows it to all)
        assert action.target is not None
        return Entry("mv_defend", {"who": who, "target": action.target, "card": cards[0]}, seat)
    if kind == Kind.CHEAT:
        return Entry("mv_throw", {"who": who, "cards": cards}, seat)
    if kind == Kind.CALL:
        return Entry("mv_call", {"who": who, "card": cards[0]}, seat)
    if kind == Kind.TRANSFER:
        return Entry(
            "mv_transfer", {"who": who, "cards": cards, "target": Seat(after.defender)}, seat
        )
    if kind == Kind.SHOW:
        return Entry(
            "mv_show", {"who": who, "card": cards[0], "target": Seat(after.defender)}, seat
        )
    if kind == Kind.EXCHANGE:
        assert trump is not None  # (an exchange needs a turned card)
        return Entry("mv_exchange", {"who": who, "card": trump, "trump": cards[0]}, seat)
    return Entry("mv_take" if kind == Kind.TAKE else "mv_pass", {"who": who}, seat)


def action_label(action: Action) -> Entry:
    """An action as a short command: «beat 7♣ with Q♠», «take»…"""
    kind = action.kind
    if kind == Kind.DEFEND or (kind == Kind.CHEAT and action.target is not None):
        return Entry("act_beat", {"target": action.target, "card": action.cards[0]})
    if kind in (Kind.ATTACK, Kind.CHEAT):
        return Entry("act_lay", {"cards": action.cards})
    if kind == Kind.CALL:
        return Entry("act_call", {"card": action.cards[0]})
    if kind == Kind.TRANSFER:
        return Entry("act_transfer", {"cards": action.cards})
    if kind == Kind.SHOW:
        return Entry("act_show", {"card": action.cards[0]})
    if kind == Kind.EXCHANGE:
        return Entry("act_exchange", {"card": action.cards[0]})
    return Entry("act_take" if kind == Kind.TAKE else "act_pass")


def outcome_entries(game: Game) -> list[Entry]:
    o = game.outcome
    assert o is not None
    if o.draw or o.durak is None:
        return [Entry("ev_draw")]
    if o.losing_team is not None:
        partners = Team(s for s in range(game.rules.players) if s % 2 == o.durak % 2)
        entries = [Entry("ev_durak_team", {"who": Seat(o.durak), "team": partners})]
    else:
        entries = [Entry("ev_durak", {"who": Seat(o.durak)})]
    if o.pogony:
        entries.append(Entry("ev_pogony", {"n": o.pogony}))
    if o.hung is not None:
        side = Team(s for s in range(game.rules.players) if game.rules.team_of(s) == o.hung)
        entries.append(Entry("ev_hung", {"team": side, "n": Count(o.hung_cards)}))
    return entries


def expected(game: Game, seat: int, names: list[str], lang: str) -> str:
    """What ``seat`` is expected to do now, or who is to act, in plain words."""
    if game.is_over:
        return tr(lang, "why_over")
    to_act = game.to_act
    assert to_act is not None
    if to_act != seat:
        return tr(lang, "bot_to_act", name=names[to_act])
    phase = game.phase
    if phase == Phase.ATTACK:
        return tr(lang, "you_lead", defender=names[game.defender])
    if phase == Phase.DEFEND:
        if any(a.kind in (Kind.TRANSFER, Kind.SHOW) for a in game.legal_actions()):
            nxt = _next_defender(game, seat)
            return tr(lang, "you_defend_transfer", attacker=names[game.attacker], next=names[nxt])
        return tr(lang, "you_defend", attacker=names[game.attacker])
    if phase == Phase.PILE_ON:
        return tr(lang, "you_pile_on", defender=names[game.defender])
    return tr(lang, "you_throw_in", defender=names[game.defender])


def _next_defender(game: Game, seat: int) -> int:
    """Who a transfer from ``seat`` would pass the attack to (the engine's rule)."""
    g = game.clone()
    a = next(a for a in g.legal_actions() if a.kind in (Kind.TRANSFER, Kind.SHOW))
    g.apply(a)
    return g.defender
