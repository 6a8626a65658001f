// The review's replay: every decision of the finished game on the board, with the move played
// and the best move as arrows. The positions, the moves and the verdicts come from the server
// (embedded in the page, see senet.service.analysis.replay); this script only reads the board
// field of each position's notation and draws it with board.js. The step is kept in the
// address (#d=N, N counted from 1; one more than the decisions is the final position).
import { drawBoard, drawMoveMarks, isUpright, setDarkSeat } from "./board.js";
import { loadTexts, percent, sentence, t } from "./i18n.js";
import { moveLabel, parseMove } from "./notation.js";

const root = document.getElementById("review");
const lang = root.dataset.lang;
const variant = JSON.parse(root.dataset.variant);
const { steps, end } = JSON.parse(root.dataset.replay);
const last = steps.length; // the index of the final position
const $ = (id) => document.getElementById(id);
const links = [...root.querySelectorAll("[data-step]")];
const list = $("rp-list");
let current = null;

const fields = (fen) => fen.split(" ");
function pieces(fen) {
  const out = [[], []];
  fields(fen)[1].replaceAll("/", "").split("").forEach((c, i) => {
    if (c === "A") out[0].push(i + 1);
    if (c === "B") out[1].push(i + 1);
  });
  return out;
}
// a move in the sentence under the board: a word move by the review's short word, a step as the
// game's move buttons name it ("9 → 14", "1 → 6 ⚔")
const words = (move) => (["pass", "risk", "return", "revive"].includes(move) ? t(`rp.move.${move}`)
  : parseMove(move) ? moveLabel(move) : move);

function show(index, { record = true, announce = true } = {}) {
  index = Math.max(0, Math.min(last, index));
  current = index;
  const atEnd = index === last;
  const fen = atEnd ? end : steps[index][2];
  const marks = [];
  $("rp-moves").textContent = "";
  $("rp-moves").hidden = atEnd;
  $("rp-result").hidden = !atEnd;
  if (atEnd) {
    $("rp-caption").textContent = t("rp.end_caption");
    $("rp-throw").hidden = true;
  } else {
    const [turn, seat, , played, best, verdict, loss, thrown, bestThrown] = steps[index];
    const who = variant.seatNames[seat];
    $("rp-caption").textContent = thrown === "-" ? t("rp.caption_no_throw", { turn, seat: who })
      : t("rp.caption", { turn, seat: who, n: thrown });
    $("rp-throw").hidden = thrown === "-";
    $("rp-throw-value").textContent = thrown;
    // where the turn's throws wait together (kendall-1978) the best move may use another one
    let text = played === best ? t("rp.played_best", { played: words(played) })
      : bestThrown !== thrown ? t("rp.played_other_throws", { played: words(played), n: thrown, best: words(best), m: bestThrown })
      : t("rp.played_other", { played: words(played), best: words(best) });
    if (verdict) text += " " + t("rp.lost", { verdict: sentence(t(`review.${verdict}`)), loss: percent(loss) });
    $("rp-moves").textContent = text;
    $("rp-moves").className = "rp-moves" + (verdict ? ` ${verdict}` : "");
    for (const [kind, move] of [["best", best], ["played", played]]) {
      const s = parseMove(move);
      if (s) marks.push({ ...s, kind, text: move, good: !verdict });
    }
  }
  drawBoard($("board"), {
    pieces: pieces(fen), houses: variant.houses, lastMove: null, selected: null, movable: new Map(),
    targets: [], seatNames: variant.seatNames, t,
  });
  drawMoveMarks($("board"), marks);
  $("rp-count").textContent = atEnd ? t("rp.end_item") : t("rp.count", { i: index + 1, n: steps.length });
  $("rp-prev").setAttribute("aria-disabled", String(index === 0));
  $("rp-first").setAttribute("aria-disabled", String(index === 0));
  $("rp-next").setAttribute("aria-disabled", String(atEnd));
  $("rp-last").setAttribute("aria-disabled", String(atEnd));
  $("rp-analyse").href = `/analysis?${new URLSearchParams({ position: fen })}`;
  for (const link of links) {
    if (Number(link.dataset.step) === index) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
  keepVisible(list.querySelector(`.rp-move[data-step="${index}"]`));
  moveChartCursor(index);
  root.dataset.step = String(index);
  // one announcement for a screen reader: where the board is, and what was played there
  const said = atEnd ? $("rp-result").textContent : $("rp-moves").textContent;
  if (announce) $("rp-live").textContent = `${$("rp-caption").textContent}. ${said}`;
  if (record) history.replaceState(null, "", `#d=${index + 1}`);
}

// Scroll the move list (only the list, never the page) so that the current move shows.
function keepVisible(item) {
  if (!item || list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop - list.offsetTop, bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top - 8;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 8;
}

const chartSvg = $("chance-graph");
const stepWidth = Number(chartSvg.dataset.stepWidth);
function moveChartCursor(index) {
  const cursor = $("chart-cursor");
  const x = String(Math.round((Math.min(index, last - 1) + 1) * stepWidth * 10) / 10);
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
  cursor.setAttribute("visibility", index === last ? "hidden" : "visible");
}

function boardInView() {
  const box = $("replay-board").getBoundingClientRect();
  return box.top >= 0 && box.top < innerHeight * 0.5;
}

function fromHash() {
  const m = /^#d=(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) - 1 : null;
}

// Every move of the list, every mistake of the table and every board below is a link to its
// decision (a real link: the address works without this script too).
root.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-step]");
  const mark = event.target.closest("circle[data-step]");
  const target = link || mark;
  if (!target) return;
  event.preventDefault();
  show(Number(target.dataset.step));
  // from the move list (beside the board, or below it on a phone) the least scroll that shows
  // the board; from further away, the replay from its top
  if (list.contains(target)) $("board").scrollIntoView({ block: "nearest" });
  else if (!boardInView()) toReplay();
});

