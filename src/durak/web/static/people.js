// Accounts, the leaderboard and personal history. A signed-in browser keeps its
// session token in localStorage ("durak.account") and sends it as a Bearer header.

import { has, rulesName, t } from "./i18n.js";
import { resultWords, seatName } from "./names.js";
import { account, api, authHeaders, h, pageHeader, serverRefused, setAccount, when } from "./ui.js";

// The seat this browser holds now plays as its account (ratings, history).
export async function linkSeat(table, token) {
  if (!account()) return;
  try { await api("/api/seat-account", { table, token }, authHeaders()); } catch { /* unrated */ }
}


// Sign in or register: name, password, two buttons; errors next to the field.
export function loginBox(rerender) {
  const name = h("input", { id: "acct-name", maxlength: 32, autocomplete: "username" });
  const pass = h("input", { id: "acct-pass", type: "password", maxlength: 200, autocomplete: "current-password" });
  const errName = h("small", { class: "field-error", id: "err-acct-name", role: "alert" });
  const errPass = h("small", { class: "field-error", id: "err-acct-pass", role: "alert" });
  const check = () => {
    errName.textContent = name.value.trim() ? "" : t("form.need_name");
    errPass.textContent = pass.value.length >= 6 ? "" : t("people.err.short_password");
    return !errName.textContent && !errPass.textContent;
  };
  const go = async (path) => {
    if (!check()) return;
    try {
      const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name.value.trim(), password: pass.value }) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) {
        const words = has(`people.err.${data.code}`) ? t(`people.err.${data.code}`)
          : serverRefused(data.error || r.statusText);
        (data.field === "name" ? errName : errPass).textContent = words;
        return;
      }
      setAccount({ id: data.id, name: data.name, token: data.token });
      localStorage.setItem("durak.name", data.name);
      rerender();
    } catch (e) { errPass.textContent = serverRefused(e.message); }
  };
  return h("section", { class: "panel account-box", id: "login" },
    h("h2", {}, t("people.sign_in_title")),
    h("p", { class: "muted" }, t("people.why")),
    h("div", { class: "field" }, h("label", { for: "acct-name" }, t("people.name")), name, errName),
    h("div", { class: "field" }, h("label", { for: "acct-pass" }, t("people.password")), pass, errPass),
    h("div", { class: "buttons" },
      h("button", { id: "login-btn", class: "primary", onclick: () => go("/api/login") }, t("people.sign_in")),
      h("button", { id: "register-btn", onclick: () => go("/api/accounts") }, t("people.register"))));
}

function playerName(p) {
  return p.kind === "bot" ? t("bot.level_n", { n: String(p.name).replace(/^level:/, "") }) : p.name;
}

// A season is a calendar quarter (UTC), as the server counts it (server/seasons.py).
function seasonOf(d) { return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`; }

function seasonName(season) {
  const [year, q] = season.split("-Q");
  return t("people.season_name", { year, q });
}

function seasonPicker(season) {
  const now = new Date();
  const last = seasonOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1)));
  const choices = [["", t("people.all_time")], [seasonOf(now), t("people.this_season")],
    [last, t("people.last_season")]];
  return h("select", { id: "season", "aria-label": t("people.season"),
    onchange: (e) => { location.hash = e.target.value ? `#/top/${e.target.value}` : "#/top"; } },
  choices.map(([v, label]) => h("option", { value: v, selected: v === (season || "") },
    v ? `${label} (${seasonName(v)})` : label)));
}

// The leaderboard: all time, or one season (`#/top/2026-Q4`): ratings and games in it.
export function leaderboardView(app, rerender, seasonWanted) {
  const season = seasonWanted === "current" ? seasonOf(new Date()) : seasonWanted;
  const box = h("div", { class: "panel", id: "leaderboard" }, h("h2", {}, t("people.leaderboard")),
    seasonPicker(season),
    h("p", { class: "muted" }, t(season ? "people.season_about" : "people.leaderboard_about")));
  app.append(pageHeader(rerender), h("main", { class: "page" }, box));
  api(season ? `/api/leaderboard?season=${encodeURIComponent(season)}` : "/api/leaderboard").then((d) => {
    if (!d.players.length) { box.append(h("p", { class: "muted" }, t("people.no_players"))); return; }
    box.append(h("table", { class: "board" },
      h("thead", {}, h("tr", {}, h("th", {}, "№"), h("th", {}, t("people.name")),
        h("th", {}, t("people.rating")), h("th", {}, t("people.games")),
        season ? h("th", {}, t("people.change")) : null)),
      h("tbody", {}, d.players.map((p, i) => h("tr", { dataset: { player: p.id, kind: p.kind } },
        h("td", {}, i + 1),
        h("td", {}, p.kind === "bot" ? playerName(p)
          : h("a", { href: `#/p/${p.id}`, translate: "no" }, p.name)),
        h("td", { class: "rating" }, p.rating), h("td", {}, p.games),
        season ? h("td", {}, p.change > 0 ? `+${p.change}` : String(p.change)) : null)))));
  }).catch(() => box.append(h("p", { class: "error" }, t("table.error"))));
  return { stop: () => {} };
}

// A player's page: rating and the deals they played, each with its replay.
function historyPanel(d) {
  const a = d.account;
  const rows = d.games.map((g) => h("tr", { dataset: { deal: g.deal } },
    h("td", { class: "when" }, when(g.finished_at)),
    h("td", {}, rulesName(g.rules)),
    h("td", { translate: "no" }, g.names.map((n, i) => seatName({ name: n }, i)).join(", ")),
    h("td", {}, resultWords(g.result, g.names)),
    h("td", { class: "change" + (g.change > 0 ? " up" : g.change < 0 ? " down" : "") },
      g.rated ? (g.change > 0 ? `+${g.change}` : String(g.change)) : t("people.unrated")),
    h("td", {}, g.deal === null ? "" : h("a", { class: "button", href: `#/r/${g.deal}` }, t("lobby.replay")))));
  return h("div", { class: "panel", id: "history" },
    h("h2", { translate: "no" }, a.kind === "bot" ? playerName(a) : a.name),
    h("p", { id: "my-rating" }, t("people.rating_is", { rating: a.rating }), " · ",
      t("people.rated_games", { n: a.games })),
    d.games.length ? h("table", { class: "board history" },
      h("thead", {}, h("tr", {}, h("th", {}, t("lobby.when")), h("th", {}, t("lobby.preset")), h("th", {}, t("people.players")),
        h("th", {}, t("people.result")), h("th", {}, t("people.rating")), h("th", {}, ""))),
      h("tbody", {}, rows)) : h("p", { class: "muted" }, t("people.no_games")));
}

export function historyView(app, id, rerender) {
  const main = h("main", { class: "page" });
  app.append(pageHeader(rerender), main);
  api(`/api/players/${id}`).then((d) => main.append(historyPanel(d)))
    .catch(() => main.append(h("p", { class: "error" }, t("people.err.no_player"))));
  return { stop: () => {} };
}

export function accountView(app, rerender) {
  const main = h("main", { class: "page" });
  app.append(pageHeader(rerender), main);
  if (!account()) { main.append(loginBox(rerender)); return { stop: () => {} }; }
  api("/api/me", undefined, authHeaders()).then((d) => {
    main.append(historyPanel(d), h("button", { id: "logout", onclick: async () => {
      try { await api("/api/logout", {}, authHeaders()); } catch { /* signed out anyway */ }
      setAccount(null);
      rerender();
    } }, t("people.sign_out")));
  }).catch(() => { setAccount(null); rerender(); });
  return { stop: () => {} };
}
