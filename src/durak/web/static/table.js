// One table: the game as this seat sees it, its moves, its clock, and what the seat
// can do. The server sends this seat's Observation and nothing more.

import { backEl, cardEl } from "./cards.js";
import { cardsText, cardText, getLang, has, rulesName, t, tn } from "./i18n.js";
import { botLabel, nameEl, seatName } from "./names.js";
import { linkSeat } from "./people.js";
import { chatPanel, extrasBar, kickButton, voteNews } from "./play-extras.js";
import { $, account, api, authHeaders, confirmDialog, dropSeat, h, heldSeat, holdSeat, icon,
  iconButton, langToggle, myName, serverRefused, toast } from "./ui.js";

const PROTOCOL = 1;
const SUITS = "♠♥♦♣";

// Actions in the engine's notation: "6♠", "6♠+6♥", "6♠/10♠", ">6♥", "!6♦", "x6♦", "take", "pass";
// шулерский: "~9♠/6♣" (a false beat, played like a defence), "~Q♦" (a false throw-in), "?6♣" (a call).
export function parseAction(text) {
  if (text === "take" || text === "pass") return { kind: text, cards: [], text };
  const first = text[0];
  if (first === "?") return { kind: "call", cards: [text.slice(1)], text };
  if (first === "~") {
    const body = text.slice(1);
    if (body.includes("/")) {
      const [target, card] = body.split("/");
      return { kind: "defend", cheat: true, cards: [card], target, text };
    }
    return { kind: "attack", cheat: true, cards: [body], text };
  }
  if (first === "x") return { kind: "exchange", cards: [text.slice(1)], text };
  if (first === "!") return { kind: "show", cards: [text.slice(1)], text };
  if (first === ">") return { kind: "transfer", cards: text.slice(1).split("+"), text };
  if (text.includes("/")) {
    const [target, card] = text.split("/");
    return { kind: "defend", cards: [card], target, text };
  }
  return { kind: "attack", cards: text.split("+"), text };
}

