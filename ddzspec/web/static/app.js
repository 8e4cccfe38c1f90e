/* ddzspec web table: the page's entry module, the Play tab and the start (the Puzzle tab in
   puzzle.js, Learn in learn.js, what they share in common.js); ES modules, no build step, no
   network beyond this server. */
import {
  $, api, app, cardEl, cardText, cardsRow, el, faceText, hashParams, moveSymbols, notation, plural,
  setHash, showMessage, symbolsToCards, wildBadge, wildCardsText, withCards,
} from "./common.js";
import { initLearn } from "./learn.js";
import { initPuzzle, puzzleHashSync, puzzleRefresh } from "./puzzle.js";

const params = new URLSearchParams(location.search);
const DELAY = params.has("delay") ? Number(params.get("delay")) : 650;

function playable() { return app.meta.rules.filter((r) => r.playable !== false); }

/* ---------------------------------------------------------------- setup */

function seatName(g, s) {
  if (s === g.seat) return "You";
  return "Seat " + s + " · computer level " + g.levels[s];
}

function setupRulesChanged() {
  const r = app.meta.rules.find((x) => x.name === $("setup-rules").value);
  const seat = $("setup-seat");
  const keep = seat.value;
  seat.innerHTML = "";
  for (let s = 0; s < r.players; s++) {
    const o = el("option", "", "Seat " + s);
    o.value = s; seat.appendChild(o);
  }
  if (keep && Number(keep) < r.players) seat.value = keep;
  renderLevelInputs();
}

function renderLevelInputs() {
  const r = app.meta.rules.find((x) => x.name === $("setup-rules").value);
  const me = Number($("setup-seat").value);
  const box = $("setup-levels");
  box.innerHTML = "";
  for (let s = 0; s < r.players; s++) {
    if (s === me) continue;
    const lab = el("label", "", "Seat " + s + " computer ");
    const sel = el("select");
    sel.id = "setup-level-" + s;
    [[1, "1 · beginner"], [2, "2 · intermediate"], [3, "3 · expert (0.5 s a move)"]].forEach(([v, t]) => {
      const o = el("option", "", t); o.value = v; sel.appendChild(o);
    });
    sel.value = localStorage.getItem("ddz-level-" + s) || "2";
    sel.addEventListener("change", () => localStorage.setItem("ddz-level-" + s, sel.value));
    lab.appendChild(sel);
    box.appendChild(lab);
  }
}

