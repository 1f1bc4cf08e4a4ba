"""шулерский (``cheating=open``, docs/rules.md 11) in hand-built positions: an explicit
deal and a list of moves, each test naming the rule it pins. They cover what random
play and the conformance cases left to chance (issue 48: the mutants of the cheating
code that survived): cheating combined with a transfer, the cards given back when a
false throw-in is caught, a false throw-in with exactly one card of room, and card
index 0 (2♠, the lowest card of the 52-card deck)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterable

from durak import CardSet, Game, Rules

from .helpers import assert_cards_conserved
from .test_conformance import build_deck

TRANSFERRING = Rules.preset("perevodnoy", players=3, cheating="open", transfer_first_bout=True)
THREE = Rules.preset("shulerskiy", players=3)


def deal(rules: Rules, hands: list[str], trump: str, dealer: int, leader: int) -> Game:
    """A game dealt ``hands`` (seat by seat) with ``trump`` turned; the talon is the
    rest of the deck, lowest first."""
    case = {"deal": hands, "trump": trump, "dealer": dealer}
    return Game(rules, deck=build_deck(case, rules), dealer=dealer, leader=leader)


def moves(g: Game, *texts: str) -> None:
    for t in texts:
        why = g.why_illegal(t)
        assert why is None, f"{t}: {why}"
        g.apply(t)
        assert_cards_conserved(g)


def texts(actions: Iterable[object]) -> set[str]:
    return {str(a) for a in actions}


# -- cheating with a transfer --------------------------------------------------------------
def _transferred() -> Game:
    """Seat 0 attacks 9♠; seat 1 transfers with 9♦ to seat 2, who beats 9♠ honestly and
    lays 7♠ on 9♦, which it does not beat (a false beat). Trump ♥."""
    g = deal(
        TRANSFERRING,
        ["9S 7C 8C 10D QC KC", "9D 6C 7D JS QD AC", "6S 7S 8S 10S JC AD"],
        "6H",
        dealer=2,
        leader=0,
    )
    moves(g, "9S", ">9D")
    assert (g.attacker, g.defender, g.to_act) == (1, 2, 2)
    assert texts(g.calls()) == {"?9♠", "?9♦"}  # the new defender may call either
    assert {"~9♠/6♠", "~9♦/7♠"} <= texts(g.cheats())
    moves(g, "9S/10S", "~9D/7S")
    return g


def test_a_transferred_card_counts_as_laid_by_the_seat_that_transferred_it() -> None:
    # §11: a call names a card another seat laid; §4: the transfer lays the card, so it
    # is the transferring seat's own, which it cannot call.
    g = _transferred()
    assert g.to_act == 1 and str(g.phase) == "throw_in"
    assert texts(g.calls()) == {"?9♠", "?10♠", "?7♠"}
    laid = g.observation(0).laid
    assert laid == (CardSet.parse("9S"), CardSet.parse("9D"), CardSet.parse("10S 7S"))
    assert g.observation(0).cheated == CardSet.parse("7S")


def test_a_false_beat_after_a_transfer_caught_the_new_defender_takes() -> None:
    # §11 (D): a false beat called: the defender (here the one the attack was
    # transferred to) takes the table at once; seat 0, on its left, leads next.
    g = _transferred()
    moves(g, "?7S")
    assert g.hand(2) == CardSet.parse("6S 8S JC AD 9S 9D 10S 7S")
    assert g.observation(0).known[2] == CardSet.parse("9S 9D 10S 7S")
    assert (g.to_act, str(g.phase), g.attacker, g.defender) == (0, "attack", 0, 1)
    assert g.observation(0).cheated == CardSet(0) and int(g.discard) == 0


def test_a_wrong_call_after_a_transfer_gives_the_caller_the_table() -> None:
    # §11 (D, V): a wrong call on an honest card: the caller (the transferring seat)
    # takes the whole table; the defender, who beat every card, leads next.
    g = _transferred()
    before = g.hand(1)
    moves(g, "?10S")
    assert g.hand(1) & CardSet.parse("9S 9D 10S 7S") == CardSet.parse("9S 9D 10S 7S")
    assert len(g.hand(1)) == len(before) + 4
    assert (g.to_act, str(g.phase), g.attacker) == (2, "attack", 2)
    assert int(g.discard) == 0


# -- a false throw-in caught: the cards go back ----------------------------------------
def _thrown_in(rules: Rules, hands: list[str], trump: str, beat_it: str) -> Game:
    """Seat 0 attacks 9♥, seat 1 beats it; seat 0 throws in Q♣ (no queen on the
    table: a false throw-in) and seat 1 beats it with ``beat_it``; seat 0 passes, so
    seat 2 has the turn."""
    g = deal(rules, hands, trump, dealer=2, leader=0)
    first = hands[1].split()[0]
    moves(g, "9H", f"9H/{first}", "~QC", f"QC/{beat_it}", "pass")
    assert g.to_act == 2 and texts(g.calls()) >= {"?Q♣", f"?{CardSet.parse(beat_it)}"}
    return g


def test_a_caught_false_throw_in_goes_back_with_the_card_laid_on_it() -> None:
    # §11 (P): a false throw-in called in time is rolled back: Q♣ to its thrower, K♣
    # that beat it to the defender, both seen by all; the thrower is barred this bout;
    # the ranks open for throwing in are the honest cards' again (9, 10: not Q, not K).
    hands = ["9H 7C 8C QC 6D 10S", "10H KC 6S 7S 8S 9S", "10D KD 6C JD QD AD"]
    g = _thrown_in(THREE, hands, "6H", beat_it="KC")
    moves(g, "?QC")
    assert g.hand(0) == CardSet.parse("7C 8C QC 6D 10S")
    assert g.hand(1) == CardSet.parse("KC 6S 7S 8S 9S")
    seen = g.observation(2).known
    assert CardSet.parse("QC") <= seen[0] and CardSet.parse("KC") <= seen[1]
    assert [(str(a), str(b)) for a, b in g.table] == [("9♥", "10♥")]
    o = g.observation(2)
    assert o.cheated == CardSet(0) and o.barred == (0,)
    assert o.laid == (CardSet.parse("9H"), CardSet.parse("10H"), CardSet(0))
    # every thrower still in gets the turn again; the caught one may only pass (its
    # 10♠ is of a rank on the table, but a caught cheater throws in no more this bout)
    assert g.to_act == 0 and texts(g.legal_actions()) == {"pass"} and g.cheats() == []
    assert texts(g.calls()) == {"?10♥"}
    moves(g, "pass")
    assert g.to_act == 2
    assert texts(g.legal_actions()) == {"10♦", "pass"}  # K♦ is not open: K♣ went back


def test_a_false_throw_in_is_offered_with_one_card_of_room_and_not_with_none() -> None:
    # §11 (P): limits hold for cheats: a false throw-in needs room on the table, and
    # one card of room is room. First bout: at most 5 attacking cards (first_bout_limit).
    rules = Rules.preset("shulerskiy")
    g = deal(rules, ["9S 9C 9D 9H 7C KD", "10S 10C 10D JH 6S 8S"], "6H", dealer=1, leader=0)
    moves(g, "9S+9C+9D+9H", "9S/10S", "9C/10C", "9D/10D", "9H/JH")
    assert g.to_act == 0 and g.cap - len(g.table) == 1
    assert texts(g.cheats()) == {"~7♣", "~K♦"}
    moves(g, "~KD")
    assert g.cap - len(g.table) == 0
    assert g.why_illegal("KD/6S") == "K♦/6♠: 6♠ does not beat K♦ (trump ♥)"
    moves(g, "~KD/6S")  # (a false beat: 6♠ stands on K♦ only if nobody calls it)
    assert g.to_act == 0 and texts(g.legal_actions()) == {"pass"}
    assert g.cheats() == []  # no room left: no false throw-in either
    assert texts(g.calls()) == {"?10♠", "?10♣", "?10♦", "?J♥", "?6♠"}


def test_a_cheat_still_on_the_table_opens_no_rank_after_another_is_caught() -> None:
    # §11 (R): a cheat opens no rank for throwing in; when a caught false throw-in is
    # rolled back, the ranks open are the honest cards' only: 9♥ opens nines, the false
    # beat 7♠ still standing on it opens no sevens. (52 cards: 2♠ opens nothing either.)
    rules = Rules.preset("shulerskiy", players=3, deck=52)
    hands = ["9H 7C 8C QC 6D 3D", "7S KC 6S 4S 8S 5S", "9D 7D 2S JD QD AD"]
    g = deal(rules, hands, "3H", dealer=2, leader=0)
    moves(g, "9H", "~9H/7S", "~QC", "QC/KC", "pass")
    assert g.to_act == 2
    moves(g, "?QC", "pass")
    assert g.to_act == 2 and texts(g.legal_actions()) == {"9♦", "pass"}
    assert g.observation(2).cheated == CardSet.parse("7S")


def test_a_false_throw_in_that_was_the_last_card_brings_its_thrower_back_in() -> None:
    # §11 (P) and RULES.md 5: a seat with no cards and no talon is out; a caught false
    # throw-in goes back to its thrower, who is in again. (24 cards, all dealt.)
    rules = Rules.preset("shulerskiy", players=6, deck=24, hand_size=4)
    hands = [
        "9S 9C 9D QC",
        "10S 10C 10D KH",
        "JS JC JD JH",
        "QS QD QH KS",
        "KC KD AS AC",
        "AD AH 10H 9H",
    ]
    g = deal(rules, hands, "AH", dealer=5, leader=0)
    moves(g, "9S+9C+9D", "9S/10S", "9C/10C", "9D/10D", "~QC")
    assert g.out[0] and g.view(1).out == 1
    moves(g, "?QC")
    assert not g.out[0] and g.view(1).out == 0 and g.hand(0) == CardSet.parse("QC")
    assert g.observation(1).out_order == ()
    assert g.to_act == 0 and texts(g.legal_actions()) == {"pass"}


def test_a_false_beat_that_was_the_last_card_brings_the_defender_back_in() -> None:
    # §11 (D): a caught false beat: the defender takes the table, in again though its
    # last card went out with the cheat; the next bout is led from its left.
    rules = Rules.preset("shulerskiy", players=6, deck=24, hand_size=4)
    hands = [
        "9S 9C 9D 9H",
        "10S 10C 10D QS",
        "JS JC JD JH",
        "QC QD QH KS",
        "KC KD AS AC",
        "AD AH 10H KH",
    ]
    g = deal(rules, hands, "AH", dealer=5, leader=0)
    moves(g, "9S+9C+9D+9H", "9S/10S", "9C/10C", "9D/10D", "~9H/QS")
    assert g.out[1] and g.to_act == 2
    moves(g, "?QS")
    assert not g.out[1] and g.view(2).out == 1  # (seat 0 went out honestly)
    assert g.observation(2).out_order == (0,)
    assert len(g.hand(1)) == 8 and (g.to_act, g.attacker, g.defender) == (2, 2, 3)


def test_a_false_throw_in_caught_while_piling_on_gives_the_turn_from_the_first_thrower() -> None:
    # §11 (P) with «беру» (pile_on): the defender took; a false throw-in called while the
    # throwers pile on is rolled back and the right to throw in starts again from the
    # first thrower: the caught one passed over, seat 2 has it back though it passed.
    rules = Rules.preset("shulerskiy", players=4)
    hands = [
        "9H QC 10S 7C 8C AS",
        "10H 6S 7S 8S 9S JC",
        "10D KD 6C JD AD 8D",
        "10C KC 6D QD AC 7D",
    ]
    g = deal(rules, hands, "6H", dealer=3, leader=0)
    moves(g, "9H", "9H/10H", "~QC", "take")
    assert str(g.phase) == "pile_on" and g.to_act == 0
    moves(g, "pass", "pass")
    assert g.to_act == 3 and "?Q♣" in texts(g.calls())
    moves(g, "?QC")
    assert str(g.phase) == "pile_on" and g.to_act == 2
    assert CardSet.parse("QC") <= g.hand(0) and g.observation(2).barred == (0,)
    assert [(str(a), str(b)) for a, b in g.table] == [("9♥", "10♥")]
    # the same, the false throw-in not the first thrower's: the turn goes back to it
    g = deal(rules, hands, "6H", dealer=3, leader=0)
    moves(g, "9H", "9H/10H", "pass", "~KD", "take", "pass", "pass")
    assert str(g.phase) == "pile_on" and g.to_act == 3
    moves(g, "?KD")
    assert g.to_act == 0 and g.observation(0).barred == (2,)
    assert CardSet.parse("KD") <= g.hand(2)


def test_a_game_rebuilt_from_a_view_carries_out_calls_like_the_game() -> None:
    # §11 (D, V, P): searchers rebuild a game from a seat's view (Game.from_view); what a
    # call does there (the cost of a wrong call, who is barred) is what it does in the game.
    for g, call in ((_transferred(), "?10S"), (_transferred(), "?7S")):
        seat = g.to_act
        assert seat is not None
        d = Game.from_view(g.observation(seat), [int(h) for h in g.hands], g.undrawn())
        moves(g, call)
        d.apply(call)
        assert all(d.observation(s) == g.observation(s) for s in range(3))
    hands = ["9H 7C 8C QC 6D 10S", "10H KC 6S 7S 8S 9S", "10D KD 6C JD QD AD"]
    g = _thrown_in(THREE, hands, "6H", beat_it="KC")
    moves(g, "?QC")
    d = Game.from_view(g.observation(0), [int(h) for h in g.hands], g.undrawn())
    assert d.observation(2).barred == (0,) and d.legal_actions() == g.legal_actions()
    moves(g, "pass")
    d.apply("pass")
    # (the view rebuilt from is seat 0's: what the others know of its hand, Q♣ given
    # back, is not in it, as seat 0 sees its whole hand)
    assert d.observation(0) == g.observation(0)


def test_a_cheating_game_survives_a_deep_copy_and_a_pickle() -> None:
    # (OpenSpiel clones a state by deep copy; dist executors pickle games)
    g = _transferred()
    for c in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert c.observation(1) == g.observation(1) and c.calls() == g.calls()
        c.apply("?7S")
        assert g.to_act == 1 and c.to_act == 0  # (a copy shares nothing)


# -- card index 0: 2♠ -------------------------------------------------------------------
FIFTY_TWO = Rules.preset("shulerskiy", players=3, deck=52)


def test_the_lowest_card_of_52_given_back_when_the_false_throw_in_it_beat_is_caught() -> None:
    # §11 (P): the card laid on a caught false throw-in goes back to the defender, also
    # when it is card 0 (2♠, here a trump: it beats Q♣).
    hands = ["9H 7C 8C QC 6D AH", "10H 2S 6S 7S 8S 9S", "10D KD 6C JD QD AD"]
    g = _thrown_in(FIFTY_TWO, hands, "3S", beat_it="2S")
    moves(g, "?QC")
    assert CardSet.parse("2S") <= g.hand(1) and CardSet.parse("QC") <= g.hand(0)
    assert CardSet.parse("2S") <= g.observation(0).known[1]
    assert [(str(a), str(b)) for a, b in g.table] == [("9♥", "10♥")]


def test_the_lowest_card_of_52_on_the_table_opens_its_rank_after_a_caught_cheat() -> None:
    # §11 (P) and RULES.md 3: after a caught false throw-in the ranks open are those of
    # the honest cards on the table, 2♠ (card 0, a trump beating 9♥) among them.
    hands = ["9H 7C 8C QC 6D AH", "2S KC 6S 7S 8S 9S", "2D KD 6C JD QD AD"]
    g = _thrown_in(FIFTY_TWO, hands, "3S", beat_it="KC")
    moves(g, "?QC", "pass")
    assert g.to_act == 2 and texts(g.legal_actions()) == {"2♦", "pass"}


def test_the_lowest_card_of_52_as_a_false_beat_is_called_and_taken() -> None:
    # §11 (D): 2♠ (card 0) laid on 9♥, which it does not beat when hearts are trump:
    # offered as a cheat, called like any card, and the defender takes the table.
    hands = ["9H 7C 8C QC 6D AC", "2S KC 6S 7S 8S 9S", "10D KD 6C JD QD AD"]
    g = deal(FIFTY_TWO, hands, "3H", dealer=2, leader=0)
    moves(g, "9H")
    assert "~9♥/2♠" in texts(g.cheats())
    moves(g, "~9H/2S", "pass")
    assert g.to_act == 2 and texts(g.calls()) == {"?9♥", "?2♠"}
    moves(g, "?2S")
    assert g.hand(1) == CardSet.parse("2S KC 6S 7S 8S 9S 9H")
    assert (g.to_act, g.attacker) == (2, 2)
