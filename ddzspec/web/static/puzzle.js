/* ddzspec web table: the Puzzle tab, endgames against the solver (an ES module, no build step). */
import {
  $, api, cardEl, cardText, cardsRow, el, faceText, hashParams, notation, plural, setHash,
  showMessage, symbolsToCards, wildBadge,
} from "./common.js";

const pz = { session: null, side: null, selected: new Set(), puzzles: [], busy: false, hintShown: false,
  sending: false };

// laizi positions (a "wild RANK" line): the wild rank, as a deal's g.wild ([{rank, symbol}])
function wildOf() { return (pz.session && pz.session.wild && pz.session.wild[0]) || null; }

// a hand's cards, each card of the wild rank marked wild (drawn as on the Play tab)
function parseHand(text) {
  const w = wildOf();
  return symbolsToCards(text).map((c) => (w && c.rank === w.rank ? { ...c, wild: true } : c));
}

// a move as the solver writes it ("79TJ*=789TJ": each * a wild card, then what it makes):
// the cards played (the wild ones marked)
function moveCards(text) {
  const w = wildOf();
  const played = String(text).split("=")[0];
  const wilds = (played.match(/\*/g) || []).length;
  const out = parseHand(played.replace(/\*/g, ""));
  for (let k = 0; k < wilds && w; k++) out.push({ rank: w.rank, symbol: w.symbol, wild: true });
  return out;
}

// a move in words: "7 9 10 J + wild 6 as 7 8 9 10 J" (cardText alone for a move with no wild card)
function moveWords(text) {
  const w = wildOf();
  const [played, made] = String(text).split("=");
  const wilds = (played.match(/\*/g) || []).length;
  if (!w || !wilds) return cardText(played);
  const natural = played.replace(/\*/g, "");
  return (natural ? cardText(natural) + " + " : "") + "wild " + faceText(w.symbol) +
    (wilds > 1 ? " ×" + wilds : "") + (made ? " as " + cardText(made) : "");
}

function humanSeats(game) {
  if (game.human_seats) return game.human_seats;
  if (pz.side === "peasants") return game.seats.filter((s) => s.startsWith("peasant"));
  return [pz.side];
}

/* ------------------------------------------------------------ puzzle list */

async function loadPuzzles() {
  const box = $("puzzle-list");
  box.innerHTML = "";
  try {
    const d = await api("GET", "/api/puzzles");
    pz.puzzles = d.puzzles;
    d.puzzles.forEach((p) => {
      const item = el("div", "puzzle-item");
      item.dataset.id = p.id;
      const head = el("div");
      head.appendChild(el("b", "", p.id + " "));
      head.appendChild(el("span", "", p.seats + " seats · " + p.cards.join("+") + " cards"));
      item.appendChild(head);
      const src = el("small", "", readableSource(p.source));
      src.title = p.source;
      item.appendChild(src);
      const row = el("div", "puzzle-sides");
      const mover = p.seats === 3 ? (p.to_move === "landlord" ? "landlord" : "peasants") : p.to_move;
      [mover, ...p.sides.filter((x) => x !== mover)].forEach((side) => {
        const b = el("button", side === mover ? "puzzle-btn primary" : "puzzle-btn", "as " + side);
        b.dataset.id = p.id;
        b.dataset.side = side;
        b.title = side === mover ? "the side to move" : "the other side";
        b.addEventListener("click", () => startPuzzle({ id: p.id, side }));
        row.appendChild(b);
      });
      item.appendChild(row);
      box.appendChild(item);
    });
  } catch (e) { box.textContent = e.message; }
}

// Chinese preset names need CJK fonts the machine may lack: say what they are instead
// (the original stays in the tooltip)
function readableSource(text) {
  return (text || "").replace(/[\u2E80-\u9FFF\uF900-\uFAFF]+/g, "(Chinese name)")
    .replace(/'\(Chinese name\)'/g, "with a Chinese name").replace(/\(\(Chinese name\)\)/g, "(Chinese name)");
}

function clearBoard(title) {
  // no puzzle on the board: nothing to click, Hint / Pass / Play disabled
  pz.session = null;
  pz.selected.clear();
  $("puzzle-title").textContent = title;
  ["puzzle-source", "puzzle-seats", "puzzle-table", "puzzle-hand-label", "puzzle-hand", "puzzle-log"].forEach((id) => { $(id).innerHTML = ""; });
  ["pz-hint", "pz-pass", "pz-play"].forEach((id) => { $(id).disabled = true; });
  ["pz-takeback", "pz-playon"].forEach((id) => $(id).classList.add("hidden"));
  $("puzzle-empty").classList.remove("hidden");
  $("puzzle-ui").classList.remove("picked");
  delete document.body.dataset.puzzle;
  setHash({ puzzle: null });
}

