// Waiting for a person while playing the computer.  A player whose open game (a quick-pairing
// request) found nobody may play the computer meanwhile: the open game stays listed, and this
// page keeps its seat present (a connection to it, as its own page would) and says when a
// person takes it, with the way there.  Which game waits is kept by this browser
// (localStorage), set by the button that starts the game against the computer.
const KEY = "senet.waiting-seek";
const DAY = 24 * 3600 * 1000;
const note = document.getElementById("seek-taken");
const here = document.getElementById("game")?.dataset.game;

export function rememberSeek(gameId) {
  try { localStorage.setItem(KEY, JSON.stringify({ id: gameId, since: Date.now() })); } catch { /* private mode */ }
}

function forget() {
  try { localStorage.removeItem(KEY); } catch { /* private mode */ }
}

function waiting() {
  try {
    const seek = JSON.parse(localStorage.getItem(KEY) || "null");
    if (seek && typeof seek.id === "string" && Date.now() - seek.since < DAY) return seek;
  } catch { /* unreadable: nothing waits */ }
  forget();
  return null;
}

async function check(seek, ws) {
  const response = await fetch(`/api/games/${encodeURIComponent(seek.id)}`, { credentials: "same-origin" });
  if (response.status === 404) { forget(); ws.close(); return; }
  if (!response.ok) return;
  const state = await response.json();
  const free = (state.seats || []).some((s) => s.kind === "human" && !s.taken);
  if (!free) {
    // a person took it: say so, with the way there (once there, nothing waits any more)
    note.querySelector("a").href = `/g/${seek.id}`;
    note.hidden = false;
    ws.close();
  } else if (!state.listed || state.phase === "over") {
    forget(); // withdrawn or expired: nobody will come
    ws.close();
  }
}

function follow(seek) {
  let retry = 1000;
  let closed = false;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // ?away=1: the seat is present, its holder busy here (quick pairing passes it over)
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(seek.id)}?away=1`);
    const close = ws.close.bind(ws);
    ws.close = () => { closed = true; close(); };
    ws.onmessage = () => { retry = 1000; check(seek, ws); };
    ws.onclose = () => { if (!closed) { setTimeout(connect, retry); retry = Math.min(retry * 2, 30000); } };
  };
  connect();
}

const seek = waiting();
if (seek && here === seek.id) forget(); // the game itself is open: its own page shows it all
else if (seek && note) follow(seek);
