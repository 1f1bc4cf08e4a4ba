"""Matches of many deals and the pagony game (issue 3). Each test says which rule of
RULES.md (or docs/rules.md, for pagony) it pins."""

from __future__ import annotations

import random

import pytest

from durak import Game, RecordError, Rules
from durak.match import Match

from .helpers import all_configs


def deck_for(hand0: str, hand1: str) -> str:
    """A 24-card deck for 2 players x 12 cards, dealer seat 1: seat 0 gets ``hand0``,
    seat 1 ``hand1`` whose last card, dealt last, names the trump."""
    a, b = hand0.split(), hand1.split()
    assert len(a) == len(b) == 12
    return " ".join(x for pair in zip(a, b, strict=True) for x in pair)


PAGONY_2P = dict(players=2, deck=24, hand_size=12)
# Seat 0 can lead out its tens, jacks, kings and aces, seat 1 always taking, and go out
# with its last card(s); seat 1 is left with everything.
SEAT0 = "10S 10D 10C JS JD JC KS KD KC AS AD {last}"
OPENINGS = ["10S+10D+10C", "JS+JD+JC", "KS+KD+KC", "AS+AD"]


def play_out(g: Game, openings: list[str], last: str) -> None:
    for move in [*openings, last]:
        g.apply(move)
        g.apply("take")  # pile-on: seat 0 has nothing more of the rank, passed over
    assert g.is_over


def test_durak_deals_next() -> None:
    """RULES.md 1/9: in later deals of a match the durak of the previous deal deals."""
    m = Match(Rules(players=3), seed=3, deals=4)
    rng = random.Random(1)
    while not m.is_over:
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        nxt = m.next_deal()
        if nxt is not None:
            assert g.outcome is not None
            want = g.dealer if g.outcome.draw else g.outcome.durak
            assert nxt.dealer == want


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("mode", ["from_under", "under"])
def test_lead_after_durak(players: int, mode: str) -> None:
    """RULES.md 2: from_under — the durak's left neighbour leads; under — the durak's
    right neighbour leads, so the durak defends first."""
    m = Match(Rules(players=players, lead_after_durak=mode), seed=players, deals=30)
    rng = random.Random(players)
    seen = 0
    while not m.is_over and seen < 3:
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        durak = g.outcome.durak if g.outcome else None
        nxt = m.next_deal()
        if nxt is None or durak is None:
            continue
        if mode == "from_under":
            assert nxt.attacker == (durak + 1) % players
            assert nxt.defender == (durak + 2) % players
        else:
            assert nxt.attacker == (durak - 1) % players
            assert nxt.defender == durak
        seen += 1
    assert seen == 3


def test_lowest_trump_leads_after_a_draw_and_with_lowest_trump_mode() -> None:
    """RULES.md 2: lead_after_durak=lowest_trump leads as in the first deal."""
    m = Match(Rules(players=4, lead_after_durak="lowest_trump"), seed=8, deals=3)
    rng = random.Random(8)
    while not m.is_over:
        g = m.game
        fresh = Game(g.rules, seed=g.seed, dealer=g.dealer)
        assert g.attacker == fresh.attacker
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        m.next_deal()


def test_pagony_with_a_plain_card_of_the_rank_are_hung() -> None:
    """docs/rules.md pagony 3: the deal ends with a move of non-trump cards of the side's
    pagon rank onto the loser: the side hangs its pagony. (24 cards: the ladder starts at 9.)"""
    rules = Rules.preset("pagony", **PAGONY_2P)
    hand1 = "9H 9D 9C 10H JH QS QH QD QC KH AC AH"  # AH dealt last: hearts are trumps
    g = Game(rules, deck=deck_for(SEAT0.format(last="9S"), hand1), dealer=1, leader=0)
    assert str(g.trump) == "A♥"
    play_out(g, OPENINGS, "9S")
    assert g.outcome is not None
    assert (g.outcome.durak, g.outcome.hung, g.outcome.hung_cards) == (1, 0, 1)


