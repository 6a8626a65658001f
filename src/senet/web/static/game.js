// The game page: one WebSocket to the server, which checks every action; this only shows and asks.
import { animateMove, drawBoard, drawThrow, houseIcon, pieceIcon, setDarkSeat, OFF, UPRIGHT_QUERY } from "./board.js";
import { ownSeed } from "./seed.js";
import { explainTaps } from "./why.js";
import { hintButton } from "./hint.js";
import { renderEndings, seatFree, setupEndings, terminationText } from "./endings.js";
import { DeltaFeed } from "./delta.js";
import { errorText, loadTexts, sentence, t } from "./i18n.js";
import { choiceLabel, moveLabel, notationWords, parseMove } from "./notation.js";
import { offerAfterMove, pushSupported } from "./push.js";
import { setupChat } from "./quickchat.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const lang = root.dataset.lang;
const variant = JSON.parse(root.dataset.variant);
const $ = (id) => document.getElementById(id);
setDarkSeat(variant.darkSeat === 0 ? 0 : 1);

let state = null;
let presence = { online: [false, false], spectators: 0 };
let ws = null;
let selected = null;
let lastThrowPly = null;
let waiting = false;
let retry = 500;
let cancelled = false; // the host cancelled the game before anyone joined: it no longer exists
const feed = new DeltaFeed(); // this connection's states: the first whole, then deltas
const seedsSent = new Set(); // seats whose seed went out on the current connection


const seatName = (seat) => variant.seatNames[seat];

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(message));
  return true;
}

let waitTimer = null;

// Player seeds: the game starts in a seeding phase. As soon as this page has the
// state with the server's commitment, it gives a seed for every seat it holds that still needs
// one (both in a game on one screen; the computer gives none). The first throw follows when
// every human seat has given its seed.
function giveSeeds() {
  if (!state || state.phase !== "seeding" || !state.fairness) return;
  for (const seat of state.you) {
    if (!state.fairness.seed_needed[seat] || seedsSent.has(seat)) continue;
    if (send({ type: "seed", seat, seed: ownSeed() })) seedsSent.add(seat);
  }
}

function play(text) {
  if (!state || waiting) return; // one action per state: a double click sends nothing twice
  if (!send({ type: "move", ply: state.ply, move: text })) { showError(t("g.reconnecting")); return; }
  waiting = true;
  selected = null;
  root.classList.add("waiting");
  // a turn-based game lasts days: a named player may be told of their turns on this device
  if (root.dataset.named && state.mode !== "local" && state.clock && state.clock.kind === "days") {
    offerAfterMove($("push-offer"));
  }
  // the note of what happened is read by now: what the move and the answer to it bring replaces
  // it (left alone, a swap of several turns ago would still be announced)
  $("events").textContent = "";
  clearTimeout(waitTimer);
  // No answer in 5 s: the connection may be half-open; reconnecting resynchronises the state.
  waitTimer = setTimeout(() => { if (waiting) { waiting = false; root.classList.remove("waiting"); if (ws) ws.close(); } }, 5000);
}

function select(origin) {
  const options = movableMap().get(origin) || [];
  if (options.length === 1 && selected === origin) { play(options[0].text); return; }
  selected = selected === origin ? null : origin;
  render();
  const target = document.querySelector("#board .target");
  if (target) target.focus();
}

function movableMap() {
  const map = new Map();
  for (const text of (state && state.legal) || []) {
    const step = parseMove(text);
    if (!step) continue;
    if (!map.has(step.origin)) map.set(step.origin, []);
    map.get(step.origin).push({ target: step.target, text });
  }
  return map;
}