function introText(g) {
  // the verdict is true, false, or null when the solver could not decide in time
  const verdict = g.human_wins_with_best_play === true ? "You can win with best play: find how." :
    g.human_wins_with_best_play === false ? "Best play loses here: resist as long as you can." :
      "The solver could not decide in " + g.seconds + " s who wins from here: play on, " +
      "the computers answer as well as they can.";
  return "You play " + pz.side + ". " + verdict;
}

function showVerdict(v) {
  // what the server said of the person's last move (null: nothing to say); a wild move in
  // words, as the log writes it
  if (v && v.move && String(v.move).includes("*")) {
    v = { ...v, lines: v.lines.map((t) => t.split(v.move).join(moveWords(v.move))) };
  }
  if (v && v.keeps_win === false) {
    showMessage("puzzle-message", v.lines.join("\n"), "error");
  } else if (v && v.keeps_win) {
    showMessage("puzzle-message", "Good: " + (v.lines.join("\n") || "that keeps the win."), "info");
  } else if (v) showMessage("puzzle-message", v.lines.join("\n"), "info");
}

async function resumePuzzle(sid) {
  // a reload: the puzzle in the URL (#puzzle=SID) comes back as it was, as a deal does
  showMessage("puzzle-message", "Resuming the puzzle…", "info");
  try {
    const s = await api("GET", "/api/puzzles/" + sid);
    pz.session = s;
    pz.side = s.game.human;
    pz.selected.clear();
    pz.hintShown = false;
    showMessage("puzzle-message", introText(s.game), "info");
    showVerdict(s.verdict);
    renderPuzzle();
    runReplies();
  } catch (e) {
    clearBoard("The puzzle could not resume");
    showMessage("puzzle-message", e.message, "error");
  }
}

async function startPuzzle(body) {
  if (!pz.session) clearBoard("Starting the puzzle…");  // not a stale "could not start"
  showMessage("puzzle-message", "The solver is reading the position…", "info");
  pz.busy = false;
  try {
    const s = await api("POST", "/api/puzzles/start", body);
    pz.session = s;
    pz.body = body;
    const g = s.game;
    pz.side = body.side || (g.seats.length === 3 ?
      (g.to_move === "landlord" ? "landlord" : "peasants") : g.to_move);
    pz.selected.clear();
    pz.hintShown = false;
    setHash({ puzzle: s.sid });   // a reload resumes it
    showMessage("puzzle-message", introText(g), "info");
    renderPuzzle();
    runReplies();
    if (window.matchMedia("(max-width: 900px)").matches) $("puzzle-board").scrollIntoView();
  } catch (e) {
    clearBoard(body.position !== undefined ? "Your position could not start" : "The puzzle could not start");
    showMessage("puzzle-message", e.message, "error");
  }
}

/* ------------------------------------------------------------ puzzle board */