def test_a_lone_trump_of_the_rank_is_not_pagony() -> None:
    """docs/rules.md pagony 2: a trump of the pagon rank counts only beside a plain one."""
    rules = Rules.preset("pagony", **PAGONY_2P)
    hand1 = "9H 9D 9C 10H JH QH QD QC KH AH AC QS"  # QS dealt last: spades are trumps
    g = Game(rules, deck=deck_for(SEAT0.format(last="9S"), hand1), dealer=1, leader=0)
    assert g.trump_suit == 0
    play_out(g, OPENINGS, "9S")
    assert g.outcome is not None and g.outcome.durak == 1
    assert (g.outcome.hung, g.outcome.hung_cards) == (None, 0)


def test_a_trump_beside_a_plain_card_of_the_rank_counts() -> None:
    """docs/rules.md pagony 2: «если они не вешаются совместно с простой картой»."""
    rules = Rules.preset("pagony", **PAGONY_2P)
    seat0 = "10S 10D 10C JS JD JC KS KD KC AS 9S 9H"
    hand1 = "9D 9C 10H JH QS QH QD QC KH AD AC AH"  # hearts trumps: 9H is a trump
    g = Game(rules, deck=deck_for(seat0, hand1), dealer=1, leader=0)
    play_out(g, ["10S+10D+10C", "JS+JD+JC", "KS+KD+KC", "AS"], "9S+9H")
    assert g.outcome is not None
    assert (g.outcome.hung, g.outcome.hung_cards) == (0, 2)


@pytest.mark.parametrize(
    ("last", "hung"),
    [("QS", 0), ("QD", None)],
)
def test_the_queen_step_needs_the_chosen_queen(last: str, hung: int | None) -> None:
    """docs/rules.md pagony 1-3: the last step is the queen of the chosen suit alone."""
    rules = Rules.preset("pagony", **PAGONY_2P)
    other = "QD" if last == "QS" else "QS"
    hand1 = f"9S 9H 9D 9C 10H JH {other} QH QC KH AC AH"
    g = Game(rules, deck=deck_for(SEAT0.format(last=last), hand1), dealer=1, leader=0, pagon=[5, 0])
    play_out(g, OPENINGS, last)
    assert g.outcome is not None and g.outcome.durak == 1
    assert g.outcome.hung == hung


def test_more_than_one_queen_is_not_the_queen_pagon() -> None:
    """docs/rules.md pagony 3: «кроме дамы, которая вешается одна»."""
    rules = Rules.preset("pagony", **PAGONY_2P)
    seat0 = "10S 10D 10C JS JD JC KS KD KC AS QS QD"
    hand1 = "9S 9H 9D 9C 10H JH QH QC KH AD AC AH"
    g = Game(rules, deck=deck_for(seat0, hand1), dealer=1, leader=0, pagon=[5, 0])
    play_out(g, ["10S+10D+10C", "JS+JD+JC", "KS+KD+KC", "AS"], "QS+QD")
    assert g.outcome is not None and g.outcome.durak == 1 and g.outcome.hung is None


def test_pagony_attack_off_forbids_opening_with_them_and_forces_a_take() -> None:
    """docs/rules.md pagony 5: no opening with pagony while holding other cards; a
    defender attacked with a pagon card must take it, even able to beat it."""
    rules = Rules.preset("pagony", pagony_attack=False, **PAGONY_2P)
    hand1 = "9H 9D 9C 10H JH QS QH QD QC KH AC AH"
    g = Game(rules, deck=deck_for(SEAT0.format(last="9S"), hand1), dealer=1, leader=0)
    assert "9♠" not in [str(a) for a in g.legal_actions()]
    for move in OPENINGS:
        g.apply(move)
        g.apply("take")
    assert [str(a) for a in g.legal_actions()] == ["9♠"]  # nothing else left: allowed
    g.apply("9S")
    assert [str(a) for a in g.legal_actions()] == ["take"]  # 9♠/Q♥ would beat it
    with pytest.raises(ValueError, match="must take"):
        g.apply("9S/QH")
    g.apply("take")
    assert g.outcome is not None and g.outcome.hung == 0


def test_pagony_attack_on_lets_the_defender_beat_them() -> None:
    """docs/rules.md pagony 5: with pagony_attack=on pagon cards play like any other."""
    rules = Rules.preset("pagony", **PAGONY_2P)
    hand1 = "9H 9D 9C 10H JH QS QH QD QC KH AC AH"
    g = Game(rules, deck=deck_for(SEAT0.format(last="9S"), hand1), dealer=1, leader=0)
    assert "9♠" in [str(a) for a in g.legal_actions()]
    for move in OPENINGS:
        g.apply(move)
        g.apply("take")
    g.apply("9S")
    assert "9♠/Q♠" in [str(a) for a in g.legal_actions()]


