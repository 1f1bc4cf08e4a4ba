"""Every string the terminal game shows, in English and Russian, in one table.

``tr(lang, key, **values)`` formats one entry. Both languages are complete: a test
checks that every key has both texts with the same ``{placeholders}``.

>>> tr("ru", "take_key")
'взять'
>>> plural("ru", 5, "cards"), plural("en", 1, "cards"), plural("ru", 22, "cards")
('5 карт', '1 card', '22 карты')
>>> card_text(Card.parse("QH"), "ru"), card_text(Card.parse("10S"), "en")
('Д♥', '10♠')
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Final

from ..cards import RANK_NAMES, RUSSIAN_RANKS, Card

LANGS: Final = ("en", "ru")

# key -> (English, Russian)
STRINGS: Final[dict[str, tuple[str, str]]] = {
    # ---- the start screen ----------------------------------------------------------------
    "title": ("Durak", "Дурак"),
    "setup_title": ("Durak: a new match", "Дурак: новая партия"),
    "language": ("Language", "Язык"),
    "preset": ("Game", "Игра"),
    "deck": ("Deck", "Колода"),
    "players": ("Players", "Игроки"),
    "teams": ("Teams", "Команды"),
    "transfer": ("Transfer", "Перевод"),
    "transfer_by_showing": ("Transfer by showing the trump", "Проездной (показать козырь)"),
    "transfer_first_bout": ("Transfer in the first bout", "Перевод в первом коне"),
    "pile_on": ("Throw in after «take»", "Подкидывать вдогонку"),
    "trump_exchange": ("Swap the lowest trump", "Обмен младшего козыря"),
    "bout_limit": ("Cards in a bout, at most", "Карт в коне, не больше"),
    "first_bout_limit": ("In the first bout, at most", "В первом коне, не больше"),
    "throwers": ("Who throws in", "Кто подкидывает"),
    "deals": ("Deals in the match", "Сдач в партии"),
    "deals_until_queen": ("until a side hangs the queen", "пока не навесят даму"),
    "your_name": ("Your name", "Ваше имя"),
    "opponent_n": ("Seat {n}", "Место {n}"),
    "partner_n": ("Seat {n} (partner)", "Место {n} (партнёр)"),
    "start": ("Start", "Начать"),
    "quit": ("Quit", "Выйти"),
    "setup_help": (
        "Tab moves, Enter opens a list or presses a button, space ticks a box.",
        "Tab — переход, Enter — открыть список или нажать кнопку, пробел — галочка.",
    ),
    "bad_rules": ("These options do not go together: {reason}", "Так нельзя: {reason}"),
    "on": ("on", "да"),
    "off": ("off", "нет"),
    "teams_none": ("none", "нет"),
    "throwers_all": ("everyone", "все"),
    "throwers_neighbours": ("neighbours", "соседи"),
    "throwers_attacker": ("attacker only", "только ходящий"),
    "cards_deck": ("{n} cards", "{n} карт"),
    # ---- presets ---------------------------------------------------------------------------
    "preset_podkidnoy": ("Podkidnoy (throw-in)", "Подкидной"),
    "preset_perevodnoy": ("Perevodnoy (transfer)", "Переводной"),
    "preset_perevodnoy-proezdnoy": ("Transfer by showing", "Переводной с проездным"),
    "preset_prostoy": ("Prostoy (simple)", "Простой"),
    "preset_pogonny": ("Pogonny (pogony score)", "Погонный"),
    "preset_pagony": ("With pagony", "С пагонами"),
    # ---- opponents ----------------------------------------------------------------------
    "level_n": ("level {n}", "уровень {n}"),
    "level_short": ("L{n}", "ур.{n}"),
    "pogony_short": ("pg {n}", "пг {n}"),
    "bot_random": ("random", "случайный"),
    "bot_greedy": ("greedy", "жадный"),
    "bot_other": ("{name}", "{name}"),
    "human": ("you", "вы"),
    "names": (
        "Anna,Boris,Vera,Gleb,Dasha,Egor",
        "Анна,Борис,Вера,Глеб,Даша,Егор",
    ),
    "default_name": ("Player", "Игрок"),
    # ---- the table -------------------------------------------------------------------------
    "trump": ("Trump", "Козырь"),
    "talon": ("Talon", "Колода"),
    "talon_empty": ("talon empty", "колода пуста"),
    "discard": ("Discard", "Бито"),
    "bout": ("Bout", "Кон"),
    "deal_n": ("Deal {n}", "Сдача {n}"),
    "deal_n_of": ("Deal {n} of {m}", "Сдача {n} из {m}"),
    "known": ("known", "известны"),
    "attacks": ("attacks", "ходит"),
    "defends": ("defends", "отбивается"),
    "throws_in": ("may throw in", "подкидывает"),
    "to_act_mark": ("to act", "ходит"),
    "is_out": ("out", "вышел"),
    "partner": ("partner", "партнёр"),
    "pogony_n": ("pogony {n}", "погоны {n}"),
    "your_hand": ("Your hand", "Ваши карты"),
    "empty_table": ("The table is empty.", "Стол пуст."),
    "dealer": ("dealer", "сдаёт"),
    "log": ("Moves", "Ходы"),
    "score": ("Score", "Счёт"),
    "durak_times": ("durak ×{n}", "дурак ×{n}"),
    "draws_n": ("draws: {n}", "ничьих: {n}"),
    # ---- what is expected ------------------------------------------------------------------
    "you_lead": (
        "Your lead against {defender}: choose cards of one rank, then Enter.",
        "Ваш ход, отбивается {defender}: выберите карты одного достоинства, Enter.",
    ),
    "you_defend": (
        "{attacker} attacks you: beat every card, or take (t).",
        "{attacker} ходит на вас: побейте все карты или возьмите (t).",
    ),
    "you_defend_transfer": (
        "{attacker} attacks you: beat, transfer (r) to {next}, or take (t).",
        "{attacker} ходит на вас: бейте, переводите (r, дальше {next}) или берите (t).",
    ),
    "you_throw_in": (
        "{defender} beat everything: throw in a rank on the table, or pass (p).",
        "{defender}: всё побито. Подкиньте карту того же достоинства или пас (p).",
    ),
    "you_pile_on": (
        "{defender} takes: add cards for them to take, or pass (p).",
        "{defender} берёт: подкиньте вдогонку или пас (p).",
    ),
    "bot_thinking": ("{name} is thinking…", "{name} думает…"),
    "bot_to_act": ("{name} to act. f: instant bots.", "Ходит {name}. f — боты без пауз."),
    "deal_over_next": (
        "The deal is over. Enter or n: next deal.",
        "Сдача окончена. Enter или n — следующая.",
    ),
    "match_over": (
        "The match is over. n: new match, q: quit.",
        "Партия окончена. n — новая партия, q — выход.",
    ),
    # ---- moves in plain words ------------------------------------------------------------
    "mv_lead": ("{who} leads {cards} against {target}", "{who} ходит {cards}, отбивается {target}"),
    "mv_throw": ("{who} throws in {cards}", "{who} подкидывает {cards}"),
    "mv_pile": ("{who} adds {cards} for the taker", "{who} подкидывает вдогонку {cards}"),
    "mv_defend": ("{who} beats {target} with {card}", "{who} бьёт {target} картой {card}"),
    "mv_transfer": ("{who} transfers with {cards} to {target}",
                    "{who} переводит {cards}, теперь отбивается {target}"),
    "mv_show": ("{who} shows the trump {card}: transfer to {target}",
                "{who} показывает козырь {card}: теперь отбивается {target}"),
    "mv_take": ("{who} takes", "{who}: «беру»"),
    "mv_pass": ("{who} passes", "{who}: «пас»"),
    "mv_exchange": ("{who} swaps {card} for the trump {trump}",
                    "{who} меняет {card} на козырь {trump}"),
    "ev_beaten": ("Beaten off: {n} to the discard", "Бито: {n} в отбой"),
    "ev_taken": ("{who} picks up {n}", "{who} забирает {n}"),
    "ev_out": ("{who} is out of cards", "{who} выходит из игры"),
    "ev_durak": ("{who} is the durak!", "{who} — дурак!"),
    "ev_durak_team": ("{who} is the durak: the team of {team} loses",
                      "{who} — дурак: проигрывает команда {team}"),
    "ev_pogony": ("…hung with {n} pogony (sixes)", "…и с погонами: {n}"),
    "ev_hung": ("{team} hung their pagony ({n})", "{team}: навешены пагоны ({n})"),
    "pagon_line": ("Pagony: {sides}", "Пагоны: {sides}"),
    "match_won_by": ("{team} hung the queen and won the match",
                     "{team}: навешена дама — партия выиграна"),
    "ev_draw": ("A draw: nobody is left with cards", "Ничья: карт не осталось ни у кого"),
    "ev_deal_start": ("Deal {n}: {dealer} deals, trump {trump}",
                      "Сдача {n}: сдаёт {dealer}, козырь {trump}"),
    "ev_undo": ("Taken back to your last decision", "Возврат к вашему последнему решению"),
    "ev_saved": ("Record saved: {path}", "Запись сохранена: {path}"),
    "ev_hint": ("Hint: {action}", "Подсказка: {action}"),
    "hint_wait": ("The searcher is thinking…", "Поисковик думает…"),
    "ev_hint_ranked": ("Hint: {action} (expected score {value})",
                       "Подсказка: {action} (ожидаемый результат {value})"),
    # ---- action names for buttons --------------------------------------------------------
    "act_lay": ("lay {cards}", "положить {cards}"),
    "act_beat": ("beat {target} with {card}", "побить {target} картой {card}"),
    "act_transfer": ("transfer {cards}", "перевести {cards}"),
    "act_show": ("show {card}", "показать {card}"),
    "act_take": ("take", "взять"),
    "act_pass": ("pass", "пас"),
    "act_exchange": ("swap {card} for the trump", "обменять {card} на козырь"),
    "take_key": ("take", "взять"),
    # ---- keys ------------------------------------------------------------------------------------
    "keys_game": (
        "←→ move · space choose · ↑↓ target · Enter lay · h hint · u undo · f fast · "
        "l language · q quit",
        "←→ выбор · пробел отметить · ↑↓ цель · Enter положить · h подсказка · u отмена · "
        "f быстро · l язык · q выход",
    ),
    "keys_replay": (
        "←→ step · PgUp/PgDn bout · Home/End · [ ] deal · l language · q quit",
        "←→ шаг · PgUp/PgDn кон · Home/End · [ ] сдача · l язык · q выход",
    ),
    # ---- keys: the footer and the help screen -------------------------------------------
    "key_lay": ("lay", "положить"),
    "key_lay_help": ("lay the marked cards, or the card under the cursor if none is marked",
                     "положить отмеченные карты, а если их нет, карту под курсором"),
    "key_take": ("take", "взять"),
    "key_pass": ("pass", "пас"),
    "key_transfer": ("transfer", "перевести"),
    "key_show": ("show trump", "показать козырь"),
    "key_show_help": ("show the trump of the attacked rank to transfer (проездной)",
                      "показать козырь того же достоинства и перевести (проездной)"),
    "key_exchange": ("swap trump", "обмен козыря"),
    "key_exchange_help": ("swap the lowest trump for the face-up trump",
                          "обменять младший козырь на открытый козырь"),
    "key_hint": ("hint", "подсказка"),
    "key_hint_help": ("hint from the searcher: the best move, its cards get marked",
                      "подсказка: лучший ход, его карты отмечаются"),
    "key_undo": ("undo", "отмена"),
    "key_undo_help": ("take back to your previous decision", "вернуться к вашему прошлому решению"),
    "key_help": ("keys", "клавиши"),
    "key_quit": ("quit", "выход"),
    "key_quit_help": ("save the record and quit", "сохранить запись и выйти"),
    "key_cursor": ("move the cursor in your hand", "курсор по картам руки"),
    "key_mark": ("mark / unmark the card under the cursor", "отметить карту под курсором"),
    "key_cards": ("mark / unmark the card with that label (shown above it)",
                  "отметить карту с этой меткой (она над картой)"),
    "key_target": ("choose which attacking card to beat", "выбрать, какую карту бить"),
    "key_clear": ("unmark everything", "снять все отметки"),
    "key_fast": ("bots move instantly / at a readable pace", "боты без пауз / с паузами"),
    "key_lang": ("English / Russian", "русский / английский"),
    "key_next": ("next deal (when the deal is over)", "следующая сдача (когда сдача окончена)"),
    "key_start": ("start", "начать"),
    "key_howto": ("how to play", "как играть"),
    "help_title": ("Keys", "Клавиши"),
    "help_close": ("Esc or ?: back. On a Russian layout the same keys work (е for t…).",
                   "Esc или ? — назад. В русской раскладке работают те же клавиши (е вместо t…)."),
    # ---- how to play ------------------------------------------------------------------------
    "howto": ("How to play", "Как играть"),
    "howto_title": ("How to play: {game}", "Как играть: {game}"),
    "howto_keys": ("←→ another game · Esc back · in the game ? lists every key",
                   "←→ другая игра · Esc назад · в игре ? — все клавиши"),
    "howto_basics": (
        "Durak («the fool») is played with a 36-card deck (6 up to the ace; 24 and 52 cards "
        "work too). Everyone gets 6 cards; the next card is turned face up and its suit is "
        "the trump, which beats every other suit. Nobody wins: the last player left holding "
        "cards is the durak, the loser.\n\n"
        "A bout: the attacker lays a card (or several of one rank) in front of the defender, "
        "the next player on the left. The defender beats each card with a higher card of the "
        "same suit, or with any trump (a trump only with a higher trump). When every card is "
        "beaten, the bout is over: the cards go to the discard and the defender attacks "
        "next. A defender who cannot or will not beat says «take», picks up every card on "
        "the table and loses their turn to attack.\n\n"
        "After each bout everyone draws back up to 6 cards from the talon, the attacker "
        "first and the defender last. Once the talon is empty, a player who runs out of "
        "cards is out of the deal. Get rid of low cards early and keep trumps for the end.",
        "В «Дурака» играют колодой в 36 карт (от шестёрки до туза; можно и 24, и 52). "
        "Каждому сдают по 6 карт; следующую карту открывают, её масть — козырь, он бьёт "
        "любую другую масть. Победителя нет: кто последним остался с картами, тот и дурак."
        "\n\n"
        "Кон: ходящий кладёт карту (или несколько одного достоинства) перед отбивающимся — "
        "следующим игроком слева. Отбивающийся кроет каждую карту старшей картой той же "
        "масти или любым козырем (козырь — только старшим козырем). Когда всё побито, кон "
        "окончен: карты уходят в отбой, и следующим ходит отбивавшийся. Кто не может или не "
        "хочет отбиваться, говорит «беру», забирает все карты со стола и пропускает свой "
        "ход.\n\n"
        "После кона все добирают из колоды до 6 карт: сначала ходивший, отбивавшийся "
        "последним. Когда колода кончилась, оставшийся без карт выходит из сдачи. "
        "Избавляйтесь от мелких карт пораньше, а козыри берегите к концу.",
    ),
    "howto_podkidnoy": (
        "Podkidnoy (throw-in): once the defender has beaten the cards on the table, the "
        "attacker and then the other players may throw in more cards of any rank already on "
        "the table. A bout holds at most 6 attacking cards (5 in the first bout of a deal), "
        "and never more than the defender held. After «take» the others may still add cards "
        "for the defender to take.",
        "Подкидной: когда отбивающийся покрыл карты, ходивший, а за ним и остальные могут "
        "подкидывать карты тех достоинств, что уже лежат на столе. В кону не больше 6 карт "
        "(в первом кону сдачи — 5) и не больше, чем было у отбивающегося. После «беру» ему "
        "можно ещё подкинуть вдогонку.",
    ),
    "howto_perevodnoy": (
        "Perevodnoy (transfer): as podkidnoy, and while nothing on the table is beaten yet, "
        "the defender may lay a card of the attacked rank and so pass the whole attack on to "
        "the next player, who may transfer it again. That player must hold at least as many "
        "cards as will then be on the table. No transfer in the first bout of a deal.",
        "Переводной: как подкидной, но пока ничего не побито, отбивающийся может положить "
        "карту того же достоинства и перевести весь ход на следующего игрока, а тот может "
        "перевести дальше. У следующего должно быть не меньше карт, чем их станет на столе. "
        "В первом кону сдачи переводить нельзя.",
    ),
    "howto_perevodnoy-proezdnoy": (
        "Transfer by showing (проездной): as perevodnoy, and you may also transfer just by "
        "showing the trump of the attacked rank; it stays in your hand. Each player may do "
        "so once a bout.",
        "Переводной с проездным: как переводной, и перевести можно, просто показав козырь "
        "того же достоинства, — он остаётся в руке. Каждый может так сделать раз за кон.",
    ),
    "howto_prostoy": (
        "Prostoy (simple): the attacker opens with one card or two of one rank, and nobody "
        "throws in: when the defender has beaten them, the bout is over.",
        "Простой: ходят одной картой или двумя одного достоинства, подкидывать нельзя: "
        "отбился — кон окончен.",
    ),
    "howto_pogonny": (
        "Pogonny: as podkidnoy, and laying several cards of one rank at once scores pogony, "
        "one for each pair. When only one player is left with cards, the player with the "
        "fewest pogony is the durak. Everyone's pogony are shown at the table.",
        "Погонный: как подкидной, и за карты одного достоинства, положенные разом, "
        "начисляются погоны — по одному за пару. Когда с картами остаётся один игрок, "
        "дураком становится тот, у кого меньше всего погонов. Погоны видны за столом.",
    ),
    "howto_pagony": (
        "With pagony (best 2 against 2): a match of many deals. Each side has a pagon rank, "
        "the 6 at first. A side that ends a deal with its last move onto the loser made with "
        "non-trump cards of its pagon rank has hung its pagony, and its rank rises: 6, 7, 8, "
        "9, 10, J, K, A, then the queen. The first side to hang the queen wins the match.",
        "С пагонами (лучше двое на двое): партия из многих сдач. У каждой стороны свой "
        "пагон, сначала шестёрки. Сторона, закончившая сдачу последним ходом на проигравшего "
        "некозырными картами своего пагона, навешивает пагоны, и её пагон растёт: 6, 7, 8, "
        "9, 10, В, К, Т, потом дама. Кто первым навесит даму, выиграл партию.",
    ),
    # ---- explanations of wrong keys ------------------------------------------------------
    "why_not_your_turn": ("Not your turn: {name} is to act.", "Сейчас не ваш ход: ходит {name}."),
    "why_over": ("The deal is over.", "Сдача окончена."),
    "why_cannot_beat": ("{card} beats no card on the table.",
                        "{card} не бьёт ни одну карту на столе."),
    "why_not_rank": ("Only ranks on the table can be thrown in: {ranks}.",
                     "Подкидывать можно только достоинства со стола: {ranks}."),
    "why_no_room": ("No more cards fit: the limit for this bout is reached.",
                    "Больше класть нельзя: предел карт в этом коне."),
    "why_cannot_lead": ("You cannot lead with {card} now.", "С {card} сейчас ходить нельзя."),
    "why_too_many": ("{cards} cannot be laid together here.", "{cards} вместе положить нельзя."),
    "why_choose_first": ("Choose a card first (←→ and space, or click it).",
                         "Сначала выберите карту (←→ и пробел или мышью)."),
    "why_choose_target": ("{card} can beat several cards: choose one with ↑↓ or a click.",
                          "{card} бьёт несколько карт: выберите цель ↑↓ или мышью."),
    "why_not_that_target": ("{card} does not beat {target}.", "{card} не бьёт {target}."),
    "why_no_lay": ("{cards} cannot be laid now.", "{cards} сейчас положить нельзя."),
    "why_no_take": ("You can take only when defending.", "Брать можно только при защите."),
    "why_no_pass": ("You cannot pass now.", "Сейчас пасовать нельзя."),
    "why_no_transfer": ("No transfer is possible now.", "Перевести сейчас нельзя."),
    "why_choose_transfer": ("Choose the card(s) of rank {rank} to transfer with.",
                            "Выберите карты достоинства {rank} для перевода."),
    "why_no_show": ("No trump to show now.", "Показать козырь сейчас нельзя."),
    "why_no_exchange": ("No swap of the trump now.", "Обмен козыря сейчас невозможен."),
    "why_no_undo": ("Nothing of yours to take back in this deal.",
                    "В этой сдаче нечего отменить."),
    "why_no_hint": ("Hint unavailable: {reason}", "Подсказки нет: {reason}"),
    "why_hint_missing": ("the searcher is not installed yet", "поисковик ещё не установлен"),
    "why_unknown_key": ("Key {key} does nothing here. ? shows the keys.",
                        "Клавиша {key} здесь ничего не делает. ? — список клавиш."),
    "fast_on": ("Bots move instantly.", "Боты ходят без пауз."),
    "fast_off": ("Bots move at a readable pace.", "Боты ходят с паузами."),
    # ---- results ---------------------------------------------------------------------------
    "result_title": ("Deal {n} is over", "Сдача {n} окончена"),
    "match_title": ("The match is over", "Партия окончена"),
    "you_lost": ("You are the durak.", "Вы — дурак."),
    "you_won": ("You are not the durak.", "Вы не дурак."),
    "your_team_lost": ("Your team lost this deal.", "Ваша команда проиграла сдачу."),
    "your_team_won": ("Your team won this deal.", "Ваша команда выиграла сдачу."),
    "draw": ("A draw.", "Ничья."),
    "press_next": ("Enter: next deal · q: quit", "Enter — следующая сдача · q — выход"),
    "press_new": ("n: new match · q: quit", "n — новая партия · q — выход"),
    "team_a": ("your team", "ваша команда"),
    "team_b": ("their team", "соперники"),
    "col_player": ("Player", "Игрок"),
    "col_durak": ("Durak", "Дурак"),
    "col_pogony": ("Pogony", "Погоны"),
    "col_team": ("Team", "Команда"),
    "col_lost": ("Deals lost", "Проиграно сдач"),
    "score_teams": ("Score (deals lost)", "Счёт (проиграно сдач)"),
    # ---- replay ------------------------------------------------------------------------
    "replay_title": ("Replay", "Запись"),
    "replay_pos": ("Step {i} of {n}", "Ход {i} из {n}"),
    "replay_deal": ("deal {i} of {n}", "сдача {i} из {n}"),
    "replay_start": ("The deal is dealt.", "Карты розданы."),
    "replay_result": ("Result: {result}", "Итог: {result}"),
}

_PLURALS: Final[dict[str, tuple[tuple[str, str], tuple[str, str, str]]]] = {
    # English (one, many); Russian (one, few, many)
    "cards": (("card", "cards"), ("карта", "карты", "карт")),
    "cards_acc": (("card", "cards"), ("карту", "карты", "карт")),
}


def tr(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang``, with ``values`` filled in."""
    en, ru = STRINGS[key]
    text = ru if lang == "ru" else en
    return text.format(**values) if values else text


