/* ddzspec web table: the Learn tab, what a move reads as, a rules file shape by shape and two
   variants side by side (an ES module, no build step). */
import { $, api, app, cardsRow, el, symbolsToCards } from "./common.js";

function fillRulesSelect(sel, value) {
  sel.innerHTML = "";
  app.meta.rules.forEach((r) => { const o = el("option", "", r.name); o.value = r.name; sel.appendChild(o); });
  if (value) sel.value = value;
}

async function explainMove() {
  const out = $("learn-out");
  out.innerHTML = "";
  try {
    const d = await api("POST", "/api/explain", { move: $("learn-move").value, rules: $("learn-rules").value });
    const head = el("div", "explain-head");
    head.appendChild(cardsRow(symbolsToCards(d.move)));
    head.appendChild(el("p", "verdict " + (d.legal ? "legal" : "illegal"), d.move + (d.legal ? " is legal" : " is illegal")));
    out.appendChild(head);
    (d.readings || []).forEach((r) => {
      const p = el("p", "reading");
      p.appendChild(el("b", "", r.shape));
      p.appendChild(el("span", "", " body " + r.body + (r.kickers ? " · kickers " + r.kickers : "") + " · comparison key " + r.key));
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
  $("learn-go").addEventListener("click", explainMove);
  $("learn-move").addEventListener("keydown", (e) => { if (e.key === "Enter") explainMove(); });
  $("learn-page-go").addEventListener("click", learnPage);
  $("learn-diff-go").addEventListener("click", learnDiff);
}