async function loadSaved() {
  const box = $("saved-list");
  const ticket = (app.savedTicket = (app.savedTicket || 0) + 1);
  try {
    const d = await api("GET", "/api/games");
    if (ticket !== app.savedTicket) return;   // a newer listing is on its way
    box.innerHTML = "";
    if (!d.games.length) box.appendChild(el("div", "note", "No saved deals yet."));
    d.games.slice(0, 12).forEach((g) => {
      const a = el("a", "saved");
      a.appendChild(el("b", "", g.title || g.rules));
      const res = g.phase === "over" ? (g.points === null ? "over" :
        (g.points > 0 ? "won " : "lost ") + (g.points > 0 ? "+" : "") + g.points) :
        "in progress · " + plural(g.actions, "action");
      a.appendChild(el("span", "", " · you at seat " + g.seat + " · " + res));
      a.appendChild(el("small", "", new Date(g.saved * 1000).toLocaleString([], {
        month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" })));
      a.href = "#game=" + g.id;
      box.appendChild(a);
    });
  } catch (e) { if (ticket === app.savedTicket) box.textContent = e.message; }
}

function showSetup(push) {
  // push (the New deal buttons): the setup screen is a new history entry, so Back returns to
  // the deal left (the hashchange handler resumes it)
  app.game = null;
  app.busy = false;
  $("setup").classList.remove("hidden");
  $("table-wrap").classList.add("hidden");
  $("result").classList.add("hidden");
  setHash({ game: null }, push === true);
  loadSaved();
}

async function startGame() {
  const rules = $("setup-rules").value;
  const seat = Number($("setup-seat").value);
  const levels = setupLevels();
  localStorage.setItem("ddz-rules", rules);
  localStorage.setItem("ddz-seat", seat);
  const body = { rules, seat, levels };
  if (params.has("seed")) body.seed = Number(params.get("seed"));
  $("btn-start").disabled = true;
  showMessage("setup-message", "");
  try {
    const g = await api("POST", "/api/games", body);
    openGame(g, true);
  } catch (e) {
    showMessage("setup-message", "The deal could not start: " + e.message, "error");
  } finally { $("btn-start").disabled = false; }
}

function setupLevels() {
  // one level per seat from the dropdowns (the person's own entry is ignored by the server)
  const r = app.meta.rules.find((x) => x.name === $("setup-rules").value);
  const seat = Number($("setup-seat").value);
  const levels = [];
  for (let s = 0; s < r.players; s++) levels.push(s === seat ? 1 : Number($("setup-level-" + s).value));
  return levels;
}

function openGame(g, push) {
  $("setup").classList.add("hidden");
  $("table-wrap").classList.remove("hidden");
  $("result").classList.add("hidden");
  $("replay").classList.add("hidden");
  showMessage("message", "");
  // a new deal is a new history entry: Back returns to the setup screen
  setHash({ game: g.id }, push);
  setGame(g);
}

async function resync() {
  // reload the deal after a refused action (another tab may have moved on)
  if (!app.game) return;
  try { setGame(await api("GET", "/api/games/" + app.game.id)); } catch (e) { /* keep the message */ }
}

async function resumeFromHash() {
  const m = /^([0-9a-fA-F]{16})$/.exec(hashParams().get("game") || "");
  if (!m) return false;
  if (app.game && app.game.id === m[1].toLowerCase()) return true;
  try {
    const g = await api("GET", "/api/games/" + m[1]);
    openGame(g);
    return true;
  } catch (e) {
    showSetup();
    return false;
  }
}

/* ---------------------------------------------------------------- table */

function setGame(g) {
  const handChanged = !app.game || app.game.id !== g.id || app.game.view.hand !== g.view.hand;
  app.game = g;
  if (handChanged) { app.selected.clear(); app.hintIndex = -1; }
  if (!g.legal.kind) app.hintIndex = -1;
  render();
  if (g.computer_to_act) runComputers();
  else if (g.view.result) showResult();
}

async function runComputers() {
  if (app.busy) return;
  app.busy = true;
  try {
    while (app.game && app.game.computer_to_act) {
      await new Promise((res) => setTimeout(res, DELAY));
      const gid = app.game.id;
      const g = await api("POST", "/api/games/" + gid + "/computer");
      if (!app.game || app.game.id !== gid) return;
      app.game = g;
      render(g.acted ? g.acted.seat : null);
    }
  } catch (e) {
    showMessage("message", e.message, "error");
    app.busy = false;
    if (e.status === 409) { await resync(); return; }
  } finally {
    app.busy = false;
  }
  if (app.game && app.game.view.result) showResult();
}

function seatPositions(g) {
  // where each seat sits: the person at the bottom, the others to the right / top / left
  const pos = {};
  const n = g.players;
  if (n === 2) pos[(g.seat + 1) % 2] = "top";
  else { pos[(g.seat + 1) % 3] = "right"; pos[(g.seat + 2) % 3] = "left"; }
  return pos;
}

function lastSaid(g, s) {
  for (let i = g.log.length - 1; i >= 0; i--) {
    if (g.log[i].seat === s) return withCards(g.log[i].text, g.log[i].cards);
  }
  return "";
}

function render(actedSeat) {
  const g = app.game;
  document.body.dataset.actions = g.actions;
  document.body.dataset.phase = g.view.phase;
  const v = g.view;
  const pos = seatPositions(g);
  ["top", "left", "right"].forEach((p) => { $("seat-" + p).innerHTML = ""; });
  const warn = {};
  Object.entries(v.warnings).forEach(([s, w]) => { warn[s] = w; });
  for (let s = 0; s < g.players; s++) {
    if (s === g.seat) continue;
    const box = el("div", "seat" + (v.turn === s ? " turn" : ""));
    box.id = "seat-" + s;
    const name = el("div", "name", seatName(g, s));
    if (v.landlord !== null) {
      const isL = v.landlord === s;
      name.appendChild(el("span", "role " + (isL ? "landlord" : "peasant"), isL ? "landlord" : "peasant"));
    }
    box.appendChild(name);
    const backs = el("div", "backs");
    for (let i = 0; i < Math.min(v.cards_left[s], 12); i++) backs.appendChild(el("div", "back"));
    box.appendChild(backs);
    const cnt = el("div", "count", String(v.cards_left[s]));
    cnt.title = plural(v.cards_left[s], "card") + " left";
    box.appendChild(cnt);
    if (warn[s]) box.appendChild(el("div", "warning", warn[s]));
    if (v.targets && g.players === 2) {
      box.appendChild(el("div", "target", v.targets[s] === 0 ? "wins with no card left" :
        "wins at " + v.targets[s] + " card" + (v.targets[s] === 1 ? "" : "s") + " left"));
    }
    box.appendChild(el("div", "said", lastSaid(g, s)));
    $("seat-" + pos[s]).appendChild(box);
  }
  // talon
  const talon = $("talon");
  talon.innerHTML = "";
  (g.wild || []).forEach((w) => {  // the wild rank drawn (laizi), shown to every seat
    talon.appendChild(wildBadge(w.symbol, "wild-badge"));
  });
  if (g.talon_cards && g.talon_cards.length) {  // a variant may deal no talon
    talon.appendChild(el("span", "", "Talon:"));
    talon.appendChild(cardsRow(g.talon_cards));
  } else if (g.talon_size) {
    talon.appendChild(el("span", "", "Talon (face down):"));
    const backs = el("div", "backs");
    for (let i = 0; i < g.talon_size; i++) backs.appendChild(el("div", "back"));
    talon.appendChild(backs);
  }
  (g.shown_cards || []).forEach((s) => {  // hands shown face up (show cards)
    talon.appendChild(el("span", "", "Seat " + s.seat + " shows:"));
    talon.appendChild(cardsRow(s.cards));
  });
  // trick
  const trick = $("trick");
  trick.innerHTML = "";
  g.trick_cards.forEach((t, i) => {
    const p = el("div", "play" + (i === g.trick_cards.length - 1 && actedSeat !== undefined ? " newest" : ""));
    p.appendChild(el("div", "who", t.seat === g.seat ? "You" : "Seat " + t.seat));
    if (t.cards) p.appendChild(cardsRow(t.cards));
    else p.appendChild(el("div", "passed", "pass"));
    if (t.reading) p.appendChild(el("div", "reading", t.reading));  // what wild cards stood for
    trick.appendChild(p);
  });
  // status
  let status;
  if (v.phase === "over") status = "The deal is over";
  else if (v.turn === g.seat && v.phase === "doubling") status = "Your turn to double or not";
  else if (v.turn === g.seat && v.phase === "showing") status = v.round && v.round.stage === "before deal" ?
    "Your turn: show your hand before it is dealt (you have not seen it), or not" : "Your turn: show your hand or not";
  else if (v.turn === g.seat && v.phase === "blind") status = "Your turn: go blind (before the talon) or not";
  else if (v.turn === g.seat) status = v.phase === "bidding" ?
    "Your turn to " + (g.legal.kind === "bid" ? "bid" : g.legal.kind === "rob" ? "rob or not" : "call or not") :
    (v.trick.length && g.legal.can_pass ? "Your turn: beat it or pass" : "Your lead");
  else status = "Seat " + v.turn + " is thinking…";
  if (g.attempt > 0 && v.phase === "bidding") status += " (redealt: everyone passed)";
  $("status").textContent = status;
  // side info
  $("info-title").textContent = g.title;
  $("info-base").textContent = v.base === null ? "–" : String(v.base);
  showMultiplier(v);
  $("wild-row").classList.toggle("hidden", !(g.wild && g.wild.length));
  $("info-wild").textContent = (g.wild || []).map((w) => faceText(w.symbol)).join(" ");
  const hc = $("handicap-row");
  if (g.rules.startsWith("duel") || g.players === 2) {
    hc.classList.remove("hidden");
    $("info-handicap").textContent = v.targets ? handicapText(g) :
      (v.phase === "bidding" ? "robs so far: " + v.robs : "–");
  } else hc.classList.add("hidden");
  // counter
  const counter = $("counter");
  counter.innerHTML = "";
  v.unseen.forEach((u) => {
    const c = el("div", "cell" + (u.count === 0 ? " zero" : "") + (u.count === 4 ? " four" : "") + (u.wild ? " wild" : ""));
    if (u.wild) c.title = "the wild rank";
    c.appendChild(el("b", "", faceText(u.symbol)));
    c.appendChild(el("span", "", String(u.count)));
    c.dataset.symbol = u.symbol;
    counter.appendChild(c);
  });
  $("counter-note").textContent = g.players === 2 ?
    "Duel: the undealt cards are counted too — they are never revealed." : "";
  // log
  const log = $("log");
  log.innerHTML = "";
  g.log.forEach((a) => {
    const li = el("li", a.seat === g.seat ? "me-act" : "", (a.seat === g.seat ? "You: " : "Seat " + a.seat + ": ") + withCards(a.text, a.cards));
    if (a.reading) li.appendChild(el("span", "reading", " — " + a.reading));
    log.appendChild(li);
  });
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  renderMe();
  // the record holds the seed and every hand: offered once the deal is over, never mid-deal
  $("btn-download").href = "/api/games/" + g.id + "/record";
  $("btn-download").classList.toggle("hidden", !g.view.result);
  $("game-id").textContent = "deal " + g.id + " · autosaved";
}

// The multiplier the person settles at: the engine's view gives "stakes" (ddzspec/game/views.py,
// seat_stakes) when some factor belongs to one peasant's settlement (scope pair): a peasant's
// own with the landlord, the landlord's with each peasant, each itemised; else the table's.
function showMultiplier(v) {
  const capped = (q) => q.uncapped !== undefined ? " (×" + q.uncapped + " capped)" : "";
  const items = (fs) => fs.length ? fs.map(factorText).join(" · ") : "no doubling yet";
  if (!v.stakes) {
    $("info-mult").textContent = "×" + v.multiplier;
    $("info-factors").textContent = items(v.factors);
    return;
  }
  const own = v.stakes.length === 1;
  $("info-mult").textContent = v.stakes.map((q) => "×" + q.multiplier + capped(q) +
    (own ? " (your settlement)" : " with seat " + q.seat)).join(" · ");
  $("info-factors").textContent = v.stakes.map((q) =>
    (own ? "" : "Seat " + q.seat + ": ") + items(q.factors)).join(" — ");
}

function factorText(f) {
  let t = "×" + f.times + " " + (f.kind.endsWith("_bomb") ? f.kind.replace("_", " ") : f.kind.replace("_", "-"));
  if (f.cards) t += " " + wildCardsText(f.cards);
  if (f.seat !== undefined) t += " (seat " + f.seat + ")";
  if (f.pair !== undefined) t += " (seat " + f.pair + "'s settlement only)";
  if (f.cut) t += " (beyond the bombs cap: not counted)";
  return t;
}

function handicapText(g) {
  const v = g.view;
  const peasant = (v.landlord + 1) % 2;
  const t = v.targets[peasant];
  return v.robs + " rob" + (v.robs === 1 ? "" : "s") + ": the peasant wins at " + t + " card" + (t === 1 ? "" : "s") + " left";
}

function renderMe() {
  const g = app.game;
  const v = g.view;
  const me = $("me");
  me.classList.toggle("turn", v.turn === g.seat);
  let label = "You · seat " + g.seat;
  if (v.role) label += " · " + v.role;
  label += " · " + plural(v.cards_left[g.seat], "card");
  if (v.targets && v.targets[g.seat] > 0) label += " (you win at " + v.targets[g.seat] + " left)";
  $("me-label").textContent = label;
  $("me-warning").textContent = v.warnings[String(g.seat)] || "";
  const hand = $("hand");
  hand.innerHTML = "";
  g.hand_cards.forEach((cd, i) => {
    const c = cardEl(cd);
    c.dataset.index = i;
    if (app.selected.has(i)) c.classList.add("selected");
    c.addEventListener("click", () => toggleCard(i));
    hand.appendChild(c);
  });
  // controls
  const bid = $("bid-controls");
  bid.innerHTML = "";
  const legal = g.legal;
  const playing = legal.kind === "play";
  $("play-controls").classList.toggle("hidden", !playing && v.phase !== "play");
  ["btn-hint", "btn-play", "btn-pass"].forEach((b) => { $(b).disabled = !playing; });
  if (playing) $("btn-pass").disabled = !legal.can_pass;
  if (legal.kind === "bid") {
    legal.choices.forEach((c) => {
      const b = el("button", c === 0 ? "bid-btn" : "bid-btn primary", c === 0 ? "Pass" : "Bid " + c);
      b.dataset.value = c;
      b.addEventListener("click", () => act({ kind: "bid", value: c }));
      bid.appendChild(b);
    });
  } else if (legal.kind === "call" || legal.kind === "rob") {
    const word = legal.kind === "call" ? "Call the landlord" : "Rob the landlord";
    const no = legal.kind === "call" ? "Don't call" : "Don't rob";
    [[true, word], [false, no]].forEach(([yes, text]) => {
      const b = el("button", yes ? "bid-btn primary" : "bid-btn", text);
      b.dataset.value = yes ? "1" : "0";
      b.addEventListener("click", () => act({ kind: legal.kind, value: yes }));
      bid.appendChild(b);
    });
  } else if (["double", "show", "blind"].includes(legal.kind)) {
    legal.choices.forEach((c, i) => {
      const name = legal.names[i].charAt(0).toUpperCase() + legal.names[i].slice(1);
      const b = el("button", c === 1 ? "bid-btn" : "bid-btn primary", c === 1 ? name : name + " ×" + c);
      b.dataset.value = String(c);
      b.addEventListener("click", () => act({ kind: legal.kind, value: c }));
      bid.appendChild(b);
    });
  }
}

function toggleCard(i) {
  if (app.selected.has(i)) app.selected.delete(i); else app.selected.add(i);
  app.hintIndex = -1;
  renderMe();
}

function selectedText() {
  const g = app.game;
  return [...app.selected].sort((a, b) => a - b).map((i) => g.hand_cards[i].symbol).join(" ");
}

async function act(body) {
  // one action at a time: a double click sends it once
  if (!app.game || app.busy || app.sending) return;
  app.sending = true;
  showMessage("message", "");
  try {
    const g = await api("POST", "/api/games/" + app.game.id + "/action", body);
    app.selected.clear(); app.hintIndex = -1;
    app.sending = false;
    setGame(g);
  } catch (e) {
    app.sending = false;
    const readings = e.data && e.data.readings;
    if (e.status === 422 && body.kind === "play" && body.as === undefined && readings && readings.length > 1) {
      askReading(body.cards, readings);  // reading declared: the person says which
      return;
    }
    showMessage("message", e.message, "error");
    if (e.status === 409 || e.status === 422) await resync();
  } finally {
    app.sending = false;
  }
}

function play() {
  if (!app.selected.size) { showMessage("message", "Select cards first (click them), or ask for a hint.", "error"); return; }
  const g = app.game;
  const body = { kind: "play", cards: selectedText() };
  // a hint under reading declared is one (play, reading): Play states the reading shown
  if (app.hintIndex >= 0 && g.legal.as && g.legal.as[app.hintIndex] !== undefined) body.as = g.legal.as[app.hintIndex];
  act(body);
}

/* reading declared (issue 26): a selection with several readings here asks which, in a modal
   dialog (the page's <dialog>: focus kept inside, Esc or Cancel or a tap beside it cancels);
   each reading a button, in words, numbered for the keys 1-9 */
function askReading(cards, readings) {
  const dlg = $("reading-dialog");
  const list = $("reading-list");
  list.innerHTML = "";
  $("reading-note").textContent = cardText(cards) + " can be played as " + readings.length + " readings here. Which one do you play?";
  readings.forEach((r, i) => {
    const b = el("button", "reading-choice");
    b.type = "button";
    b.dataset.as = r.as;
    b.appendChild(el("span", "num", i < 9 ? String(i + 1) : ""));
    b.appendChild(el("span", "words", r.words));
    b.appendChild(el("span", "typed", r.typed));
    b.setAttribute("aria-label", (i < 9 ? (i + 1) + ": " : "") + r.words + " (" + r.typed + ")");
    b.addEventListener("click", () => {
      dlg.close("chosen");
      act({ kind: "play", cards, as: r.as });
    });
    list.appendChild(b);
  });
  dlg.returnValue = "";
  dlg.showModal();
  list.firstChild.focus();
}

function readingKeys(e) {
  // in the dialog: 1-9 choose, arrows move between the readings (Esc: the dialog's own cancel)
  const items = [...document.querySelectorAll("#reading-list .reading-choice")];
  const at = items.indexOf(document.activeElement);
  // a key the dialog takes stops here: choosing closes the dialog at once, and the table's
  // keys (onKey, on the document) must not act on the same key press after it
  if (/^[1-9]$/.test(e.key)) {
    if (!e.repeat && Number(e.key) <= items.length) items[Number(e.key) - 1].click();
    e.preventDefault(); e.stopPropagation();
  } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    const step = e.key === "ArrowDown" ? 1 : -1;
    items[((at < 0 ? (step > 0 ? -1 : 0) : at) + step + items.length) % items.length].focus();
    e.preventDefault(); e.stopPropagation();
  }
}

function readingClosed() {
  // cancelled (Esc, Cancel, a tap outside): nothing is played, the selection is kept
  if ($("reading-dialog").returnValue !== "chosen") showMessage("message", "Not played: no reading chosen (the cards stay selected).", "info");
  $("btn-play").focus();
}

function hint() {
  const g = app.game;
  if (!g || g.legal.kind !== "play") return;
  const moves = g.legal.moves;
  if (!moves.length) { showMessage("message", "Nothing in your hand beats it: pass.", "info"); return; }
  app.hintIndex = (app.hintIndex + 1) % moves.length;
  // select the hinted cards: one hand card per symbol occurrence
  const want = moveSymbols(moves[app.hintIndex]);
  app.selected.clear();
  const used = new Set();
  want.forEach((sym) => {
    const i = g.hand_cards.findIndex((c, k) => !used.has(k) && c.symbol === sym);
    if (i >= 0) { used.add(i); app.selected.add(i); }
  });
  const hi = app.hintIndex;
  renderMe();
  app.hintIndex = hi;
  const reading = g.legal.readings && g.legal.readings[hi] ? " — " + g.legal.readings[hi] : "";
  // reading declared: each hint is one (play, reading), typed as the terminal seat types it
  const typed = g.legal.typed && g.legal.typed[hi] !== moves[hi] ? " (typed " + g.legal.typed[hi] + ")" : "";
  showMessage("message", "Hint " + (hi + 1) + " of " + moves.length + ": " + cardText(moves[hi]) + reading + typed + " (Hint again for the next)", "info");
}

/* ---------------------------------------------------------------- result & replay */

function showResult() {
  const g = app.game;
  const r = g.view.result;
  if (!r) return;
  $("result").classList.remove("hidden");
  const meWin = (r.winner === "landlord") === (g.view.role === "landlord");
  $("result-title").textContent = (meWin ? "You win! " : "You lose. ") +
    (r.winner === "landlord" ? "The landlord wins" : g.players === 2 ? "The peasant wins" : "The peasants win") +
    " (" + (g.result_reason || "seat " + r.out_seat + " went out") + ")";
  const t = $("result-table");
  t.innerHTML = "";
  const row = (a, b, cls) => {
    const tr = el("tr", cls || "");
    tr.appendChild(el("td", "", a)); tr.appendChild(el("td", "", b)); t.appendChild(tr);
  };
  row("Base" + (g.bidding === "auction" ? " (the winning bid)" : ""), String(r.base));
  r.factors.forEach((f) => row(factorName(f), f.cut ? "×1 (cut)" : "×" + f.times));
  if (!r.factors.length) row("No doubling", "×1");
  row("Spring", r.spring ? "yes" : "no");
  row("Anti-spring", r.anti_spring ? "yes" : "no");
  if (r.uncapped !== undefined) row("Capped: ×" + r.uncapped + " becomes", "×" + r.multiplier);
  row("Stake = base × " + r.multiplier, String(r.stake), "total");
  (r.pairs || []).forEach((q) => row("Seat " + q.seat + " settles at ×" + q.multiplier +
    (q.uncapped !== undefined ? " (×" + q.uncapped + " capped)" : ""), String(r.base * q.multiplier)));
  const p = $("result-points");
  p.innerHTML = "";
  Object.entries(r.scores).forEach(([s, pts]) => {
    const tr = el("tr");
    const who = Number(s) === g.seat ? "You" : "Seat " + Number(s);
    tr.appendChild(el("td", "", who + (Number(s) === r.landlord ? " (landlord)" : " (peasant)")));
    tr.appendChild(el("td", pts > 0 ? "pos" : "neg", (pts > 0 ? "+" : "") + pts + (Math.abs(pts) === 1 ? " point" : " points")));
    p.appendChild(tr);
  });
  const hands = $("result-hands");
  hands.innerHTML = "";
  if (g.cards_at_end) {
    hands.appendChild(el("div", "hands-title", "Cards left in hand"));
    g.cards_at_end.forEach((cards, i) => {
      const line = el("div", "hand-left");
      line.appendChild(el("span", "who", (i === g.seat ? "You" : "Seat " + i) + ":"));
      line.appendChild(el("span", "cards-text", cards.length ? cards.map((c) => faceText(c.symbol) + (c.wild ? "*" : "")).join(" ") : "none"));
      if (cards.length) line.appendChild(el("span", "n", "(" + plural(cards.length, "card") + ")"));
      hands.appendChild(line);
    });
  }
}

function factorName(f) {
  const names = { bomb: "Bomb", rocket: "Rocket", rob: "Rob", spring: "Spring", anti_spring: "Anti-spring",
    soft_bomb: "Soft bomb", hard_bomb: "Hard bomb", pure_bomb: "Pure bomb" };
  let t = names[f.kind] || f.kind;
  if (f.cards) t += " " + wildCardsText(f.cards);
  if (f.seat !== undefined) t += " by seat " + f.seat;
  if (f.pair !== undefined) t += ", seat " + f.pair + "'s settlement only";
  if (f.cut) t += " (beyond the bombs cap: not counted)";
  return t;
}

async function openReplay() {
  try {
    app.replay = await api("GET", "/api/games/" + app.game.id + "/replay");
    app.replayPos = 0;
    $("replay").classList.remove("hidden");
    renderReplay();
  } catch (e) { showMessage("message", e.message, "error"); $("result").classList.add("hidden"); }
}

function renderReplay() {
  const rp = app.replay;
  const n = rp.steps.length;
  const pos = app.replayPos;
  $("rp-pos").textContent = "move " + pos + " / " + n;
  const step = pos === 0 ? null : rp.steps[pos - 1];
  const wild = rp.initial.wild && rp.initial.wild.length ? " · wild " + rp.initial.wild.map(faceText).join(" ") : "";
  $("rp-text").textContent = step ? withCards(step.text, step.cards) + (step.reading ? " — " + step.reading : "") :
    "The deal: talon " + cardText(rp.initial.talon) + wild;
  const hands = step ? step.hands : rp.initial.hands;
  const box = $("rp-hands");
  box.innerHTML = "";
  // every hand spaced, as the hands at the end are (cardText runs a hand without a ten together)
  const spaced = (h) => symbolsToCards(h).map((c) => faceText(c.symbol)).join(" ");
  hands.forEach((h, i) => box.appendChild(el("div", "", "seat " + i + (i === app.game.seat ? " (you)" : "") + ": " + (spaced(h) || "—"))));
  if (step && step.trick.length) box.appendChild(el("div", "", "trick: " + step.trick.map((t) => "seat " + t.seat + " " + (t.play ? cardText(t.play) + (t.reading ? " (" + t.reading + ")" : "") : "pass")).join(", ")));
}

/* ---------------------------------------------------------------- wiring */

function switchTab(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  document.querySelectorAll(".pane").forEach((p) => p.classList.toggle("active", p.id === "pane-" + name));
  localStorage.setItem("ddz-tab", name);
}

function onKey(e) {
  if (e.target.matches("input, textarea, select")) return;
  if ($("reading-dialog").open) return;  // the dialog's keys are its own (readingKeys)
  if (!$("pane-play").classList.contains("active") || !app.game) return;
  if (e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;  // a held key acts once
  const k = e.key.toLowerCase();
  const legal = app.game.legal;
  if (k === "escape") { app.selected.clear(); app.hintIndex = -1; renderMe(); }  // any phase
  else if (legal.kind === "play") {
    if (k === "h") { hint(); e.preventDefault(); }
    else if (k === "enter") { play(); e.preventDefault(); }
    else if (k === "p" && legal.can_pass) { act({ kind: "pass" }); e.preventDefault(); }
  } else if (["double", "show", "blind"].includes(legal.kind) && /^[1-9]$/.test(k) &&
             Number(k) <= legal.choices.length) {  // a round's buttons in order: 1, 2, 3
    act({ kind: legal.kind, value: legal.choices[Number(k) - 1] });
  } else if (legal.kind === "bid" && /^[0-3]$/.test(k) && legal.choices.includes(Number(k))) {
    act({ kind: "bid", value: Number(k) });
  } else if ((legal.kind === "call" || legal.kind === "rob") && (k === "y" || k === "n")) {
    act({ kind: legal.kind, value: k === "y" });
  }
}

async function init() {
  const saved = localStorage.getItem("ddz-notation");
  if (saved) $("notation").value = saved;
  app.meta = await api("GET", "/api/rules");
  // Play offers only the rules that can be dealt; Learn offers them all
  const setupSel = $("setup-rules");
  // a title two offered files share gets the name the table offers each under
  const shared = (r) => playable().filter((x) => x.title === r.title).length > 1;
  playable().forEach((r) => {
    const o = el("option", "", shared(r) ? `${r.title} (${r.name})` : r.title);
    o.value = r.name; setupSel.appendChild(o);
  });
  const want = localStorage.getItem("ddz-rules");
  setupSel.value = playable().some((r) => r.name === want) ? want : "classic";
  setupRulesChanged();
  const seat = localStorage.getItem("ddz-seat");
  if (seat !== null && Number(seat) < $("setup-seat").options.length) { $("setup-seat").value = seat; renderLevelInputs(); }
  initLearn();
  $("setup-rules").addEventListener("change", setupRulesChanged);
  $("setup-seat").addEventListener("change", renderLevelInputs);
  $("btn-start").addEventListener("click", startGame);
  $("btn-new").addEventListener("click", () => showSetup(true));
  $("btn-again").addEventListener("click", () => showSetup(true));
  $("btn-close-result").addEventListener("click", () => $("result").classList.add("hidden"));
  $("btn-replay").addEventListener("click", openReplay);
  $("rp-first").addEventListener("click", () => { app.replayPos = 0; renderReplay(); });
  $("rp-prev").addEventListener("click", () => { app.replayPos = Math.max(0, app.replayPos - 1); renderReplay(); });
  $("rp-next").addEventListener("click", () => { app.replayPos = Math.min(app.replay.steps.length, app.replayPos + 1); renderReplay(); });
  $("rp-last").addEventListener("click", () => { app.replayPos = app.replay.steps.length; renderReplay(); });
  $("btn-play").addEventListener("click", play);
  $("btn-pass").addEventListener("click", () => act({ kind: "pass" }));
  $("btn-hint").addEventListener("click", hint);
  const dlg = $("reading-dialog");
  dlg.addEventListener("keydown", readingKeys);
  dlg.addEventListener("close", readingClosed);
  $("reading-cancel").addEventListener("click", () => dlg.close("cancel"));
  dlg.addEventListener("click", (e) => {  // a tap on the backdrop, beside the dialog's box
    const r = dlg.getBoundingClientRect();
    if (e.target === dlg && (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom)) dlg.close("cancel");
  });
  $("upload-record").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    showMessage("setup-message", "");
    try {
      const text = await f.text();
      const g = await api("POST", "/api/records?seat=" + $("setup-seat").value +
        "&levels=" + setupLevels().join(","), text);
      openGame(g, true);
    } catch (err) {
      showMessage("setup-message", "The record " + JSON.stringify(f.name) + " was not loaded: " + err.message, "error");
    }
    e.target.value = "";
  });
  $("notation").addEventListener("change", async () => {
    localStorage.setItem("ddz-notation", notation());
    if (app.game) setGame(await api("GET", "/api/games/" + app.game.id));
    puzzleRefresh();
  });
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => switchTab(t.dataset.tab)));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", async () => {
    if (!(await resumeFromHash())) showSetup();
    puzzleHashSync();   // the puzzle is not in the history
  });
  initPuzzle();
  const tab = localStorage.getItem("ddz-tab");
  if (tab && $("pane-" + tab)) switchTab(tab);
  if (!(await resumeFromHash())) showSetup();
  document.body.dataset.ready = "1";
}

init().catch((e) => { document.body.textContent = "The table could not start: " + e.message; });
