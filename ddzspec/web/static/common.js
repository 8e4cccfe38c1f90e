/* ddzspec web table: what every tab shares: the page's state, the API, the URL's hash,
   messages, and cards as text and as faces (an ES module, no build step). */

export const $ = (id) => document.getElementById(id);
export const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

export const app = {
  meta: null,          // /api/rules
  game: null,          // current game JSON
  selected: new Set(), // indexes into game.hand_cards
  hintIndex: -1,
  busy: false,
  sending: false,  // a human action's request is in flight
  replay: null, replayPos: 0,
  puzzle: null, puzzleSel: new Set(),
};

export function notation() { return $("notation").value; }

export async function api(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let r;
  // a busy server (503 with Retry-After: too much thinking queued) did nothing: ask again
  for (let tries = 0; ; tries++) {
    try { r = await fetch(path + sep + "notation=" + notation(), opts); } catch (e) {
      const err = new Error("The server does not answer: is `ddzspec serve` still running? Start it again, then reload the page.");
      err.status = 0; throw err;
    }
    const wait = Number(r.headers.get("Retry-After"));
    if (r.status !== 503 || !wait || tries >= 60) break;
    await new Promise((res) => setTimeout(res, wait * 1000));
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: "the server sent no JSON" }; }
  if (!r.ok) {  // err.data: the whole answer (a play's "readings" to choose from, issue 26)
    const err = new Error(data.error || r.statusText); err.status = r.status; err.data = data; throw err;
  }
  return data;
}

/* the URL's hash holds what a reload resumes: game=ID, the deal of the Play tab, and
   puzzle=SID, the puzzle of the Puzzle tab (each kept when the other changes) */
export function hashParams() { return new URLSearchParams(location.hash.slice(1)); }

export function setHash(changes, push) {
  // push: a new history entry (Back returns to the one before), else the current one replaced
  const h = hashParams();
  Object.entries(changes).forEach(([k, v]) => { if (v) h.set(k, v); else h.delete(k); });
  const text = h.toString();
  const url = location.pathname + location.search + (text ? "#" + text : "");
  if (url === location.pathname + location.search + location.hash) return;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

export function showMessage(id, text, kind) {
  const m = $(id);
  m.textContent = text || "";
  m.className = "message" + (text ? " " + (kind || "info") : "");
}

/* ---------------------------------------------------------------- cards */

// what a card face shows for a symbol: "10" for the ten, as on real cards
export function faceText(symbol) { return symbol === "T" ? "10" : symbol; }
// card text as the faces show it: the ten is "10"; a group with a two-character face (10,
// French PJ / GJ) has its cards set off by spaces, as the hands at the end are written
// ("9 10 J Q K", "10 10 10+9", "R R PJ"), others run together ("333+4"); "+" is kept
export function cardText(text) {
  return String(text || "").split("+").map((group) => {
    const faces = symbolsToCards(group).map((c) => faceText(c.symbol));
    return faces.join(faces.some((x) => x.length > 1) ? " " : "");
  }).join("+");
}

// a sentence the server ends with cards ("plays TT+3", its cards given apart): the same
// sentence with the cards as cardText writes them
export function withCards(text, cards) {
  if (!cards || !text.endsWith(cards)) return text;
  return text.slice(0, text.length - cards.length) + cardText(cards);
}

export function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

export function cardEl(card) {
  const c = el("div", "card");
  c.dataset.rank = card.rank;
  c.dataset.symbol = card.symbol;
  if (card.rank >= 13) {
    const big = card.rank === 14;
    c.classList.add("joker", big ? "big" : "small");
    c.title = big ? "big joker" : "small joker";
    const corner = el("div", "corner", "JOKER");
    c.appendChild(corner);
    c.appendChild(el("div", "pip", big ? "★" : "☆"));
    c.setAttribute("aria-label", c.title);
    return c;
  }
  // ranks only: Dou Dizhu ignores suits, and a suit drawn per copy would show the same card
  // twice (a 4♠ in the trick and a 4♠ still in the hand: the engine does not track suits)
  const corner = el("div", "corner");
  corner.appendChild(el("span", "r", faceText(card.symbol)));
  c.appendChild(corner);
  c.setAttribute("aria-label", faceText(card.symbol));
  if (card.wild) {  // a card of the drawn wild rank (laizi): marked under its corner
    c.classList.add("wild");
    c.appendChild(el("div", "wild-mark", "wild"));
    c.setAttribute("aria-label", faceText(card.symbol) + " (wild)");
    c.title = faceText(card.symbol) + " (wild): stands for any rank but a joker in a combination; alone, it is itself";
  }
  return c;
}

// the wild rank's badge (laizi), with the element id given: the Play tab's and the Puzzle tab's
export function wildBadge(symbol, id) {
  const b = el("span", "wild-badge", "Wild: " + faceText(symbol));
  b.id = id;
  b.title = "Every " + faceText(symbol) + " is wild: in a combination it stands for any rank but a joker; alone, it is itself";
  b.setAttribute("aria-label", "wild rank " + faceText(symbol));
  return b;
}

// a factor's cards in the records' notation ("KK**": two natural kings and two wild cards,
// laizi's soft bomb) as the page writes them: "KK + 2 wild"
export function wildCardsText(text) {
  const wild = (String(text || "").match(/\*/g) || []).length;
  const natural = cardText(String(text || "").replace(/\*/g, ""));
  if (!wild) return natural;
  return (natural ? natural + " + " : "") + wild + " wild";
}

export function cardsRow(cards) {
  const row = el("div", "cards");
  cards.forEach((cd) => {
    row.appendChild(cardEl(cd));
  });
  return row;
}

export function moveSymbols(text) {
  return symbolsToCards(text).map((c) => c.symbol);
}

export function symbolsToCards(text) {
  // cards text in the current notation -> [{rank, symbol}], for drawing
  const syms = app.meta.symbols[notation()];
  const order = syms.map((x, i) => [x, i]).sort((a, b) => b[0].length - a[0].length);
  const out = [];
  let s = (text || "").replace(/[+\s,]/g, "");
  while (s.length) {
    const m = order.find(([x]) => s.startsWith(x));
    if (!m) { s = s.slice(1); continue; }
    out.push({ rank: m[1], symbol: m[0] });
    s = s.slice(m[0].length);
  }
  return out;
}
