// Hints: in a game against the computer or on one screen, a "Hint" button asks the server for
// the computer's judgement of the position (/api/learn/analysis: exact in small endgames, the
// master's estimate elsewhere) and shows the best moves with their winning chances, the best
// one marked on the board. Pages call hintButton once; current() says who may ask now.

import { errorText, percent } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

// anchor: the element the hint box follows; board: the board's <svg>; current(): {fen, seat,
// game} when the player here decides in a game that allows hints, else null (game: the game's
// id, so that the server serves a player's hint before the analysis board's requests); t: the page's translator;
// label(move): a move's words as the page's move buttons show them ("5 → 8 ⚔"), so that the
// hint and the button to press read alike.
export function hintButton(anchor, board, current, t, label) {
  const box = document.createElement("div");
  box.className = "hint-box";
  box.id = "hint";
  const button = document.createElement("button");
  button.type = "button";
  button.id = "hint-button";
  const list = document.createElement("ol");
  list.className = "hint-list";
  list.setAttribute("aria-live", "polite");
  box.append(button, list);
  anchor.after(box);
  let shownFen = null;
  let asked = 0;
  let pending = null; // the request of the hint being asked for: dropped when the position moves on

  const clear = () => { list.replaceChildren(); shownFen = null; delete box.dataset.fen; mark(null); };
  const sync = () => {
    const now = current();
    box.hidden = !now;
    button.textContent = t("hint.button");
    if (pending && (!now || now.fen !== pending.fen)) {
      pending.abort.abort(); // the server drops the job nobody waits for
      pending = null;
      asked++;
      button.disabled = false;
      list.replaceChildren();
    }
    if (!now || now.fen !== shownFen) { if (shownFen !== null) clear(); }
    else if (shownFen !== null) mark(list.dataset.best || null);
  };

  function mark(move) {
    for (const node of board.querySelectorAll(".hint-mark")) node.remove();
    const step = move && /^(\d+)[-x](\d+|off)(?:\/\d)?$/.exec(move);
    if (!step) return;
    for (const sq of [step[1], step[2]]) {
      const target = board.querySelector(sq === "off" ? ".off-zone .cell" : `.square[data-square="${sq}"] .cell`);
      if (!target) continue;
      const ring = document.createElementNS(SVG, "rect");
      for (const a of ["x", "y", "width", "height", "rx"]) ring.setAttribute(a, target.getAttribute(a));
      ring.setAttribute("class", "hint-mark");
      board.appendChild(ring);
    }
  }

  button.addEventListener("click", async () => {
    const now = current();
    if (!now) return;
    const ticket = ++asked;
    button.disabled = true;
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: t("hint.thinking") }));
    let answer = null;
    let refusal = null;
    const abort = new AbortController();
    pending = { fen: now.fen, abort };
    try {
      const query = new URLSearchParams({ position: now.fen });
      if (now.game) query.set("game", now.game);
      const response = await fetch(`/api/learn/analysis?${query}`, { signal: abort.signal });
      if (response.ok) answer = await response.json();
      else refusal = await response.json().catch(() => null);
    } catch { /* shown as unavailable below */ }
    if (ticket !== asked) return;
    pending = null;
    button.disabled = false;
    if (refusal && refusal.code === "busy") {
      // "busy — try again in 5 s", in words
      list.replaceChildren(Object.assign(document.createElement("li"), { textContent: errorText(refusal) }));
      return;
    }
    if (!answer || answer.position === undefined || !answer.moves.length) { list.replaceChildren(); return; }
    const moves = [...answer.moves].sort((a, b) => b.chance - a.chance).slice(0, 3);
    const mark_ = answer.exact ? t("an.exact") : t("an.estimate");
    list.replaceChildren(...moves.map((m) => {
      const li = document.createElement("li");
      li.dataset.move = m.move;
      li.dataset.chance = String(m.chance);
      li.textContent = `${label(m.move)}: ${percent(m.chance * 100)}% (${mark_})`;
      return li;
    }));
    shownFen = now.fen;
    box.dataset.fen = now.fen;
    list.dataset.best = moves[0].move;
    mark(moves[0].move);
  });

  // the board is redrawn on every state: keep the mark, or drop the hint of an old position
  const ownMarks = (records) => records.every((r) => [...r.addedNodes, ...r.removedNodes]
    .every((n) => n.classList && n.classList.contains("hint-mark")));
  new MutationObserver((records) => { if (!ownMarks(records)) sync(); }).observe(board, { childList: true });
  sync();
  return { sync };
}
