// What a table offers besides playing cards: chat, voting off an idle player, and
// hint and undo when only bots are the opponents. Filled in as the server offers them.

export function extrasBar() { return null; }
export function chatBox() { return document.createElement("div"); }
export function kickButton() { return null; }
