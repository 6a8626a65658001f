// Finishing a game: the server's clocks drawn ticking, cancelling a game nobody joined and
// resigning (each after a confirmation), and claiming a game the opponent has left.  The server
// decides everything; this only shows it.
import { errorText, t } from "./i18n.js";
import { rememberSeek } from "./seekwatch.js";
import { timeLeft } from "./timeleft.js";

const section = document.getElementById("endings");
let current = null;
let offset = 0; // server time - local time, ms
let ticking = null;
let onError = () => {};

const $ = (id) => document.getElementById(id);

function serverNow() { return Date.now() + offset; }

function tick() {
  if (!current) return;
  const clock = current.clock;
  const outcome = current.outcome;
  const flagged = current.termination === "time forfeit" && outcome && outcome.winner !== null
    ? 1 - outcome.winner : null;
  if (clock) {
    for (const el of section.querySelectorAll(".clock")) {
      const seat = Number(el.dataset.seat);
      let left = clock.remaining[seat];
      if ((clock.kind === "move" || clock.kind === "days") && clock.running !== seat) left = clock.seconds * 1000;
      if (clock.running === seat && clock.deadline !== null) left = clock.deadline - serverNow();
      if (flagged === seat) left = 0; // lost on time: whatever the limit, nothing is left
      el.querySelector(".clock-time").textContent = timeLeft(left);
      el.classList.toggle("running", clock.running === seat);
      el.classList.toggle("low", clock.running === seat && left < 10000);
    }
  }
  const abandon = current.abandon;
  if (abandon) {
    const wait = abandon.claimable_at - serverNow();
    $("claim-text").textContent = wait > 0 ? t("end.claim_in", { s: Math.ceil(wait / 1000) }) : t("end.claim_now");
    $("claim-button").disabled = wait > 0;
  }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await response.json().catch(() => ({}));
    onError(errorText(error));
  }
  return response.ok;
}

// A button that asks first (a <dialog> whose "yes" closes it with the value "yes").
function confirmed(button, dialog, then) {
  if (!button || !dialog) return;
  button.addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "yes" && current) then();
  });
}

export function setupEndings({ gameId, seatNames, showError }) {
  if (!section) return;
  onError = showError || onError;
  for (const el of section.querySelectorAll(".clock")) {
    el.querySelector(".clock-name").textContent = seatNames[Number(el.dataset.seat)];
  }
  const resign = $("resign");
  confirmed(resign, $("resign-dialog"), () => {
    const seat = current.you.length > 1 ? (current.decider ?? current.turn ?? 0) : undefined;
    post(`/api/games/${gameId}/resign`, seat === undefined ? {} : { seat });
    resign.focus();
  });
  // The game is deleted: its host goes back to the start page to begin another.
  confirmed($("cancel-game"), $("cancel-game-dialog"), async () => {
    if (await post(`/api/games/${gameId}/cancel`, {})) location.assign("/");
  });
  // Nobody came yet: a game against the computer begins meanwhile; the open game stays listed,
  // and the computer's game page says when a person takes it (seekwatch.js).
  const instead = $("computer-instead");
  if (instead) {
    instead.addEventListener("click", () => {
      instead.disabled = true;
      rememberSeek(gameId);
      $("computer-instead-form").submit();
    });
  }
  $("claim-button").addEventListener("click", () => post(`/api/games/${gameId}/claim`, {}));
}

// The words for how a game ended before the rules ended it, or null; "you" when this viewer
// lost so (on one screen both seats are the viewer's, so there the seat is named).
export function terminationText(state, seatNames) {
  const outcome = state.outcome;
  if (!state.termination || !outcome || outcome.winner === null) return null;
  const loser = 1 - outcome.winner;
  if (state.mode !== "local" && state.you.includes(loser)) return t(`end.${state.termination}_you`);
  return t(`end.${state.termination}`, { loser: seatNames[loser] });
}

/** Is a person's seat still free (the friend or the lobby's taker has not come)? */
export function seatFree(state) {
  return (state.seats || []).some((s) => s.kind === "human" && !s.taken);
}

export function renderEndings(state) {
  if (!section || !state) return;
  current = state;
  if (typeof state.now === "number") offset = state.now - Date.now();
  const over = state.phase === "over";
  $("clocks").hidden = !state.clock;
  $("turn-based-note").hidden = over || !state.clock || state.clock.kind !== "days";
  const resign = $("resign");
  const cancel = $("cancel-game");
  // nobody to resign to while the other seat is still free: the game can be cancelled instead
  if (resign) resign.hidden = over || !state.you.length || seatFree(state);
  if (cancel) cancel.hidden = over || !state.you.length || !seatFree(state);
  const instead = $("computer-instead");
  if (instead) instead.hidden = cancel.hidden || !state.listed;
  $("claim").hidden = over || !state.abandon;
  clearInterval(ticking);
  if (!over && (state.clock || state.abandon)) ticking = setInterval(tick, 250);
  tick();
}