function render() {
  if (!state) return;
  root.dataset.ply = state.ply;
  root.dataset.phase = state.phase || "";
  root.dataset.decider = state.decider === null ? "" : state.decider;
  root.dataset.over = state.outcome ? "1" : "";
  root.dataset.fen = state.fen;
  root.dataset.forced = state.forced_pass ? String(state.forced_pass.ply) : "";
  const movable = movableMap();
  if (selected !== null && !movable.has(selected)) selected = null;
  // Redrawing the board and the buttons takes the focus away from a player who was there:
  // give it back to the next piece to move, else to the status line (never to the page's body).
  const active = document.activeElement;
  const playing = active && ($("board").contains(active) || $("moves").contains(active));
  drawBoard($("board"), {
    pieces: state.pieces, houses: variant.houses, lastMove: state.last_move, selected, movable,
    targets: selected !== null ? movable.get(selected) : [], seatNames: variant.seatNames, t,
    onSelect: select, onMove: play, onCancel: () => { selected = null; render(); }, onHouse: showHouse, fitScreen: true,
  });
  const lt = state.last_throw;
  const fresh = lt && lt.ply !== lastThrowPly;
  drawThrow($("sticks"), lt, variant.instrument, fresh && lastThrowPly !== null, t);
  if (lt) lastThrowPly = lt.ply;
  $("throw-text").textContent = lt ? sentence(t(lt.fate ? "g.fate_thrown" : "g.thrown", { seat: seatName(lt.seat), n: lt.value })) : "";
  renderYou();
  renderStatus();
  renderMoves();
  renderCounters();
  renderPresence();
  renderFair();
  renderLog();
  renderOver();
  renderInvite();
  renderEndings(state);
  renderTurnSignal();
  if (playing && (!document.activeElement || document.activeElement === document.body)) {
    const next = selected === null && document.querySelector("#board .piece.movable");
    (next || $("status")).focus();
  }
}

// A House tapped or clicked on the board: its name and what it does, under the board.
function showHouse(square) {
  const house = variant.houses[String(square)];
  const box = $("house-info");
  if (!house || (!box.hidden && box.dataset.square === String(square))) { box.hidden = true; return; }
  box.dataset.square = String(square);
  box.replaceChildren();
  const name = document.createElement("strong");
  name.textContent = `${square}, ${house.name}`;
  box.append(name, house.meaning ? ` — ${house.meaning}` : "");
  box.hidden = false;
}

// The legend's symbols: the same drawings as on the board.
for (const item of document.querySelectorAll("#house-legend li[data-square]")) {
  const house = variant.houses[item.dataset.square];
  if (house) item.prepend(houseIcon(house.symbol));
}

// A sign that it is your turn, also with the tab in the background: the title, an optional
// chime (off until switched on; the choice is remembered on this device) and a notification
// if the player allowed them. Not on one screen, where every turn is "yours".
const baseTitle = document.title;
const SOUND_KEY = "senet.sound";
let wasMyTurn = null;
let audio = null;

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

function chime() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch { /* no audio on this device */ }
}

function renderTurnSignal() {
  const myTurn = !state.outcome && state.mode !== "local" && !state.forced_pass
    && state.decider !== null && state.you.includes(state.decider);
  document.title = myTurn ? `● ${t("play.title_your_move")} · ${baseTitle}` : baseTitle;
  if (myTurn && wasMyTurn === false) {
    root.dataset.signals = String(Number(root.dataset.signals || 0) + 1);
    if (soundOn()) chime();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification(t("play.title_your_move"), { body: $("status").textContent, tag: gameId });
    }
  }
  wasMyTurn = myTurn;
  renderSignalControls();
}

function renderSignalControls() {
  const sound = $("sound");
  sound.setAttribute("aria-pressed", String(soundOn()));
  sound.textContent = t(soundOn() ? "play.sound_on" : "play.sound_off");
  const notify = $("notify");
  // A named player's turn-based game offers Web Push instead (after their move): it reaches the
  // device with the site closed too, and its permission covers this page's notices as well, so
  // the page never shows two buttons that ask for the same thing.
  const pushOffered = Boolean(root.dataset.named) && Boolean(state.clock && state.clock.kind === "days") && pushSupported();
  notify.hidden = !("Notification" in window) || Notification.permission !== "default" || state.mode === "local" || !state.you.length || pushOffered;
  $("signals").hidden = state.mode === "local" || !state.you.length;
}

$("sound").addEventListener("click", () => {
  try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch { /* storage off */ }
  if (soundOn()) chime(); // let the player hear it (and unlock audio with this gesture)
  if (state) renderSignalControls();
});
$("notify").addEventListener("click", async () => {
  try { await Notification.requestPermission(); } catch { /* refused */ }
  if (state) renderSignalControls();
});

// The invitation box: only while the other seat is free (the state's invite is null after).
function renderInvite() {
  const box = $("invite");
  if (box) box.hidden = !state.invite;
}

