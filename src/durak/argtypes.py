"""Types for command-line options that refuse a bad value with a clear message
(argparse then says which option, and exits with status 2).

>>> at_least(1)("3"), port("8000")
(3, 8000)
>>> at_least(1)("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be at least 1, not 0
>>> port("99999")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 99999 is not a port: ports are 0 to 65535
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an integer ``>= low``."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {n}")
        return n

    return parse


def port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{n} is not a port: ports are 0 to 65535")
    return n


def names_from(choices: Iterable[str], what: str) -> Callable[[str], str]:
    """An argparse type: a comma-separated list of ``choices`` (kept as text).

    >>> names_from(["a", "b"], "preset")("a,c")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: no preset 'c'; one of a, b
    """
    allowed = list(choices)

    def parse(text: str) -> str:
        items = [t.strip() for t in text.split(",")]
        for item in items:
            if item not in allowed:
                raise argparse.ArgumentTypeError(f"no {what} {item!r}; one of {', '.join(allowed)}")
        return text

    return parse


def numbers_in(low: int, high: int) -> Callable[[str], str]:
    """An argparse type: comma-separated whole numbers from ``low`` to ``high`` (kept as
    text)."""

    def parse(text: str) -> str:
        for item in text.split(","):
            n = at_least(low)(item.strip())
            if n > high:
                raise argparse.ArgumentTypeError(f"must be at most {high}, not {n}")
        return text

    return parse