def test_a_sides_rank_rises_and_the_queen_ends_the_match() -> None:
    """RULES.md 7/9: hanging pagony raises the side's rank; hanging the queen wins."""
    rules = Rules.preset("pagony", **PAGONY_2P)
    m = Match(rules, seed=4)
    hand1 = "9H 9D 9C 10H JH QS QH QD QC KH AC AH"
    m.game = Game(rules, deck=deck_for(SEAT0.format(last="9S"), hand1), dealer=1, leader=0)
    play_out(m.game, OPENINGS, "9S")
    nxt = m.next_deal()
    assert m.tally.pagon_steps == [1, 0] and nxt is not None
    assert nxt.observation(0).pagon == (1, 0)
    # the queen step
    m.tally.pagon_steps = [5, 0]
    hand1 = "9S 9H 9D 9C 10H JH QD QH QC KH AC AH"
    m.game = Game(
        rules, deck=deck_for(SEAT0.format(last="QS"), hand1), dealer=1, leader=0, pagon=[5, 0]
    )
    play_out(m.game, OPENINGS, "QS")
    assert m.next_deal() is None
    assert m.is_over and m.tally.winner_side == 0


def test_team_pagony_pass_to_a_partner() -> None:
    """docs/rules.md pagony 6: in team play a player to lead holding only pagony passes
    them to the next partner, and the lead goes to the other side."""
    rng = random.Random(7)
    rules = Rules.preset("pagony", players=4)
    seen = 0
    for seed in range(400):
        g = Game(rules, seed=seed, pagon=[rng.randrange(8), rng.randrange(8)])
        while not g.is_over:
            before = len(g.passed)
            g.apply(rng.choice(g.legal_actions()))
            if len(g.passed) > before and not g.is_over:
                frm, to, cards = g.passed[-1]
                assert to % 2 == frm % 2 and g.out[frm] and not g.hands[frm]
                assert g.hands[to] & cards == cards and g.known[to] & cards == cards
                assert g.attacker % 2 != frm % 2
                seen += 1
    assert seen > 0


@pytest.mark.parametrize("rules", [r for r in all_configs() if r.deck == 36], ids=str)
def test_random_matches_end_add_up_and_replay(rules: Rules) -> None:
    """RULES.md 9: every match ends, the tallies add up, records replay."""
    rng = random.Random(str(rules))
    m = Match(rules, seed=rng.randrange(2**32), deals=3, target=2)
    while not m.is_over:
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        m.next_deal()
    t = m.tally
    assert t.deals == len(m.games) <= 3
    assert sum(t.durak_counts) + t.draws == t.deals
    assert sum(t.side_losses) == t.deals - t.draws
    assert Match.from_record(m.record()).tally == t


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_pagony_matches_end_on_the_queen(players: int) -> None:
    """RULES.md 7: a pagony match ends when a side hangs the queen."""
    teams = {4: "2x2", 6: "3x3"}.get(players, "none")
    rules = Rules.preset("pagony", players=players, teams=teams)
    rng = random.Random(players)
    m = Match(rules, seed=players)
    while not m.is_over:
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        m.next_deal()
        assert m.tally.deals < 3000
    assert m.tally.winner_side is not None
    assert m.tally.pagon_steps[m.tally.winner_side] == 8
    again = Match.from_record(m.record())
    assert again.tally == m.tally and again.is_over


def test_the_chosen_queen_suit_is_an_option() -> None:
    """docs/rules.md pagony 1: pagony_queen chooses the queen's suit (hearts here)."""
    rules = Rules.preset("pagony", pagony_queen="hearts", **PAGONY_2P)
    hand1 = "9S 9H 9D 9C 10H JH QS QD QC KH AH AC"  # clubs trumps
    g = Game(rules, deck=deck_for(SEAT0.format(last="QH"), hand1), dealer=1, leader=0, pagon=[5, 0])
    play_out(g, OPENINGS, "QH")
    assert g.outcome is not None and g.outcome.hung == 0


def _play_first_legal(g: Game) -> None:
    while not g.is_over:
        g.apply(g.legal_actions()[0])