function renderFair() {
  const f = state.fairness;
  if (!f) return;
  $("fair-commitment").textContent = f.commitment;
  const items = [0, 1].map((seat) => {
    const li = document.createElement("li");
    li.dataset.seat = seat;
    const seed = f.seeds[seat];
    const info = state.seats[seat];
    let text;
    if (seed !== null && seed !== undefined) {
      text = document.createElement("code"); // a player's own string, shown as given
      text.textContent = seed; li.dataset.seed = seed; li.className = "mono";
    }
    else if (info && info.kind === "computer") text = t("g.seed_computer");
    else if (state.phase !== "seeding") text = "—";
    else if (state.you.includes(seat)) text = t("g.seed_sending");
    else text = t(state.you.length ? "g.seed_waiting" : "g.seed_waiting_any");
    li.append(pieceIcon(seat), ` ${seatName(seat)}: `, text);
    return li;
  });
  $("fair-seeds").replaceChildren(...items);
}

function renderYou() {
  const you = state.you;
  const el = $("you");
  if (state.mode === "local") el.textContent = t("g.local_you");
  else if (you.length) el.textContent = t("g.you_play", { seat: seatName(you[0]) });
  else el.textContent = t("g.spectating");
}

function renderStatus() {
  const box = $("status");
  const lines = [];
  if (state.outcome) {
    lines.push(resultText());
  } else if (state.phase === "seeding") {
    // The seeds go out by themselves: what a player waits for is the friend (fairness details
    // are in the "Fair throws" box below the game).
    const waiting = state.listed ? "play.waiting_taker"
      : state.rematch_of ? "play.waiting_rematch" : "play.waiting_friend";
    if (seatFree(state)) lines.push(t(state.you.length ? waiting : "play.waiting_players"));
    else lines.push(t("play.starting"));
  } else if (state.forced_pass) {
    lines.push(forcedPassText(state.forced_pass));
  } else if (state.decider !== null) {
    const mine = state.you.includes(state.decider);
    const who = seatName(state.decider);
    if (state.pending === "water") lines.push(t(mine ? "g.water_you" : "g.water_other", { seat: who }));
    else if (state.pending === "fate") lines.push(t(mine ? "g.fate_you" : "g.fate_other", { seat: who, n: state.throw }));
    else lines.push(turnText(mine, who));
    if (state.decider !== state.turn) lines.push(t("g.decider_not_turn", { seat: who, turn: seatName(state.turn) }));
    if (state.entered) lines.push(t("g.entered_first"));
    else if (state.divided) lines.push(t("g.points_left", { n: state.throw }));
    if (state.direction) lines.push(t(`g.direction_${state.direction}`));
    if (mine && state.legal.length === 1 && state.legal[0] === "pass") lines.push(t("g.only_pass"));
  }
  for (const seat of [0, 1]) {
    if (state.extra[seat]) lines.push(t("g.extra_owed", { seat: seatName(seat), n: state.extra[seat] }));
    if (state.skip[seat]) lines.push(t("g.skip_owed", { seat: seatName(seat), n: state.skip[seat] }));
  }
  box.replaceChildren(...lines.map((line) => { const p = document.createElement("p"); p.textContent = sentence(line); return p; }));
  box.className = "status" + (yourDecision() ? " your-turn" : "");
}

// Whose move it is and with what: the throw, or every throw of the turn still to use where
// several are banked (kendall-1978), since any of them may be played first.
function turnText(mine, who) {
  const banked = state.throws && state.throws.length > 1;
  const key = state.mode === "local" ? "g.local_turn" : mine ? "g.your_move" : "g.waiting_for";
  if (banked) return t(`${key}_banked`, { seat: who, throws: state.throws.join(", ") });
  return t(key, { seat: who, n: state.throw });
}

// A decision of this viewer's to make: not a forced pass, which the server plays by itself.
function yourDecision() {
  return !state.forced_pass && state.decider !== null && state.you.includes(state.decider);
}

// The decider's only legal move is a pass: the server plays it shortly; this line says why.
function forcedPassText(forced) {
  const mine = state.mode !== "local" && state.you.includes(forced.seat);
  const params = { seat: seatName(forced.seat), n: forced.throw };
  if (forced.reason === "fate") return t("play.pass_fate", params);
  if (forced.reason === "stuck" || forced.reason === "rest") return t(`play.pass_${forced.reason}`, params);
  return t(mine ? "play.pass_you" : "play.pass_other", params);
}

// The moves this viewer may choose from: none while the server plays a forced pass.
function choices() {
  return state.forced_pass ? [] : state.legal;
}

function renderMoves() {
  const box = $("moves");
  const buttons = choices().map((text, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.move = text;
    b.textContent = choiceLabel(text, variant, state.pieces, state.decider);
    b.title = text;
    if (i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1));
    b.addEventListener("click", () => play(text));
    return b;
  });
  box.replaceChildren(...buttons);
  box.hidden = !buttons.length;
}

