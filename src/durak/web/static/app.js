// The durak browser client: lobby, table, replay. Plain ES modules, no build step.
// Everything it shows about a game comes from the server's state messages, which carry
// this seat's Observation and nothing more (docs/protocol.md).

import { backEl, cardEl } from "./cards.js";
import { getLang, PRESET_NAMES, setLang, t } from "./i18n.js";

const PROTOCOL = 1;
const $ = (sel, root = document) => root.querySelector(sel);
const app = $("#app");

// -- small helpers ---------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function toast(text, kind = "info") {
  const box = $("#toasts");
  const el = h("div", { class: "toast " + kind }, text);
  box.append(el);
  setTimeout(() => el.remove(), 3500);
}

const seatKey = (table) => `durak.seat.${table}`;
function heldSeat(table) {
  try { return JSON.parse(localStorage.getItem(seatKey(table)) || "null"); } catch { return null; }
}
function holdSeat(table, seat, token) {
  localStorage.setItem(seatKey(table), JSON.stringify({ seat, token }));
}
function myName() { return localStorage.getItem("durak.name") || ""; }

// Actions in the engine's notation: "6♠", "6♠+6♥", "6♠/10♠", ">6♥", "!6♦", "x6♦", "take", "pass".
function parseAction(text) {
  if (text === "take" || text === "pass") return { kind: text, cards: [], text };
  const first = text[0];
  if (first === "x") return { kind: "exchange", cards: [text.slice(1)], text };
  if (first === "!") return { kind: "show", cards: [text.slice(1)], text };
  if (first === ">") return { kind: "transfer", cards: text.slice(1).split("+"), text };
  if (text.includes("/")) {
    const [target, card] = text.split("/");
    return { kind: "defend", cards: [card], target, text };
  }
  return { kind: "attack", cards: text.split("+"), text };
}

function langToggle() {
  return h("button", {
    class: "lang", title: "English / Русский",
    onclick: () => { setLang(getLang() === "ru" ? "en" : "ru"); route(); },
  }, getLang() === "ru" ? "EN" : "RU");
}

// -- routing ---------------------------------------------------------------------------

let current = null; // the view in use: {stop()}

