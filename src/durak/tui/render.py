"""Cards as coloured, clickable text: the hand, the table, opponents' hands.

Each builder returns Textual ``Content`` lines. A card is a small chip on an ivory
background, red for hearts and diamonds; ``tall`` chips are three lines high for
larger windows. Clickable parts carry an ``@click`` action of the widget showing them.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from ..cards import Card
from .i18n import rank_text, tr

CARD_W = 5
IVORY = "#f4f1e8"
STYLE = {
    "normal": f"{IVORY}",
    "selected": "#ffd75f",
    "dim": "#8f8f88",
    "target": "#87d7ff",
    "beatable": "#d7ecf7",
    "trump": "#f4f1e8",
}
RED, BLACK = "#c00000", "#101010"


def suit_colour(card: Card) -> str:
    return RED if card.suit in (1, 2) else BLACK


def chip(
    card: Card, lang: str, state: str = "normal", tall: bool = False, click: str | None = None
) -> list[Content]:
    """One card, ``CARD_W`` cells wide, one or three lines high."""
    rank = rank_text(card.rank, lang)
    suit = "♠♥♦♣"[card.suit]
    fg = "#4a4a4a" if state == "dim" else suit_colour(card)
    style = f"bold {fg} on {STYLE.get(state, IVORY)}"
    texts = [f"{rank:<2}   ", f"  {suit}  ", f"   {rank:>2}"] if tall else [f" {rank:>2}{suit} "]
    lines = [Content.styled(t, style) for t in texts]
    if click:
        lines = [line.stylize(f"@click={click}") for line in lines]
    return lines


def trump_suit_content(suit: int, turned: Card | None, lang: str) -> Content:
    """The trump suit as a symbol (``suit`` 4: none, «без козыря»), and beside it the
    turned card when it is of another suit (a fixed trump, «пики пиками»)."""
    if suit >= 4:
        return Content.styled(f" {tr(lang, 'term.no_trump')} ", "bold #ffffff")
    text = Content.styled(
        " " + "♠♥♦♣"[suit] + " ", "bold " + ("#ff5f5f" if suit in (1, 2) else "#ffffff")
    )
    if turned is None:
        return text
    return Content.assemble(text, " ", chip(turned, lang)[0])


def back(tall: bool = False, label: str = "") -> list[Content]:
    """A face-down card (the talon)."""
    style = "bold #f4f1e8 on #1f4e8c"
    if tall:
        return [Content.styled(t, style) for t in ("░░░░░", f"{label:^5}", "░░░░░")]
    return [Content.styled(f"{label:^5}" if label else "░░░░░", style)]


def blank(height: int, width: int = CARD_W) -> list[Content]:
    return [Content(" " * width) for _ in range(height)]


def inline_cards(cards: Sequence[Card], lang: str) -> Content:
    """Cards as coloured text in a line, e.g. the known cards of an opponent."""
    parts: list[Content | str] = []
    for i, c in enumerate(cards):
        if i:
            parts.append(" ")
        parts.append(
            Content.styled(
                rank_text(c.rank, lang) + "♠♥♦♣"[c.suit],
                f"bold {'#ff5f5f' if c.suit in (1, 2) else 'default'}",
            )
        )
    return Content.assemble(*parts)


def flow(items: Sequence[list[Content]], width: int, gap: int = 1) -> list[Content]:
    """Lay blocks (lists of lines, all the same height and width) left to right,
    wrapping at ``width``."""
    if not items:
        return []
    h = len(items[0])
    w = items[0][0].cell_length
    per_row = max(1, (width + gap) // (w + gap))
    out: list[Content] = []
    for start in range(0, len(items), per_row):
        row = items[start : start + per_row]
        for y in range(h):
            parts: list[Content | str] = []
            for i, block in enumerate(row):
                if i:
                    parts.append(" " * gap)
                parts.append(block[y])
            out.append(Content.assemble(*parts))
    return out


def hand_lines(
    cards: Sequence[Card],
    lang: str,
    *,
    selected: int = 0,
    playable: int | None = None,
    cursor: int | None = None,
    tall: bool = False,
    width: int = 80,
) -> list[Content]:
    """The person's hand: key labels (1..9, 0, then a, b, c…) above, marked cards gold, cards that
    cannot be laid now dimmed, the cursor underlined."""
    blocks: list[list[Content]] = []
    for i, c in enumerate(cards):
        is_sel = bool(selected & c.bit)
        state = (
            "selected"
            if is_sel
            else ("dim" if playable is not None and not playable & c.bit else "normal")
        )
        label = "▼" if is_sel else (KEYS[i] if i < len(KEYS) else "")
        top = Content.styled(f"{label:^{CARD_W}}", "bold #ffd75f" if is_sel else "#a0a0a0")
        mark = "▔" * CARD_W if i == cursor else " " * CARD_W
        bottom = Content.styled(mark, "bold #5fd7ff")
        click = f"card({i})"
        block = [top.stylize(f"@click={click}"), *chip(c, lang, state, tall, click), bottom]
        blocks.append(block)
    return flow(blocks, width)


# The keys that mark cards, in hand order: digits, then letters no command uses.
KEYS = "1234567890abcdegijkmovwyz"


def table_lines(
    table: Sequence[tuple[Card, Card | None]],
    lang: str,
    *,
    target: Card | None = None,
    beatable: Sequence[Card] = (),
    tall: bool = False,
    width: int = 60,
) -> list[Content]:
    """The table: each attacking card with the card beating it under it."""
    h = 3 if tall else 1
    blocks: list[list[Content]] = []
    for i, (a, b) in enumerate(table):
        if b is None and a == target:
            state, label = "target", "▼"
        elif b is None and a in beatable:
            state, label = "beatable", "·"
        else:
            state, label = "normal", ""
        click = f"target({i})"
        lower = (
            chip(b, lang, "normal", tall)
            if b is not None
            else [
                Content.styled(f"{'?' if j == h // 2 else '':^{CARD_W}}", "#707070")
                for j in range(h)
            ]
        )
        upper = chip(a, lang, state, tall, click)
        if tall:
            # the beating card lies across the attacking one, shifted, as on a real table
            pad = " " * 2
            top = Content.styled(f"{label:^{CARD_W}}{pad}", "bold #87d7ff")
            blocks.append(
                [
                    top,
                    *(Content.assemble(u, pad) for u in upper),
                    *(Content.assemble(pad, w) for w in lower),
                ]
            )
        else:
            top = Content.styled(f"{label:^{CARD_W}}", "bold #87d7ff")
            blocks.append([top, *upper, *lower])
    return flow(blocks, width, gap=2)


def join_lines(lines: Sequence[Content]) -> Content:
    return Content("\n").join(lines)
