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
from ..rules import BOT_ACTION_LIMIT, PRESETS, Rules
from .bits import returns  # (compiled: the vector env pays it every deal)

__all__ = ["DEFAULT_ACTION_LIMIT", "learning_presets", "learning_rules", "returns"]

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
