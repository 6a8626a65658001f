// The analysis board: a position in notation (also in the URL), the throw, every legal move
// with its winning chance from the server (/api/learn/analysis). The server checks everything:
// this page only edits the notation line and shows the answers.
import { drawBoard, setDarkSeat } from "./board.js";
import { explainTaps } from "./why.js";
import { errorText, loadTexts, percent, sentence, t } from "./i18n.js";
import { choiceLabel, notationWords, parseMove } from "./notation.js";

const root = document.getElementById("analysis");
const lang = root.dataset.lang;
const variants = JSON.parse(root.dataset.variants);
const starts = JSON.parse(root.dataset.starts);
const $ = (id) => document.getElementById(id);

let fen = root.dataset.position;
let result = null; // the server's analysis of fen
let selected = null;
let editing = false;
const past = [];
const future = [];
let record = null; // {steps: [{position, action}], index}
let asked = 0;


// ---------------------------------------------------------------- the notation line
function fields(text = fen) { return text.trim().split(/\s+/); }
function variantOf(text = fen) { return variants[fields(text)[0]] || variants.standard; }
function boardCells(text = fen) { return fields(text)[1].replaceAll("/", "").split(""); }
function withFields(changes, text = fen) {
  const f = fields(text);
  if (changes.cells) {
    const before = boardCells(text);
    const c = changes.cells.join("");
    f[1] = `${c.slice(0, 10)}/${c.slice(10, 20)}/${c.slice(20, 30)}`;
    // piccione: a piece put on the board comes from its owner's hand, one taken off goes back
    const at = f.findIndex((x) => x.startsWith("hand="));
    if (at >= 4) {
      const hand = f[at].slice(5).split("/").map(Number);
      ["A", "B"].forEach((seat, i) => {
        const delta = changes.cells.filter((x) => x === seat).length - before.filter((x) => x === seat).length;
        hand[i] = Math.max(0, hand[i] - delta);
      });
      if (hand[0] || hand[1]) f[at] = `hand=${hand[0]}/${hand[1]}`;
      else f.splice(at, 1);
    }
  }
  if (changes.turn) f[2] = changes.turn;
  if (changes.throw !== undefined) {
    f[3] = changes.throw;
    // a House of Water choice is made before a throw: a throw ends it
    if (changes.throw !== "-") for (let i = f.length - 1; i >= 4; i--) if (f[i] === "pending=water") f.splice(i, 1);
  }
  return f.join(" ");
}
function pieces(text = fen) {
  const out = [[], []];
  boardCells(text).forEach((c, i) => { if (c === "A") out[0].push(i + 1); if (c === "B") out[1].push(i + 1); });
  return out;
}
const pct = (x) => `${percent(x * 100)}%`;
const seatName = (seat) => variantOf().seatNames[seat];

// ---------------------------------------------------------------- going to a position
function go(next, { remember = true, keepRecord = false } = {}) {
  if (next === fen) return;
  if (remember) { past.push(fen); future.length = 0; }
  if (!keepRecord) record = record && record.steps[record.index].position === next ? record : null;
  fen = next;
  selected = null;
  load();
}

let loading = null; // the request of the position being judged: given up when another is asked for

async function load() {
  const ticket = ++asked;
  if (loading) loading.abort(); // the server drops the job nobody waits for
  loading = new AbortController();
  const signal = loading.signal;
  history.replaceState(null, "", `/analysis?position=${encodeURIComponent(fen)}`);
  $("an-fen").value = fen;
  root.dataset.ready = "";
  $("an-verdict").textContent = t("an.thinking");
  render();
  let answer;
  try {
    const response = await fetch(`/api/learn/analysis?${new URLSearchParams({ position: fen })}`, { signal });
    answer = await response.json();
    if (!response.ok) throw new Error(errorText(answer, localNames));
  } catch (error) {
    if (ticket !== asked) return;
    result = null;
    showError(error.message);
    root.dataset.ready = "error";
    render();
    return;
  }
  if (ticket !== asked) return;
  showError("");
  result = answer;
  fen = answer.position; // the canonical form
  history.replaceState(null, "", `/analysis?position=${encodeURIComponent(fen)}`);
  $("an-fen").value = fen;
  root.dataset.position = fen;
  root.dataset.ready = "1";
  render();
}