function renderPuzzle() {
  const s = pz.session;
  if (!s) return;
  const g = s.game;
  $("puzzle-empty").classList.add("hidden");
  $("puzzle-ui").classList.add("picked");
  $("puzzle-title").textContent = (s.puzzle ? "Puzzle " + s.puzzle.id : "Your position") +
    " · you play " + pz.side;
  const w = wildOf();
  if (w) {  // the wild rank, as the Play tab's badge
    $("puzzle-title").appendChild(document.createTextNode(" "));
    $("puzzle-title").appendChild(wildBadge(w.symbol, "pz-wild-badge"));
  }
  $("puzzle-source").textContent = s.puzzle ? readableSource(s.puzzle.source) : "";
  const seats = $("puzzle-seats");
  seats.innerHTML = "";
  const mine = humanSeats(g);
  g.seats.forEach((name) => {
    const box = el("div", "seat" + (g.to_move === name ? " turn" : ""));
    box.appendChild(el("div", "name", name + (mine.includes(name) ? " (you)" : " (solver)")));
    const cards = parseHand(g.hands[name]);
    const clickable = name === (g.human_to_move ? g.to_move : mine[0]);
    if (!cards.length) box.appendChild(el("div", "note", "no card left"));
    else if (clickable) box.appendChild(el("div", "note", plural(cards.length, "card") + ": your hand below"));
    else box.appendChild(cardsRow(cards));
    const target = (g.targets || {})[name];  // the duel handicap: wins at this many left
    if (target) box.appendChild(el("div", "note target", "wins at " + plural(target, "card") + " left"));
    seats.appendChild(box);
  });
  const table = $("puzzle-table");
  table.innerHTML = "";
  if (g.on_table) {
    const p = el("div", "play");
    p.appendChild(el("div", "who", "on the table, played by " + g.on_table[0]));
    p.appendChild(cardsRow(moveCards(g.on_table[1])));
    if (g.on_table[1].includes("=")) p.appendChild(el("div", "reading", moveWords(g.on_table[1])));
    table.appendChild(p);
  }
  // the human hand to click: the seat to move when it is the human's, else the first human seat
  const handSeat = g.human_to_move ? g.to_move : mine[0];
  const hand = $("puzzle-hand");
  hand.innerHTML = "";
  const own = parseHand(g.hands[handSeat]);
  // the hand is labelled as the other seats are: whose it is, and how many cards
  $("puzzle-hand-label").textContent = own.length ?
    "Your hand · " + handSeat + " · " + plural(own.length, "card") : "";
  own.forEach((cd, i) => {
    const c = cardEl(cd);
    c.dataset.index = i;
    if (pz.selected.has(i)) c.classList.add("selected");
    c.addEventListener("click", () => {
      if (pz.selected.has(i)) pz.selected.delete(i); else pz.selected.add(i);
      if (pz.hint) pz.hint.index = -1;   // a hand-made selection: Hint starts over
      renderPuzzle();
    });
    hand.appendChild(c);
  });
  pz.handCards = parseHand(g.hands[handSeat]);
  const can = g.human_to_move && !g.over && !pz.busy;
  $("pz-play").disabled = !can;
  $("pz-hint").disabled = !can;
  $("pz-pass").disabled = !can || !g.on_table || (s.legal && !s.legal.includes("PASS"));
  const flagged = s.verdict && s.verdict.keeps_win === false;
  $("pz-takeback").classList.toggle("hidden", !g.history.some(([seat]) => mine.includes(seat)));
  $("pz-playon").classList.toggle("hidden", !(flagged && !g.human_to_move && !g.over));
  const log = $("puzzle-log");
  log.innerHTML = "";
  g.history.forEach(([seat, mv]) => log.appendChild(el("li", mine.includes(seat) ? "me-act" : "",
    seat + ": " + (mv === "PASS" ? "pass" : moveWords(mv)))));
  document.body.dataset.pzmoves = g.history.length;
  document.body.dataset.puzzle = g.over ? "over" : (g.human_to_move ? "human" : "solver");
  if (g.over) {
    const won = g.winner === pz.side || (pz.side === "peasants" && g.winner === "peasants") ||
      mine.includes(g.winner);
    showMessage("puzzle-message", (won ? "Solved! " : "Lost. ") + g.winner + " wins." +
      (won ? "" : " Take back and try another line."), won ? "info" : "error");
  }
}

async function runReplies() {
  if (pz.busy) return;
  pz.busy = true;
  try {
    while (pz.session && !pz.session.game.over && !pz.session.game.human_to_move) {
      const v = pz.session.verdict;
      if (v && v.keeps_win === false && !pz.playOn) break;   // wait: take back or play on
      await new Promise((r) => setTimeout(r, 400));
      pz.session = await api("POST", "/api/puzzles/" + pz.session.sid + "/reply");
      renderPuzzle();
    }
  } catch (e) { showMessage("puzzle-message", e.message, "error"); }
  pz.busy = false;
  renderPuzzle();
}

async function puzzleMove(move) {
  const s = pz.session;
  if (!s || pz.sending) return;   // one request at a time: a double click sends it once
  pz.sending = true;
  try {
    const r = await api("POST", "/api/puzzles/" + s.sid + "/move", { move });
    pz.session = r;
    pz.selected.clear();
    pz.playOn = false;
    showVerdict(r.verdict);
    pz.sending = false;
    renderPuzzle();
    runReplies();
  } catch (e) { showMessage("puzzle-message", e.message, "error"); } finally { pz.sending = false; }
}

