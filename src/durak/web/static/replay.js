// A finished deal, step by step, with every hand face up.

import { backEl, cardEl } from "./cards.js";
import { cardsText, cardText, getLang, rulesName, t, tn } from "./i18n.js";
import { nameEl, resultWords, seatName } from "./names.js";
import { parseAction, sortHand, trumpLabel, trumpSymbol } from "./table.js";
import { api, h, iconButton, langToggle } from "./ui.js";

// One action in words, without its player: "beat 7♣ with 9♣", "take".
function moveWords(text, caught) {
  const x = parseAction(text);
  // шулерский: after the deal, a cheat is named as such, and a call says what it found
  if (x.kind === "call") {
    const card = cardText(x.cards[0]);
    if (caught === undefined) return t("replay.call", { card });
    return t(caught ? "replay.call_caught" : "replay.call_wrong", { card });
  }
  if (x.cheat) return t("replay.cheat", { move: plainWords(x) });
  return plainWords(x);
}

function plainWords(x) {
  if (x.kind === "take" || x.kind === "pass") return t(`table.${x.kind}`);
  if (x.kind === "defend") return t("table.beat", { card: cardText(x.cards[0]), target: cardText(x.target) });
  if (x.kind === "transfer") return t("table.transfer", { cards: cardsText(x.cards) });
  if (x.kind === "show") return t("table.show", { card: cardText(x.cards[0]) });
  if (x.kind === "exchange") return t("table.exchange", { card: cardText(x.cards[0]) });
  return t("table.play", { cards: cardsText(x.cards) });
}

// Key names as printed on the keys (Latin on every keyboard), marked as such.
const KEYS = () => Object.fromEntries(["Home", "End"].map((k) => [k.toLowerCase(), h("kbd", { lang: "en" }, k)]));