// Whether a rule set in text form plays in teams (pagony with 4 players does by itself).
export function hasTeams(rules) {
  const m = /teams=(\w+)/.exec(rules || "");
  if (m) return m[1] !== "none";
  return /^pagony\(.*players=4/.test(rules || "");
}

const RANKS = { J: 11, Q: 12, K: 13, A: 14 };
const rankOf = (c) => RANKS[c.slice(0, -1)] || Number(c.slice(0, -1));

// The trump suit's symbol ("" without a trump: trump=none, бескозырный), and the trump
// label: the turned card when it names the trump, else the suit (a fixed trump, «пики
// пиками»: ♦ whatever card is turned), or "no trumps".
export function trumpSymbol(suit) { return suit >= 0 && suit < 4 ? SUITS[suit] : ""; }
export function trumpLabel(card, suit) {
  const sym = trumpSymbol(suit);
  if (!sym) return `${t("term.trump")}: ${t("term.no_trump")}`;
  return t("table.trump_is", { card: card && card.slice(-1) === sym ? cardText(card) : sym });
}

// A hand as players hold it: by suit, low to high, the trumps together at the right end.
export function sortHand(cards, trumpSuit) {
  const key = (c) => {
    const s = c.slice(-1);
    return (s === trumpSuit ? 10 : SUITS.indexOf(s)) * 100 + rankOf(c);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

// A short beep when it becomes your turn: off unless the player switched it on.
function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    window.durakBeeps = (window.durakBeeps || 0) + 1;
  } catch { /* no sound here */ }
}
const soundOn = () => localStorage.getItem("durak.sound") === "1";

export function tableView(app, tableId, rerender, invite = null) {
  const view = {
    ws: null, state: null, seat: null, closed: false, retry: 0, selected: null,
    pending: false, shownTable: new Set(), timerStart: 0, timerFor: -1, tick: null,
    chat: [], hint: null, hintWaiting: false, votes: {}, myReview: null, reviewWaiting: false,
  };
  const chat = chatPanel(view);
  view.rerender = () => render();
  view.describe = (text) => {
    const x = parseAction(text);
    return x.kind === "take" || x.kind === "pass" ? t(`table.${x.kind}`) : actionLabel(x);
  };
  const root = h("div", { class: "table-view" });
  app.append(root);
  root.append(h("p", { class: "muted center" }, t("table.connecting")));

  // A private table's secret goes with every hello and join (only when there is one).
  const withInvite = (msg) => (invite ? { ...msg, invite } : msg);
  // Our part of the next deal's seed, sent once we have seen the server commit to its
  // part (fair.next_commit); kept to check the deal: durak verify-deal --nonce <this>.
  const sendNonce = (m) => {
    const next = m.fair && m.fair.next_commit;
    if (m.seat === null || !next || view.nonceFor === next) return;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    view.nonceFor = next;
    view.send({ type: "nonce", value: nonce });
    try { localStorage.setItem(`durak.nonce.${next}`, nonce); } catch { /* full */ }
  };
  const hello = (token) => view.ws.send(JSON.stringify(withInvite({ type: "hello", v: PROTOCOL, table: tableId, token })));
  const connect = () => {
    const held = heldSeat(tableId);
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    view.ws = ws;
    ws.onopen = () => { view.retry = 0; hello(held ? held.token : null); };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (view.closed) return;
      view.retry = Math.min(view.retry + 1, 6);
      $(".conn", root)?.classList.add("lost");
      setTimeout(connect, 300 * 2 ** view.retry);
    };
  };
  view.send = (msg) => { if (view.ws && view.ws.readyState === 1) view.ws.send(JSON.stringify(msg)); };

  const onMessage = (m) => {
    if (m.type === "welcome") { view.seat = m.seat; return; }
    if (m.type === "error") {
      view.pending = false;
      view.hintWaiting = false;
      view.reviewWaiting = false;
      if (m.code === "bad_token" && heldSeat(tableId)) {
        dropSeat(tableId);
        hello(null);
      } else if (m.code === "moving") {
        // The table is settling between the server's workers: ask again shortly.
        setTimeout(() => {
          const held = heldSeat(tableId);
          if (!view.closed && view.ws && view.ws.readyState === 1) hello(held ? held.token : null);
        }, 500);
      } else if (m.code === "no_table") {
        root.innerHTML = "";
        root.append(h("p", { class: "error center" }, t("table.no_table")),
          h("a", { href: "#/", class: "button" }, t("lobby.lobby")));
        view.closed = true;
      } else if (m.code !== "stale") {
        toast(`${t("table.error")}: ${has(`table.err.${m.code}`) ? t(`table.err.${m.code}`) : t("table.refused")}`, "error");
      }
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
      try { localStorage.setItem(`durak.commit.${m.deal_id}`, m.commit); } catch { /* full */ }
      return;
    }
    if (m.type === "chat") { view.chat.push(m); view.chat = view.chat.slice(-100); chat.update(); return; }
    if (m.type === "hint") { view.hint = m; view.hintWaiting = false; render(); return; }
    if (m.type === "review") { view.myReview = m.review; view.reviewWaiting = false; render(); return; }
    if (m.type === "vote") { view.votes[m.seat] = m; render(); return; }
    if (m.type === "voted_off") {
      delete view.votes[m.seat];
      if (view.state) toast(voteNews(m, view.state).map((x) => (typeof x === "string" ? x : x.textContent)).join(""));
      return;
    }
    if (m.type === "state") {
      const prev = view.state;
      view.state = m;
      if (prev) announceCalls(prev, m);
      sendNonce(m);
      view.seat = m.seat;
      view.pending = false;
      if (!prev || prev.state !== m.state) { view.selected = null; view.hint = null; view.hintWaiting = false; }
      const mine = (s) => s && s.obs && view.seat !== null && s.obs.to_act === view.seat && !s.result;
      if (mine(m) && !(prev && mine(prev) && prev.state === m.state) && soundOn()) beep();
      render();
    }
  };

  // шулерский: each call's outcome as a short notice to everyone at the table (the log
  // says it too); only calls made since the last state this page saw.
  const announceCalls = (prev, m) => {
    const seen = (prev.log_start || 0) + prev.log.length;
    const sameDeal = prev.match && m.match ? prev.match.deal === m.match.deal : true;
    if (!sameDeal) return;
    m.log.forEach((e, k) => {
      if ((m.log_start || 0) + k >= seen && parseAction(e.action).kind === "call") {
        const el = h("span", {}, ...[logText(e)].flat());
        toast(el.textContent, "call", 6000);
      }
    });
  };

  const send = (action) => {
    if (view.pending || !view.state) return;
    view.pending = true;
    view.selected = null;
    view.cheat = false;
    view.send({ type: "act", state: view.state.state, action });
    render();
  };

  const nameOf = (i) => (i === view.seat ? t("table.you") : nameEl(view.state.seats[i], i));

  const inviteLink = () => `${location.origin}/#/t/${tableId}${invite ? "/" + invite : ""}`;

  const leave = async () => {
    const held = heldSeat(tableId);
    const S = view.state;
    const inPlay = S && S.status === "playing" && !S.result;
    if (inPlay && !(await confirmDialog(t("table.leave_confirm"), t("table.leave_yes"), t("table.stay")))) return;
    try { await api(`/api/tables/${tableId}/leave`, { token: held.token }); } catch { /* gone already */ }
    dropSeat(tableId);
    location.hash = "#/";
  };

  function header(S) {
    const held = heldSeat(tableId);
    const link = inviteLink();
    const m = S.match;
    const deal = m && (m.deals > 1 ? t("term.deal_n_of", { n: m.deal, m: m.deals }) : t("term.deal_n", { n: m.deal }));
    return h("header", { class: "top table-top" },
      h("a", { href: "#/", class: "button ghost iconic", title: t("lobby.lobby"), "aria-label": t("lobby.lobby") },
        icon("back"), h("span", { class: "label" }, t("lobby.lobby"))),
      h("span", { class: "rules", id: "rules-name", title: rulesName(S.rules) }, rulesName(S.rules)),
      deal ? h("span", { class: "deal", id: "deal-no" }, deal) : null,
      h("span", { class: "conn" }),
      iconButton(soundOn() ? "sound" : "mute", t("table.sound"), {
        class: "ghost iconic", id: "sound", "aria-pressed": soundOn() ? "true" : "false",
        title: soundOn() ? t("table.sound_off") : t("table.sound_on"),
        onclick: () => { localStorage.setItem("durak.sound", soundOn() ? "0" : "1"); if (soundOn()) beep(); render(); },
      }),
      iconButton("link", t("table.invite"), { class: "ghost iconic", id: "invite", onclick: () => {
        navigator.clipboard?.writeText(link).then(() => toast(t("table.copied")), () => prompt(t("table.invite"), link));
      } }),
      held ? iconButton("leave", t("table.leave"), { class: "ghost iconic", id: "leave", onclick: leave }) : null,
      langToggle(() => render()));
  }

  function render() {
    const S = view.state;
    if (!S) return;
    const lang = getLang();
    document.documentElement.lang = lang;
    const obs = S.obs;
    if (view.tick) { clearInterval(view.tick); view.tick = null; }
    const typing = document.activeElement === chat.input;
    root.innerHTML = "";
    const held = heldSeat(tableId);
    root.append(header(S));

    // Free seat and no seat of ours: offer to sit down.
    const free = S.seats.filter((s) => s.kind === "human" && !s.taken);
    if (view.seat === null && free.length) {
      const name = h("input", { id: "join-name", maxlength: 32, value: account() ? account().name : myName(),
        placeholder: t("lobby.your_name"), "aria-label": t("lobby.your_name") });
      const err = h("small", { class: "field-error", id: "err-join-name", role: "alert" });
      root.append(h("div", { class: "panel join" },
        h("p", {}, t("table.spectating")), h("div", { class: "field" }, name, err),
        h("button", { class: "primary", id: "join-btn", onclick: async () => {
          if (!name.value.trim()) { err.textContent = t("form.need_name"); return; }
          localStorage.setItem("durak.name", name.value);
          try {
            const r = await api(`/api/tables/${tableId}/join`, withInvite({ name: name.value.trim() }), authHeaders());
            holdSeat(tableId, r.seat, r.token);
            await linkSeat(tableId, r.token);
            hello(r.token);
          } catch (e) { err.textContent = serverRefused(e.message); }
        } }, t("table.take_seat"))));
    } else if (view.seat === null) {
      root.append(h("p", { class: "muted center" }, t("table.spectating")));
    }

    if (S.status === "waiting" || !obs) {
      root.append(h("div", { class: "panel center waiting" }, h("p", {}, t("table.waiting")),
        h("p", {}, h("code", { id: "invite-link", translate: "no" }, inviteLink())),
        h("ol", {}, S.seats.map((s, i) => h("li", {}, s.taken || s.kind === "bot" ? nameEl(s, i) : t("lobby.free"))))));
      return;
    }

    const n = S.seats.length;
    const me = view.seat;
    const myTurn = me !== null && obs.to_act === me && obs.legal.length > 0 && !S.result;
    document.body.dataset.myTurn = myTurn ? "1" : "0";
    root.dataset.state = S.state;
    // шулерский: the cheat moves join the honest ones while the cheat toggle is on; calls
    // are buttons on the table's cards.
    const cheats = myTurn && obs.cheats ? obs.cheats.map(parseAction) : [];
    const calls = myTurn && obs.calls ? obs.calls.map(parseAction) : [];
    if (!cheats.length) view.cheat = false;
    const legal = myTurn ? obs.legal.map(parseAction).concat(view.cheat ? cheats : []) : [];
    const myCheats = new Set(me !== null && obs.cheated && obs.laid && obs.laid[me]
      ? obs.cheated.filter((c) => obs.laid[me].includes(c)) : []);
    const callButton = (c) => {
      const x = calls.find((y) => y.cards[0] === c);
      return x ? h("button", { class: "call", dataset: { action: x.text }, title: t("table.call_title", { card: cardText(c) }),
        onclick: () => send(x.text) }, `${t("table.call")} ${cardText(c)}`) : null;
    };
    const markCheat = (el, c) => {
      if (myCheats.has(c)) { el.classList.add("my-cheat"); el.title = t("table.my_cheat"); }
      return el;
    };

    // Opponents, in playing order from my left.
    const base = me === null ? 0 : me;
    const others = [];
    for (let k = me === null ? 0 : 1; k < n; k++) others.push((base + k) % n);
    root.append(h("div", { class: "opponents" }, others.map(seatBox)));

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
      pair.append(markCheat(ca, a));
      seenNow.add(a);
      if (b) { pair.append(markCheat(cardEl(b, lang, "cover " + (view.shownTable.has(b) ? "" : "enter")), b)); seenNow.add(b); }
      const callsHere = [callButton(a), b ? callButton(b) : null].filter(Boolean);
      pairs.append(callsHere.length ? h("div", { class: "pair-box" }, pair, h("div", { class: "calls" }, callsHere)) : pair);
    });
    view.shownTable = seenNow;
    const deckBox = h("div", { class: "deck" },
      obs.talon_size > 0 ? h("div", { class: "talon" },
        obs.trump_under_talon ? cardEl(obs.trump, lang, "trump") : null,
        obs.talon_size > 1 ? backEl("stack") : null,
        h("span", { class: "count", id: "talon-count" }, obs.talon_size))
        : h("div", { class: "trump-suit", title: t("term.trump") }, trumpSymbol(obs.trump_suit) || "—"),
      h("div", { class: "label" }, t("table.talon_count", { n: obs.talon_size })),
      h("div", { class: "label", id: "trump-label" }, obs.trumps && obs.trumps.length
        // двухкозырный: each seat its own trump, shown by its seat (a spectator's obs is
        // seat 0's: no «your trump» for them)
        ? (me === null ? `${t("term.trump")}: ${t("val.trump.per_player")}`
          : S.turned ? t("table.own_turned", { suit: trumpSymbol(obs.trump_suit), card: cardText(S.turned[me]) })
            : t("table.own_trump", { suit: trumpSymbol(obs.trump_suit) }))
        : trumpLabel(obs.trump, obs.trump_suit)),
      // двухкозырный: my own turned card lies face up before me
      me !== null && S.turned && S.turned[me] ? h("div", { class: "own-turned", id: "own-turned" },
        cardEl(S.turned[me], lang, "mini turned")) : null);
    const discardBox = h("div", { class: "discard" },
      obs.discard.length ? backEl("pile") : null,
      h("div", { class: "label", id: "discard-count" }, t("table.discard_count", { n: obs.discard.length })));
    root.append(h("div", { class: "felt" }, deckBox, pairs, discardBox));

    // Status line and the clock.
    let status;
    if (S.result) status = "";
    else if (myTurn) status = `${t("table.your_turn")}: ${t("table.ph." + obs.phase)}`;
    else if (obs.to_act !== null) status = tn("table.turn_of", { name: nameOf(obs.to_act) });
    else status = "";
    root.append(h("div", { class: "status" + (myTurn ? " mine" : ""), id: "status",
      dataset: { myTurn: myTurn ? "1" : "0", phase: obs.phase } }, status,
    (S.deadline || S.turn_timer) && !S.result && obs.to_act !== null ? timerBar(S) : null));
    if (S.result) root.append(resultPanel(S, held));

    // My hand and my actions.
    if (me !== null) {
      const hand = h("div", { class: "hand", id: "hand" });
      const playable = new Set(legal.flatMap((x) => x.kind === "take" || x.kind === "pass" ? [] : x.cards));
      const trumpSuit = trumpSymbol(obs.trump_suit);
      for (const c of sortHand(obs.hand, trumpSuit)) {
        const isTrump = c.slice(-1) === trumpSuit;
        const el = cardEl(c, lang, (playable.has(c) ? "legal" : myTurn ? "dim" : "") +
          (view.selected === c ? " selected" : "") + (isTrump ? " trump-card" : "") +
          (view.hint && view.hint.cards && view.hint.cards.includes(c) ? " hinted" : ""));
        if (isTrump) el.append(h("span", { class: "trump-mark", title: t("table.trump_mark") }, "★"));
        el.addEventListener("click", () => clickCard(c, legal));
        if (playable.has(c)) enableDrag(el, c, legal);
        hand.append(el);
      }
      const bar = h("div", { class: "actions", id: "actions" });
      for (const x of legal) {
        if (x.kind === "take") bar.append(h("button", { class: "act take", dataset: { action: "take" }, onclick: () => send("take") }, t("table.take")));
        if (x.kind === "pass") bar.append(h("button", { class: "act pass", dataset: { action: "pass" }, onclick: () => send("pass") },
          obs.phase === "throw_in" ? t("table.done") : t("table.pass")));
        if (x.kind === "exchange" && !x.cheat) bar.append(h("button", { class: "act", dataset: { action: x.text }, onclick: () => send(x.text) }, t("table.exchange", { card: cardText(x.cards[0]) })));
      }
      if (cheats.length) {
        bar.append(h("button", { class: "act cheat" + (view.cheat ? " on" : ""), id: "cheat-toggle",
          "aria-pressed": view.cheat ? "true" : "false", title: t("table.cheat_help"),
          onclick: () => { view.cheat = !view.cheat; view.selected = null; render(); } }, t("table.cheat")));
      }
      if (view.selected) {
        for (const x of legal.filter((y) => y.cards.includes(view.selected) && y.kind !== "exchange")) {
          bar.append(h("button", { class: "act option", dataset: { action: x.text }, onclick: () => send(x.text) }, actionLabel(x)));
        }
      }
      root.append(h("div", { class: "me" + (obs.to_act === me ? " to-act" : "") },
        h("div", { class: "me-name" }, seatBadges(me), " ", h("span", { translate: "no" }, seatName(S.seats[me], me)),
          " · ", h("span", { class: "hand-size" }, t("count.cards", { n: obs.hand.length }))),
        extrasBar(view, S, legal), bar, hand));
    }

    // The move log and the chat.
    const log = h("ol", { class: "log", id: "log", start: (S.log_start || 0) + 1 });
    for (const e of S.log) {
      log.append(h("li", { class: e.by ? "auto" : null, dataset: { by: e.by || "" } }, logText(e)));
    }
    root.append(h("div", { class: "below" },
      h("details", { class: "log-box", open: window.innerWidth > 700 ? true : null },
        h("summary", {}, t("table.log")), log),
      chat.el));
    chat.update();
    if (typing) chat.input.focus();
    log.scrollTop = log.scrollHeight;
  }

  function seatBadges(i) {
    const obs = view.state.obs;
    const b = [];
    if (obs.attacker === i) b.push(h("span", { class: "badge att" }, t("term.attacker")));
    if (obs.defender === i) b.push(h("span", { class: "badge def" }, t("term.defender")));
    if (obs.dealer === i) b.push(h("span", { class: "badge deal" }, t("term.dealer")));
    if (obs.out[i]) b.push(h("span", { class: "badge out" }, t("term.out")));
    if (hasTeams(view.state.rules)) {
      b.push(h("span", { class: "badge team" }, t("term.team_n", { n: (i % 2) + 1 })));
    }
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
    h("div", { class: "seat-name" }, h("span", { translate: s.kind === "bot" ? null : "no" }, seatName(s, i)),
      s.online ? "" : h("small", {}, ` (${t("table.offline")})`)),
    h("div", { class: "seat-info" }, seatBadges(i), h("span", { class: "hand-size" }, t("count.cards", { n: size })),
      s.kind === "bot" ? h("span", { class: "level" }, botLabel(s.bot)) : null,
      obs.trumps && obs.trumps.length ? turnedBadge(S, i) : null,
      kickButton(view, S, i)),
    backs);
  }

  // двухкозырный: the card turned for a seat, face up before it, and the trump it names.
  function turnedBadge(S, i) {
    const suit = trumpSymbol(S.obs.trumps[i]);
    const card = S.turned && S.turned[i];
    return h("span", { class: "seat-trump", dataset: { turned: card || "" },
      title: card ? t("table.turned_card", { card: cardText(card), suit }) : null },
    card ? cardEl(card, getLang(), "mini turned") : null, t("table.seat_trump", { suit }));
  }

  function resultText(S) {
    const r = S.result;
    if (r.draw) return t("result.draw");
    if (r.durak === view.seat) return t("result.you_lost");
    return [...tn("result.durak_is", { name: nameEl(S.seats[r.durak], r.durak) }),
      r.pogony ? ` (${t("result.pogony", { n: r.pogony })})` : ""];
  }

  // The end of a deal: one heading, the rating change, what to do next, the tally as a
  // small table, and a discreet link that checks the fair deal here.
  function resultPanel(S, held) {
    const m = S.match;
    const me = view.seat;
    const over = S.status === "finished";
    const change = me !== null && S.rating ? S.rating[String(me)] : null;
    let rating = null;
    if (change) {
      const d = change.after - change.before;
      rating = h("p", { class: "rating-change " + (d > 0 ? "up" : d < 0 ? "down" : "same"), id: "rating-change" },
        t("table.rating_change", { before: change.before, after: change.after, change: d > 0 ? `+${d}` : String(d) }));
    } else if (me !== null && !account()) {
      rating = h("p", { class: "muted small", id: "rating-change" }, t("table.unrated_guest"));
    }
    // Between deals of a match the panel stays until "Next deal": the deal starts once
    // every connected person has pressed it, and the others see who has.
    const ready = S.ready || [];
    const iAmReady = me !== null && ready.includes(me);
    const people = S.seats.filter((s) => s.kind === "human" && s.taken).length;
    const readyLine = !over && people > 1 ? h("p", { class: "muted small", id: "ready-list" },
      ready.length ? tn("table.ready_list", { names: joinNodes(ready.map((i) => nameOf(i))) })
        : t("table.ready_none")) : null;
    const buttons = h("div", { class: "buttons result-buttons" },
      !over && me !== null ? h("button", { id: "next-deal", class: iAmReady ? null : "primary",
        disabled: iAmReady ? true : null, onclick: () => { view.send({ type: "ready" }); } },
      iAmReady ? t("table.next_deal_waiting") : t("table.next_deal")) : null,
      over && held ? h("button", { class: "primary", id: "again", onclick: async () => {
        try { await api(`/api/tables/${tableId}/again`, { token: held.token }); } catch (e) { toast(e.message, "error"); }
      } }, t("table.rematch")) : null,
      h("a", { class: "button", id: "to-lobby", href: "#/" }, t("table.to_lobby")));
    return h("div", { class: "panel result", id: "result" },
      h("h2", { id: "result-title" }, resultText(S)),
      rating,
      over ? h("p", { class: "muted" }, t("table.match_over")) : null,
      buttons,
      readyLine,
      m && m.played > 0 && (m.deals !== 1 || m.played > 1) ? tallyTable(S) : null,
      S.fair && S.fair.seed ? verifyLink(S.fair) : null);
  }

  // Names (elements or text) joined by commas, for tn().
  function joinNodes(items) {
    const span = h("span", {});
    items.forEach((x, k) => { if (k) span.append(", "); span.append(x); });
    return span;
  }

  function tallyTable(S) {
    const m = S.match;
    const pog = /scoring=pogonny|^pogonny/.test(S.rules);
    return h("table", { class: "tally", id: "tally" },
      h("caption", {}, t("table.tally")),
      h("thead", {}, h("tr", {}, h("th", {}, t("table.tally_player")), h("th", {}, t("table.tally_durak")),
        pog ? h("th", {}, t("table.tally_pogony")) : null)),
      h("tbody", {}, S.seats.map((s, i) => h("tr", { class: i === view.seat ? "me" : null },
        h("td", {}, nameEl(s, i)), h("td", {}, m.durak_counts[i]),
        pog ? h("td", {}, (m.pogonny_scores || [])[i] ?? "") : null))));
  }

  function verifyLink(fair) {
    const out = h("div", { class: "verify", id: "verify" });
    const url = `${location.origin}/api/games/${fair.deal_id}`;
    const link = h("a", { href: "#", id: "verify-link", onclick: async (e) => {
      e.preventDefault();
      out.querySelector(".verify-result")?.remove();
      const res = h("p", { class: "verify-result", id: "verify-result" }, t("table.verify_checking"));
      out.append(res);
      res.replaceChildren(await verifyDeal(fair, url));
      res.append(h("br"), h("small", { class: "muted" }, t("table.verify_offline", { url })));
    } }, t("table.verify"));
    out.append(link);
    return out;
  }

  async function verifyDeal(fair, url) {
    try {
      const g = await api(`/api/games/${fair.deal_id}`);
      const sha = async (text) => [...new Uint8Array(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
        .map((b) => b.toString(16).padStart(2, "0")).join("");
      // The commitment is to the server's part; the deal's seed mixes in the players'
      // nonces: the first 63 bits of sha256("<server seed>:<salt>:<nonce>,<nonce>...").
      const server = g.server_seed ?? g.seed;
      const hex = await sha(`${server}:${g.salt}`);
      if (g.nonces) {
        const mixed = BigInt("0x" + (await sha(`${server}:${g.salt}:${g.nonces.join(",")}`)).slice(0, 16)) >> 1n;
        if (String(mixed) !== String(g.seed)) return t("table.verify_bad", { why: `mixed seed ${mixed} ≠ ${g.seed}` });
      }
      let seen = null;
      try { seen = localStorage.getItem(`durak.commit.${fair.deal_id}`); } catch { /* private mode */ }
      seen = seen || fair.commit;
      const seedLine = /^\[Seed "([^"]*)"\]/m.exec(g.record || "");
      if (hex !== g.commit || hex !== seen) return t("table.verify_bad", { why: `sha256 ${hex.slice(0, 16)}… ≠ ${seen.slice(0, 16)}…` });
      if (seedLine && seedLine[1] !== String(g.seed)) return t("table.verify_bad", { why: `Seed ${seedLine[1]} ≠ ${g.seed}` });
      return t("table.verify_ok", { seed: g.seed, commit: hex.slice(0, 16) });
    } catch (e) {
      return t("table.verify_bad", { why: e.message });
    }
  }

  // The clock: a bar and the seconds left. The server's deadline (wall clock) when it
  // sends one, else counted down here from when the turn began.
  function timerBar(S) {
    if (view.timerFor !== S.state) { view.timerFor = S.state; view.timerStart = performance.now(); }
    const total = Math.max(1000, (S.turn_timer || 60) * 1000);
    const leftNow = () => (S.deadline ? Math.max(0, S.deadline * 1000 - Date.now())
      : Math.max(0, total - (performance.now() - view.timerStart)));
    const secs = h("span", { class: "secs", id: "timer-secs" });
    const fill = h("div", { class: "fill" });
    const bar = h("div", { class: "timer", role: "timer", "aria-label": t("table.timer_label") },
      h("div", { class: "track" }, fill), secs);
    const update = () => {
      const left = leftNow();
      fill.style.width = `${Math.min(100, (100 * left) / total)}%`;
      secs.textContent = t("table.seconds_left", { n: Math.ceil(left / 1000) });
      bar.classList.toggle("low", left < 5000);
    };
    update();
    view.tick = setInterval(update, 250);
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
    const cards = cardsText(x.cards);
    if (x.kind === "attack") return t("table.play", { cards });
    if (x.kind === "transfer") return t("table.transfer", { cards });
    if (x.kind === "show") return t("table.show", { card: cards });
    if (x.kind === "defend") return t("table.beat", { card: cards, target: cardText(x.target) });
    return x.text;
  }

  // One move of the log as a sentence: "Anna leads 6♠", "You take", and a bot's move
  // for a person whose time ran out marked as such.
  function logText(e) {
    const x = parseAction(e.action);
    const mine = e.seat === view.seat;
    // (another's cheat reads as the move it pretends to be: an attentive player sees it)
    const kind = x.kind === "call" ? "call" : x.cheat && mine ? "cheat"
      : x.kind === "attack" ? (e.phase === "attack" ? "lead" : e.phase === "pile_on" ? "pile" : "throw") : x.kind;
    const vals = { who: nameEl(view.state.seats[e.seat], e.seat), cards: cardsText(x.cards),
      card: cardText(x.cards[0] || ""), target: x.target ? cardText(x.target) : "" };
    if (kind === "call" && e.caught !== undefined) {
      const key = mine ? `log.you.call_${e.caught ? "caught" : "wrong"}`
        : e.against === view.seat && view.seat !== null ? `log.call_${e.caught ? "caught" : "wrong"}_you`
          : `log.call_${e.caught ? "caught" : "wrong"}`;
      return tn(key, vals);
    }
    if (e.by === "timer") {
      const move = kind === "take" || kind === "pass" ? t(`table.${kind}`) : actionLabel(x);
      return tn(mine ? "log.you_timeout" : "log.timeout", { who: vals.who, move });
    }
    return tn(mine ? `log.you.${kind}` : `log.${kind}`, vals);
  }

  // Messages said before this page opened.
  api(`/api/chat/${tableId}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`).then((d) => { view.chat = d.messages.concat(view.chat); chat.update(); }, () => {});
  // A seat on the move long enough becomes idle: redraw so that its vote button shows.
  const idleCheck = setInterval(() => {
    const S = view.state;
    if (S && S.obs && S.obs.to_act !== null && S.obs.to_act !== view.seat &&
        kickButton(view, S, S.obs.to_act) && !$(`.seat[data-seat="${S.obs.to_act}"] .kick`, root)) render();
  }, 5000);

  connect();
  return { stop: () => {
    view.closed = true;
    for (const el of document.querySelectorAll("#toasts .toast.call")) el.remove();  // (this table's news)
    clearInterval(idleCheck);
    if (view.tick) clearInterval(view.tick);
    if (view.ws) view.ws.close();
  } };
}
