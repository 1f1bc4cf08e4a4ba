// Russian and English from the project's message catalogue (src/durak/i18n/*.json,
// served at /i18n/<domain>.json), the same files the terminal reads.
// t(key, {name: ...}) fills {name}; a counted phrase picks its form by {n} with the
// standard Intl.PluralRules (CLDR).

const DOMAINS = ["common", "web", "howto", "review"];
let CAT = {};
const plurals = {};

let lang = localStorage.getItem("durak.lang") ||
  ((navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en");

export async function loadCatalogue() {
  const parts = await Promise.all(DOMAINS.map(async (d) => {
    const r = await fetch(`/i18n/${d}.json`);
    if (!r.ok) throw new Error(`catalogue ${d}: ${r.status}`);
    return r.json();
  }));
  CAT = Object.assign({}, ...parts);
}

export function getLang() { return lang; }

export function setLang(l) {
  lang = l;
  localStorage.setItem("durak.lang", l);
  document.documentElement.lang = l;
}

export function has(key) { return key in CAT; }

// The raw entry in this language: a string, an object of plural forms, or (howto) a page.
export function entry(key) {
  const e = CAT[key];
  if (!e) return undefined;
  return e[lang] !== undefined ? e[lang] : e.en;
}

export function t(key, args = {}) {
  let s = entry(key);
  if (s === undefined) { console.error(`no message ${key}`); return key; }
  if (typeof s === "object") {
    plurals[lang] = plurals[lang] || new Intl.PluralRules(lang);
    s = s[plurals[lang].select(Number(args.n))] || s.other;
  }
  for (const [k, v] of Object.entries(args)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

// Like t, but values may be elements (a person's name, marked translate="no"): the
// result is a list of strings and elements to append.
export function tn(key, args = {}) {
  const plain = {};
  const nodes = {};
  for (const [k, v] of Object.entries(args)) {
    if (v instanceof Node) { nodes[k] = v; plain[k] = `\u0000${k}\u0000`; } else plain[k] = v;
  }
  return t(key, plain).split("\u0000").map((part, i) => (i % 2 ? nodes[part] : part)).filter((x) => x !== "");
}

// Ranks as players of the language write them: В Д К Т in Russian.
const RANK_NUM = { J: 11, Q: 12, K: 13, A: 14 };
export function rankText(rank) {
  return RANK_NUM[rank] ? t(`rank.${RANK_NUM[rank]}`) : rank;
}
export function cardText(card) { return rankText(card.slice(0, -1)) + card.slice(-1); }
export function cardsText(cards) { return cards.map(cardText).join(" "); }

export function optionLabel(name) { return t(`opt.${name}`); }
export function optionHelp(name) { return t(`opt_help.${name}`); }
export function presetLabel(name) { return t(`preset.${name}`); }

// A rule option's value in words; `value` as the rules' text form writes it.
export function valueText(name, value) {
  if (value === "on" || value === true) return t("val.on");
  if (value === "off" || value === false) return t("val.off");
  if (has(`val.${name}.${value}`)) return t(`val.${name}.${value}`);
  if (name === "deck") return t("count.cards", { n: Number(value) });
  return String(value);
}

// A rule set, from its text form "perevodnoy(players=4,teams=2x2)", as players name it:
// "Переводной, 4 игрока, 2×2". The same words as durak.i18n.rules_name.
export function rulesName(text) {
  const m = /^([^(]*)(?:\((.*)\))?$/.exec(String(text || "").trim());
  if (!m) return text;
  const over = new Map();
  for (const item of (m[2] || "").split(",").filter(Boolean)) {
    const [k, v] = item.split("=");
    over.set(k, v);
  }
  const parts = [presetLabel(m[1] || "podkidnoy"), t("count.players", { n: Number(over.get("players") || 2) })];
  over.delete("players");
  if (over.has("deck")) { parts.push(t("count.cards", { n: Number(over.get("deck")) })); over.delete("deck"); }
  if (over.has("teams")) { parts.push(valueText("teams", over.get("teams"))); over.delete("teams"); }
  for (const [k, v] of over) parts.push(t("rules.option_value", { option: optionLabel(k), value: valueText(k, v) }));
  return parts.join(t("rules.joiner"));
}