// an impossible position's reason names its variant by its title and a House by its name
function localNames(params) {
  const v = variants[params.variant];
  if (!v) return params;
  const house = v.houses[String(params.square)];
  return { ...params, variant: v.title, ...(house ? { house: house.name } : {}) };
}

function showError(message) {
  $("an-error").textContent = message;
  $("an-error").hidden = !message;
}

// ---------------------------------------------------------------- drawing
function movableMap() {
  const map = new Map();
  if (!result || editing) return map;
  for (const m of result.moves) {
    const step = parseMove(m.move);
    if (!step) continue;
    if (!map.has(step.origin)) map.set(step.origin, []);
    map.get(step.origin).push({ target: step.target, text: m.move });
  }
  return map;
}

function playMove(text) {
  const m = result && result.moves.find((x) => x.move === text);
  if (m) go(m.after);
}

function render() {
  const v = variantOf();
  setDarkSeat(v.darkSeat === 0 ? 0 : 1);
  const movable = movableMap();
  if (selected !== null && !movable.has(selected)) selected = null;
  drawBoard($("board"), {
    pieces: pieces(), houses: v.houses, lastMove: null, selected, movable, fitScreen: true,
    targets: selected !== null ? movable.get(selected) : [], seatNames: v.seatNames, t,
    onSelect: (sq) => {
      const options = movable.get(sq) || [];
      if (options.length === 1 && selected === sq) { playMove(options[0].text); return; }
      selected = selected === sq ? null : sq; render();
    },
    onMove: playMove,
    onCancel: () => { selected = null; render(); },
  });
  $("board").classList.toggle("editing", editing);
  $("an-variant").value = fields()[0];
  for (const b of document.querySelectorAll(".an-turn")) {
    const seat = b.dataset.turn === "A" ? 0 : 1;
    b.textContent = v.seatNames[seat];
    b.setAttribute("aria-pressed", String(fields()[2] === b.dataset.turn));
  }
  renderThrows(v);
  renderStatus(v);
  renderMoves();
  renderRecord();
  $("an-back").disabled = !past.length;
  $("an-forward").disabled = !future.length;
  $("an-edit").setAttribute("aria-pressed", String(editing));
  $("an-edit-help").hidden = !editing;
}

function renderThrows(v) {
  const values = v.instrument === "die4" ? [1, 2, 3, 4] : [1, 2, 3, 4, 5];
  const current = fields()[3];
  const buttons = ["-", ...values.map(String)].map((value) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.throw = value;
    b.textContent = value === "-" ? t("an.throw_due") : value;
    b.setAttribute("aria-pressed", String(current === value));
    b.addEventListener("click", () => go(withFields({ throw: value })));
    return b;
  });
  $("an-throws").replaceChildren(...buttons);
}

function renderStatus(v) {
  const box = $("an-status");
  if (!result) { box.textContent = ""; return; }
  if (result.over) box.textContent = t("an.over");
  else if (result.decider === null) box.textContent = "";
  else if (fields().includes("pending=water")) box.textContent = sentence(t("an.pending_water", { seat: v.seatNames[result.decider] }));
  else {
    // kendall-1978: the turn's other throws wait in the bank, and any of them may go first
    const seat = v.seatNames[result.decider];
    box.textContent = sentence(result.turn_throws.length > 1
      ? t("an.decider_banked", { seat, throws: result.turn_throws.join(", ") })
      : t("an.decider", { seat, n: result.throw }));
  }
}

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function renderMoves() {
  const table = $("an-moves");
  const verdict = $("an-verdict");
  if (!result) { table.replaceChildren(); if (root.dataset.ready !== "") verdict.textContent = ""; return; }
  const mark = result.exact ? t("an.exact") : t("an.estimate");
  verdict.dataset.exact = result.exact ? "1" : "";
  if (result.over) { verdict.textContent = t("an.over"); table.replaceChildren(); return; }
  const head = document.createElement("tr");
  const rows = [];
  if (result.decider !== null) {
    verdict.textContent = sentence(`${t("an.chance_of", { seat: seatName(result.decider), chance: pct(result.chance) })} (${mark})`);
    for (const c of ["an.col_move", "an.col_chance", ""]) { const th = document.createElement("th"); th.scope = "col"; th.textContent = c ? t(c) : ""; head.appendChild(th); }
    for (const m of result.moves) {
      const tr = document.createElement("tr");
      tr.dataset.move = m.move;
      tr.dataset.chance = String(m.chance);
      if (m.best) tr.className = "best";
      const play = document.createElement("button");
      play.type = "button";
      const words = choiceLabel(m.move, variantOf(), pieces(), result.decider);
      play.textContent = words;
      play.setAttribute("aria-label", t("an.play", { move: words }));
      play.addEventListener("click", () => go(m.after));
      const first = document.createElement("td");
      first.appendChild(play);
      tr.append(first, cell(pct(m.chance), "num"), cell(m.best ? `${t("an.best")} · ${mark}` : mark, "mark"));
      rows.push(tr);
    }
  } else {
    const seat = Number(fields()[2] === "B");
    verdict.textContent = sentence(result.chance === null ? t("an.no_chance", { seat: seatName(seat) })
      : `${t("an.chance_throw", { seat: seatName(seat), chance: pct(result.chance) })} (${mark})`);
    for (const c of ["an.col_throw", "an.col_prob", "an.col_chance"]) { const th = document.createElement("th"); th.scope = "col"; th.textContent = t(c); head.appendChild(th); }
    for (const x of result.throws) {
      const tr = document.createElement("tr");
      tr.dataset.throw = String(x.throw);
      if (x.chance !== null) tr.dataset.chance = String(x.chance);
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = String(x.throw);
      b.addEventListener("click", () => go(x.after));
      const first = document.createElement("td");
      first.appendChild(b);
      tr.append(first, cell(pct(x.probability), "num"), cell(x.chance === null ? "—" : pct(x.chance), "num"));
      rows.push(tr);
    }
  }
  table.replaceChildren(head, ...rows);
}

