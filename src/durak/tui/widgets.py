"""The parts of the game screen. Each is a Static redrawn from the session's state;
a click on a card or a button posts a message (``messages``) the game screen handles."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from durak.enums import Phase

from ..cards import Card
from ..game import pagon_ladder
from ..observation import Observation
from .i18n import plural, rank_text, tr
from .messages import CardClicked, KeyClicked, OfferClicked, TargetClicked
from .render import back, chip, inline_cards, trump_suit_content
from .session import Session, spec_label


class Clickable(Static):
    """A Static whose ``@click`` actions post messages to the game screen."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # Cards carry their own colours: no link colouring over them.
        self.auto_links = False


class HandView(Clickable):
    def action_card(self, i: int) -> None:
        self.post_message(CardClicked(i))


class TableView(Clickable):
    def action_target(self, i: int) -> None:
        self.post_message(TargetClicked(i))


class ActionBar(Clickable):
    def action_offer(self, i: int) -> None:
        self.post_message(OfferClicked(i))

    def action_key(self, key: str) -> None:
        self.post_message(KeyClicked(key))


def seat_role(obs: Observation, seat: int, lang: str) -> str:
    """«attacks», «defends», «out»… for one seat, as the table shows it."""
    if obs.out[seat]:
        return tr(lang, "term.out")
    if obs.phase == Phase.OVER:
        return ""
    if seat == obs.defender:
        return tr(lang, "term.defender")
    if seat == obs.attacker:
        return tr(lang, "term.attacker")
    if seat in obs.throwers and obs.phase in (Phase.THROW_IN, Phase.PILE_ON):
        return tr(lang, "throws_in")
    return ""


def opponent_content(
    session: Session, obs: Observation, seat: int, lang: str, width: int, short: bool = False
) -> Content:
    """Name, level, hand size (as card backs), role and the cards known to be held."""
    name = session.names[seat]
    level = spec_label(session.specs[seat], lang, short)
    is_partner = session.is_partner(seat)
    partner = f" · {tr(lang, 'partner')}" if is_partner and not short else ""
    acting = obs.to_act == seat
    # partners' names are green, so they are told apart even where «partner» has no room
    head_style = "bold reverse #ffd75f" if acting else ("bold #87ff87" if is_partner else "bold")
    head = Content.styled(f"{'▶ ' if acting else ''}{name}", head_style)
    line1 = Content.assemble(head, Content.styled(f" {level}{partner}", "#a0a0a0"))
    n = obs.hand_sizes[seat]
    shown = min(n, max(1, width - 4))
    backs = Content.styled("▌" * shown, "#5f87d7")
    line2 = Content.assemble(backs, f" {n}")
    role = seat_role(obs, seat, lang)
    extras = [role] if role else []
    if obs.trumps:  # двухкозырный: each seat's own trump
        extras.append(f"{tr(lang, 'term.trump')} {'♠♥♦♣'[obs.trumps[seat]]}")
    if obs.rules.scoring == "pogonny":
        extras.append(tr(lang, "pogony_short" if short else "pogony_n", n=obs.pogony[seat]))
    if seat == obs.dealer and obs.bout == 0:
        extras.append(tr(lang, "term.dealer"))
    line3 = Content.styled(" · ".join(extras), "italic #d7af5f")
    known = list(obs.known[seat])
    line4 = (
        Content.assemble(
            Content.styled(tr(lang, "known") + ": ", "#a0a0a0"), inline_cards(known, lang)
        )
        if known
        else Content("")
    )
    return Content("\n").join([line1, line2, line3, line4])


def side_content(session: Session, obs: Observation, lang: str, tall: bool) -> Content:
    """Trump card, talon and discard counts, the deal and the score."""
    # (бескозырный: no card turned, no trump suit; «пики пиками»: the turned card need
    # not be of the trump suit, ♦: both are shown)
    turned = obs.trump if obs.trump_under_talon else None
    lines: list[Content] = []
    talon = (
        f"{tr(lang, 'term.talon')}: {obs.talon_size}" if obs.talon_size else tr(lang, "talon_empty")
    )
    lines.append(
        Content.assemble(
            f"{tr(lang, 'term.trump')} ",
            chip(turned, lang, "normal", False)[0]
            if turned is not None and turned.suit == obs.trump_suit
            else trump_suit_content(obs.trump_suit, turned, lang),
        )
    )
    if tall and obs.talon_size:
        lines.extend(Content.assemble("      ", b) for b in back(False, str(obs.talon_size)))
    lines.append(Content(talon))
    lines.append(Content(f"{tr(lang, 'term.discard')}: {len(obs.discard)}"))
    m = session.match
    deal = (
        tr(lang, "term.deal_n_of", n=session.deal_number, m=m.deals)
        if m.deals and m.deals > 1
        else tr(lang, "term.deal_n", n=session.deal_number)
    )
    lines.append(Content.styled(f"{deal} · {tr(lang, 'term.bout')} {obs.bout + 1}", "#a0a0a0"))
    if obs.rules.scoring == "pagony" and obs.pagon:
        lines.append(Content.styled(pagon_line(session, obs.pagon, lang), "#ffd75f"))
    if session.tally_with_current().deals:
        lines.append(Content.styled(score_line(session, lang), "#a0a0a0"))
    return Content("\n").join(lines)


def team_names(session: Session, side: int) -> str:
    """The players of one side, «Anna + Vera»."""
    rules = session.rules
    return " + ".join(session.names[s] for s in range(rules.players) if rules.team_of(s) == side)


def score_line(session: Session, lang: str) -> str:
    """The match so far, counting a deal just finished: how often each player (or each
    team) lost."""
    t = session.tally_with_current()
    rules = session.rules
    if rules.teams != "none":
        parts = [
            f"{team_names(session, side)} {t.side_losses[side]}" for side in range(rules.sides)
        ]
        text = f"{tr(lang, 'score_teams')}: " + ", ".join(parts)
    else:
        parts = [f"{session.names[s]} {t.durak_counts[s]}" for s in range(rules.players)]
        text = f"{tr(lang, 'score')} ({tr(lang, 'col_durak')}): " + ", ".join(parts)
    if t.draws:
        text += f"; {tr(lang, 'draws_n', n=t.draws)}"
    return text


def pagon_line(session: Session, steps: tuple[int, ...], lang: str) -> str:
    """Each side's pagon rank now (the queen last)."""
    ladder = pagon_ladder(session.rules.deck)
    parts = []
    for side, step in enumerate(steps):
        who = team_names(session, side)
        parts.append(f"{who} {rank_text(ladder[min(step, len(ladder) - 1)], lang)}")
    return tr(lang, "pagon_line", sides=", ".join(parts))


def hand_header(session: Session, obs: Observation, lang: str) -> Content:
    role = seat_role(obs, obs.seat, lang)
    parts = [tr(lang, "your_hand"), plural(lang, len(obs.hand), "cards")]
    if role:
        parts.append(role)
    if obs.rules.scoring == "pogonny":
        parts.append(tr(lang, "pogony_n", n=obs.pogony[obs.seat]))
    style = "bold reverse #ffd75f" if obs.to_act == obs.seat else "bold"
    return Content.styled(f"{session.names[obs.seat]} · " + " · ".join(parts), style)


def card_at(cards: list[Card], i: int) -> Card | None:
    return cards[i] if 0 <= i < len(cards) else None