def plural(lang: str, n: int, word: str) -> str:
    """``n`` with the right form of ``word`` (Russian has three)."""
    en, ru = _PLURALS[word]
    if lang != "ru":
        return f"{n} {en[0] if n == 1 else en[1]}"
    if n % 10 == 1 and n % 100 != 11:
        form = ru[0]
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        form = ru[1]
    else:
        form = ru[2]
    return f"{n} {form}"


def rank_text(rank: int, lang: str) -> str:
    """A rank as players of ``lang`` write it: J Q K A or В Д К Т."""
    names = RUSSIAN_RANKS if lang == "ru" else RANK_NAMES
    return names.get(rank, str(rank))


def card_text(card: Card, lang: str) -> str:
    return rank_text(card.rank, lang) + "♠♥♦♣"[card.suit]


def cards_text(cards: Iterable[Card], lang: str) -> str:
    return " ".join(card_text(c, lang) for c in cards)


def default_lang() -> str:
    """Russian when the environment asks for it, else English."""
    for var in ("DURAK_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        v = os.environ.get(var, "")
        if v:
            return "ru" if v.lower().startswith("ru") else "en"
    return "en"


def seat_names(lang: str, players: int, human_name: str | None = None) -> list[str]:
    """Default names: the human at seat 0, bots named from the table."""
    bots = tr(lang, "names").split(",")
    return [human_name or tr(lang, "default_name")] + bots[: players - 1]