function renderCounters() {
  const table = $("counters");
  const head = document.createElement("tr");
  const cols = ["g.col_player", "g.col_board", variant.scoring === "points" ? "g.col_score" : "g.col_off"];
  if (state.captured.some(Boolean) || variant.captures) cols.push("g.col_captured");
  if (state.drowned.some(Boolean) || variant.drowns) cols.push("g.col_drowned");
  if ((state.hand || []).some(Boolean) || variant.hand) cols.push("g.col_hand");
  for (const c of cols) { const th = document.createElement("th"); th.scope = "col"; th.textContent = t(c); head.appendChild(th); }
  const rows = [0, 1].map((seat) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    if (!state.outcome && state.turn === seat) tr.className = "on-turn";
    const th = document.createElement("th");
    th.scope = "row";
    th.append(pieceIcon(seat), " " + seatName(seat));
    // "(you)", "(computer)": a smaller note that moves under the name where the panel is narrow
    const note = (text) => { const s = document.createElement("small"); s.className = "seat-note"; s.textContent = `(${text})`; th.append(" ", s); };
    if (state.you.includes(seat) && state.mode !== "local") note(t("g.you"));
    const seatInfo = state.seats[seat];
    if (seatInfo && seatInfo.kind === "computer") note(t("g.computer"));
    tr.appendChild(th);
    const values = [state.pieces[seat].length, state.off[seat]];
    if (cols.includes("g.col_captured")) values.push(state.captured[seat]);
    if (cols.includes("g.col_drowned")) values.push(state.drowned[seat]);
    if (cols.includes("g.col_hand")) values.push(state.hand[seat]);
    for (const v of values) { const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td); }
    return tr;
  });
  table.replaceChildren(head, ...rows);
}

function renderPresence() {
  if (!state) return;
  const el = $("presence");
  const parts = [];
  if (state.mode === "friend") {
    for (const seat of [0, 1]) {
      if (state.you.includes(seat)) continue;
      const info = state.seats[seat];
      let status = !info.taken ? t("g.seat_free") : presence.online[seat] ? t("g.online") : t("g.offline");
      parts.push(`${seatName(seat)}: ${status}`);
    }
  }
  if (presence.spectators) parts.push(t("g.spectators", { n: presence.spectators }));
  el.textContent = parts.join(" · ");
  el.dataset.online = JSON.stringify(presence.online);
}

function renderLog() {
  const list = $("move-list");
  const items = [];
  let current = null;
  for (const h of state.history) {
    if (h.kind === "end") continue; // the result says how the game ended
    if (h.kind === "throw" && !h.fate && (!current || current.seat !== h.seat || current.closed)) {
      current = { seat: h.seat, parts: [], closed: false };
      items.push(current);
    }
    if (!current) continue;
    if (h.kind === "throw") current.parts.push(`(${h.value})`);
    else {
      const text = parseMove(h.text) ? notationWords(h.text) : t(`log.${h.text}`); // notation, or a word for pass, revive…
      current.parts.push(h.seat !== current.seat ? `${"AB"[h.seat]}: ${text}` : text);
      if (h.skipped !== null && h.skipped !== undefined) { current.parts.push(`{${t("g.skipped", { seat: seatName(h.skipped) })}}`); current.closed = true; }
    }
  }
  const nodes = items.map((item, i) => {
    const li = document.createElement("li");
    li.textContent = `${seatName(item.seat)}: ${item.parts.join(" ")}`;
    if (i === items.length - 1) li.className = "latest";
    return li;
  });
  list.replaceChildren(...nodes);
  list.scrollTop = list.scrollHeight;
}

function resultText() {
  const o = state.outcome;
  const ended = terminationText(state, variant.seatNames);
  if (ended) return `${resultWords(o).replace(/[.!]$/, "")} — ${ended}`;
  return resultWords(o);
}

// "You won" / "You lost" to a player, "The spools won" to anyone else; the score of a points
// game only where play decided it (a resignation, a loss on time, an abandoned game have none).
function resultWords(o) {
  const score = variant.scoring === "points" && !state.termination ? ` (${o.score[0]}:${o.score[1]})` : "";
  if (o.winner === null) return t("g.draw") + score;
  if (state.you.includes(o.winner) && state.mode !== "local") return t("g.you_won") + score;
  if (state.you.length && state.mode !== "local") return t("g.you_lost", { seat: seatName(o.winner) }) + score;
  return t("g.won", { seat: seatName(o.winner) }) + score;
}