export function replayView(app, id) {
  const root = h("div", { class: "replay-view" });
  app.append(root);
  let data = null;
  let i = 0;
  let playing = null;
  const stop = () => { if (playing) clearInterval(playing); playing = null; };
  const go = (k) => { i = Math.max(0, Math.min(data.frames.length - 1, k)); show(); };
  const play = () => {
    if (playing) { stop(); show(); return; }
    playing = setInterval(() => { if (i >= data.frames.length - 1) { stop(); show(); } else go(i + 1); }, 700);
    show();
  };
  // The keyboard: ← → a move, Home / End, space plays or pauses (not while typing).
  const onKey = (e) => {
    if (!data || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input:not([type=range]), textarea, select")) return;
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowDown: i + 1,
      Home: 0, End: data.frames.length - 1, PageUp: i - 10, PageDown: i + 10 }[e.key];
    if (to !== undefined) { e.preventDefault(); stop(); go(to); return; }
    if (e.key === " ") { e.preventDefault(); play(); }
  };
  document.addEventListener("keydown", onKey);
  // шулерский: how many cheats the deal had, and how many were caught
  const cheatCount = () => {
    let n = 0;
    let caught = 0;
    for (const f of data.frames) {
      if (!f.action) continue;
      const x = parseAction(f.action);
      if (x.cheat) n += 1;
      if (x.kind === "call" && f.caught) caught += 1;
    }
    return { n, caught };
  };

  const show = () => {
    const f = data.frames[i];
    const lang = getLang();
    document.documentElement.lang = lang;
    const names = data.names.map((n, s) => seatName({ name: n }, s));
    const nameEls = () => data.names.map((n, s) => nameEl({ name: n }, s));
    root.innerHTML = "";
    root.dataset.step = i;
    root.dataset.lang = lang;
    root.append(h("header", { class: "top table-top" },
      h("a", { href: "#/", class: "button ghost" }, t("lobby.lobby")),
      h("span", { class: "rules", id: "rules-name" }, rulesName(data.rules)),
      // the result only once the last step is on show: no spoiler before step 1
      h("span", { id: "replay-result" }, i === data.frames.length - 1
        ? resultWords(data.result, data.names) : h("span", { class: "muted" }, t("replay.result_hidden"))),
      langToggle(show)));
    // The first seat's hand below the felt, the others above it, at a readable size.
    const hands = h("div", { class: "replay-hands" });
    const mine = h("div", { class: "replay-hands mine" });
    const trumpSuit = trumpSymbol(data.trump_suit);
    names.forEach((name, s) => {
      const row = h("div", { class: "hand small" });
      const own = data.trumps && data.trumps.length ? trumpSymbol(data.trumps[s]) : trumpSuit;
      for (const c of sortHand(f.hands[s], own)) row.append(cardEl(c, lang, "replay-card"));
      (s === 0 ? mine : hands).append(h("div", { class: "seat" + (f.to_act === s ? " to-act" : ""), dataset: { seat: s } },
        h("div", { class: "seat-name" }, h("span", { translate: "no" }, name),
          // двухкозырный: the card turned for the seat, and the trump it names
          data.trumps && data.trumps.length ? h("span", { class: "seat-trump", dataset: { turned: (data.turned || [])[s] || "" } },
            data.turned && data.turned[s] ? cardEl(data.turned[s], lang, "mini turned") : null,
            t("table.seat_trump", { suit: trumpSymbol(data.trumps[s]) })) : null,
          f.attacker === s ? h("span", { class: "badge att" }, t("term.attacker")) : null,
          f.defender === s ? h("span", { class: "badge def" }, t("term.defender")) : null),
        row));
    });
    const pairs = h("div", { class: "pairs" });
    for (const [a, b] of f.table) {
      pairs.append(h("div", { class: "pair" }, cardEl(a, lang), b ? cardEl(b, lang, "cover") : null));
    }
    root.append(hands, h("div", { class: "felt" },
      h("div", { class: "deck" },
        // the trump lies face up under the talon until it is drawn
        f.talon > 0 ? h("div", { class: "talon", id: "replay-talon" }, data.trump ? cardEl(data.trump, lang, "trump") : null,
          f.talon > 1 ? backEl("stack") : null, h("span", { class: "count" }, f.talon))
          : h("div", { class: "trump-suit", title: t("term.trump") }, trumpSuit || "—"),
        h("div", { class: "label" }, t("table.talon_count", { n: f.talon })),
        h("div", { class: "label" }, data.trumps && data.trumps.length
          ? `${t("term.trump")}: ${t("val.trump.per_player")}` : trumpLabel(data.trump, data.trump_suit))),
      pairs, h("div", { class: "discard" }, h("div", { class: "label" }, t("table.discard_count", { n: f.discard })))),
    mine);
    const say = f.action ? [nameEls()[f.seat], `: ${moveWords(f.action, f.caught)}`] : [t("replay.dealt")];
    const x = f.action ? parseAction(f.action) : null;
    const cheats = /cheating=open|^shulerskiy/.test(data.rules) ? cheatCount() : null;
    const slider = h("input", { type: "range", min: 0, max: data.frames.length - 1, value: i,
      "aria-label": t("replay.step", { i, n: data.frames.length - 1 }),
      oninput: (e) => { stop(); go(Number(e.target.value)); } });
    root.append(h("div", { class: "status" + (x && (x.cheat || x.kind === "call") ? " cheat-step" : ""), id: "replay-step" },
      `${t("replay.step", { i, n: data.frames.length - 1 })} · `, ...say),
    h("div", { class: "actions replay-controls" },
      iconButton("first", t("replay.first"), { id: "replay-first", onclick: () => { stop(); go(0); } }),
      iconButton("prev", t("replay.prev"), { id: "replay-prev", onclick: () => { stop(); go(i - 1); } }),
      iconButton(playing ? "pause" : "play", playing ? t("replay.pause") : t("replay.play"), { id: "replay-play", onclick: play }),
      iconButton("next", t("replay.next"), { id: "replay-next", onclick: () => { stop(); go(i + 1); } }),
      iconButton("last", t("replay.last"), { id: "replay-last", onclick: () => { stop(); go(data.frames.length - 1); } })),
    slider,
    h("p", { class: "muted small", id: "replay-keys" }, ...tn("replay.keys", KEYS())),
    ...(cheats ? [h("p", { class: "small", id: "replay-cheats" }, t("replay.cheats", cheats))] : []),
    h("details", { class: "log-box" }, h("summary", {}, t("replay.record")),
      h("pre", { translate: "no" }, data.record)));
  };

  api(`/api/games/${id}`).then((d) => { data = d; show(); })
    .catch(() => root.append(h("p", { class: "error" }, t("replay.not_found"))));
  return { stop: () => { stop(); document.removeEventListener("keydown", onKey); } };
}