// The replay from its top; on a phone held upright, whose board is as tall as the screen, from
// the caption over the board.
function toReplay() {
  $(isUpright() ? "replay-board" : "replay").scrollIntoView({ block: "start" });
}

// The chart: a tap or click anywhere picks the nearest decision.
chartSvg.addEventListener("click", (event) => {
  if (event.target.closest("circle[data-step]")) return;
  const box = chartSvg.getBoundingClientRect();
  const viewBox = chartSvg.viewBox.baseVal;
  const x = viewBox.x + ((event.clientX - box.left) / box.width) * viewBox.width;
  show(Math.round(x / stepWidth) - 1);
});

// The switch between the two sides' chances (a link to ?side=N, which works without this
// script too): the other line, its marks, its sentence and its label, the address kept.
const chartLabels = JSON.parse(chartSvg.dataset.labels);
for (const link of root.querySelectorAll(".side-link")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const side = link.dataset.side;
    for (const g of chartSvg.querySelectorAll(".chart-side")) {
      if (g.dataset.side === side) g.removeAttribute("display"); else g.setAttribute("display", "none");
    }
    for (const lead of root.querySelectorAll("p.lead[data-side]")) lead.hidden = lead.dataset.side !== side;
    for (const other of root.querySelectorAll(".side-link")) {
      if (other === link) other.setAttribute("aria-current", "true"); else other.removeAttribute("aria-current");
    }
    chartSvg.setAttribute("aria-label", chartLabels[Number(side)]);
    const address = new URL(location.href);
    address.searchParams.set("side", side);
    history.replaceState(null, "", address);
  });
}

$("rp-first").addEventListener("click", () => show(0));
$("rp-prev").addEventListener("click", () => show(current - 1));
$("rp-next").addEventListener("click", () => show(current + 1));
$("rp-last").addEventListener("click", () => show(last));

// The keys step through the game wherever the focus is on the page, except in a field.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
  if (!(event.key in moves)) return;
  event.preventDefault();
  show(moves[event.key]);
});

window.addEventListener("hashchange", () => {
  const index = fromHash();
  if (index === null || index === current) return;
  show(index, { record: false });
  if (!boardInView()) toReplay();
});

setDarkSeat(variant.darkSeat === 0 ? 0 : 1);
loadTexts(lang).then(() => {
  $("replay-board").hidden = false;
  const asked = fromHash();
  show(asked ?? 0, { record: asked !== null, announce: false }); // an address past the end: the end
  if (asked !== null) toReplay();
  root.dataset.ready = "1";
});
