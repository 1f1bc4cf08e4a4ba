// Russian and English. t("key", {name: ...}) fills {name} in the text.

const TEXT = {
  en: {
    title: "Durak", subtitle: "the Russian card game",
    your_name: "Your name", create: "Create a table", preset: "Game", players: "Players",
    deck: "Deck", teams: "Teams", deals: "Deals", target: "Play until someone is durak N times",
    turn_timer: "Turn timer, s (0 = off)", more_options: "More rules", seats: "Seats",
    seat_you: "You", person: "Person", bot_level: "Bot, level {n}",
    open_tables: "Tables", no_tables: "No tables yet: create one.",
    finished: "Finished games", no_games: "No finished games yet.",
    join: "Join", watch: "Watch", replay: "Replay", free: "free seat", lobby: "Lobby",
    invite: "Invite", copied: "Link copied", leave: "Leave", play_again: "Play again",
    take: "Take", pass: "Pass", done: "Done (бито)", exchange: "Exchange {card}",
    transfer: "Transfer {cards}", show: "Show {card}", play: "Play {cards}",
    beat: "{card} beats {target}",
    waiting: "Waiting for players: send the invite link.",
    take_seat: "Take a seat", spectating: "You are watching.",
    your_turn: "Your turn", turn_of: "{name} to move",
    ph_attack: "attack", ph_defend: "defend", ph_throw_in: "throw in or pass",
    ph_pile_on: "add cards to the taker or pass",
    talon: "Talon", discard: "Discard", trump: "Trump", cards: "{n} cards",
    log: "Moves", durak_is: "Durak: {name}", draw: "A draw!", you_lost: "You are the durak!",
    you_won: "You are out!", out: "out", attacker: "attacks", defender: "defends",
    dealer: "deals", offline: "away", deal_of: "Deal {n} of {m}", deal_n: "Deal {n}",
    match_over: "The match is over.", tally: "Durak counts", next_deal: "Next deal soon…",
    connecting: "Connecting…", error: "Error", bout: "Bout {n}", known: "known",
    first: "First", prev: "Back", next: "Next", last: "End", autoplay: "Play",
    record: "Record", pogony: "pogony {n}", team: "Team {n}", reconnect: "Reconnecting…",
    took: "takes", passed: "pass", transfers: "transfers", shows: "shows",
    exchanges: "exchanges",
  },
  ru: {
    title: "Дурак", subtitle: "русская карточная игра",
    your_name: "Ваше имя", create: "Создать стол", preset: "Игра", players: "Игроков",
    deck: "Колода", teams: "Команды", deals: "Партий", target: "До N раз в дураках",
    turn_timer: "Таймер хода, с (0 — нет)", more_options: "Ещё правила", seats: "Места",
    seat_you: "Вы", person: "Человек", bot_level: "Бот, уровень {n}",
    open_tables: "Столы", no_tables: "Столов пока нет: создайте.",
    finished: "Сыгранные партии", no_games: "Сыгранных партий пока нет.",
    join: "Сесть", watch: "Смотреть", replay: "Повтор", free: "свободно", lobby: "Лобби",
    invite: "Пригласить", copied: "Ссылка скопирована", leave: "Выйти",
    play_again: "Сыграть ещё", take: "Беру", pass: "Пас", done: "Бито",
    exchange: "Обменять {card}", transfer: "Перевести {cards}", show: "Показать {card}",
    play: "Сходить {cards}", beat: "{card} бьёт {target}",
    waiting: "Ждём игроков: отправьте ссылку-приглашение.",
    take_seat: "Занять место", spectating: "Вы смотрите игру.",
    your_turn: "Ваш ход", turn_of: "Ходит {name}",
    ph_attack: "заход", ph_defend: "отбивайтесь", ph_throw_in: "подкиньте или пас",
    ph_pile_on: "подкиньте в догонку или пас",
    talon: "Колода", discard: "Бито", trump: "Козырь", cards: "карт: {n}",
    log: "Ходы", durak_is: "Дурак: {name}", draw: "Ничья!", you_lost: "Вы — дурак!",
    you_won: "Вы вышли!", out: "вышел", attacker: "ходит", defender: "отбивается",
    dealer: "сдаёт", offline: "нет на месте", deal_of: "Партия {n} из {m}",
    deal_n: "Партия {n}", match_over: "Матч окончен.", tally: "В дураках",
    next_deal: "Скоро следующая партия…", connecting: "Соединение…", error: "Ошибка",
    bout: "Отбой {n}", known: "известны", first: "В начало", prev: "Назад",
    next: "Вперёд", last: "В конец", autoplay: "Играть", record: "Запись",
    pogony: "погон: {n}", team: "Команда {n}", reconnect: "Переподключение…",
    took: "берёт", passed: "пас", transfers: "переводит", shows: "показывает",
    exchanges: "меняет",
  },
};

let lang = localStorage.getItem("durak.lang") ||
  ((navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en");

export function getLang() { return lang; }

export function setLang(l) {
  lang = l;
  localStorage.setItem("durak.lang", l);
  document.documentElement.lang = l;
}

export function t(key, args = {}) {
  let s = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
  for (const [k, v] of Object.entries(args)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

// Preset names as people say them.
export const PRESET_NAMES = {
  en: {
    podkidnoy: "Podkidnoy (throw-in)", perevodnoy: "Perevodnoy (transfer)",
    "perevodnoy-proezdnoy": "Perevodnoy with showing", prostoy: "Prostoy (simple)",
    pogonny: "Pogonny (epaulettes score)", pagony: "Pagony (match to epaulettes)",
  },
  ru: {
    podkidnoy: "Подкидной", perevodnoy: "Переводной",
    "perevodnoy-proezdnoy": "Переводной с проездным", prostoy: "Простой",
    pogonny: "Погонный", pagony: "С пагонами",
  },
};