function renderOver() {
  const box = $("over");
  box.hidden = !state.outcome;
  if (!state.outcome) return;
  $("result").textContent = resultText();
  $("fair-secret").textContent = `${t("g.commitment")} ${state.fairness.commitment} · ${t("g.secret")} ${state.fairness.secret}`;
  const link = $("rematch-link");
  if (state.rematch) {
    link.hidden = false;
    link.querySelector("a").href = `/g/${state.rematch}`;
    const offer = $("rematch-offer");
    if (offer) offer.hidden = false;
  }
}

// What happened since the last state, in short lines (an extra throw, a skipped turn, a
// swap, a drowning, a revival, a piece borne off, a pass), and the last move walked on the board.
function describeEvents(before, after) {
  const fresh = after.history.slice(before.history.length);
  const lines = [];
  let lastMove = null;
  fresh.forEach((entry, i) => {
    if (entry.kind === "throw" || entry.kind === "end") return; // a move: a step or a word move
    const seat = entry.seat ?? before.turn;
    const who = seatName(seat), other = seatName(1 - seat);
    const index = before.history.length + i;
    const thrown = [...after.history.slice(0, index)].reverse().find((h) => h.kind === "throw");
    if (entry.text === "pass") lines.push(t(thrown && thrown.fate ? "play.ev_pass_fate" : "play.ev_pass", { n: thrown ? thrown.value : "", seat: who }));
    else if (entry.text === "revive") lines.push(t("play.ev_revive", { seat: who }));
    else if (entry.text === "return") lines.push(t("play.ev_return", { seat: who }));
    else if (entry.text === "enter") lines.push(t("play.ev_enter", { seat: who }));
    else if (entry.text.includes("x")) {
      // where the attacked piece went, as the server says: the mover's old square (a swap),
      // another square (sent back, or into the House of Water), or none (it left the game)
      const sent = entry.sent === undefined ? entry.origin : entry.sent;
      const key = sent === null ? "play.ev_removed" : sent === entry.origin ? "play.ev_swap" : "play.ev_sent";
      lines.push(t(key, { seat: who, other, from: entry.origin, to: entry.target, sent }));
    }
    if (entry.off) lines.push(t("play.ev_off", { seat: who }));
    if (entry.skipped !== null && entry.skipped !== undefined) lines.push(t("play.ev_skip", { seat: seatName(entry.skipped) }));
    else {
      const next = after.history[index + 1];
      // the throw an entering earns is no extra throw: it moves the entered piece
      if (next && next.kind === "throw" && next.seat === seat && !next.fate && entry.text !== "enter") lines.push(t("play.ev_extra", { seat: who }));
    }
    if (entry.origin !== null && entry.origin !== undefined && entry.target !== null && entry.target !== undefined) {
      lastMove = { origin: entry.origin, target: entry.off ? OFF : entry.target, seat, swapped: entry.text.includes("x") };
    }
  });
  for (const seat of [0, 1]) {
    const n = after.drowned[seat] - before.drowned[seat];
    if (n > 0) lines.push(t("play.ev_drowned", { seat: seatName(seat) }));
    if (after.hand && before.hand && after.hand[seat] > before.hand[seat]) lines.push(t("play.ev_to_hand", { seat: seatName(seat) }));
  }
  return { lines, lastMove };
}

function announce(before, after) {
  if (!before || before.game !== after.game || after.history.length <= before.history.length) return;
  const { lines, lastMove } = describeEvents(before, after);
  const box = $("events");
  // a game that ended without a move (on time, by resignation): what happened before is old news
  if (after.outcome && after.termination) box.textContent = "";
  if (lines.length) {
    box.textContent = sentence(lines.join(" · "));
  }
  if (lastMove && lastMove.seat !== undefined) {
    const walked = animateMove($("board"), lastMove, lastMove.swapped);
    root.dataset.walked = walked.join(" ");
  }
}

