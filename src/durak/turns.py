"""Whose turn: the next active seat, who may throw in and in what order, the order of
drawing. Pure functions of the seats (who is out, the teams) and the rules, for
:class:`durak.game.Game`.

>>> next_active([False, True, False], 0), next_active([False, False, False, False], 0, 0)
(2, 1)
>>> DRAW_ORDER[3][0][1]  # 3 players, seat 0 opened, seat 1 defended: the defender last
(0, 2, 1)
"""

from __future__ import annotations

from typing import Final

from .rules import Rules


def next_active(out: list[bool], seat: int, opponent_of: int = -1) -> int:
    """The next active seat clockwise (to the left) after ``seat``; with teams and
    ``opponent_of`` >= 0, the next active opponent of that seat (even and odd seats
    play in two sides). -1 if none."""
    n = len(out)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if out[s]:
            continue
        if opponent_of >= 0 and (s - opponent_of) % 2 == 0:
            continue
        if s == seat and opponent_of < 0:
            return -1
        return s
    return -1


def throwers(
    cache: dict[int, tuple[int, ...]],
    rules: Rules,
    out: list[bool],
    attacker: int,
    defender: int,
    out_mask: int,
) -> tuple[int, ...]:
    """Who may throw in (``rules.throwers``), in the order of their right: the opening
    attacker, then clockwise from the defender's left. ``cache``: :func:`thrower_cache`
    of the rules; ``out_mask``: the seats out, as a mask (its key).

    >>> r = Rules(players=4)
    >>> throwers(thrower_cache(r), r, [False] * 4, 0, 1, 0)
    (0, 2, 3)
    """
    key = attacker | defender << 3 | out_mask << 6
    cached = cache.get(key)
    if cached is None:
        cached = cache[key] = _throwers(rules, out, attacker, defender)
    return cached


def _throwers(rules: Rules, out: list[bool], attacker: int, defender: int) -> tuple[int, ...]:
    d, a, n = defender, attacker, len(out)
    mode = rules.throwers
    if mode == "attacker":
        return (a,)
    if mode == "neighbours":
        left = next_active(out, d)
        right = next(((d - i) % n for i in range(1, n) if not out[(d - i) % n]), -1)
        ok = {left, right} - {d, -1}
    else:
        ok = {s for s in range(n) if not out[s] and s != d}
    if rules.teams != "none":
        ok = {s for s in ok if (s - d) % 2}
    order = [a] if a in ok else []
    for i in range(1, n):
        s = (d + i) % n
        if s in ok and s != a:
            order.append(s)
    return tuple(order)


# Thrower orders, per (throwers, teams, players), keyed by attacker | defender << 3 |
# out-mask << 6: shared by every game with those rules.
_THROWERS: Final[dict[tuple[str, str, int], dict[int, tuple[int, ...]]]] = {}


def thrower_cache(rules: Rules) -> dict[int, tuple[int, ...]]:
    """The cache of :func:`throwers` shared by every game under rules like ``rules``."""
    return _THROWERS.setdefault((rules.throwers, rules.teams, rules.players), {})


# DRAW_ORDER[n][first attacker][defender]: the opening attacker first, then clockwise,
# the defender last.
DRAW_ORDER: Final = tuple(
    tuple(
        tuple(
            tuple([s for s in ((fa + i) % n for i in range(n)) if s != d] + [d]) if n else ()
            for d in range(n)
        )
        for fa in range(n)
    )
    for n in range(7)
)
