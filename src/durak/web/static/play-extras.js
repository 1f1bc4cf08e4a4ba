// What a table offers besides playing cards: chat (with a mute), voting an idle player
// off their seat, and hint, the review of one's own moves so far and undo when only bots
// are the opponents.

import { t, tn } from "./i18n.js";
import { nameEl } from "./names.js";
import { h, icon } from "./ui.js";

const IDLE_SECONDS = 30;
const muted = () => localStorage.getItem("durak.chat.muted") === "1";

// Whether everyone else at the table is a bot (then hints and undo are offered).
export function onlyBots(S, me) {
  return me !== null && S.seats.every((s, i) => i === me || s.kind === "bot");
}

export function extrasBar(view, S, legal) {
  const me = view.seat;
  if (!onlyBots(S, me) || S.result || S.status !== "playing") return null;
  const myTurn = legal.length > 0;
  const mine = S.log.some((e) => e.seat === me);
  const hint = view.hint && view.hint.state === S.state ? view.hint : null;
  return h("div", { class: "assist", id: "assist" },
    h("button", { id: "hint-btn", disabled: !myTurn || view.hintWaiting ? true : null,
      onclick: () => { view.hintWaiting = true; view.send({ type: "hint" }); } },
    view.hintWaiting ? t("assist.thinking") : t("assist.hint")),
    h("button", { id: "review-mine-btn", disabled: !mine || view.reviewWaiting ? true : null,
      onclick: () => { view.reviewWaiting = true; view.send({ type: "review" }); render(view); } },
    view.reviewWaiting ? t("assist.thinking") : t("assist.review")),
    h("button", { id: "undo-btn", disabled: !mine ? true : null,
      onclick: () => view.send({ type: "undo" }) }, t("assist.undo")),
    hint ? h("span", { class: "hint-text", id: "hint-text" }, t("assist.hint_is", { move: view.describe(hint.action) })) : null,
    h("small", { class: "muted" }, t("assist.unrated")),
    view.myReview ? myReviewPanel(view) : null);
}

function render(view) { if (view.rerender) view.rerender(); }

// The review of one's own moves so far (the server judges only this seat's decisions,
// from its own view): each judged move with its tag and, where it lost, the better move.
function myReviewPanel(view) {
  const r = view.myReview;
  const seat = r.seats[0];
  const list = h("ol", { class: "my-review-moves" }, ...r.moves.map((m) =>
    h("li", { class: `review-move tag-${m.tag}`, dataset: { tag: m.tag, ply: m.ply } },
      view.describe(m.action), " — ", t(`review.tag.${m.tag}`),
      m.tag === "best" || m.tag === "good" ? "" : ` · ${t("assist.review_better", { move: view.describe(m.best), chance: Math.round(m.after_best) })}`)));
  return h("div", { class: "my-review", id: "my-review" },
    h("b", {}, t("assist.review_title")),
    seat ? h("span", { class: "muted small" }, ` ${t("assist.review_accuracy", { accuracy: seat.accuracy.toFixed(1) })}`) : null,
    r.moves.length ? list : h("p", { class: "muted small" }, t("assist.review_none")),
    h("button", { class: "small", id: "my-review-close", onclick: () => { view.myReview = null; render(view); } }, t("assist.review_close")));
}

// The idle clock: how long the seat on the move has been on it, as this page saw it.
function idleFor(view, S, i) {
  if (!S.obs || S.obs.to_act !== i) return 0;
  if (view.turnSeen !== S.state) { view.turnSeen = S.state; view.turnSince = Date.now(); }
  return (Date.now() - view.turnSince) / 1000;
}

export function kickButton(view, S, i) {
  const s = S.seats[i];
  const me = view.seat;
  if (me === null || s.kind !== "human" || !s.taken || i === me || S.result) return null;
  const idle = !s.online || idleFor(view, S, i) >= IDLE_SECONDS;
  const votes = view.votes && view.votes[i];
  if (!idle && !votes) return null;
  return h("button", { class: "kick small", dataset: { seat: i },
    onclick: () => view.send({ type: "vote", seat: i }) },
  votes ? t("vote.progress", { votes: votes.votes, need: votes.need }) : t("vote.off"));
}

function chatLine(S, m) {
  return h("li", { class: "chat-line", dataset: { seat: m.seat } },
    h("b", {}, nameEl(S.seats[m.seat] || { name: m.name }, m.seat)), ": ",
    h("span", { translate: "no" }, m.text));
}

// The chat: built once per table view, so that re-drawing the table keeps what is being
// typed; update() refreshes its lines.
export function chatPanel(view) {
  const list = h("ul", { class: "chat-list", id: "chat-list" });
  const input = h("input", { id: "chat-input", maxlength: 200, placeholder: t("chat.placeholder"),
    "aria-label": t("chat.placeholder") });
  const send = () => {
    const text = input.value.trim();
    if (!text) return;
    view.send({ type: "chat", text });
    input.value = "";
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
  const sendBtn = h("button", { id: "chat-send", onclick: send }, t("chat.send"));
  const form = h("div", { class: "chat-send" }, input, sendBtn);
  const note = h("p", { class: "muted" }, t("chat.spectators"));
  const title = h("span", { id: "chat-title" }, t("chat.title"));
  const muteText = h("span", {}, t("chat.mute"));
  const mute = h("input", { type: "checkbox", id: "chat-mute",
    onchange: (e) => { localStorage.setItem("durak.chat.muted", e.target.checked ? "1" : "0"); update(); } });
  const el = h("details", { class: "chat-box", id: "chat", open: true },
    h("summary", {}, icon("chat"), " ", title), list, form, note,
    h("label", { class: "mute" }, mute, " ", muteText));
  function update() {
    const S = view.state;
    // (built once, so its words follow a change of language here)
    title.textContent = t("chat.title");
    muteText.textContent = t("chat.mute");
    sendBtn.textContent = t("chat.send");
    note.textContent = t("chat.spectators");
    input.placeholder = t("chat.placeholder");
    input.setAttribute("aria-label", t("chat.placeholder"));
    mute.checked = muted();
    list.innerHTML = "";
    if (muted()) list.append(h("li", { class: "muted" }, t("chat.muted_note")));
    else if (S) for (const m of view.chat) list.append(chatLine(S, m));
    form.hidden = view.seat === null;
    note.hidden = view.seat !== null;
    list.scrollTop = list.scrollHeight;
  }
  return { el, update, input };
}

export function voteNews(m, S) {
  return m.type === "voted_off" ? tn("vote.done", { name: nameEl(S.seats[m.seat], m.seat) }) : null;
}
