"""What every environment shares: the rules it plays, the rewards, the deal's end.

>>> from durak import Rules
>>> learning_rules("perevodnoy(players=3)").action_limit
1000
>>> from durak.game import Outcome
>>> returns(Rules(players=3), Outcome(durak=1, draw=False, out_order=(0, 2)))
[0.5, -1.0, 0.5]
>>> returns(Rules.preset("podkidnoy", players=4, teams="2x2"),
...         Outcome(durak=3, draw=False, out_order=(0, 2), losing_team=1))
[1.0, -1.0, 1.0, -1.0]
"""

from __future__ import annotations

from ..errors import RulesError
from ..game import Outcome
from ..rules import BOT_ACTION_LIMIT, PRESETS, Rules

DEFAULT_ACTION_LIMIT = BOT_ACTION_LIMIT


def learning_rules(rules: Rules | str | None = None) -> Rules:
    """``rules`` (a Rules, its text form, or the default podkidnoy), with ``action_limit``
    turned on (``DEFAULT_ACTION_LIMIT``) unless it is set already. The environments
    refuse what they cannot play (:func:`unsupported`; nothing now).

    >>> learning_rules("shulerskiy").num_actions  # (cheats and calls numbered)
    2976
    """
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        rules = Rules.parse(rules)
    refuse_unsupported(rules)
    return rules.with_action_limit()


def learning_presets() -> tuple[str, ...]:
    """The presets the environments play: every one, шулерский (cheats and calls have
    numbers, docs/envs.md) and двухкозырный (each seat's trump is encoded) included.

    >>> "shulerskiy" in learning_presets(), "dvukhkozyrny" in learning_presets()
    (True, True)
    """
    return tuple(p for p in PRESETS if not unsupported(Rules.preset(p)))


def unsupported(rules: Rules) -> str:
    """Why the environments cannot play ``rules`` ("" if they can). Every valid rule set
    is played now: with ``cheating`` the action encoding numbers cheats and calls and the
    observation holds the public cheat facts; with ``trump=per_player`` it holds each
    seat's trump. (Kept as the one place a future rule the environments cannot play
    would be refused.)"""
    del rules
    return ""


def refuse_unsupported(rules: Rules) -> None:
    """ValueError, saying why, for rules the environments cannot play (:func:`unsupported`)."""
    why = unsupported(rules)
    if why:
        raise RulesError(why)


def returns(rules: Rules, outcome: Outcome | None) -> list[float]:
    """Each seat's reward for a finished deal, summing to zero: the durak -1 and the others
    share +1; in team play every member of the losing side -1, of the winning side +1; a
    draw or a cut-off deal 0."""
    n = rules.players
    if outcome is None or outcome.durak is None:
        return [0.0] * n
    if rules.teams != "none":
        lose = rules.team_of(outcome.durak)
        return [-1.0 if rules.team_of(s) == lose else 1.0 for s in range(n)]
    win = 1.0 / (n - 1)
    return [-1.0 if s == outcome.durak else win for s in range(n)]
