"""The particle filter over hidden hands (:mod:`durak.bots.belief`) and the searcher's
``belief=`` option that deals its worlds from it."""

from __future__ import annotations

import random

import pytest

from durak import Card, Game, Rules
from durak.bots import make
from durak.bots.belief import Belief, BeliefWorlds, Uniform
from durak.bots.ismcts import ISMCTSBot, KeepPrior
from durak.bots.policy import rollout_action
from durak.seats import Seats

VARIANTS = [
    "podkidnoy",
    "perevodnoy",
    "perevodnoy-proezdnoy",
    "prostoy(players=3)",
    "pogonny(players=3)",
    "pagony(players=4)",
    "podkidnoy(players=4,teams=2x2)",
    "perevodnoy(players=6,teams=3x3,deck=52)",
    "podkidnoy(deck=24)",
    "perevodnoy(players=5,deck=52)",
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_every_world_agrees_with_what_the_seat_sees(rules: str) -> None:
    """Through whole deals of every preset and player count (transfers, shown trumps,
    takes, draws, teams), each world the belief deals shows the seat exactly its own
    observation, and every particle keeps the right number of hidden cards."""
    r = Rules.parse(rules)
    checked = 0
    for seed in range(4):
        g = Game(r.with_action_limit(), seed=seed)
        rng = random.Random(seed)
        belief = Belief(particles=24, rng=random.Random(seed))
        while not g.is_over:
            obs = g.observation(0)
            belief.observe(obs)
            if g.to_act == 0 and rng.random() < 0.3:
                belief.sync()
                w = belief.world(obs, rng)
                assert w.observation(0) == obs, (rules, seed, len(g.history))
                for hid in belief.hidden:
                    for s, h in enumerate(hid):
                        want = 0 if s == 0 else obs.hand_sizes[s] - int(obs.known[s]).bit_count()
                        assert h.bit_count() == want
                        assert h & ~int(obs.unseen) == 0
                checked += 1
            legal = g.legal_actions()
            g.apply(rollout_action(g) if rng.random() < 0.7 else rng.choice(legal))
    assert checked > 10


def _lead_game() -> Game:
    # Dealt one card at a time from the dealer's left (seat 1 first with dealer 0), the
    # next card the trump: seat 1 holds 9♠ 10♥ J♣ Q♠ K♦ A♥, seat 0 the small spades and
    # hearts, trumps are diamonds.
    return Game(Rules(), deck="9S 6S 10H 7S JC 8S QS 6H KD 7H AH 8H 10D", dealer=0)


def test_a_careful_lead_tells_that_no_cheaper_plain_card_is_held() -> None:
    """Rule of inference pinned: a careful player leads its cheapest plain card, so after
    the opponent leads the 9♠ the belief all but rules out the plain cards below a nine
    it cannot see (6♣ 7♣ 8♣): each of them had 5/28 of a uniform deal."""
    g = _lead_game()
    assert g.to_act == 1 and "9♠" in [str(a) for a in g.legal_actions()]
    belief = Belief(particles=400, eps=0.1, rng=random.Random(3))
    belief.observe(g.observation(0))
    g.apply("9♠")
    belief.observe(g.observation(0))
    belief.sync()
    assert belief.moves_read == 1
    odds = belief.card_odds(1)
    uniform = 5 / 28
    assert sum(odds.values()) == pytest.approx(5.0)
    for name in ("6C", "7C", "8C"):
        assert odds.get(Card.parse(name).index, 0.0) < uniform / 3, name
    # ... while the cards it may well keep are at least as likely as before.
    higher = [Card.parse(n).index for n in ("QC", "KC", "AC", "QH", "KH")]
    assert sum(odds.get(c, 0.0) for c in higher) / len(higher) > uniform


def test_the_lead_is_read_only_when_the_model_would_not_have_made_it() -> None:
    """With eps = 1 a move costs no particle anything: the belief stays uniform."""
    g = _lead_game()
    belief = Belief(particles=400, eps=1.0, rng=random.Random(3))
    belief.observe(g.observation(0))
    g.apply("9♠")
    belief.observe(g.observation(0))
    belief.sync()
    odds = belief.card_odds(1)
    low = [odds.get(Card.parse(n).index, 0.0) for n in ("6C", "7C", "8C")]
    assert sum(low) / 3 > 5 / 28 / 2


def test_the_played_card_is_placed_in_every_guess() -> None:
    """A card the opponent lays came from its hand: no particle may have put it in the
    talon before (each is repaired), and after the move it is in no hidden hand."""
    g = _lead_game()
    belief = Belief(particles=50, rng=random.Random(1))
    belief.observe(g.observation(0))
    belief.sync()
    nine = Card.parse("9S").index
    assert any(not hid[1] >> nine & 1 for hid in belief.hidden)  # guessed uniformly
    g.apply("9♠")
    belief.observe(g.observation(0))
    belief.sync()
    assert all(not hid[1] >> nine & 1 for hid in belief.hidden)
    assert all(hid[1].bit_count() == 5 for hid in belief.hidden)


def test_the_belief_option_is_checked_and_used() -> None:
    worlds = BeliefWorlds(particles=16, eps=0.2, seed=1)
    bot = make("ismcts:iterations=30,seed=1", worlds=worlds)
    assert isinstance(bot, ISMCTSBot) and bot.worlds is worlds
    assert worlds.belief.n == 16 and worlds.belief.eps == 0.2
    assert type(make("ismcts:iterations=30").worlds) is Uniform  # type: ignore[attr-defined]
    assert isinstance(make("ismcts:worlds=belief").worlds, BeliefWorlds)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="particles"):
        BeliefWorlds(particles=-1)
    with pytest.raises(ValueError, match="eps"):
        BeliefWorlds(particles=8, eps=0)
    # A whole deal with it: every move legal, the filter read the opponent's moves.
    g = Game(Rules(), seed=5)
    seats = Seats([bot, make("expert")])
    seats.reset(g)
    seats.play(g)
    assert worlds.belief.moves_read > 3


