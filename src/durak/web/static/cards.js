// Cards drawn as SVG: faces from their text ("10♠"), and the back.

const RED = new Set(["♥", "♦"]);
const RU_RANKS = { J: "В", Q: "Д", K: "К", A: "Т" };

export function parseCard(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank, suit, red: RED.has(suit), text };
}

// The rank as people read it: В Д К Т in Russian.
export function rankLabel(rank, lang) {
  return lang === "ru" && RU_RANKS[rank] ? RU_RANKS[rank] : rank;
}

// Pips for the number cards: [x, y] in a 60x84 box; faces get a big letter.
const PIPS = {
  2: [[30, 22], [30, 62]],
  3: [[30, 20], [30, 42], [30, 64]],
  4: [[20, 22], [40, 22], [20, 62], [40, 62]],
  5: [[20, 22], [40, 22], [30, 42], [20, 62], [40, 62]],
  6: [[20, 22], [40, 22], [20, 42], [40, 42], [20, 62], [40, 62]],
  7: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [20, 62], [40, 62]],
  8: [[20, 20], [40, 20], [30, 30], [20, 42], [40, 42], [30, 54], [20, 64], [40, 64]],
  9: [[20, 20], [40, 20], [20, 34], [40, 34], [30, 42], [20, 50], [40, 50], [20, 64], [40, 64]],
  10: [[20, 19], [40, 19], [30, 28], [20, 35], [40, 35], [20, 49], [40, 49], [30, 56],
    [20, 65], [40, 65]],
};

export function cardSVG(text, lang = "en") {
  const c = parseCard(text);
  const colour = c.red ? "#c8102e" : "#1b1b1b";
  const label = rankLabel(c.rank, lang);
  const n = Number(c.rank);
  let middle;
  if (PIPS[n]) {
    middle = PIPS[n].map(([x, y]) =>
      `<text x="${x}" y="${y + 5}" font-size="13" text-anchor="middle">${c.suit}</text>`).join("");
  } else if (c.rank === "A") {
    middle = `<text x="30" y="54" font-size="34" text-anchor="middle">${c.suit}</text>`;
  } else {
    middle = `<rect x="13" y="17" width="34" height="50" rx="3" fill="none" stroke="${colour}" stroke-width="0.8" opacity="0.6"/>` +
      `<text x="30" y="44" font-size="20" font-weight="700" text-anchor="middle">${label}</text>` +
      `<text x="30" y="61" font-size="14" text-anchor="middle">${c.suit}</text>`;
  }
  return `<svg class="face" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}${c.suit}">` +
    `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fffdf8" stroke="#8a8a8a"/>` +
    `<g fill="${colour}" font-family="Georgia, 'DejaVu Serif', serif">` +
    `<text x="4" y="13" font-size="11" font-weight="700">${label}</text>` +
    `<text x="4" y="23" font-size="10">${c.suit}</text>` +
    `<g transform="rotate(180 30 42)"><text x="4" y="13" font-size="11" font-weight="700">${label}</text>` +
    `<text x="4" y="23" font-size="10">${c.suit}</text></g>` +
    middle + `</g></svg>`;
}

export function backSVG() {
  return `<svg class="back" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    `<defs><pattern id="lattice" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="8" height="8" fill="#2b4c8c"/><path d="M0 4H8M4 0V8" stroke="#6f8fd0" stroke-width="1"/></pattern></defs>` +
    `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#8a8a8a"/>` +
    `<rect x="4" y="4" width="52" height="76" rx="3" fill="url(#lattice)"/></svg>`;
}

// A card element: <div class="card" data-card="10♠">svg</div>
export function cardEl(text, lang, extra = "") {
  const div = document.createElement("div");
  div.className = "card " + extra;
  div.dataset.card = text;
  div.innerHTML = cardSVG(text, lang);
  return div;
}

export function backEl(extra = "") {
  const div = document.createElement("div");
  div.className = "card back " + extra;
  div.innerHTML = backSVG();
  return div;
}
