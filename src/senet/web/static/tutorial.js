// The tutorial: one lesson at a time on the board; every answer goes to the server, where the
// engine checks it. Progress is remembered on this device (localStorage), per variant.
import { drawBoard, setDarkSeat, OFF } from "./board.js";
import { explainTaps } from "./why.js";
import { errorText, loadTexts, t } from "./i18n.js";
import { parseMove } from "./notation.js";

const root = document.getElementById("tutorial");
const lang = root.dataset.lang;
const name = root.dataset.variantName;
const variant = JSON.parse(root.dataset.variant);
const lessons = JSON.parse(root.dataset.lessons);
const $ = (id) => document.getElementById(id);
const STORE = `senet-tutorial-${name}`;
setDarkSeat(variant.darkSeat === 0 ? 0 : 1);

let index = 0;
let selected = null;
let shown = null; // {position pieces, lastMove} shown after an answer, else the lesson's own
let answered = false; // the current lesson is solved
let busy = false;


function loadDone() {
  try { return new Set(JSON.parse(localStorage.getItem(STORE) || "[]")); } catch { return new Set(); }
}
function saveDone(done) {
  try { localStorage.setItem(STORE, JSON.stringify([...done])); } catch { /* private mode: not remembered */ }
}
let done = loadDone();

function piecesOf(fen) {
  const cells = fen.split(" ")[1].replaceAll("/", "");
  const out = [[], []];
  [...cells].forEach((c, i) => { if (c === "A") out[0].push(i + 1); if (c === "B") out[1].push(i + 1); });
  return out;
}

function movableMap(lesson) {
  const map = new Map();
  if (lesson.kind !== "move" || answered || shown || busy) return map;
  for (const text of lesson.legal) {
    const step = parseMove(text);
    if (!step) continue;
    if (!map.has(step.origin)) map.set(step.origin, []);
    map.get(step.origin).push({ target: step.target, text });
  }
  return map;
}

function drawLesson() {
  const lesson = lessons[index];
  const movable = movableMap(lesson);
  if (selected !== null && !movable.has(selected)) selected = null;
  drawBoard($("board"), {
    pieces: shown ? shown.pieces : lesson.pieces, houses: variant.houses,
    lastMove: shown ? shown.lastMove : null, selected, movable,
    targets: selected !== null ? movable.get(selected) : [], seatNames: variant.seatNames, t,
    onSelect: (sq) => { selected = selected === sq ? null : sq; drawLesson(); const first = document.querySelector("#board .target"); if (first) first.focus(); },
    onMove: answer,
    onCancel: () => { selected = null; drawLesson(); }, fitScreen: true,
  });
  const board = $("board");
  if (lesson.kind !== "move" || !shown) {
    const focus = board.querySelector(`.square[data-square="${lesson.focus}"]`);
    if (focus && lesson.kind !== "move") focus.classList.add("focus");
  }
  for (const sq of (shown && shown.squares) || []) {
    const cell = board.querySelector(`.square[data-square="${sq}"]`);
    if (cell) cell.classList.add("reason");
  }
  root.dataset.lesson = lesson.key;
  root.dataset.state = answered ? "done" : shown ? "wrong" : "asking";
}

function renderAnswers(lesson) {
  const box = $("tu-answers");
  let buttons = [];
  if (lesson.kind === "why" || lesson.kind === "quiz") {
    buttons = lesson.options.map((o) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.reason = o.key;
      b.textContent = o.label;
      b.addEventListener("click", () => answer(null, o.key, b));
      return b;
    });
  } else {
    // word decisions (risk, return, pass) as buttons; steps are made on the board
    buttons = lesson.legal.filter((m) => !parseMove(m)).map((m) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.move = m;
      b.textContent = t(`move.${m}`);
      b.addEventListener("click", () => answer(m, null, b));
      return b;
    });
  }
  box.replaceChildren(...buttons);
  box.hidden = !buttons.length;
}

function render() {
  const lesson = lessons[index];
  $("tu-count").textContent = t("learn.lesson_n", { i: index + 1, n: lessons.length });
  $("tu-title").textContent = lesson.title;
  $("tu-task").textContent = lesson.task;
  $("tu-throw").textContent = t("learn.your_side", { seat: variant.seatNames[lesson.seat] });
  $("tu-progress").textContent = t("learn.progress", { done: done.size, total: lessons.length });
  for (const li of document.querySelectorAll("#tu-list li")) {
    li.classList.toggle("current", li.dataset.key === lesson.key);
    li.querySelector(".tu-done").hidden = !done.has(li.dataset.key);
  }
  $("tu-complete").hidden = done.size < lessons.length;
  root.dataset.done = String(done.size);
  renderAnswers(lesson);
  drawLesson();
}

function feedback(text, correct, extra = null) {
  const box = $("tu-feedback");
  const p = document.createElement("p");
  p.textContent = text;
  const parts = [p];
  if (extra) { const q = document.createElement("p"); q.textContent = extra; parts.push(q); }
  box.replaceChildren(...parts);
  box.className = "tu-feedback" + (correct ? " correct" : "");
  box.hidden = false;
}

async function answer(move, reason = null, button = null) {
  if (busy || answered) return;
  const lesson = lessons[index];
  busy = true;
  selected = null;
  let result;
  try {
    const response = await fetch(`/api/learn/lessons/${name}/${lesson.key}?lang=${lang}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(move !== null ? { move } : { reason }),
    });
    result = await response.json();
    if (!response.ok) throw new Error(errorText(result));
  } catch (error) {
    busy = false;
    feedback(String(error.message || error), false);
    return;
  } finally {
    busy = false;
  }
  const step = result.move ? parseMove(result.move) : null;
  const lastMove = step ? { kind: "move", origin: step.origin, target: step.target, off: step.target === OFF } : null;
  if (button) button.classList.add(result.correct ? "right" : "wrong");
  if (result.correct) {
    answered = true;
    done.add(lesson.key);
    saveDone(done);
    shown = { pieces: result.after ? piecesOf(result.after) : lesson.pieces, lastMove, squares: result.squares };
    feedback(result.text, true, result.reason ? `${t("lesson.reason_is")} ${result.reason}` : null);
    $("tu-next").hidden = index === lessons.length - 1;
    $("tu-again").hidden = true;
  } else {
    shown = result.after ? { pieces: piecesOf(result.after), lastMove, squares: [] } : null;
    feedback(result.text, false);
    $("tu-again").hidden = !shown;
  }
  render();
}

function open(i) {
  index = Math.max(0, Math.min(lessons.length - 1, i));
  selected = null;
  shown = null;
  answered = false;
  $("tu-feedback").hidden = true;
  $("tu-next").hidden = true;
  $("tu-again").hidden = true;
  render();
}

$("tu-next").addEventListener("click", () => open(index + 1));
$("tu-again").addEventListener("click", () => { shown = null; $("tu-again").hidden = true; $("tu-feedback").hidden = true; render(); });
$("tu-reset").addEventListener("click", () => { done = new Set(); saveDone(done); open(0); });
for (const b of document.querySelectorAll("#tu-list button[data-index]")) b.addEventListener("click", () => open(Number(b.dataset.index)));

// a tap on a piece that cannot move says why, as in a game
explainTaps($("board"), () => {
  const lesson = lessons[index];
  return !shown && !answered ? { fen: lesson.position, seat: lesson.seat } : null;
}, lang);

loadTexts(lang).then(() => {
  const first = lessons.findIndex((l) => !done.has(l.key));
  open(first === -1 ? 0 : first);
  root.dataset.ready = "1";
});
let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawLesson, 150); });