function route() {
  if (current && current.stop) current.stop();
  current = null;
  document.documentElement.lang = getLang();
  const hash = location.hash.replace(/^#\/?/, "");
  const [kind, id, secret] = hash.split("/");
  app.innerHTML = "";
  if (kind === "t" && id) current = tableView(id, secret || null);
  else if (kind === "r" && id) current = replayView(Number(id));
  else current = lobbyView();
  document.body.dataset.view = kind === "t" ? "table" : kind === "r" ? "replay" : "lobby";
}

window.addEventListener("hashchange", route);

// -- the lobby -------------------------------------------------------------------------

let META = null;

function lobbyView() {
  let timer = null;
  const name = h("input", { id: "name", maxlength: 32, value: myName(), placeholder: t("your_name"),
    oninput: (e) => localStorage.setItem("durak.name", e.target.value) });
  const tablesBox = h("div", { id: "tables", class: "list" });
  const gamesBox = h("div", { id: "games", class: "list" });
  const formBox = h("form", { id: "create", class: "panel", onsubmit: (e) => e.preventDefault() });
  app.append(
    h("header", { class: "top" }, h("h1", {}, t("title"), h("small", {}, " — " + t("subtitle"))),
      langToggle()),
    h("main", { class: "lobby" },
      h("section", { class: "panel" }, h("label", {}, t("your_name"), name)),
      formBox,
      h("section", { class: "panel" }, h("h2", {}, t("open_tables")), tablesBox),
      h("section", { class: "panel" }, h("h2", {}, t("finished")), gamesBox)));

  const refresh = async () => {
    try {
      const [tables, games] = await Promise.all([api("/api/tables"), api("/api/games?limit=20")]);
      renderTables(tablesBox, tables.tables);
      renderGames(gamesBox, games.games);
    } catch (e) { /* the next refresh will tell */ }
  };
  (async () => {
    META = META || await api("/api/meta");
    buildCreateForm(formBox);
    refresh();
  })();
  timer = setInterval(refresh, 3000);
  return { stop: () => clearInterval(timer) };
}

function option(value, label, selected) {
  return h("option", { value, selected: selected ? true : null }, label);
}

function buildCreateForm(form) {
  const presets = Object.keys(META.presets);
  const preset = h("select", { id: "preset" },
    presets.map((p) => option(p, PRESET_NAMES[getLang()][p] || p, p === "podkidnoy")));
  const players = h("select", { id: "players" },
    [2, 3, 4, 5, 6].map((n) => option(n, n, n === 2)));
  const deck = h("select", { id: "deck" }, [24, 36, 52].map((n) => option(n, n, n === 36)));
  const teams = h("select", { id: "teams" }, ["none", "2x2", "3x3"].map((x) => option(x, x)));
  const deals = h("input", { id: "deals", type: "number", min: 1, max: 100, value: 1 });
  const timer = h("input", { id: "timer", type: "number", min: 0, max: 600, value: 0 });
  const priv = h("input", { id: "private", type: "checkbox" });
  const seatsBox = h("div", { id: "seat-kinds", class: "seats" });
  const levels = META.bots.levels;
  const drawSeats = () => {
    const n = Number(players.value);
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.innerHTML = "";
    seatsBox.append(h("div", { class: "seat-row" }, "1. ", h("b", {}, t("seat_you"))));
    for (let i = 1; i < n; i++) {
      const def = old[i - 1] || `bot:${levels[Math.min(2, levels.length - 1)]}`;
      const sel = h("select", { class: "seat-kind", dataset: { seat: i } },
        option("human", t("person"), def === "human"),
        levels.map((l) => option(`bot:${l}`, t("bot_level", { n: l }), def === `bot:${l}`)));
      seatsBox.append(h("div", { class: "seat-row" }, `${i + 1}. `, sel));
    }
  };
  players.addEventListener("change", drawSeats);
  drawSeats();

  // Every other rule option, generated from the server's list.
  const shown = new Set(["players", "deck", "teams"]);
  const extra = h("div", { class: "options" });
  for (const o of META.options) {
    if (shown.has(o.name)) continue;
    let input;
    if (o.type === "bool") input = h("input", { type: "checkbox", "data-opt": o.name, "data-type": "bool" });
    else if (o.choices.length) input = h("select", { "data-opt": o.name, "data-type": "str" },
      option("", "—"), o.choices.map((c) => option(c, c)));
    else input = h("input", { type: "number", "data-opt": o.name, "data-type": "int", placeholder: o.default });
    extra.append(h("label", { class: "opt" }, input, " ", o.name));
  }
  const error = h("div", { class: "error", id: "create-error" });
  const submit = h("button", { id: "create-btn", class: "primary", type: "submit" }, t("create"));
  submit.addEventListener("click", async () => {
    error.textContent = "";
    const options = { players: Number(players.value), deck: Number(deck.value) };
    if (teams.value !== "none") options.teams = teams.value;
    for (const el of extra.querySelectorAll("[data-opt]")) {
      const k = el.dataset.opt;
      if (el.dataset.type === "bool") { if (el.checked !== el.defaultChecked || el.dataset.touched) options[k] = el.checked; }
      else if (el.value !== "") options[k] = el.dataset.type === "int" ? Number(el.value) : el.value;
    }
    const seats = [{ kind: "human" }];
    for (const s of seatsBox.querySelectorAll(".seat-kind")) {
      seats.push(s.value === "human" ? { kind: "human" } : { kind: "bot", level: Number(s.value.slice(4)) });
    }
    const body = { preset: preset.value, options, seats, name: $("#name").value,
      deals: Number(deals.value) || 1 };
    if (Number(timer.value) > 0) body.turn_timer = Number(timer.value);
    if (priv.checked) body.private = true;
    try {
      const r = await api("/api/tables", body);
      if (r.token) holdSeat(r.table, r.seat, r.token);
      location.hash = r.invite.slice(1);
    } catch (e) { error.textContent = e.message; }
  });
  for (const el of extra.querySelectorAll("input[type=checkbox]")) {
    el.addEventListener("change", () => { el.dataset.touched = "1"; });
  }
  // Checkboxes start at the preset's value.
  const syncChecks = () => {
    const p = META.presets[preset.value] || {};
    for (const el of extra.querySelectorAll("input[type=checkbox]")) {
      const def = META.options.find((o) => o.name === el.dataset.opt).default;
      el.checked = p[el.dataset.opt] !== undefined ? p[el.dataset.opt] : def;
      el.defaultChecked = el.checked;
      delete el.dataset.touched;
    }
  };
  preset.addEventListener("change", syncChecks);
  syncChecks();
  form.append(h("h2", {}, t("create")),
    h("div", { class: "grid" },
      h("label", {}, t("preset"), preset), h("label", {}, t("players"), players),
      h("label", {}, t("deck"), deck), h("label", {}, t("teams"), teams),
      h("label", {}, t("deals"), deals), h("label", {}, t("turn_timer"), timer),
      h("label", {}, getLang() === "ru" ? "Приватный стол" : "Private table", priv)),
    h("h3", {}, t("seats")), seatsBox,
    h("details", {}, h("summary", {}, t("more_options")), extra),
    submit, error);
}

function botLabel(spec) {
  return spec && spec.startsWith("level:") ? t("bot_level", { n: spec.slice(6) }) : spec || "";
}

function seatText(s) {
  if (s.kind === "bot") return `⚙ ${s.name} (${botLabel(s.bot)})`;
  return s.taken ? s.name || "?" : "— " + t("free") + " —";
}

function renderTables(box, tables) {
  box.innerHTML = "";
  const live = tables.filter((x) => x.status !== "finished");
  if (!live.length) { box.append(h("p", { class: "muted" }, t("no_tables"))); return; }
  for (const x of live.reverse()) {
    const free = x.seats.some((s) => s.kind === "human" && !s.taken);
    box.append(h("div", { class: "row", dataset: { table: x.id } },
      h("span", { class: "rules" }, x.rules),
      h("span", { class: "names" }, x.seats.map(seatText).join(", ")),
      h("span", { class: "status" }, x.status),
      h("a", { class: "button", href: `#/t/${x.id}` }, free && !heldSeat(x.id) ? t("join") : t("watch"))));
  }
}

function renderGames(box, games) {
  box.innerHTML = "";
  if (!games.length) { box.append(h("p", { class: "muted" }, t("no_games"))); return; }
  for (const g of games) {
    const res = g.result.startsWith("durak ") ? t("durak_is", { name: g.names[Number(g.result.split(" ")[1])] })
      : g.result === "draw" ? t("draw") : g.result;
    box.append(h("div", { class: "row" },
      h("span", { class: "rules" }, g.rules),
      h("span", { class: "names" }, g.names.join(", ")),
      h("span", { class: "status" }, res),
      h("a", { class: "button", href: `#/r/${g.id}` }, t("replay"))));
  }
}

// -- the table -------------------------------------------------------------------------

function tableView(tableId, invite) {
  const view = {
    ws: null, state: null, seat: null, closed: false, retry: 0, selected: null,
    pending: false, shownTable: new Set(), timerStart: 0, timerFor: -1,
  };
  const root = h("div", { class: "table-view" });
  app.append(root);
  root.append(h("p", { class: "muted center" }, t("connecting")));

  const connect = () => {
    const held = heldSeat(tableId);
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    view.ws = ws;
    ws.onopen = () => {
      view.retry = 0;
      ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, table: tableId, token: held ? held.token : null, invite }));
    };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (view.closed) return;
      view.retry = Math.min(view.retry + 1, 6);
      $(".conn", root)?.classList.add("lost");
      setTimeout(connect, 300 * 2 ** view.retry);
    };
  };

  const onMessage = (m) => {
    if (m.type === "welcome") { view.seat = m.seat; return; }
    if (m.type === "error") {
      view.pending = false;
      if (m.code === "bad_token" && heldSeat(tableId)) {
        localStorage.removeItem(seatKey(tableId));
        view.ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, table: tableId, token: null, invite }));
      } else if (m.code === "no_table") {
        root.innerHTML = "";
        root.append(h("p", { class: "error center" }, m.message), h("a", { href: "#/", class: "button" }, t("lobby")));
        view.closed = true;
      } else if (m.code !== "stale") toast(`${t("error")}: ${m.message}`, "error");
      render();
      return;
    }
    if (m.type === "seats") {
      if (view.state) { view.state.seats = m.seats; render(); }
      return;
    }
    if (m.type === "clock") {
      if (view.state && view.state.state === m.state) { view.state.deadline = m.deadline; view.timerFor = -1; render(); }
      return;
    }
    if (m.type === "deal") {
      // Kept to check the deal later: durak verify-deal URL --commit <this>.
      try { localStorage.setItem(`durak.commit.${m.deal_id}`, m.commit); } catch (e) { /* full */ }
      return;
    }
    if (m.type === "state") {
      const prev = view.state;
      view.state = m;
      view.seat = m.seat;
      view.pending = false;
      if (!prev || prev.state !== m.state) view.selected = null;
      render(prev);
    }
  };

  const send = (action) => {
    if (view.pending || !view.state) return;
    view.pending = true;
    view.selected = null;
    view.ws.send(JSON.stringify({ type: "act", state: view.state.state, action }));
    render();
  };

  const nameOf = (i) => {
    const s = view.state.seats[i];
    if (i === view.seat) return t("seat_you");
    return s.name || `#${i + 1}`;
  };

  function render(prev) {
    const S = view.state;
    if (!S) return;
    const lang = getLang();
    const obs = S.obs;
    root.innerHTML = "";
    const held = heldSeat(tableId);
    const inviteLink = `${location.origin}/#/t/${tableId}${invite ? "/" + invite : ""}`;
    root.append(h("header", { class: "top" },
      h("a", { href: "#/", class: "button ghost" }, "← " + t("lobby")),
      h("span", { class: "rules", title: S.rules }, S.rules),
      S.match && S.match.deals > 1 ? h("span", { class: "deal" }, t("deal_of", { n: S.match.deal, m: S.match.deals }))
        : S.match && h("span", { class: "deal" }, t("deal_n", { n: S.match.deal })),
      h("span", { class: "conn" }),
      h("button", { class: "ghost", id: "invite", onclick: () => {
        navigator.clipboard?.writeText(inviteLink).then(() => toast(t("copied")), () => prompt(t("invite"), inviteLink));
      } }, t("invite")),
      held ? h("button", { class: "ghost", id: "leave", onclick: async () => {
        try { await api(`/api/tables/${tableId}/leave`, { token: held.token }); } catch (e) { /* gone already */ }
        localStorage.removeItem(seatKey(tableId));
        location.hash = "#/";
      } }, t("leave")) : null,
      langToggle()));

    // Free seat and no seat of ours: offer to sit down.
    const free = S.seats.filter((s) => s.kind === "human" && !s.taken);
    if (view.seat === null && free.length) {
      const name = h("input", { id: "join-name", maxlength: 32, value: myName(), placeholder: t("your_name") });
      root.append(h("div", { class: "panel join" },
        h("p", {}, t("spectating")), name,
        h("button", { class: "primary", id: "join-btn", onclick: async () => {
          localStorage.setItem("durak.name", name.value);
          try {
            const r = await api(`/api/tables/${tableId}/join`, { name: name.value, invite });
            holdSeat(tableId, r.seat, r.token);
            view.ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, table: tableId, token: r.token }));
          } catch (e) { toast(e.message, "error"); }
        } }, t("take_seat"))));
    } else if (view.seat === null) {
      root.append(h("p", { class: "muted center" }, t("spectating")));
    }

    if (S.status === "waiting" || !obs) {
      root.append(h("div", { class: "panel center waiting" }, h("p", {}, t("waiting")),
        h("p", {}, h("code", { id: "invite-link" }, inviteLink)),
        h("ol", {}, S.seats.map((s) => h("li", {}, seatText(s))))));
      return;
    }

    const n = S.seats.length;
    const me = view.seat;
    const myTurn = me !== null && obs.to_act === me && obs.legal.length > 0 && !S.result;
    document.body.dataset.myTurn = myTurn ? "1" : "0";
    root.dataset.state = S.state;
    const legal = myTurn ? obs.legal.map(parseAction) : [];

    // Opponents, in playing order from my left.
    const base = me === null ? 0 : me;
    const others = [];
    for (let k = me === null ? 0 : 1; k < n; k++) others.push((base + k) % n);
    const opp = h("div", { class: "opponents" });
    for (const i of others) opp.append(seatBox(i));
    root.append(opp);

    // The table: trump and talon, pairs, discard.
    const pairs = h("div", { class: "pairs", id: "table-cards" });
    const seenNow = new Set();
    obs.table.forEach(([a, b]) => {
      const pair = h("div", { class: "pair" });
      const ca = cardEl(a, lang, view.shownTable.has(a) ? "" : "enter");
      ca.dataset.target = a;
      const canDefend = legal.some((x) => x.kind === "defend" && x.target === a &&
        (!view.selected || x.cards[0] === view.selected));
      if (canDefend && view.selected) ca.classList.add("target");
      ca.addEventListener("click", () => {
        if (!view.selected) return;
        const act = legal.find((x) => x.kind === "defend" && x.target === a && x.cards[0] === view.selected);
        if (act) send(act.text);
      });
      pair.append(ca);
      seenNow.add(a);
      if (b) { pair.append(cardEl(b, lang, "cover " + (view.shownTable.has(b) ? "" : "enter"))); seenNow.add(b); }
      pairs.append(pair);
    });
    view.shownTable = seenNow;
    const deckBox = h("div", { class: "deck" },
      obs.talon_size > 0 ? h("div", { class: "talon" },
        obs.trump_under_talon ? cardEl(obs.trump, lang, "trump") : null,
        obs.talon_size > 1 ? backEl("stack") : null,
        h("span", { class: "count", id: "talon-count" }, obs.talon_size))
        : h("div", { class: "trump-suit", title: t("trump") }, obs.trump.slice(-1)),
      h("div", { class: "label" }, `${t("talon")}: ${obs.talon_size} · ${t("trump")} ${obs.trump}`));
    const discardBox = h("div", { class: "discard" },
      obs.discard.length ? backEl("pile") : null,
      h("div", { class: "label", id: "discard-count" }, `${t("discard")}: ${obs.discard.length}`));
    root.append(h("div", { class: "felt" }, deckBox, pairs, discardBox));

    // Status line.
    let status;
    if (S.result) status = resultText(S);
    else if (myTurn) status = `${t("your_turn")}: ${t("ph_" + obs.phase)}`;
    else if (obs.to_act !== null) status = t("turn_of", { name: nameOf(obs.to_act) });
    else status = "";
    root.append(h("div", { class: "status" + (myTurn ? " mine" : ""), id: "status",
      dataset: { myTurn: myTurn ? "1" : "0", phase: obs.phase } }, status,
    S.deadline && !S.result && obs.to_act !== null ? timerBar(S) : null));
    // Fair deals: the seed, revealed once the deal is over, and how to check it.
    if (S.fair && S.fair.seed) {
      root.append(h("p", { class: "muted fair", id: "fair" },
        `seed ${S.fair.seed} · sha256(seed:salt) = ${S.fair.commit.slice(0, 16)}… · `,
        h("code", {}, `durak verify-deal ${location.origin}/api/games/${S.fair.deal_id}${invite ? "?invite=" + invite : ""}`)));
    }

    // Result and match.
    if (S.result) root.append(resultPanel(S, held));

    // My hand and my actions.
    if (me !== null) {
      const hand = h("div", { class: "hand", id: "hand" });
      const playable = new Set(legal.flatMap((x) => x.kind === "take" || x.kind === "pass" ? [] : x.cards));
      for (const c of obs.hand) {
        const el = cardEl(c, lang, (playable.has(c) ? "legal" : myTurn ? "dim" : "") +
          (view.selected === c ? " selected" : ""));
        el.addEventListener("click", () => clickCard(c, legal));
        if (playable.has(c)) enableDrag(el, c, legal);
        hand.append(el);
      }
      const bar = h("div", { class: "actions", id: "actions" });
      for (const x of legal) {
        if (x.kind === "take") bar.append(h("button", { class: "act take", dataset: { action: "take" }, onclick: () => send("take") }, t("take")));
        if (x.kind === "pass") bar.append(h("button", { class: "act pass", dataset: { action: "pass" }, onclick: () => send("pass") },
          obs.phase === "throw_in" && obs.attacker === me ? t("done") : t("pass")));
        if (x.kind === "exchange") bar.append(h("button", { class: "act", dataset: { action: x.text }, onclick: () => send(x.text) }, t("exchange", { card: x.cards[0] })));
      }
      if (view.selected) {
        for (const x of legal.filter((y) => y.cards.includes(view.selected) && y.kind !== "exchange")) {
          bar.append(h("button", { class: "act option", dataset: { action: x.text }, onclick: () => send(x.text) }, actionLabel(x)));
        }
      }
      root.append(h("div", { class: "me" + (obs.to_act === me ? " to-act" : "") },
        h("div", { class: "me-name" }, seatBadges(me), " ", S.seats[me].name), bar, hand));
    }

    // The move log.
    const log = h("ol", { class: "log", id: "log", start: (S.log_start || 0) + 1 });
    for (const e of S.log) log.append(h("li", {}, h("b", {}, nameOf(e.seat)), " ", logText(e.action)));
    root.append(h("details", { class: "log-box", open: window.innerWidth > 700 ? true : null },
      h("summary", {}, t("log")), log));
    log.scrollTop = log.scrollHeight;
  }

  function seatBadges(i) {
    const obs = view.state.obs;
    const b = [];
    if (obs.attacker === i) b.push(h("span", { class: "badge att" }, "⚔ " + t("attacker")));
    if (obs.defender === i) b.push(h("span", { class: "badge def" }, "◈ " + t("defender")));
    if (obs.dealer === i) b.push(h("span", { class: "badge deal" }, t("dealer")));
    if (obs.out[i]) b.push(h("span", { class: "badge out" }, "✓ " + t("out")));
    const teams = view.state.rules.includes("teams=");
    if (teams) b.push(h("span", { class: "badge team" }, t("team", { n: (i % 2) + 1 })));
    return b;
  }

  function seatBox(i) {
    const S = view.state;
    const obs = S.obs;
    const s = S.seats[i];
    const known = obs.known[i] || [];
    const size = obs.hand_sizes[i];
    const backs = h("div", { class: "backs" });
    for (let k = 0; k < Math.min(size - known.length, 12); k++) backs.append(backEl("mini"));
    for (const c of known) backs.append(cardEl(c, getLang(), "mini known"));
    return h("div", { class: "seat" + (obs.to_act === i ? " to-act" : "") + (s.online ? "" : " away"),
      dataset: { seat: i } },
    h("div", { class: "seat-name" }, s.kind === "bot" ? "⚙ " : "", s.name || `#${i + 1}`,
      s.online ? "" : h("small", {}, ` (${t("offline")})`)),
    h("div", { class: "seat-info" }, seatBadges(i), h("span", { class: "hand-size" }, t("cards", { n: size })),
      s.kind === "bot" ? h("span", { class: "level" }, botLabel(s.bot)) : null),
    backs);
  }

  function resultText(S) {
    const r = S.result;
    if (r.draw) return t("draw");
    if (r.durak === view.seat) return t("you_lost");
    return t("durak_is", { name: S.seats[r.durak].name || `#${r.durak + 1}` }) +
      (r.pogony ? ` (${t("pogony", { n: r.pogony })})` : "");
  }

  function resultPanel(S, held) {
    const m = S.match;
    const rows = S.seats.map((s, i) => h("li", {}, `${s.name || "#" + (i + 1)}: ${m.durak_counts[i]}`));
    return h("div", { class: "panel result", id: "result" },
      h("h2", {}, resultText(S)),
      m && m.played > 0 ? h("div", {}, h("b", {}, t("tally")), h("ul", {}, rows)) : null,
      S.status === "finished" ? h("p", {}, t("match_over")) : h("p", { class: "muted" }, t("next_deal")),
      S.status === "finished" && held ? h("button", { class: "primary", id: "again", onclick: async () => {
        try { await api(`/api/tables/${tableId}/again`, { token: held.token }); } catch (e) { toast(e.message, "error"); }
      } }, t("play_again")) : null);
  }

  function timerBar(S) {
    if (view.timerFor !== S.state) { view.timerFor = S.state; view.timerStart = performance.now(); }
    const bar = h("div", { class: "timer" }, h("div", { class: "fill" }));
    const fill = bar.firstChild;
    // The server's deadline (wall clock): the turn clock, or what is left of the grace
    // period of a player who is away.
    const left = Math.max(0, S.deadline * 1000 - Date.now());
    const total = Math.max(left, (S.turn_timer || 60) * 1000);
    bar.title = `${Math.ceil(left / 1000)} s`;
    fill.style.width = `${(100 * left) / total}%`;
    requestAnimationFrame(() => {
      fill.style.transition = `width ${left}ms linear`;
      fill.style.width = "0%";
    });
    return bar;
  }

  function clickCard(card, legal) {
    if (view.pending) return;
    const acts = legal.filter((x) => x.cards.includes(card) && x.kind !== "exchange");
    if (!acts.length) return;
    if (acts.length === 1 && view.selected !== card) { send(acts[0].text); return; }
    view.selected = view.selected === card ? null : card;
    render();
  }

  function enableDrag(el, card, legal) {
    let start = null;
    let ghost = null;
    el.addEventListener("pointerdown", (e) => {
      if (view.pending) return;
      start = { x: e.clientX, y: e.clientY };
      el.setPointerCapture(e.pointerId);
    });
    el.addEventListener("pointermove", (e) => {
      if (!start) return;
      if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 12) {
        ghost = el.cloneNode(true);
        ghost.classList.add("ghost-card");
        document.body.append(ghost);
        el.classList.add("dragging");
      }
      if (ghost) {
        ghost.style.left = `${e.clientX - ghost.offsetWidth / 2}px`;
        ghost.style.top = `${e.clientY - ghost.offsetHeight / 2}px`;
      }
    });
    el.addEventListener("pointerup", (e) => {
      const was = ghost;
      start = null;
      if (!was) return;
      was.remove();
      ghost = null;
      el.classList.remove("dragging");
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const target = under && under.closest("[data-target]");
      const acts = legal.filter((x) => x.cards.includes(card));
      let act = null;
      if (target) act = acts.find((x) => x.kind === "defend" && x.target === target.dataset.target);
      if (!act && under && under.closest(".felt")) {
        act = acts.find((x) => (x.kind === "attack" || x.kind === "transfer") && x.cards.length === 1) ||
          (acts.filter((x) => x.kind === "defend").length === 1 ? acts.find((x) => x.kind === "defend") : null);
      }
      // A drop that did not play counts as no click.
      el.addEventListener("click", (ev) => ev.stopImmediatePropagation(), { once: true, capture: true });
      if (act) send(act.text);
    });
  }

  function actionLabel(x) {
    const cards = x.cards.join(" ");
    if (x.kind === "attack") return t("play", { cards });
    if (x.kind === "transfer") return t("transfer", { cards });
    if (x.kind === "show") return t("show", { card: cards });
    if (x.kind === "defend") return t("beat", { card: cards, target: x.target });
    return x.text;
  }

  function logText(text) {
    const x = parseAction(text);
    if (x.kind === "take") return t("took");
    if (x.kind === "pass") return t("passed");
    if (x.kind === "transfer") return `${t("transfers")} ${x.cards.join(" ")}`;
    if (x.kind === "show") return `${t("shows")} ${x.cards[0]}`;
    if (x.kind === "exchange") return `${t("exchanges")} ${x.cards[0]}`;
    if (x.kind === "defend") return `${x.target} ← ${x.cards[0]}`;
    return x.cards.join(" ");
  }

  connect();
  return { stop: () => { view.closed = true; if (view.ws) view.ws.close(); } };
}

