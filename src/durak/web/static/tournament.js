// Tournaments: the list with a form to create one (#/tours), and one tournament's page
// (#/tour/<id>): its standings with the format's tie-breaks, its rounds and tables (each
// match watched live, each deal's replay linked), and join, leave, start, withdraw and
// "play your match". The page follows the event live by a long poll on its version
// (GET /api/tournaments/<id>?after=<version>, docs/protocol.md).

import { rulesName, t, tn } from "./i18n.js";
import { botLabel } from "./names.js";
import { account, api, authHeaders, h, holdSeat, pageHeader, serverRefused } from "./ui.js";

// An entrant's name: bots in the page's language, people's names as they typed them.
export function entrantName(id, name) {
  const m = /^bot(\d+):(.*)$/.exec(id);
  if (!m) return h("span", { class: "name", translate: "no" }, name);
  return h("span", { class: "name bot" }, `${botLabel(m[2])} #${m[1]}`);
}

const FORMATS = ["swiss", "round_robin", "groups", "arena"];
const TABLES = ["podkidnoy", "perevodnoy", "podkidnoy(players=3)", "podkidnoy(players=4)",
  "podkidnoy(players=4,teams=2x2)", "perevodnoy(players=4)"];

function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function createForm(rerender) {
  const name = h("input", { id: "tour-name", maxlength: 40, value: "" });
  const format = h("select", { id: "tour-format" },
    FORMATS.map((f) => h("option", { value: f }, t(`tour.format.${f}`))));
  const rules = h("select", { id: "tour-rules" },
    TABLES.map((r) => h("option", { value: r }, rulesName(r))));
  const rounds = h("input", { id: "tour-rounds", type: "number", min: 1, max: 15, value: 3 });
  const deals = h("input", { id: "tour-deals", type: "number", min: 1, max: 5, value: 1 });
  const minutes = h("input", { id: "tour-minutes", type: "number", min: 1, max: 180, value: 30 });
  const bots = h("input", { id: "tour-bots", value: "1 2 3", inputmode: "numeric",
    title: t("tour.bots_help") });
  const error = h("div", { class: "error", id: "tour-error", role: "alert" });
  const go = h("button", { id: "tour-create", class: "primary", onclick: async () => {
    error.textContent = "";
    const levels = bots.value.split(/[\s,]+/).filter(Boolean).map(Number);
    const body = { name: name.value.trim() || undefined, format: format.value, rules: rules.value,
      rounds: Number(rounds.value), deals: Number(deals.value), minutes: Number(minutes.value),
      bots: levels };
    try {
      const r = await api("/api/tournaments", body, authHeaders());
      location.hash = `#/tour/${r.id}`;
    } catch (e) { error.textContent = serverRefused(e.message); }
  } }, t("tour.create"));
  return h("section", { class: "panel", id: "tour-form" }, h("h2", {}, t("tour.new")),
    field("tour-name", t("tour.name"), name), field("tour-format", t("tour.format"), format),
    field("tour-rules", t("lobby.preset"), rules), field("tour-rounds", t("tour.rounds"), rounds),
    field("tour-deals", t("lobby.deals"), deals), field("tour-minutes", t("tour.minutes"), minutes),
    field("tour-bots", t("tour.bots"), bots),
    h("p", { class: "muted" }, t("tour.bots_help")), h("div", { class: "buttons" }, go), error);
}

export function tournamentsView(app, rerender) {
  const list = h("div", { class: "list", id: "tour-list" });
  app.append(pageHeader(rerender), h("main", { class: "page" },
    h("section", { class: "panel" }, h("h2", {}, t("tour.title")), list),
    account() ? createForm(rerender) : h("p", { class: "muted panel" }, t("tour.sign_in"))));
  api("/api/tournaments").then((d) => {
    if (!d.tournaments.length) list.append(h("p", { class: "muted" }, t("tour.none")));
    for (const x of d.tournaments) {
      list.append(h("a", { class: "row", href: `#/tour/${x.id}`, dataset: { tour: x.id } },
        h("b", { translate: "no" }, x.name), " · ", t(`tour.format.${x.format}`), " · ",
        rulesName(x.rules), " · ", t(`tour.state.${x.state}`), " · ",
        tn("tour.entrants_n", { n: x.entrants })));
    }
  }).catch(() => list.append(h("p", { class: "error" }, t("table.error"))));
  return { stop: () => {} };
}

const COLUMNS = { buchholz: "buchholz", sonneborn_berger: "sonneborn_berger",
  deal_points: "deal_points", fewer_played: "played", fewer_duraks: "duraks" };

function standingsTable(d) {
  const keys = d.tiebreaks.filter((k) => COLUMNS[k]);
  const num = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0$/, ""));
  return h("table", { class: "board", id: "standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "№"), h("th", {}, t("people.name")),
      h("th", {}, t("tour.points")),
      keys.map((k) => h("th", { title: t(`tour.tb.${k}.help`) }, t(`tour.tb.${k}`))),
      h("th", {}, t("tour.played")))),
    h("tbody", {}, d.standings.map((s) => h("tr", {
      dataset: { entrant: s.entrant }, class: s.withdrawn ? "withdrawn" : "" },
    h("td", {}, s.rank), h("td", {}, entrantName(s.entrant, s.name),
      s.withdrawn ? h("small", { class: "muted" }, ` (${t("tour.withdrawn")})`) : null),
    h("td", { class: "rating" }, num(s.points)),
    keys.map((k) => h("td", {}, num(s[COLUMNS[k]]))), h("td", {}, s.played + s.byes)))));
}

