/* ddzspec web table: the Learn tab, what a move reads as, a rules file shape by shape and two
   variants side by side (an ES module, no build step). */
import { $, api, app, cardsRow, el, faceText, notation, symbolsToCards } from "./common.js";

function fillRulesSelect(sel, value) {
  sel.innerHTML = "";
  app.meta.rules.forEach((r) => { const o = el("option", "", r.name); o.value = r.name; sel.appendChild(o); });
  if (value) sel.value = value;
}

/* rules with wild cards (issue 26): the wild rank is a select of the ranks the file's draw can
   give (value: the rank index; shown and sent in the page's notation), hidden for other rules */
function wildRanks() {
  const r = app.meta.rules.find((x) => x.name === $("learn-rules").value);
  return (r && r.wild_ranks) || [];
}

function fillWildSelect() {
  const sel = $("learn-wild");
  const ranks = wildRanks();
  const keep = sel.value;
  sel.innerHTML = "";
  ranks.forEach((i) => { const o = el("option", "", faceText(app.meta.symbols[notation()][i])); o.value = String(i); sel.appendChild(o); });
  if (ranks.map(String).includes(keep)) sel.value = keep;
  $("learn-wild-label").classList.toggle("hidden", !ranks.length);
}

// a wild explanation: the move's cards (the wild ones marked), then every reading in words,
// the one taken marked, the wild restrictions that rule out the others, and the policy's word
function explainWild(out, d) {
  const rank = Number($("learn-wild").value);
  const natural = symbolsToCards(d.move.replace(/\*/g, ""));
  const wilds = (d.move.match(/\*/g) || []).map(() => ({ rank, symbol: d.wild, wild: true }));
  const head = el("div", "explain-head");
  head.appendChild(cardsRow(natural.concat(wilds)));
  head.appendChild(el("p", "verdict " + (d.legal ? "legal" : "illegal"), d.move + " (wild " + faceText(d.wild) + ")" + (d.legal ? " is legal" : " is illegal")));
  out.appendChild(head);
  const cut = d.wild_readings.filter((r) => r.ruled_out_by.length).length;
  const kept = d.wild_readings.length - cut;
  out.appendChild(el("p", "", kept + (kept === 1 ? " reading" : " readings") + (cut ? ", " + cut + " ruled out" : "") + ":"));
  const ol = el("ol", "wild-readings");
  d.wild_readings.forEach((r, i) => {
    const li = el("li", "reading" + (r.ruled_out_by.length ? " cut" : "") + (i === d.taken ? " taken" : ""));
    li.appendChild(el("span", "", r.words));
    if (r.ruled_out_by.length) li.appendChild(el("span", "why", " — ruled out by " + r.ruled_out_by.join(", ")));
    if (i === d.taken) li.appendChild(el("b", "tag", d.policy === "declared" ? " — declared: taken" : " — taken when leading"));
    ol.appendChild(li);
  });
  out.appendChild(ol);
  const last = d.lines[d.lines.length - 1];
  out.appendChild(el("p", "note", d.taken !== null && d.policy === "strongest" ?
    "reading strongest: leading, the reading marked is taken (its type comes first in the priority); answering, the reading of the answered type and size with the highest body, else a bomb" :
    d.taken !== null ? "reading declared: the reading marked is the one declared" : last));
}

async function explainMove() {
  const out = $("learn-out");
  out.innerHTML = "";
  try {
    const body = { move: $("learn-move").value, rules: $("learn-rules").value };
    if (wildRanks().length) body.wild = app.meta.symbols[notation()][Number($("learn-wild").value)];
    const d = await api("POST", "/api/explain", body);
    if (d.wild_readings) { explainWild(out, d); return; }
    const head = el("div", "explain-head");
    head.appendChild(cardsRow(symbolsToCards(d.move)));
    head.appendChild(el("p", "verdict " + (d.legal ? "legal" : "illegal"), d.move + (d.legal ? " is legal" : " is illegal")));
    out.appendChild(head);
    (d.readings || []).forEach((r) => {
      const p = el("p", "reading");
      p.appendChild(el("b", "", r.words));
      p.appendChild(el("span", "", " · comparison key " + r.key));
      out.appendChild(p);
    });
    d.lines.forEach((ln) => out.appendChild(el("p", /^\s/.test(ln) ? "sub" : "", ln.trim())));
  } catch (e) {
    out.appendChild(el("p", "verdict illegal", e.message));
  }
}

