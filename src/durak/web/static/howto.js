// "How to play": one page per variant for someone who has never played, from the
// catalogue's howto domain (the terminal shows the same pages).

import { entry, getLang, presetLabel, t } from "./i18n.js";
import { h, pageHeader } from "./ui.js";

// (durak.PRESETS, in its order: a browser test opens every one of them)
const PRESETS = ["podkidnoy", "perevodnoy", "perevodnoy-proezdnoy", "prostoy", "pogonny", "pagony",
  "beskozyrny", "piki-pikami", "shulerskiy", "dvukhkozyrny"];

// The English pages quote Russian terms («беру», «бито»): marked as Russian, as they are.
function para(text) {
  if (getLang() === "ru") return h("p", {}, text);
  return h("p", {}, text.split(/([А-Яа-яЁё][А-Яа-яЁё, ]*[А-Яа-яЁё]|[А-Яа-яЁё])/).map((part, i) =>
    (i % 2 ? h("span", { lang: "ru" }, part) : part)));
}

function sections(list) {
  return list.map((s) => h("section", { class: "howto-section" }, h("h3", {}, s.title),
    s.text.map(para)));
}

export function howtoView(app, preset, rerender) {
  const chosen = PRESETS.includes(preset) ? preset : null;
  const nav = h("nav", { class: "howto-nav", id: "howto-nav" }, PRESETS.map((p) =>
    h("a", { href: `#/howto/${p}`, class: "button" + (p === chosen ? " primary" : ""),
      "aria-current": p === chosen ? "page" : null }, presetLabel(p))));
  const body = h("article", { class: "panel howto", id: "howto" });
  if (!chosen) {
    body.append(h("h2", {}, t("howto.index_title")), h("p", {}, t("howto.index_intro")), nav,
      h("h2", {}, t("howto.basics_title")), ...sections(entry("howto.basics")));
  } else {
    const page = entry(`howto.${chosen}`);
    // What is different in this game first; the basics every durak shares after it
    // (the same order as durak.i18n.howto, which the terminal shows).
    const game = presetLabel(chosen);
    // a section shared with подкидной (throwing in) is no difference: it goes with the basics
    const shared = new Set(chosen === "podkidnoy" ? [] : entry("howto.podkidnoy").sections.map((x) => x.title));
    body.append(h("h2", {}, game), nav, h("p", { class: "intro" }, page.intro),
      h("h2", { id: "howto-different" }, t("howto.variant_title")), para(t("howto.different_lead", { game })),
      ...sections(page.sections.filter((x) => !shared.has(x.title))),
      h("h2", { id: "howto-rest" }, t("howto.rest_title")), para(t("howto.rest_note", { game })),
      ...sections(page.sections.filter((x) => shared.has(x.title))),
      ...sections(entry("howto.basics")),
      h("p", {}, h("a", { href: "#/", class: "button primary", id: "howto-play",
        onclick: () => localStorage.setItem("durak.preset", chosen) }, t("howto.play_this"))));
  }
  app.append(pageHeader(rerender), h("main", { class: "page" }, body));
  return { stop: () => {} };
}
