"""The searcher's hint for the person's move, if the searcher is installed.

``durak.bots.hint`` is written separately; until it can be imported the game says so
instead of failing.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..actions import Action
from ..observation import Observation
from .words import Entry, action_label

HINT_TIME = 1.0  # seconds of search for one hint


def hint_entry(obs: Observation) -> Entry:
    """An entry naming the suggested action (the ``action`` value is the Action itself)."""
    if not obs.legal:
        return Entry("why_no_hint", {"reason": "-"})
    try:
        module = importlib.import_module("durak.bots.hint")
        fn = module.hint
    except (ImportError, AttributeError):
        return Entry("why_no_hint", {"reason": Entry("why_hint_missing")})
    try:
        result = _call(fn, obs)
    except Exception as e:  # a searcher failure must not end the game
        return Entry("why_no_hint", {"reason": f"{type(e).__name__}: {e}"})
    action, value = _best(result, obs)
    if action is None:
        return Entry("why_no_hint", {"reason": "-"})
    if value is None:
        return Entry("ev_hint", {"action": action_label(action), "move": action})
    return Entry("ev_hint_ranked", {"action": action_label(action), "value": value, "move": action})


def _call(fn: Any, obs: Observation) -> Any:
    try:
        return fn(obs, time=HINT_TIME)
    except TypeError:
        return fn(obs)


def _best(result: Any, obs: Observation) -> tuple[Action | None, str | None]:
    """Read the searcher's answer: an Action, or ranked (action, value) pairs or objects."""
    if isinstance(result, Action):
        return result, None
    ranked = getattr(result, "ranked", None) or getattr(result, "actions", None) or result
    try:
        first = next(iter(ranked))
    except (TypeError, StopIteration):
        return None, None
    if isinstance(first, Action):
        return first, None
    if isinstance(first, tuple) and first and isinstance(first[0], Action):
        return first[0], _fmt(first[1]) if len(first) > 1 else None
    action = getattr(first, "action", None)
    if isinstance(action, Action):
        for name in ("value", "win", "score", "q"):
            if hasattr(first, name):
                return action, _fmt(getattr(first, name))
        return action, None
    return None, None


def _fmt(v: Any) -> str:
    if isinstance(v, float) and 0.0 <= v <= 1.0:
        return f"{round(100 * v)}%"
    return str(v)