function renderRecord() {
  const box = $("an-stepper");
  box.hidden = !record;
  if (!record) return;
  const step = record.steps[record.index];
  $("an-rec-pos").textContent = `${t("an.step", { i: record.index + 1, n: record.steps.length })} · ` +
    (step.action ? t("an.next_action", { action: notationWords(step.action) }) : t("an.end"));
  $("an-rec-prev").disabled = $("an-rec-first").disabled = record.index === 0;
  $("an-rec-next").disabled = $("an-rec-last").disabled = record.index === record.steps.length - 1;
}

function stepTo(index) {
  if (!record) return;
  record.index = Math.max(0, Math.min(record.steps.length - 1, index));
  go(record.steps[record.index].position, { keepRecord: true });
}

// ---------------------------------------------------------------- setting up a position
$("board").addEventListener("click", (event) => {
  if (!editing) return;
  const square = event.target.closest("[data-square]");
  if (!square) return;
  const sq = Number(square.dataset.square);
  if (!(sq >= 1 && sq <= 30)) return;
  const cells = boardCells();
  cells[sq - 1] = { ".": "A", A: "B", B: "." }[cells[sq - 1]];
  go(withFields({ cells }));
});

$("an-edit").addEventListener("click", () => { editing = !editing; selected = null; render(); });
for (const b of document.querySelectorAll(".an-turn")) b.addEventListener("click", () => go(withFields({ turn: b.dataset.turn })));
$("an-variant").addEventListener("change", (e) => go(starts[e.target.value]));
$("an-back").addEventListener("click", () => { if (past.length) { future.push(fen); go(past.pop(), { remember: false }); } });
$("an-forward").addEventListener("click", () => { if (future.length) { past.push(fen); go(future.pop(), { remember: false }); } });
$("an-load").addEventListener("click", () => go($("an-fen").value.trim().replace(/\s+/g, " ")));
$("an-copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); $("an-copy").textContent = t("an.copied"); } catch { /* the address bar has it */ }
});
$("an-import").addEventListener("click", async () => {
  const response = await fetch("/api/learn/record", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ record: $("an-record-text").value }),
  });
  const answer = await response.json();
  if (!response.ok) { showError(errorText(answer)); return; }
  record = { steps: answer, index: 0 };
  go(answer[0].position, { keepRecord: true });
  render();
});
$("an-rec-first").addEventListener("click", () => stepTo(0));
$("an-rec-prev").addEventListener("click", () => stepTo(record.index - 1));
$("an-rec-next").addEventListener("click", () => stepTo(record.index + 1));
$("an-rec-last").addEventListener("click", () => stepTo(record.steps.length - 1));

explainTaps($("board"), () => (!editing && result && result.decider !== null ? { fen, seat: result.decider } : null), lang);

loadTexts(lang).then(load);
let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 150); });