def test_level5_reads_moves_in_games_of_two_only() -> None:
    """Level 5 deals from the belief with two players; with more (where it measured
    worse, v11) it keeps the uniform deal and queues nothing."""
    bot = make("level5", seed=1)
    assert isinstance(bot, ISMCTSBot) and isinstance(bot.worlds, BeliefWorlds)
    assert bot.worlds.players == 2
    g = Game(Rules(players=3), seed=2)
    bot.reset()
    for _ in range(6):
        bot.observe(g.observation(0))
        g.apply(rollout_action(g))
    assert bot.worlds.belief._queue == []
    with pytest.raises(ValueError, match="players"):
        BeliefWorlds(particles=8, players=-1)


def test_the_queue_holds_one_deal_at_most() -> None:
    belief = Belief(particles=8)
    for seed in range(3):
        g = Game(Rules(), seed=seed)
        for _ in range(5):
            belief.observe(g.observation(0))
            g.apply(rollout_action(g))
    assert len(belief._queue) == 5


@pytest.mark.parametrize("rules", ["podkidnoy", "perevodnoy", "perevodnoy-proezdnoy"])
def test_every_opponent_move_of_a_game_of_two_is_read(rules: str) -> None:
    """Each move is identified from what the seat sees of its result (a lead, a beat, a
    transfer, a shown trump, a take, a pass), so every one is weighed."""
    r = Rules.parse(rules)
    for seed in range(3):
        g = Game(r.with_action_limit(), seed=seed)
        belief = Belief(particles=8, rng=random.Random(seed))
        rng = random.Random(seed)
        opponent_moves = 0
        while not g.is_over:
            belief.observe(g.observation(0))
            if g.to_act != 0:
                opponent_moves += 1
            legal = g.legal_actions()
            g.apply(rollout_action(g) if rng.random() < 0.7 else rng.choice(legal))
        belief.observe(g.observation(0))
        belief.sync()
        assert belief.moves_read == opponent_moves > 10


@pytest.mark.parametrize("style", ["plain", "careful"])
def test_the_belief_tells_a_careless_player_from_a_careful_one(style: str) -> None:
    """With ``plain`` the belief weighs each seat's moves under both models: an opponent
    who plays PLAIN (the cheapest card, beats whenever it can) ends its deals judged
    more likely careless than the prior, one who plays CAREFUL less likely."""
    from durak.bots.policy import CAREFUL, CLUB, PLAIN

    theirs = PLAIN if style == "plain" else CAREFUL
    odds = []
    for seed in range(6):
        g = Game(Rules(), seed=seed)
        belief = Belief(particles=64, rng=random.Random(seed), plain=0.5)
        while not g.is_over and g.talon_size > 0:
            belief.observe(g.observation(0))
            g.apply(rollout_action(g, [CLUB, theirs]))
        belief.observe(g.observation(0))
        belief.sync()
        odds.append(belief.plain_odds(1))
    mean = sum(odds) / len(odds)
    assert (mean > 0.65) if style == "plain" else (mean < 0.45), odds
    with pytest.raises(ValueError, match="plain"):
        Belief(plain=1.0)


