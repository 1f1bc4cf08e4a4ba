"""Why an action is refused: the words :meth:`durak.game.Game.why_illegal` and
:meth:`~durak.game.Game.apply` give, read from the seat's own view.

Only the words live here: what is legal is the game's move generation alone
(:meth:`Game.all_moves`); these functions are asked only about an action that is not
among them, and find the first reason that applies, from public state (the seat to
act's :class:`~durak.observation.SeatView` and the rules).

>>> from durak import Game, Rules
>>> g = Game(Rules(), deck="6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", dealer=1)
>>> g.apply("6♠")
>>> why_illegal(g.view(1), g.rules, Action.parse("6♠/7♥"), g.moves())
'6♠/7♥: 7♥ does not beat 6♠ (trump ♠)'
"""

from __future__ import annotations

from typing import Final

from .actions import ATTACK, CALL, CHEAT, DEFEND, TRANSFER, Action
from .cards import NO_TRUMP, CardSet, rank_name
from .observation import SeatView
from .rules import Rules

# The phases, as durak.position numbers them (attack, defence, throw-in, pile-on).
_EXPECT: Final = (
    "an opening attack",
    "a defence or take",
    "a throw-in or pass",
    "a throw-in after «беру» or pass",
)
_SUITS: Final = "♠♥♦♣"


def why_illegal(v: SeatView, rules: Rules, a: Action, legal: list[Action]) -> str:
    """Why the seat to act (whose view is ``v``) may not play ``a``, which is not among
    its ``legal`` actions nor its cheats and calls: the first reason that applies."""
    seat = v.seat
    if a.kind in (CHEAT, CALL):
        return f"{a}: {_why_no_cheat(v, rules, a)}"
    if a.cards & ~v.hand:
        return f"{a}: seat {seat} does not hold {CardSet(a.cards & ~v.hand)}"
    kinds = {x.kind for x in legal}
    if v.phase == 1 and v.forced_take:
        return f"{a}: attacked with a pagon card, seat {seat} must take (pagony_attack=off)"
    if a.kind == TRANSFER and v.phase == 1 and a.kind not in kinds:
        return f"{a}: {_why_no_transfer(v, rules, a.cards)}"
    if a.kind == DEFEND and a.target is not None and v.phase == 1:
        return f"{a}: {_why_no_beat(v, rules, a)}"
    if a.kind not in kinds:
        return f"{a}: {a.kind} is not possible now; seat {seat} must make {_EXPECT[v.phase]}"
    if a.kind == TRANSFER:
        return (
            f"{a}: a transfer needs cards of the attacked rank, and the next defender "
            "must hold at least as many cards as will be on the table"
        )
    if a.kind == ATTACK:
        if v.phase == 0:
            return f"{a}: the opening may not lay these cards ({rules.opening}, limit {v.cap})"
        room = v.cap - len(v.attacks)
        return f"{a}: only ranks on the table may be thrown in, at most {room} more"
    return f"{a}: not legal now"


def _why_no_beat(v: SeatView, rules: Rules, a: Action) -> str:
    target = a.target
    assert target is not None
    if not v.unbeaten >> target.index & 1:
        return f"{target} is not an unbeaten card on the table"
    s = v.trump_suit  # (двухкозырный: the seat's own trump)
    why = f"trump {_SUITS[s]}" if s < NO_TRUMP else "no trumps: trump=none"
    if rules.trump == "per_player":
        why = f"seat {v.seat}'s own trump {_SUITS[s]}: trump=per_player"
    if rules.spades_by_spades and target.suit == 0:
        why += "; a spade only by a higher spade: spades_by_spades=on"
    return f"{a.cards[0]} does not beat {target} ({why})"


def _why_no_cheat(v: SeatView, rules: Rules, a: Action) -> str:
    """Why a cheat or a call is refused now (docs/rules.md 11)."""
    if rules.cheating == "off":
        return "cheats and calls need cheating=open (these rules have cheating=off)"
    if a.kind == CALL:
        if not a.cards & v.table:
            return f"{a.cards[0]} is not on the table"
        return f"{a.cards[0]} may not be called by seat {v.seat} (its own, or called)"
    if a.cards & ~v.hand:
        return f"seat {v.seat} does not hold {a.cards[0]}"
    return "not a cheat this seat can make now (it would be honest, or it is not its turn)"


def _next_defender(v: SeatView) -> int:
    """The seat a transfer from ``v.seat`` passes the attack to: the next active seat
    clockwise (with teams, the next active opponent); -1 if none."""
    n = len(v.hand_sizes)
    for i in range(1, n):
        s = (v.seat + i) % n
        if not v.out >> s & 1 and not (v.teams and i % 2 == 0):
            return s
    return -1


def _why_no_transfer(v: SeatView, rules: Rules, cards: int) -> str:
    """Why laying ``cards`` to transfer is refused now (RULES.md 4), the first reason
    that applies."""
    if not rules.transfer:
        return "transfers are off in these rules (transfer=off)"
    if v.bout == 0 and not rules.transfer_first_bout:
        return "no transfer in the first bout (transfer_first_bout=off)"
    if any(b >= 0 for b in v.beats):
        return "no transfer once a card on the table is beaten"
    rank_base = v.attacks[0] & ~3
    if cards & ~(15 << rank_base):
        return f"a transfer lays cards of the attacked rank ({rank_name(rank_base // 4 + 2)})"
    nd = _next_defender(v)
    if nd < 0:
        return "nobody is left to transfer to"
    on_table = len(v.attacks) + cards.bit_count()
    held = v.hand_sizes[nd]
    if on_table > held:
        return (
            f"seat {nd} would defend next and holds {held} card{'s' if held != 1 else ''},"
            f" fewer than the {on_table} attacking cards the table would then hold"
        )
    limit = rules.bout_limit if v.bout else min(rules.bout_limit, rules.first_bout_limit)
    return f"the table would hold {on_table} attacking cards, over this bout's limit {limit}"