function chips(parent, list) {
  list.forEach((x) => parent.appendChild(el("span", "ex", x)));
}

async function learnPage() {
  const box = $("learn-page");
  box.innerHTML = "";
  try {
    const d = await api("GET", "/api/learn/rules/" + encodeURIComponent($("learn-page-rules").value));
    box.appendChild(el("h3", "", "Shapes"));
    d.shapes.forEach((s) => {
      const div = el("div", "shape");
      div.appendChild(el("b", "", s.name + " "));
      div.appendChild(el("span", "", s.description + (s.sizes && s.sizes.length ? " · " + s.sizes.join(", ") + (s.sizes.length === 1 && s.sizes[0] === 1 ? " card" : " cards") : "")));
      const ex = el("div");
      chips(ex, s.examples || []);
      div.appendChild(ex);
      box.appendChild(div);
    });
    box.appendChild(el("h3", "", "Restrictions"));
    d.restrictions.forEach((r) => {
      const div = el("div", "restriction");
      div.appendChild(el("b", "", r.name + " "));
      div.appendChild(el("span", "", r.words));
      const ex = el("div", "", "rules out " + r.count + " readings" +
        (r.count_alone !== undefined ? " (" + r.count_alone + " by itself)" : "") + ", e.g. ");
      chips(ex, r.ruled_out || []);
      div.appendChild(ex);
      box.appendChild(div);
    });
    if (d.title) box.insertBefore(el("p", "note", d.title), box.firstChild);
    if (d.deal) { box.appendChild(el("h3", "", "Deal")); box.appendChild(el("p", "", d.deal)); }
    if (d.bidding) { box.appendChild(el("h3", "", "Bidding")); box.appendChild(el("p", "", d.bidding)); }
    if (d.play && d.play.length) {
      box.appendChild(el("h3", "", "Trick and win"));
      const ul = el("ul");
      d.play.forEach((x) => ul.appendChild(el("li", "", x)));
      box.appendChild(ul);
    }
    if (d.scoring && d.scoring.length) {
      box.appendChild(el("h3", "", "Scoring"));
      const ul = el("ul");
      d.scoring.forEach((x) => ul.appendChild(el("li", "", x)));
      box.appendChild(ul);
    }
  } catch (e) { box.textContent = e.message; }
}

async function learnDiff() {
  const ul = $("learn-diff");
  ul.innerHTML = "";
  try {
    const d = await api("GET", "/api/learn/diff?a=" + encodeURIComponent($("learn-diff-a").value) +
      "&b=" + encodeURIComponent($("learn-diff-b").value));
    if (!d.lines.length) ul.appendChild(el("li", "", "No difference."));
    d.lines.forEach((x) => ul.appendChild(el("li", "", x)));
  } catch (e) { ul.appendChild(el("li", "", e.message)); }
}

/** Start the Learn tab (once the page has the rules offered): its rules lists, its buttons. */
export function initLearn() {
  fillRulesSelect($("learn-rules"), "classic");
  fillRulesSelect($("learn-page-rules"), "classic");
  fillRulesSelect($("learn-diff-a"), "classic");
  fillRulesSelect($("learn-diff-b"), "kawu");
  fillWildSelect();
  $("learn-rules").addEventListener("change", fillWildSelect);
  $("notation").addEventListener("change", fillWildSelect);
  $("learn-go").addEventListener("click", explainMove);
  $("learn-move").addEventListener("keydown", (e) => { if (e.key === "Enter") explainMove(); });
  $("learn-page-go").addEventListener("click", learnPage);
  $("learn-diff-go").addEventListener("click", learnDiff);
}
