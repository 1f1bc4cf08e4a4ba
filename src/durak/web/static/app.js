// The durak browser client: lobby, table, replay, how to play, players. Plain ES
// modules, no build step. Everything it shows about a game comes from the server's
// state messages, which carry this seat's Observation and nothing more
// (docs/protocol.md). Every word comes from the message catalogue (i18n.js).

import { getLang, loadCatalogue, optionHelp, optionLabel, presetLabel, rulesName, t, tn,
  valueText } from "./i18n.js";
import { howtoView } from "./howto.js";
import { botLabel, resultWords, seatName } from "./names.js";
import { accountView, historyView, leaderboardView, linkSeat, loginBox } from "./people.js";
import { replayView } from "./replay.js";
import { tableView } from "./table.js";
import { tournamentsView, tournamentView } from "./tournament.js";
import { $, account, ApiError, api, authHeaders, h, heldSeat, holdSeat, myName,
  pageHeader, serverRefused, when } from "./ui.js";

const app = $("#app");
let current = null; // the view in use: {stop()}

export function route() {
  if (current && current.stop) current.stop();
  current = null;
  document.documentElement.lang = getLang();
  document.title = `${t("game.title")} · ${t("game.subtitle")}`;
  const hash = location.hash.replace(/^#\/?/, "");
  const [kind, id, secret] = hash.split("/");
  app.innerHTML = "";
  const views = {
    t: () => tableView(app, id, route, secret || null), r: () => replayView(app, Number(id), route),
    howto: () => howtoView(app, id, route), top: () => leaderboardView(app, route, id),
    me: () => accountView(app, route), p: () => historyView(app, Number(id), route),
    tours: () => tournamentsView(app, route), tour: () => tournamentView(app, id, route),
  };
  const bare = ["howto", "top", "me", "tours"];  // (the views without an id)
  current = (views[kind] && (bare.includes(kind) || id)) ? views[kind]() : lobbyView();
  document.body.dataset.view = { t: "table", r: "replay", howto: "howto", top: "top", me: "me",
    p: "history", tours: "tours", tour: "tour" }[kind] || "lobby";
}

window.addEventListener("hashchange", route);

// -- the lobby -------------------------------------------------------------------------

let META = null;

function lobbyView() {
  const tablesBox = h("div", { id: "tables", class: "list" });
  const gamesBox = h("div", { id: "games", class: "list" });
  const formBox = h("form", { id: "create", class: "panel", novalidate: true,
    onsubmit: (e) => e.preventDefault() });
  const quickBox = h("section", { id: "quick", class: "panel quick" });
  app.append(pageHeader(route),
    h("main", { class: "lobby" },
      h("div", { class: "main-col" }, quickBox,
        h("details", { id: "custom-table", class: "panel custom" },
          h("summary", {}, t("lobby.custom_table")), formBox)),
      h("div", { class: "side" },
        account() ? null : loginBox(route),
        h("section", { class: "panel" }, h("h2", {}, t("lobby.tables")), tablesBox),
        h("section", { class: "panel" }, h("h2", {}, t("lobby.finished")), gamesBox))));

  const refresh = async () => {
    try {
      const [tables, games] = await Promise.all([api("/api/tables"), api("/api/games?limit=20")]);
      renderTables(tablesBox, tables.tables);
      renderGames(gamesBox, games.games);
    } catch (e) { /* the next refresh will tell */ }
  };
  (async () => {
    META = META || await api("/api/meta");
    buildQuick(quickBox);
    buildCreateForm(formBox);
    refresh();
  })();
  const timer = setInterval(refresh, 3000);
  return { stop: () => clearInterval(timer) };
}

// "Play now": one click to a deal against a bot, with the name remembered (or one made
// up and remembered) and the last game and level chosen here.
const QUICK_LEVEL = 3;

export function playerName() {
  if (account()) return account().name;
  let name = myName().trim();
  if (!name) {
    name = t("lobby.guest_name", { n: 100 + Math.floor(Math.random() * 900) });
    localStorage.setItem("durak.name", name);
  }
  return name;
}

// The bots that cheat and call (шулерский), offered first where the cheating game is
// chosen: the level bots never cheat or call, so against them it is plain подкидной.
const CHEATING_BOTS = ["cheater", "catcher"];
const cheatingBots = () => CHEATING_BOTS.filter((b) => META.bots.names.includes(b));
const isCheating = (preset) => (META.presets[preset] || {}).cheating === "open";

function buildQuick(box) {
  const levels = META.bots.levels;
  const saved = Number(localStorage.getItem("durak.quick.level")) || QUICK_LEVEL;
  const presetName = localStorage.getItem("durak.preset") || "podkidnoy";
  const preset = META.presets[presetName] ? presetName : "podkidnoy";
  const cheating = isCheating(preset) && cheatingBots().length > 0;
  const level = h("select", { id: "quick-level", "aria-label": t("lobby.quick_level"),
    onchange: () => { if (!cheating) localStorage.setItem("durak.quick.level", level.value); } },
  cheating ? cheatingBots().map((b, k) => option(`name:${b}`, botLabel(b), k === 0))
    : levels.map((l) => option(l, t("bot.level_n", { n: l }), l === saved)));
  const error = h("div", { class: "error", id: "quick-error", role: "alert" });
  const name = account() ? account().name : myName().trim();
  const go = h("button", { id: "play-now", class: "primary big", onclick: async () => {
    go.disabled = true;
    error.textContent = "";
    const bot = level.value.startsWith("name:") ? { kind: "bot", bot: level.value.slice(5) }
      : { kind: "bot", level: Number(level.value) };
    // Against a bot nobody is kept waiting: no turn clock.
    const body = { preset, options: { players: 2 }, name: playerName(), deals: 1,
      seats: [{ kind: "human" }, bot], turn_timer: 0 };
    try {
      const r = await api("/api/tables", body, authHeaders());
      if (r.token) { holdSeat(r.table, r.seat, r.token); await linkSeat(r.table, r.token); }
      location.hash = `#/t/${r.table}`;
    } catch (e) {
      error.textContent = serverRefused(e.message);
      go.disabled = false;
    }
  } }, t("lobby.play_now"));
  box.append(h("h2", {}, t("lobby.play_now_title")),
    h("p", { class: "quick-what" }, t("lobby.play_now_what", { game: presetLabel(preset) }), " ",
      h("a", { href: `#/howto/${preset}`, class: "small-link" }, t("lobby.howto"))),
    h("div", { class: "quick-row" }, go, h("label", { class: "muted" }, t("lobby.quick_level"), " ", level)),
    ...(cheating ? [h("p", { class: "muted small", id: "quick-cheating" }, t("lobby.cheating_bots"))] : []),
    h("p", { class: "muted", id: "quick-name" },
      account() ? tn("people.signed_in_as", { name: h("b", { translate: "no" }, account().name) })
        : name ? tn("lobby.playing_as", { name: h("b", { translate: "no" }, name) })
          : t("lobby.name_made_up")),
    error);
}

function option(value, label, selected) {
  return h("option", { value, selected: selected ? true : null }, label);
}

// A form field: its label, the input, a line of help, and the place for its error.
function field(name, label, input, help) {
  input.id = input.id || `f-${name}`;
  input.dataset.field = name;
  return h("div", { class: "field", dataset: { field: name } },
    h("label", { for: input.id }, label), input,
    help ? h("small", { class: "help" }, help) : null,
    h("small", { class: "field-error", id: `err-${name}`, role: "alert" }));
}


function buildCreateForm(form) {
  const presets = Object.keys(META.presets);
  const nameInput = h("input", { id: "name", maxlength: 32, value: account() ? account().name : myName(),
    autocomplete: "nickname", oninput: (e) => localStorage.setItem("durak.name", e.target.value) });
  if (account()) nameInput.readOnly = true;
  const preset = h("select", { id: "preset" },
    presets.map((p) => option(p, presetLabel(p), p === (localStorage.getItem("durak.preset") || "podkidnoy"))));
  const presetHelp = h("small", { class: "help", id: "preset-help" });
  const players = h("select", { id: "players" }, [2, 3, 4, 5, 6].map((n) => option(n, n, n === 2)));
  const deck = h("select", { id: "deck" },
    [24, 36, 52].map((n) => option(n, t("count.cards", { n }), n === 36)));
  const teams = h("select", { id: "teams" },
    ["none", "2x2", "3x3"].map((x) => option(x, valueText("teams", x))));
  const deals = h("input", { id: "deals", type: "number", min: 1, max: 100, value: 1, inputmode: "numeric" });
  const timer = h("input", { id: "timer", type: "number", min: 0, max: 600, value: 0, inputmode: "numeric" });
  const priv = h("input", { id: "private", type: "checkbox" });
  const seatsBox = h("div", { id: "seat-kinds", class: "seats" });
  const levels = META.bots.levels;
  const cheatingNote = h("p", { class: "muted small", id: "seats-cheating" }, t("lobby.cheating_bots"));
  // fresh: the game changed to or from шулерский; its seats get the cheating bots
  // (the cheater first, then catchers), other games the level bots.
  const drawSeats = (fresh = false) => {
    const n = Number(players.value);
    const cheating = isCheating(preset.value) && cheatingBots().length > 0;
    const old = fresh ? [] : [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.innerHTML = "";
    seatsBox.append(h("div", { class: "seat-row" }, "1. ", h("b", {}, t("lobby.you"))));
    cheatingNote.hidden = !cheating;
    for (let i = 1; i < n; i++) {
      const def = old[i - 1] || (cheating ? `name:${cheatingBots()[Math.min(i - 1, cheatingBots().length - 1)]}`
        : `bot:${levels[Math.min(2, levels.length - 1)]}`);
      const sel = h("select", { class: "seat-kind", dataset: { seat: i }, "aria-label": `${t("lobby.seats")} ${i + 1}` },
        option("human", t("lobby.person"), def === "human"),
        levels.map((l) => option(`bot:${l}`, t("bot.level_n", { n: l }), def === `bot:${l}`)),
        // шулерский's bots, by name: one that cheats now and then, one that calls every cheat
        ["cheater", "catcher"].filter((b) => META.bots.names.includes(b))
          .map((b) => option(`name:${b}`, botLabel(b), def === `name:${b}`)));
      seatsBox.append(h("div", { class: "seat-row" }, `${i + 1}. `, sel));
    }
  };
  players.addEventListener("change", () => drawSeats());
  drawSeats();
  // The clock's default: 30 s when another person sits at the table (nobody waits long
  // for them), none against bots alone; a value typed in stays.
  const syncTimer = () => {
    if (timer.dataset.typed) return;
    const people = [...seatsBox.querySelectorAll(".seat-kind")].some((s) => s.value === "human");
    timer.value = people ? 30 : 0;
  };
  timer.addEventListener("input", () => { timer.dataset.typed = "1"; });
  seatsBox.addEventListener("change", syncTimer);
  players.addEventListener("change", syncTimer);

  // Every other rule option, generated from the server's list, named in words.
  const shown = new Set(["players", "deck", "teams"]);
  const extra = h("div", { class: "options" });
  for (const o of META.options) {
    if (shown.has(o.name)) continue;
    let input;
    if (o.type === "bool") {
      input = h("input", { type: "checkbox", "data-opt": o.name, "data-type": "bool" });
      extra.append(h("div", { class: "field opt check", dataset: { field: o.name } },
        h("label", {}, input, " ", optionLabel(o.name)),
        h("small", { class: "help" }, optionHelp(o.name)),
        h("small", { class: "field-error", id: `err-${o.name}`, role: "alert" })));
      continue;
    }
    if (o.choices.length) {
      input = h("select", { "data-opt": o.name, "data-type": "str" },
        option("", t("lobby.default", { value: valueText(o.name, o.default) })),
        o.choices.map((c) => option(c, valueText(o.name, c))));
    } else {
      input = h("input", { type: "number", "data-opt": o.name, "data-type": "int", min: 1, max: 52,
        inputmode: "numeric", placeholder: t("lobby.default", { value: o.default }) });
    }
    extra.append(field(o.name, optionLabel(o.name), input, optionHelp(o.name)));
    extra.lastChild.classList.add("opt");
  }
  const formError = h("div", { class: "error", id: "create-error", role: "alert" });
  const submit = h("button", { id: "create-btn", class: "primary", type: "submit" }, t("lobby.create"));

  // The rules as chosen, resolved against the preset, for checking before sending.
  const chosen = () => {
    const p = META.presets[preset.value] || {};
    const r = {};
    for (const o of META.options) r[o.name] = p[o.name] !== undefined ? p[o.name] : o.default;
    r.players = Number(players.value);
    r.deck = Number(deck.value);
    r.teams = teams.value;
    for (const el of extra.querySelectorAll("[data-opt]")) {
      const k = el.dataset.opt;
      if (el.dataset.type === "bool") r[k] = el.checked;
      else if (el.value !== "") r[k] = el.dataset.type === "int" ? Number(el.value) : el.value;
    }
    return r;
  };
  const wholeIn = (v, lo, hi) => v !== "" && Number.isInteger(Number(v)) && Number(v) >= lo && Number(v) <= hi;

  // Every problem, keyed by field; the same checks the server makes, in the page's words.
  const problems = () => {
    const out = {};
    const r = chosen();
    if (!nameInput.value.trim()) out.name = t("form.need_name");
    if (!wholeIn(deals.value, 1, 100)) out.deals = t("form.whole_number", { lo: 1, hi: 100 });
    if (!wholeIn(timer.value, 0, 600)) out.timer = t("form.whole_number", { lo: 0, hi: 600 });
    const need = { "2x2": 4, "3x3": 6 }[r.teams];
    if (need && r.players !== need) out.teams = t("form.teams_players", { teams: valueText("teams", r.teams), n: need });
    for (const el of extra.querySelectorAll('[data-type="int"]')) {
      if (el.value !== "" && !wholeIn(el.value, 1, 52)) out[el.dataset.opt] = t("form.whole_number", { lo: 1, hi: 52 });
    }
    if (!out.hand_size && r.players * r.hand_size > r.deck) {
      out.hand_size = t("form.hand_too_big", { players: r.players, hand: r.hand_size, deck: r.deck });
    }
    if (r.transfer_by_showing && !r.transfer) out.transfer_by_showing = t("form.showing_needs_transfer");
    return out;
  };
  const errorEl = (name) => form.querySelector(`#err-${name}`);
  const showProblems = (all, onlyTouched) => {
    for (const el of form.querySelectorAll(".field-error")) {
      const name = el.id.slice(4);
      if (onlyTouched && !form.querySelector(`[data-field="${name}"].touched, .field[data-field="${name}"].touched`)) continue;
      el.textContent = all[name] || "";
      el.closest(".field")?.classList.toggle("invalid", Boolean(all[name]));
    }
    return Object.keys(all).length === 0;
  };
  form.addEventListener("input", (e) => {
    e.target.closest(".field")?.classList.add("touched");
    formError.textContent = "";
    showProblems(problems(), true);
  });
  form.addEventListener("change", (e) => {
    e.target.closest(".field")?.classList.add("touched");
    showProblems(problems(), true);
  });

  submit.addEventListener("click", async () => {
    formError.textContent = "";
    for (const f of form.querySelectorAll(".field")) f.classList.add("touched");
    if (!showProblems(problems(), false)) {
      formError.textContent = t("form.error_title");
      const bad = form.querySelector(".field.invalid");
      if (bad && bad.closest("details")) bad.closest("details").open = true;
      bad?.querySelector("input, select")?.focus();
      return;
    }
    const options = { players: Number(players.value), deck: Number(deck.value) };
    if (teams.value !== "none") options.teams = teams.value;
    for (const el of extra.querySelectorAll("[data-opt]")) {
      const k = el.dataset.opt;
      if (el.dataset.type === "bool") { if (el.checked !== el.defaultChecked) options[k] = el.checked; }
      else if (el.value !== "") options[k] = el.dataset.type === "int" ? Number(el.value) : el.value;
    }
    // Bots get the server's default names ("Bot 3"), which every page shows in its own
    // language (names.js).
    const seats = [{ kind: "human" }];
    for (const s of seatsBox.querySelectorAll(".seat-kind")) {
      seats.push(s.value === "human" ? { kind: "human" }
        : s.value.startsWith("name:") ? { kind: "bot", bot: s.value.slice(5) }
          : { kind: "bot", level: Number(s.value.slice(4)) });
    }
    const body = { preset: preset.value, options, seats, name: nameInput.value.trim(),
      deals: Number(deals.value) };
    // What the form shows is what the table gets: 0 is no clock.
    body.turn_timer = Number(timer.value);
    if (priv.checked) body.private = true;
    try {
      const r = await api("/api/tables", body, authHeaders());
      if (r.token) { holdSeat(r.table, r.seat, r.token); await linkSeat(r.table, r.token); }
      // A private table's invite carries its secret: "/#/t/<id>/<secret>".
      location.hash = r.invite ? r.invite.replace(/^\/?#?/, "#") : `#/t/${r.table}`;
    } catch (e) {
      // The server's words are English: say where, and what, in the page's language.
      const name = e instanceof ApiError && e.field;
      const at = name && (errorEl(name) || errorEl({ deals: "deals", turn_timer: "timer" }[name]));
      const text = serverRefused(e.message);
      if (at) { at.textContent = text; at.closest(".field")?.classList.add("invalid"); }
      formError.textContent = text;
    }
  });
  // Checkboxes start at the preset's value.
  const syncPreset = () => {
    const p = META.presets[preset.value] || {};
    for (const el of extra.querySelectorAll("input[type=checkbox]")) {
      const def = META.options.find((o) => o.name === el.dataset.opt).default;
      el.checked = p[el.dataset.opt] !== undefined ? p[el.dataset.opt] : def;
      el.defaultChecked = el.checked;
    }
    presetHelp.textContent = t(`preset_help.${preset.value}`);
  };
  let wasCheating = isCheating(preset.value);
  preset.addEventListener("change", () => {
    localStorage.setItem("durak.preset", preset.value);
    syncPreset();
    if (isCheating(preset.value) !== wasCheating) { wasCheating = !wasCheating; drawSeats(true); syncTimer(); }
    const quick = document.querySelector("#quick");  // "Play now" plays the game chosen
    if (quick) { quick.innerHTML = ""; buildQuick(quick); }
  });
  syncPreset();
  form.append(
    field("name", t("lobby.your_name"), nameInput),
    h("div", { class: "grid" },
      h("div", { class: "field wide", dataset: { field: "preset" } },
        h("label", { for: "preset" }, t("lobby.preset")), preset, presetHelp,
        h("a", { href: `#/howto/${preset.value}`, class: "small-link", id: "preset-howto",
          onclick: (e) => { e.currentTarget.href = `#/howto/${preset.value}`; } }, t("lobby.howto"))),
      field("players", optionLabel("players"), players),
      field("deck", optionLabel("deck"), deck),
      field("teams", optionLabel("teams"), teams, optionHelp("teams")),
      field("deals", t("lobby.deals"), deals),
      field("timer", t("lobby.turn_timer"), timer),
      h("div", { class: "field opt check", dataset: { field: "private" } },
        h("label", {}, priv, " ", t("lobby.private")), h("small", { class: "help" }, t("lobby.private_help")))),
    h("h3", {}, t("lobby.seats")), cheatingNote, seatsBox,
    h("details", { id: "more-rules" }, h("summary", {}, t("lobby.more_options")), extra),
    submit, formError);
}

function seatText(s, i) {
  if (s.kind === "bot") return `${seatName(s, i)} (${botLabel(s.bot)})`;
  return s.taken ? seatName(s, i) : "— " + t("lobby.free") + " —";
}

function renderTables(box, tables) {
  box.innerHTML = "";
  const live = tables.filter((x) => x.status !== "finished");
  if (!live.length) { box.append(h("p", { class: "muted" }, t("lobby.no_tables"))); return; }
  for (const x of live.reverse()) {
    const free = x.seats.some((s) => s.kind === "human" && !s.taken);
    box.append(h("div", { class: "row", dataset: { table: x.id } },
      h("span", { class: "rules" }, rulesName(x.rules)),
      h("span", { class: "names", translate: "no" }, x.seats.map(seatText).join(", ")),
      h("span", { class: "status" }, t(`lobby.status.${x.status}`)),
      h("a", { class: "button", href: `#/t/${x.id}` },
        free && !heldSeat(x.id) ? t("lobby.join") : t("lobby.watch"))));
  }
}

function renderGames(box, games) {
  box.innerHTML = "";
  if (!games.length) { box.append(h("p", { class: "muted" }, t("lobby.no_games"))); return; }
  for (const g of games) {
    box.append(h("div", { class: "row" },
      h("span", { class: "rules" }, rulesName(g.rules),
        h("small", { class: "when muted" }, when(g.finished_at))),
      h("span", { class: "names", translate: "no" }, g.names.map((n, i) => seatName({ name: n }, i)).join(", ")),
      h("span", { class: "status" }, resultWords(g.result, g.names)),
      h("a", { class: "button", href: `#/r/${g.id}` }, t("lobby.replay"))));
  }
}

loadCatalogue().then(route, (e) => {
  app.append(h("p", { class: "error center" }, `Durak · Дурак: ${e.message}`));
});