function selectedPuzzleText() {
  // the hint's move as the solver wrote it (its reading included) when the selection is still
  // the hint's: a wild play then reads as the hint said
  const h = pz.hint;
  if (h && h.index >= 0 && h.picked && h.picked === [...pz.selected].sort((a, b) => a - b).join(",")) {
    return h.moves[h.index];
  }
  return [...pz.selected].sort((a, b) => a - b).map((i) => pz.handCards[i].symbol).join(" ");
}

async function puzzleHint() {
  // as in a deal: Hint selects a winning move in the hand; Hint again, the next one
  if (!pz.session) return;
  try {
    // the moves come in the page's notation: a change of notation asks again
    const key = pz.session.sid + " " + notation() + " " + JSON.stringify(pz.session.game.history);
    if (!pz.hint || pz.hint.key !== key) {
      const d = await api("GET", "/api/puzzles/" + pz.session.sid + "/hint");
      pz.hint = { key, moves: d.moves, unknown: d.unknown, index: -1 };
    }
    const h = pz.hint;
    if (h.unknown) {  // the solver ran out of time: no list, and no claim that none wins
      showMessage("puzzle-message", "The solver could not find the winning moves in time (" +
        pz.session.game.seconds + " s): no hint.", "info");
      return;
    }
    if (!h.moves.length) {
      showMessage("puzzle-message", "No move wins here against perfect defence.", "info");
      return;
    }
    h.index = (h.index + 1) % h.moves.length;
    const move = h.moves[h.index];
    pz.selected.clear();
    const used = new Set();
    if (move !== "PASS") {  // a wild card (*) takes a card of the wild rank, a natural one its own
      moveCards(move).forEach((cd) => {
        const i = pz.handCards.findIndex((c, k) => !used.has(k) && c.symbol === cd.symbol &&
          !c.wild === !cd.wild);
        if (i >= 0) { used.add(i); pz.selected.add(i); }
      });
    }
    h.picked = [...pz.selected].sort((a, b) => a - b).join(",");
    renderPuzzle();
    const shown = (m) => m === "PASS" ? "pass" : moveWords(m);
    showMessage("puzzle-message", "Winning moves: " + h.moves.map(shown).join(", ") +
      "\nHint " + (h.index + 1) + " of " + h.moves.length + ": " + shown(move) +
      (move === "PASS" ? " (press Pass)" : " (selected: press Play)") +
      (h.moves.length > 1 ? "; Hint again for the next" : ""), "info");
  } catch (e) { showMessage("puzzle-message", e.message, "error"); }
}

async function takeBack() {
  if (!pz.session || pz.sending) return;   // a double click takes back one move
  pz.sending = true;
  try {
    pz.session = await api("POST", "/api/puzzles/" + pz.session.sid + "/takeback");
    pz.selected.clear();
    showMessage("puzzle-message", "Taken back: your move again.", "info");
    pz.sending = false;
    renderPuzzle();
  } catch (e) { showMessage("puzzle-message", e.message, "error"); } finally { pz.sending = false; }
}

/** The puzzle on the board again, in the notation just chosen. */
export async function puzzleRefresh() {
  if (!pz.session) return;
  pz.session = await api("GET", "/api/puzzles/" + pz.session.sid);
  renderPuzzle();
}

/** Back and Forward move between deals only: the URL keeps naming the puzzle on the board. */
export function puzzleHashSync() {
  setHash({ puzzle: pz.session ? pz.session.sid : null });
}

/** Start the Puzzle tab: the shipped puzzles, its buttons, the puzzle the URL names. */
export function initPuzzle() {
  loadPuzzles();
  $("pz-play").addEventListener("click", () => {
    if (!pz.selected.size) { showMessage("puzzle-message", "Select cards first, or ask for a hint.", "error"); return; }
    puzzleMove(selectedPuzzleText());
  });
  $("pz-pass").addEventListener("click", () => puzzleMove(null));
  $("pz-hint").addEventListener("click", puzzleHint);
  $("pz-takeback").addEventListener("click", takeBack);
  $("pz-playon").addEventListener("click", () => { pz.playOn = true; runReplies(); });
  $("puzzle-start-text").addEventListener("click", () => startPuzzle(Object.assign({ position: $("puzzle-text").value },
    $("puzzle-side").value ? { side: $("puzzle-side").value } : {})));
  const sid = hashParams().get("puzzle");
  if (sid && /^[0-9a-f]{16}$/.test(sid)) resumePuzzle(sid);
  else if (sid) setHash({ puzzle: null });
}
