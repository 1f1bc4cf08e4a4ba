// Small helpers every view uses: building elements, calling the server, toasts,
// a confirmation dialog, icons (inline SVG: they render in any browser, unlike ⏮ ⏭).

import { getLang, setLang, t } from "./i18n.js";

export const $ = (sel, root = document) => root.querySelector(sel);

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// An error from the server: `field` names the request field it is about, if any.
export class ApiError extends Error {
  constructor(message, status, field) { super(message); this.status = status; this.field = field; }
}

export async function api(path, body, headers = {}) {
  const opts = body === undefined ? { headers } : {
    method: "POST", headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const msg = data.error || r.statusText;
    const m = /^([a-z_]+):/.exec(msg);
    throw new ApiError(msg, r.status, data.field || (m ? m[1] : null));
  }
  return data;
}

// A refusal in the page's words; the server's own reason (English) only on English pages.
export function serverRefused(reason) {
  return t("form.server_refused") + (getLang() === "en" && reason ? `: ${reason}` : ".");
}

// A moment in the page's language: "3 Dec 2026, 14:05"; "" without one.
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Intl.DateTimeFormat(getLang(), { dateStyle: "medium", timeStyle: "short" }).format(d);
}

export function toast(text, kind = "info", ms = 3500) {
  const box = $("#toasts");
  const el = h("div", { class: "toast " + kind, role: kind === "error" ? "alert" : "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), ms);
}

// A modal question with two buttons; resolves true for `yes`.
export function confirmDialog(question, yes, no) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { class: "confirm", id: "confirm" },
      h("p", {}, question),
      h("div", { class: "buttons" },
        h("button", { id: "confirm-no", onclick: () => { dlg.close(); resolve(false); } }, no),
        h("button", { class: "primary danger", id: "confirm-yes",
          onclick: () => { dlg.close(); resolve(true); } }, yes)));
    dlg.addEventListener("close", () => { dlg.remove(); resolve(false); });
    document.body.append(dlg);
    dlg.showModal();
  });
}

const PATHS = {
  first: "M6 5h2v14H6zM20 5v14L9 12z",
  prev: "M17 5v14L6 12z",
  next: "M7 5v14l11-7z",
  last: "M16 5h2v14h-2zM4 5v14l11-7z",
  play: "M7 5v14l11-7z",
  pause: "M6 5h4v14H6zM14 5h4v14h-4z",
  back: "M15 5l-7 7 7 7",
  link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
  leave: "M14 4h5v16h-5M10 8l-4 4 4 4M6 12h10",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 20a8 8 0 0 1 16 0",
  chat: "M4 5h16v11H9l-5 4z",
  help: "M9 9a3 3 0 1 1 4 2.8c-.7.3-1 .9-1 1.7V14M12 17.5v.5",
  top: "M5 20V11M12 20V4M19 20v-6",
  trophy: "M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0zM7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4",
};
const FILLED = new Set(["first", "prev", "next", "last", "play", "pause"]);

export function icon(name) {
  const d = PATHS[name];
  const paint = FILLED.has(name) ? 'fill="currentColor"'
    : 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';
  return h("span", { class: "icon", "aria-hidden": "true",
    html: `<svg viewBox="0 0 24 24" width="18" height="18"><path d="${d}" ${paint}/></svg>` });
}

// A button with an icon and a label; on phones the label may hide (class "iconic").
export function iconButton(name, label, attrs = {}) {
  return h("button", { title: label, ...attrs, "aria-label": label }, icon(name),
    h("span", { class: "label" }, label));
}

export function langToggle(rerender) {
  const other = getLang() === "ru" ? "en" : "ru";
  // Written in the language it switches to, and marked so.
  return h("button", { class: "lang ghost", id: "lang", lang: other, title: t("lang.switch_title"),
    onclick: () => { setLang(other); rerender(); } }, other.toUpperCase());
}

// -- seats held in this browser, and the player's account ------------------------------

const seatKey = (table) => `durak.seat.${table}`;
export function heldSeat(table) {
  try { return JSON.parse(localStorage.getItem(seatKey(table)) || "null"); } catch { return null; }
}
export function holdSeat(table, seat, token) {
  localStorage.setItem(seatKey(table), JSON.stringify({ seat, token }));
}
export function dropSeat(table) { localStorage.removeItem(seatKey(table)); }
export function myName() { return localStorage.getItem("durak.name") || ""; }

export function account() {
  try { return JSON.parse(localStorage.getItem("durak.account") || "null"); } catch { return null; }
}
export function setAccount(a) {
  if (a) localStorage.setItem("durak.account", JSON.stringify(a));
  else localStorage.removeItem("durak.account");
}
export function authHeaders() {
  const a = account();
  return a ? { Authorization: `Bearer ${a.token}` } : {};
}

// The page header of the lobby-like pages.
export function pageHeader(rerender, ...extra) {
  return h("header", { class: "top" },
    h("a", { href: "#/", class: "brand" }, h("h1", {}, t("game.title")),
      h("small", { class: "subtitle" }, t("game.subtitle"))),
    h("nav", { class: "links" },
      h("a", { href: "#/howto", id: "howto-link", title: t("lobby.howto") }, icon("help"), h("span", { class: "label" }, t("lobby.howto"))),
      h("a", { href: "#/top", id: "top-link", title: t("people.leaderboard") }, icon("top"),
        h("span", { class: "label" }, t("people.leaderboard"))),
      h("a", { href: "#/tours", id: "tours-link", title: t("tour.link") }, icon("trophy"),
        h("span", { class: "label" }, t("tour.link"))),
      h("a", { href: "#/me", id: "me-link", title: account() ? t("people.signed_in_as", { name: account().name }) : null },
        icon("user"), h("span", { class: "label", translate: "no" }, account() ? account().name : t("people.sign_in")))),
    ...extra, langToggle(rerender));
}