def test_the_same_dealer_deals_again_after_a_draw() -> None:
    """docs/rules.md 1 (choice): after a draw nobody lost, so the same dealer deals again,
    and (docs/rules.md 2) the holder of the lowest trump leads. The first deal is the
    hand-built draw of the conformance case every-hand-empties-at-once-draw."""
    rules = Rules.preset("podkidnoy", players=6, deck=24, hand_size=4)
    hands = [
        "9S 9H 9D 9C",
        "10S 10H 10D 10C",
        "JS JH JD JC",
        "QS QH QD QC",
        "KS KH KD KC",
        "AS AH AD AC",
    ]
    cols = [h.split() for h in hands]
    deck = " ".join(cols[i % 6][i // 6] for i in range(24))  # dealer 5: seat 0 first
    m = Match(rules, seed=11, deals=3)
    m.game = g = Game(rules, seed=m.game.seed, deck=deck, dealer=5)
    for move in [
        "9S+9H+9D+9C",
        "9S/10S",
        "9H/10H",
        "9D/10D",
        "9C/10C",
        "JS+JH+JD+JC",
        "JS/QS",
        "JH/QH",
        "JD/QD",
        "JC/QC",
        "KS+KH+KD+KC",
        "KS/AS",
        "KH/AH",
        "KD/AD",
        "KC/AC",
    ]:
        g.apply(move)
    assert g.outcome is not None and g.outcome.draw
    nxt = m.next_deal()
    assert nxt is not None and m.tally.draws == 1
    assert nxt.dealer == 5, "after a draw the same dealer deals"
    fresh = Game(rules, seed=nxt.seed, dealer=5)
    assert nxt.attacker == fresh.attacker, "after a draw the lowest trump leads"


@pytest.mark.parametrize("target", [1, 2, 3])
def test_a_match_ends_exactly_when_a_seat_reaches_the_target(target: int) -> None:
    """RULES.md 9: a match ends at a target number of durak counts: not one deal before
    a seat reaches it, and not one deal after."""
    m = Match(Rules(players=3), seed=target, target=target)
    while True:
        g = m.game
        _play_first_legal(g)
        before = max(m.tally.durak_counts)
        nxt = m.next_deal()
        reached = max(m.tally.durak_counts)
        if nxt is None:
            assert reached == target
            break
        assert before <= reached < target
    assert m.is_over and max(m.tally.durak_counts) == target
    assert sum(c == target for c in m.tally.durak_counts) == 1


def test_the_tally_reads_as_text() -> None:
    """RULES.md 9: the running tally of a match, as the terminal and replays print it."""
    t = Match(Rules.preset("pogonny", players=2), seed=1, deals=1).tally
    t.deals, t.draws, t.durak_counts, t.pogony_hung, t.pogonny_scores = 3, 1, [2, 0], [1, 0], [0, 4]
    assert t.summary(["Anna", "Ivan"], Rules.preset("pogonny")) == (
        "deals 3, draws 1\n"
        "  Anna: durak 2 times, hung with pogony 1, pogony scored 0\n"
        "  Ivan: durak 0 times, hung with pogony 0, pogony scored 4"
    )
    rules = Rules.preset("pagony", players=4)
    p = Match(rules, seed=1).tally
    p.pagon_steps, p.winner_side = [8, 3], 0
    assert p.summary(["A", "B", "C", "D"], rules).splitlines()[-2:] == [
        "  side 1: pagony of Q — won the match",
        "  side 2: pagony of 9",
    ]
    ranks = []
    for step in range(9):  # side 2 up the whole ladder: the rank each step names
        p.pagon_steps[1] = step
        ranks.append(p.summary(["A", "B", "C", "D"], rules).splitlines()[-1].split()[-1])
    assert ranks == ["6", "7", "8", "9", "10", "J", "K", "A", "Q"]
    plain = Match(Rules(players=2), seed=1, deals=1).tally
    plain.deals, plain.durak_counts, plain.pogony_hung = 2, [1, 1], [0, 1]
    assert plain.summary(["Anna", "Ivan"], Rules()) == (
        "deals 2, draws 0\n"
        "  Anna: durak 1 times, hung with pogony 0\n"
        "  Ivan: durak 1 times, hung with pogony 1"
    )


def test_record_deals_reads_game_and_match_records() -> None:
    """RULES.md 9: a replay reads a game record or a match record: every deal, replayed,
    with the seats' names (the record's, else defaults), the deal in play included."""
    from durak.match import record_deals

    m = Match(Rules(players=3), seed=5, deals=3, names=["Ann", "Bob", "Eve"])
    deals, _ = record_deals(m.record())  # the first deal in play, nothing finished
    assert len(deals) == 1 and deals[0].history == []
    _play_first_legal(m.game)
    m.next_deal()
    m.game.apply(m.game.legal_actions()[0])  # the second deal, unfinished
    deals, names = record_deals(m.record())
    assert names == ["Ann", "Bob", "Eve"] and len(deals) == 2
    assert [g.history for g in deals] == [g.history for g in [*m.games, m.game][:2]]
    assert deals[0].outcome == m.games[0].outcome and not deals[1].is_over
    _play_first_legal(m.game)
    m.next_deal()  # the second deal over: the third is in play, with no moves yet
    deals, _ = record_deals(m.record())
    assert len(deals) == 3 and deals[2].history == [] and deals[1].is_over
    _play_first_legal(m.game)
    m.next_deal()  # the match over: its last deal is the one in play, listed once
    deals, _ = record_deals(m.record())
    assert m.is_over and [d.history for d in deals] == [d.history for d in m.games]
    g = Game(Rules(players=2), seed=3)
    g.apply(g.legal_actions()[0])
    deals, names = record_deals(g.record())
    assert names == ["Seat 0", "Seat 1"] and [d.history for d in deals] == [g.history]
    deals, names = record_deals(g.record(names=["Ann", "Bob"]))
    assert names == ["Ann", "Bob"]


def test_a_match_record_lists_its_headers_and_every_deal() -> None:
    """RULES.md 9: a match record: the match's headers (rules, seed, deals, target,
    names), then each deal numbered from 1 with its result, «*» while it is in play."""
    m = Match(Rules(), seed=1, deals=2, target=3, names=["Ann", "Bob"])
    _play_first_legal(m.game)
    m.next_deal()
    m.game.apply(m.game.legal_actions()[0])
    lines = m.record().splitlines()
    assert lines[:8] == [
        '[Match "durak"]',
        '[Rules "podkidnoy()"]',
        '[MatchSeed "1"]',
        '[Deals "2"]',
        '[Target "3"]',
        '[Seat0 "Ann"]',
        '[Seat1 "Bob"]',
        "",
    ]
    assert [x for x in lines if x.startswith(("[Deal ", "[Result "))] == [
        '[Deal "1"]',
        f'[Result "{m.games[0].outcome}"]',
        '[Deal "2"]',
        '[Result "*"]',
    ]
    _play_first_legal(m.game)
    m.next_deal()  # over after two deals: each listed once
    assert m.is_over and m.record().count("[Deal ") == 2
    by_target = Match(Rules(), seed=1, target=2).record()
    assert "[Deals " not in by_target and '[Target "2"]' in by_target
    by_deals = Match(Rules(), seed=1, deals=3).record()
    assert '[Deals "3"]' in by_deals and "[Target " not in by_deals


def _two_deal_record() -> tuple[Match, str]:
    m = Match(Rules(), seed=1, deals=2, target=3, names=["Ann", "Bob"])
    _play_first_legal(m.game)
    m.next_deal()
    _play_first_legal(m.game)
    m.next_deal()
    assert m.is_over
    return m, m.record()


def _refused(text: object) -> str:
    with pytest.raises((RecordError, TypeError)) as e:
        Match.from_record(text)  # type: ignore[arg-type]
    return str(e.value)


def test_a_match_record_reads_back_its_headers() -> None:
    """RULES.md 9: reading a match record back restores deals, target and names; a
    record without names gets the default ones; a record without results is read."""
    m, text = _two_deal_record()
    again = Match.from_record(text)
    assert (again.deals, again.target, again.names) == (2, 3, ["Ann", "Bob"])
    assert again.is_over and again.tally == m.tally
    plain = "\n".join(
        x for x in text.splitlines() if not x.startswith(("[Seat", "[Result ", "[Target "))
    )
    again = Match.from_record(plain)
    assert (again.target, again.names) == (None, ["Player 1", "Player 2"])
    assert again.tally == m.tally
    one = Match(Rules(), seed=1, target=2)  # first deal over, the next not yet dealt
    _play_first_legal(one.game)
    again = Match.from_record(one.record())
    assert (again.deals, again.target) == (None, 2)
    assert len(again.games) == 1 and not again.game.is_over


def test_a_bad_match_record_is_refused_with_the_reason() -> None:
    """A match record that is not one, or whose deals are not the ones its seed makes,
    is refused with a message that says which deal and why."""
    m, text = _two_deal_record()
    assert _refused(5) == "record: text, not int"
    assert _refused(m.games[0].record()) == 'not a match record (no [Match "durak"] header)'
    assert _refused(text.replace('[MatchSeed "1"]\n', "")) == "bad match headers: 'MatchSeed'"
    g2 = m.games[1]
    seed2 = text.replace(f'[Seed "{g2.seed}"]', '[Seed "7"]')
    assert _refused(seed2) == "deal 2: its seed or dealer is not the one the match makes"
    dealer2 = text.replace(
        f'[Deal "2"]\n[Rules "podkidnoy()"]\n[Seed "{g2.seed}"]\n'
        f'[Deck "{" ".join(str(c) for c in g2.deck)}"]\n'
        f'[Dealer "{g2.dealer}"]',
        f'[Deal "2"]\n[Rules "podkidnoy()"]\n[Seed "{g2.seed}"]\n'
        f'[Deck "{" ".join(str(c) for c in g2.deck)}"]\n'
        f'[Dealer "{1 - g2.dealer}"]',
    )
    assert dealer2 != text
    assert _refused(dealer2) == "deal 2: its seed or dealer is not the one the match makes"
    o1 = m.games[0].outcome
    lie = "durak 0" if str(o1) != "durak 0" else "durak 1"
    assert _refused(text.replace(f'[Result "{o1}"]', f'[Result "{lie}"]', 1)) == (
        f"deal 1: record says {lie!r}, moves give {o1}"
    )
    cut = text.replace(f'[Result "{o1}"]', '[Result "*"]', 1).split('[Deal "2"]')
    short = cut[0].rsplit("\n1. ", 1)[0] + "\n\n" + '[Deal "2"]' + cut[1]
    # deal 1 unfinished, yet deal 2 follows: it is not the deal the match would make
    assert _refused(short) == "deal 2: its seed or dealer is not the one the match makes"


def test_pogonny_scores_add_up_over_deals() -> None:
    """RULES.md 7 pogonny: the pogony scored in each deal add up over the match."""
    from durak.game import Outcome

    rules = Rules.preset("pogonny", players=3)
    t = Match(rules, seed=1).tally
    t.add(Outcome(durak=1, draw=False, out_order=(0, 2), tally=(2, 0, 1)), rules)
    t.add(Outcome(durak=0, draw=False, out_order=(1, 2), tally=(1, 3, 0)), rules)
    assert t.pogonny_scores == [3, 3, 1] and t.durak_counts == [1, 1, 0] and t.deals == 2
    t.add(Outcome(durak=None, draw=True, out_order=(0, 1, 2)), rules)
    t.add(Outcome(durak=None, draw=True, out_order=(0, 1, 2)), rules)
    assert (t.draws, t.deals) == (2, 4)


@pytest.mark.parametrize(
    ("deals", "target", "message"),
    [
        (0, None, "deals: at least 1, not 0"),
        (None, 0, "target: at least 1, not 0"),
    ],
)
def test_a_match_refuses_a_count_below_one_by_name(
    deals: int | None, target: int | None, message: str
) -> None:
    """API: a bad match length is refused with the argument's name."""
    with pytest.raises(ValueError) as e:
        Match(Rules(), seed=1, deals=deals, target=target)
    assert str(e.value) == message


def test_a_match_without_a_length_is_one_deal_with_numbered_players() -> None:
    """API: by default a match (not pagony) is one deal; players are named from 1."""
    m = Match(Rules(players=3), seed=1)
    assert (m.deals, m.target) == (1, None)
    assert m.names == ["Player 1", "Player 2", "Player 3"]


def test_the_tally_adds_up_pogony_and_pagon_steps() -> None:
    """RULES.md 9: the running tally — the pogony each durak was hung with add up from
    nothing over the deals, and (docs/rules.md pagony) each hang raises a side one step
    more on the ladder."""
    from durak.game import Outcome

    rules = Rules(players=3)
    t = Match(rules, seed=1).tally
    assert t.pogony_hung == [0, 0, 0] and t.durak_counts == [0, 0, 0]
    t.add(Outcome(durak=1, draw=False, out_order=(0, 2)), rules)
    assert t.pogony_hung == [0, 0, 0]
    t.add(Outcome(durak=1, draw=False, out_order=(2, 0), pogony=2), rules)
    t.add(Outcome(durak=1, draw=False, out_order=(0, 2), pogony=1), rules)
    assert t.pogony_hung == [0, 3, 0] and t.durak_counts == [0, 3, 0]
    pagony = Rules.preset("pagony", players=4)
    p = Match(pagony, seed=1).tally
    for side in (1, 1, 0, 1):
        p.add(Outcome(durak=1 - side, draw=False, out_order=(side,), hung=side), pagony)
    assert p.pagon_steps == [1, 3] and p.winner_side is None


def test_next_deal_refuses_while_the_deal_is_in_play() -> None:
    """API: a deal not yet over cannot be scored; the refusal says so and the match
    goes on unchanged."""
    m = Match(Rules(), seed=2, deals=2)
    g = m.game
    g.apply(g.legal_actions()[0])
    with pytest.raises(ValueError) as e:
        m.next_deal()
    assert str(e.value) == "the deal in play is not over"
    assert m.game is g and m.games == [] and m.tally.deals == 0


def test_each_deal_of_a_match_is_a_new_shuffle() -> None:
    """RULES.md 9: every deal of a match is shuffled afresh — no two of forty deals share
    a seed — and a match started without a seed is a new random one each time."""
    m = Match(Rules(players=6, deck=24, hand_size=4), seed=6, deals=40)
    while not m.is_over:
        _play_first_legal(m.game)
        m.next_deal()
    assert len({g.seed for g in m.games}) == 40
    assert len({Match(Rules()).seed for _ in range(40)}) == 40


# A match record as this engine wrote it (seed 2026, three moves into the first deal).
SAVED_MATCH = """[Match "durak"]
[Rules "podkidnoy(players=3)"]
[MatchSeed "2026"]
[Deals "3"]
[Seat0 "Player 1"]
[Seat1 "Player 2"]
[Seat2 "Player 3"]

[Deal "1"]
[Rules "podkidnoy(players=3)"]
[Seed "1893315613593735753"]
[Deck "Q♣ 10♠ K♠ 9♦ A♣ 8♥ J♣ A♦ 8♣ J♠ J♦ 6♠ K♦ 6♦ 7♣ 9♣ 10♦ K♣ A♥ 7♦ A♠ 10♥ K♥ 9♠ Q♦ \
10♣ 7♠ J♥ 8♦ 8♠ 9♥ 6♣ Q♥ 7♥ 6♥ Q♠"]
[Dealer "0"]
[Leader "0"]
[Result "*"]

1. 0:6♠ 1:6♠/J♠ 2:6♦
"""


def test_a_kept_match_record_still_replays() -> None:
    """RULES.md 9 / records: a match's seed alone makes its deals — each deal's seed and
    dealer — so a match record kept from before replays and is written back the same."""
    m = Match.from_record(SAVED_MATCH)
    assert (m.seed, m.game.seed, m.game.dealer) == (2026, 1893315613593735753, 0)
    assert [str(a) for a in m.game.history] == ["6♠", "6♠/J♠", "6♦"]
    assert m.record() == SAVED_MATCH


# Seat 0 ends the deal leading its pagony, the plain nines (24 cards: the ladder starts at
# 9), onto seat 1, who beats them with its last three cards (hearts are trumps).
NINES_LAST = ("10S 10D 10C KS KD KC AS AD QH 9S 9D 9C", "JS JD JC QS QD QC 10H JH AC 9H KH AH")
NINES_START = ["10S+10D+10C", "10S/JS", "10D/JD", "10C/JC"]
NINES_END = [
    "AS+AD",
    "AS/10H",
    "AD/JH",
    "AC",
    "AC/QH",
    "pass",
    "9S+9D+9C",
    "9S/9H",
    "9D/KH",
    "9C/AH",
]


@pytest.mark.parametrize(
    ("draws", "middle", "durak"),
    [
        # both hands empty at once: a draw has no loser to hang them on
        (True, ["QS+QD+QC", "QS/KS", "QD/KD", "QC/KC", "pass"], None),
        # the same with draws=off: seat 0 opened the last bout, so it is the durak itself
        (False, ["QS+QD+QC", "QS/KS", "QD/KD", "QC/KC", "pass"], 0),
        # seat 0 took a queen earlier: it still holds cards, so it did not go out with them
        (True, ["QS", "take", "pass", "QD+QC", "QD/KD", "QC/KC", "pass"], 0),
    ],
)
def test_pagony_hang_only_by_going_out_onto_the_loser(
    draws: bool, middle: list[str], durak: int | None
) -> None:
    """docs/rules.md pagony 3: a side hangs its pagony only when its player goes out with
    them onto a member of the losing side: not in a draw, not onto nobody but itself, and
    not while still holding cards. Nothing hung means no cards hung."""
    rules = Rules.preset("pagony", **PAGONY_2P, draws=draws)
    g = Game(rules, deck=deck_for(*NINES_LAST), dealer=1, leader=0)
    for move in NINES_START + middle + NINES_END:
        g.apply(move)
    assert g.outcome is not None and g.outcome.durak == durak
    assert (g.outcome.hung, g.outcome.hung_cards) == (None, 0)


def test_pagony_onto_a_player_who_is_not_the_loser_hang_nothing() -> None:
    """docs/rules.md pagony 3: the pagony must go onto a member of the losing side. Three
    players: seat 0 goes out with its plain nines onto seat 1, who beats them with its
    last cards; seat 2, who took the kings, is the durak, and nothing is hung."""
    hands = ["10S 10D 10H KD KH 9S 9D 9H", "QS QD QH KS KC JS JD JH", "10C JC QC AS AD AH AC 9C"]
    cols = [h.split() for h in hands]
    deck = " ".join(cols[i % 3][i // 3] for i in range(24))  # dealer 2: seat 0 first
    rules = Rules.preset("pagony", players=3, deck=24, hand_size=8)
    g = Game(rules, deck=deck, dealer=2, leader=0)
    for move in [
        "10S+10D+10H",
        "10S/QS",
        "10D/QD",
        "10H/QH",
        "pass",
        "KS+KC",
        "take",
        "KD+KH",
        "9S+9D+9H",
        "9S/JS",
        "9D/JD",
        "9H/JH",
    ]:
        g.apply(move)
    assert g.outcome is not None and (g.outcome.durak, g.outcome.out_order) == (2, (0, 1))
    assert (g.outcome.hung, g.outcome.hung_cards) == (None, 0)


def test_going_out_with_a_defence_hangs_nothing() -> None:
    """docs/rules.md pagony 3: only an attack (opening, throw-in, transfer) hangs pagony.
    Two players, transfer by showing: seat 1 attacks with its pagony, the plain 9♣; seat 0
    shows the 9♦ of trumps, so the attack comes back to seat 1, who beats its own nine with
    its last card and goes out. The deal ended with a defence: nothing is hung."""
    rules = Rules.parse("pagony(deck=24,transfer=on,transfer_by_showing=on)")
    deck = "JH JS QC 10D AD JC 9D 10C 10S QS QH AS KD AH 10H 9S QD AC KH KS KC 9H 9C JD"
    g = Game(rules, deck=deck, dealer=1, leader=0, pagon=[1, 0])
    moves = [
        "9D",
        "take",
        "AH+AD",
        "AH/9D",
        "take",
        "10S",
        "take",
        "pass",
        "10H",
        "10H/10D",
        "JS",
        ">JH",
        "JH/AH",
        "JS/AD",
        "pass",
        "10S",
        "10S/QD",
        "10C",
        "10C/QC",
        "QS",
        "take",
        "9H+9D",
        "9H/QH",
        "take",
        "KC",
        "KC/QD",
        "KS",
        "take",
        "AS",
        "AS/QD",
        "QS",
        "QS/KD",
        "QH",
        "QH/JD",
        "pass",
        "9C",
    ]
    for move in moves:
        g.apply(move)
    assert (g.to_act, str(g.hand(1))) == (0, "J♣")
    g.apply("!9D")
    g.apply("9C/JC")
    assert g.outcome is not None and (g.outcome.durak, g.outcome.out_order) == (0, (1,))
    assert (g.outcome.hung, g.outcome.hung_cards) == (None, 0)