def test_model_fit_tells_a_careful_player_from_one_the_model_misreads() -> None:
    """``model_fit`` is the mean weight the guesses gave each move the seat made: about
    0.6 for a seat that plays the CAREFUL rules, 0.2-0.3 for one that plays at random; the
    searcher's ``fit=x`` deals uniformly again below ``x``."""
    from durak.bots.belief import FIT_MOVES, _misread
    from durak.bots.policy import CAREFUL, CLUB

    def fit_of(random_moves: bool, seed: int) -> tuple[int, float]:
        g = Game(Rules(), seed=seed)
        rng = random.Random(seed)
        belief = Belief(particles=64, rng=random.Random(seed))
        while not g.is_over and g.talon_size > 0:
            belief.observe(g.observation(0))
            if g.to_act == 1 and random_moves:
                g.apply(rng.choice(g.legal_actions()))
            else:
                g.apply(rollout_action(g, [CLUB, CAREFUL]))
        belief.observe(g.observation(0))
        belief.sync()
        return belief.model_fit(1)

    careful = [fit_of(False, s) for s in range(4)]
    wild = [fit_of(True, s) for s in range(4)]
    assert all(moves >= FIT_MOVES for moves, _ in careful + wild)
    # Even the model's own play is not predicted every time: the guesses are not the hand.
    assert min(f for _, f in careful) > 0.55 > 0.5 > 0.4 > max(f for _, f in wild)
    assert not any(_misread(f, 0.5) for f in careful)
    assert all(_misread(f, 0.5) for f in wild)
    assert not _misread((FIT_MOVES - 1, 0.0), 0.5)  # too few moves to judge
    assert Belief().model_fit(1) == (0, 1.0)
    with pytest.raises(ValueError, match="fit"):
        BeliefWorlds(particles=8, fit=1.5)


def test_level5_deals_uniformly_once_the_model_misreads_its_opponent() -> None:
    """Level 5's ``fit`` check (v12): against a player the CAREFUL model reads (here the
    CAREFUL rules themselves) its worlds come from the belief all deal; against one who
    plays at random, whose moves the model misreads, they come from the uniform deal
    once enough moves were read (``FIT_MOVES``)."""
    from durak.bots.belief import FIT_MOVES
    from durak.bots.policy import CAREFUL, CLUB

    def sources(random_moves: bool, seed: int) -> list[bool]:
        quick = KeepPrior(extend=0)
        bot = make("level5", heads_up=40, iterations=40, decision=quick, seed=seed)
        assert isinstance(bot, ISMCTSBot) and isinstance(bot.worlds, BeliefWorlds)
        assert bot.worlds.fit > 0
        g = Game(Rules(), seed=seed)
        rng = random.Random(seed)
        bot.reset()
        used = []
        while not g.is_over and g.talon_size > 0:
            if g.to_act == 0:
                bot.choose(g.observation(0))
                if "belief" in bot.last_stats:
                    used.append(bool(bot.last_stats["belief"]))
                g.apply(rollout_action(g, [CLUB, CAREFUL]))
                continue
            bot.observe(g.observation(0))
            g.apply(
                rng.choice(g.legal_actions())
                if random_moves
                else rollout_action(g, [CLUB, CAREFUL])
            )
        return used

    for seed in range(2):
        careful, wild = sources(False, seed), sources(True, seed)
        assert careful and all(careful)
        assert wild[0] and not wild[-1]  # read at first, misread once judged
        assert sum(wild) >= FIT_MOVES // 2  # not before its moves were judged


def test_the_belief_counts_deals_across_resets() -> None:
    """``Belief.deal`` tells a reader of ``model_fit`` when a new deal starts."""
    real = Belief(particles=4)
    before = real.deal
    real.reset()
    real.observe(Game(Rules(), seed=1).observation(0))
    real.sync()
    assert real.deal == before + 1  # counted across resets, never back to a seen number


def test_a_searcher_with_a_belief_evaluates_a_position_it_was_never_shown() -> None:
    """``evaluate`` called alone (``durak hint``, no ``choose`` before it) starts the
    belief from that position instead of drawing from an empty one."""
    from durak.bots.hint import hint

    g = Game(Rules(), seed=4)
    ranked = hint(g, iterations=40, seed=1, worlds=BeliefWorlds(particles=8, seed=1))
    assert sorted(str(a) for a, _ in ranked) == sorted(str(a) for a in g.legal_actions())
    bot = make("level5", heads_up=40, decision=KeepPrior(extend=0), seed=1)
    assert isinstance(bot, ISMCTSBot)
    bot.evaluate(g.observation(g.to_act or 0))
    assert bot.last_stats["belief"]