function roundsBox(d) {
  return d.rounds.slice().reverse().map((r, k) => h("details", { class: "round", open: k === 0,
    dataset: { round: r.number } }, h("summary", {}, t("tour.round_n", { n: r.number })),
  h("ul", { class: "tables" }, r.tables.map((x) => h("li", { class: "match" },
    x.seats.flatMap((s, i) => [i ? " – " : "", entrantName(s.entrant, s.name),
      x.result ? h("b", {}, ` ${x.result.points[i]}`) : null]),
    x.result && x.result.walkover ? h("small", { class: "muted" }, ` (${t("tour.walkover")})`) : null,
    " ", !x.result && x.table ? h("a", { href: `#/t/${x.table}`, class: "watch" }, t("lobby.watch")) : null,
    x.games.map((g, j) => h("a", { href: `#/r/${g.split("/").pop()}`, class: "replay" },
      ` ${t("lobby.replay")} ${x.games.length > 1 ? j + 1 : ""}`)))),
    r.byes.map((b) => h("li", { class: "bye" }, entrantName(b.entrant, b.name), ` — ${t("tour.bye")}`)))));
}

function actions(d, reload, error) {
  const you = d.you;
  const act = (what) => async () => {
    error.textContent = "";
    try { await api(`/api/tournaments/${d.id}/${what}`, {}, authHeaders()); reload(); }
    catch (e) { error.textContent = serverRefused(e.message); }
  };
  const out = [];
  if (!you) return [h("p", { class: "muted" }, t("tour.sign_in"))];
  if (d.state === "open" && !you.in) out.push(h("button", { id: "tour-join", class: "primary", onclick: act("join") }, t("lobby.join")));
  if (d.state === "open" && you.in) out.push(h("button", { id: "tour-leave", onclick: act("leave") }, t("tour.leave")));
  if (d.state === "open" && you.creator) out.push(h("button", { id: "tour-start", onclick: act("start") }, t("tour.start")));
  if (you.seat) {
    out.push(h("button", { id: "tour-play", class: "primary", onclick: () => {
      holdSeat(you.seat.table, you.seat.seat, you.seat.token);
      location.hash = `#/t/${you.seat.table}`;
    } }, t("tour.play")));
  }
  const me = d.entrants.find((e) => e.id === you.entrant);
  if (d.state === "running" && me && !me.withdrawn) out.push(h("button", { id: "tour-withdraw", onclick: act("withdraw") }, t("tour.withdraw")));
  return out;
}

export function tournamentView(app, id, rerender) {
  const box = h("div", { id: "tour", class: "tour" });
  app.append(pageHeader(rerender), h("main", { class: "page" }, box));
  let stopped = false;
  let ctrl = null;
  let version = -1;
  const render = (d) => {
    const error = h("div", { class: "error", id: "tour-act-error", role: "alert" });
    const s = d.settings;
    box.replaceChildren(
      h("section", { class: "panel", dataset: { state: d.state, version: d.version } },
        h("h2", { translate: "no" }, d.name),
        h("p", { class: "muted", id: "tour-about" }, t(`tour.format.${s.format}`), " · ", rulesName(d.rules),
          " · ", t("tour.rounds_of", { n: d.rounds.length, of: s.format === "swiss" || s.format === "groups" ? s.rounds : "—" }),
          " · ", h("b", { id: "tour-state" }, t(`tour.state.${d.state}`))),
        h("div", { class: "buttons" }, actions(d, () => poll(true), error)), error),
      h("section", { class: "panel" }, h("h2", {}, d.state === "finished" ? t("tour.final") : t("tour.standings")),
        h("div", { class: "scroll-x" }, standingsTable(d)), h("p", { class: "muted small" }, t(`tour.tiebreaks.${s.format}`))),
      h("section", { class: "panel" }, h("h2", {}, t("tour.rounds")),
        d.rounds.length ? roundsBox(d) : h("p", { class: "muted" }, t("tour.not_started"),
          " ", tn("tour.entrants_n", { n: d.entrants.length }))));
  };
  const poll = async (now) => {
    if (ctrl) ctrl.abort();
    ctrl = new AbortController();
    const after = now || version < 0 ? "" : `?after=${version}`;
    try {
      const r = await fetch(`/api/tournaments/${id}${after}`, { headers: authHeaders(), signal: ctrl.signal });
      const d = await r.json();
      if (!r.ok) { box.replaceChildren(h("p", { class: "error panel" }, serverRefused(d.error))); return; }
      version = d.version;
      render(d);
      if (!stopped && d.state !== "finished") setTimeout(() => poll(false), 0);
    } catch (e) {
      if (!stopped && e.name !== "AbortError") setTimeout(() => poll(false), 2000);
    }
  };
  poll(true);
  return { stop: () => { stopped = true; if (ctrl) ctrl.abort(); } };
}