// -- replays ---------------------------------------------------------------------------

function replayView(id) {
  const root = h("div", { class: "replay-view" });
  app.append(root);
  let data = null;
  let i = 0;
  let playing = null;
  const stop = () => { if (playing) clearInterval(playing); playing = null; };

  const show = () => {
    const f = data.frames[i];
    const lang = getLang();
    root.innerHTML = "";
    root.append(h("header", { class: "top" },
      h("a", { href: "#/", class: "button ghost" }, "← " + t("lobby")),
      h("span", { class: "rules" }, data.rules), h("span", {}, data.result), langToggle()));
    const hands = h("div", { class: "replay-hands" });
    data.names.forEach((name, s) => {
      const row = h("div", { class: "hand small" + (f.to_act === s ? " to-act" : "") });
      for (const c of f.hands[s]) row.append(cardEl(c, lang, "mini"));
      hands.append(h("div", { class: "seat" + (f.to_act === s ? " to-act" : "") },
        h("div", { class: "seat-name" }, name, f.attacker === s ? " ⚔" : "", f.defender === s ? " ◈" : ""), row));
    });
    const pairs = h("div", { class: "pairs" });
    for (const [a, b] of f.table) {
      pairs.append(h("div", { class: "pair" }, cardEl(a, lang), b ? cardEl(b, lang, "cover") : null));
    }
    root.append(hands, h("div", { class: "felt" },
      h("div", { class: "deck" }, h("div", { class: "label" }, `${t("talon")}: ${f.talon} · ${t("trump")} ${data.trump}`)),
      pairs, h("div", { class: "discard" }, h("div", { class: "label" }, `${t("discard")}: ${f.discard}`))));
    const say = f.action ? `${data.names[f.seat]}: ${f.action}` : "—";
    const slider = h("input", { type: "range", min: 0, max: data.frames.length - 1, value: i,
      oninput: (e) => { stop(); i = Number(e.target.value); show(); } });
    root.append(h("div", { class: "status", id: "replay-step" }, `${i} / ${data.frames.length - 1} · ${say}`),
      h("div", { class: "actions" },
        h("button", { onclick: () => { stop(); i = 0; show(); } }, "⏮ " + t("first")),
        h("button", { onclick: () => { stop(); i = Math.max(0, i - 1); show(); } }, "◀ " + t("prev")),
        h("button", { id: "replay-play", onclick: () => {
          if (playing) { stop(); return; }
          playing = setInterval(() => { if (i >= data.frames.length - 1) stop(); else { i++; show(); } }, 700);
        } }, "▶ " + t("autoplay")),
        h("button", { id: "replay-next", onclick: () => { stop(); i = Math.min(data.frames.length - 1, i + 1); show(); } }, t("next") + " ▶"),
        h("button", { onclick: () => { stop(); i = data.frames.length - 1; show(); } }, t("last") + " ⏭")),
      slider,
      h("details", { class: "log-box" }, h("summary", {}, t("record")), h("pre", {}, data.record)));
  };

  api(`/api/games/${id}`).then((d) => { data = d; show(); })
    .catch((e) => root.append(h("p", { class: "error" }, e.message)));
  return { stop };
}

route();