function showError(message) {
  let box = $("error");
  if (!box) {
    box = document.createElement("p");
    box.id = "error";
    box.className = "error";
    box.setAttribute("role", "alert");
    $("status").after(box);
  }
  box.textContent = message;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.textContent = ""; }, 5000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  feed.reset(); // a new connection starts with the whole state
  ws.addEventListener("open", () => {
    retry = 500; waiting = false; root.classList.remove("waiting"); $("conn").textContent = ""; root.dataset.connected = "1";
    seedsSent.clear(); // a seed sent on a lost connection may never have arrived: the state says
    chat.connected();
  });
  ws.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "state" || data.type === "delta") {
      // The whole state on connecting, then only what changed.
      const missing = feed.lost;
      const next = feed.take(data);
      if (!next) {
        if (!missing) { root.dataset.resyncs = String(Number(root.dataset.resyncs || 0) + 1); send({ type: "state" }); }
        return; // a delta was missed: the whole state is on its way
      }
      const before = state;
      state = next; waiting = false; root.classList.remove("waiting"); render(); giveSeeds();
      announce(before, state);
    } else if (data.type === "presence") {
      presence = data; renderPresence();
    } else if (data.type === "chat") {
      chat.receive(data);
    } else if (data.type === "cancelled" || (data.type === "error" && data.code === "unknown_game")) {
      // The host cancelled the game before anyone joined (told now, or found on reconnecting
      // after the message was missed): it is gone, nothing to reconnect to.
      cancelled = true;
      root.classList.add("cancelled");
      if (data.reason === "aborted") {
        // both seats were taken, but a seed did not come in time: called off, no result
        $("cancelled-h").textContent = t("g.aborted_title");
        $("cancelled-text").textContent = t("g.aborted_text");
      }
      $("cancelled").hidden = false;
      $("conn").textContent = "";
    } else if (data.type === "error") {
      if (data.code === "already_seeded" || data.code === "not_seeding") return; // another tab gave it first
      waiting = false; root.classList.remove("waiting");
      showError(errorText(data));
      if (data.code === "stale") send({ type: "state" });
    }
  });
  const socket = ws;
  ws.addEventListener("close", () => {
    if (socket !== ws || cancelled) return; // an old socket, already replaced; or no game left
    root.dataset.connected = "";
    $("conn").textContent = t("g.reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return;
  if (/^[1-9]$/.test(e.key) && state && choices().length >= Number(e.key)) {
    e.preventDefault();
    play(choices()[Number(e.key) - 1]);
  } else if (e.key === "Escape" && selected !== null) {
    selected = null; render();
  }
});

for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const input = $(button.dataset.copy);
    input.select();
    try { await navigator.clipboard.writeText(input.value); button.textContent = t("g.copied"); } catch { /* selected: copy by hand */ }
  });
}

// Where the device has its own share sheet (phones: messengers, mail), the invitation goes
// there in one tap; elsewhere the button stays hidden and the link is copied.
for (const button of document.querySelectorAll("button[data-share]")) {
  if (typeof navigator.share !== "function") continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const url = $(button.dataset.share).value;
    try { await navigator.share({ title: document.title, text: t("g.share_text"), url }); } catch { /* dismissed */ }
  });
}

// A tap on one of your pieces that cannot move says why, in one line (the engine's reason).
explainTaps($("board"), () => (state && state.decider !== null && state.you.includes(state.decider)
  ? { fen: state.fen, seat: state.decider } : null), lang);

// Against the computer and on one screen: an optional hint (the computer's best moves).
hintButton($("moves"), $("board"), () => (state && ["computer", "local"].includes(state.mode) && !state.outcome
  && state.decider !== null && state.you.includes(state.decider) && state.legal.length > 1
  ? { fen: state.fen, seat: state.decider, game: gameId } : null), t, moveLabel);

setupEndings({ gameId, seatNames: variant.seatNames, showError });
const chat = setupChat({ gameId, send, seatName, you: () => (state ? state.you : JSON.parse(root.dataset.you)) });
loadTexts(lang).then(() => { render(); connect(); });

// A phone held upright: the board comes first, under a compact bar whose menu holds who you are,
// the links, the sound and Resign. The sound and Resign live under the board elsewhere: they move
// into the menu and back as the phone turns (each keeps a marker of where it came from).
const upright = matchMedia(UPRIGHT_QUERY);
const menuParts = ["signals", "resign"].map((id) => $(id)).filter(Boolean)
  .map((node) => { const mark = document.createComment(node.id); node.before(mark); return { node, mark }; });

function placeMenu() {
  for (const { node, mark } of menuParts) {
    if (upright.matches) $("menu-actions").append(node);
    else mark.after(node);
  }
  if (!upright.matches) setMenu(false);
}

function setMenu(open) {
  $("game-menu").classList.toggle("open", open);
  $("menu-toggle").setAttribute("aria-expanded", String(open));
}

$("menu-toggle").addEventListener("click", () => setMenu(!$("game-menu").classList.contains("open")));
upright.addEventListener("change", placeMenu);
placeMenu();

let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 150); });
