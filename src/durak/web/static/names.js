// How people and results are named on the page: bot names in the page's language,
// the server's default names translated, results in words.

import { t, tn } from "./i18n.js";

export function botNames() { return t("bot.names").split(","); }

export function botLabel(spec) {
  if (spec && spec.startsWith("level:")) return t("bot.level_short", { n: spec.slice(6) });
  if (spec === "cheater") return t("bot.cheater");
  if (spec === "catcher") return t("bot.catcher");
  return spec || "";
}

// A seat's name as this page shows it: server defaults ("Bot 3", "Player 2") translated.
export function seatName(s, i) {
  const name = s && s.name;
  let m = name && /^Bot (\d+)$/.exec(name);
  if (m) return botNames()[(Number(m[1]) - 2 + 6) % 6];
  m = name && /^(?:Player|Seat) (\d+)$/.exec(name);
  if (m) return t("player.default", { n: m[1] });
  return name || t("player.default", { n: i + 1 });
}

// A seat's name as an element: people's names are marked as not in the page's language.
export function nameEl(s, i) {
  const el = document.createElement("span");
  el.className = "name";
  const bot = (s && s.kind === "bot") || /^Bot \d+$/.test((s && s.name) || "");
  if (!bot) el.setAttribute("translate", "no");
  el.textContent = seatName(s, i);
  return el;
}

// An engine result text ("durak 1", "durak 0 pogony 2", "draw") in words.
export function resultWords(result, names) {
  if (!result) return "";
  if (result === "draw") return t("result.draw");
  const m = /^durak (\d+)(?: pogony (\d+))?/.exec(result);
  if (!m) return result;
  const who = nameEl({ name: names[Number(m[1])] }, Number(m[1]));
  return [...tn("result.durak_is", { name: who }), m[2] ? ` (${t("result.pogony", { n: Number(m[2]) })})` : ""];
}

