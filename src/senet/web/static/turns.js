// Your turn, everywhere: the games waiting for your move (GET /api/turns: a named player's on
// every device and the seats this browser holds).  Their number is shown on every page in the
// tab's title ("(2) Senet") and as a badge on "My games"; where the page has a list
// (#your-turn: the home page, my games) each game is listed with the time left, counted down
// from the server's time.
import { loadTexts, t } from "./i18n.js";
import { timeLeft } from "./timeleft.js";

const EVERY = 20000; // ms between two reads while the page is shown
const list = document.getElementById("your-turn");
const badge = document.getElementById("turn-badge");
const titleEl = document.querySelector("title");
const PREFIX = /^\(\d+\) /;
let count = 0;
let offset = 0; // server time - local time, ms
let games = [];
let texts = null;

function applyTitle() {
  const bare = document.title.replace(PREFIX, "");
  const wanted = count > 0 ? `(${count}) ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

// the game page writes its own title as the game goes on: keep the count in front of it
if (titleEl) new MutationObserver(applyTitle).observe(titleEl, { childList: true, characterData: true, subtree: true });

function drawBadge() {
  if (!badge) return;
  badge.textContent = String(count);
  badge.hidden = count === 0;
}

function leftText(g) {
  if (g.deadline === null) return t("turns.no_limit");
  return t("turns.left", { left: timeLeft(g.deadline - (Date.now() + offset)) });
}

function drawList() {
  if (!list || !texts) return;
  const rows = games.map((g) => {
    const li = document.createElement("li");
    li.className = `turn-game${g.turn_based ? " turn-based" : ""}`;
    li.dataset.game = g.id;
    const a = document.createElement("a");
    a.href = g.url;
    a.textContent = g.title;
    const meta = document.createElement("span");
    meta.className = "row-meta dots";
    const item = (text, cls) => { const s = document.createElement("span"); s.textContent = text; if (cls) s.className = cls; return s; };
    if (g.opponent) {
      const opponent = item(g.opponent, "tg-opponent");
      if (g.opponent_bot) { // the BOT mark, as beside a bot's name on every page
        const tag = item(t("bots.tag"), "bot-tag");
        tag.title = t("bots.tag_title");
        opponent.append(" ", tag);
      }
      meta.append(opponent);
    }
    meta.append(item(g.time_label, "tg-tc"));
    const left = document.createElement("strong");
    left.className = "tg-left";
    left.dataset.deadline = g.deadline ?? "";
    left.textContent = leftText(g);
    meta.append(left);
    li.append(a, " ", meta);
    return li;
  });
  if (!rows.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = list.dataset.empty;
    rows.push(li);
  }
  list.replaceChildren(...rows);
  list.dataset.count = String(count);
  // the home page shows the section only when a game waits (my games always shows it)
  const section = list.closest(".your-turn");
  if (section && section.hasAttribute("data-hide-empty")) section.toggleAttribute("data-hidden-empty", count === 0);
}

function tickList() {
  if (!list || !texts) return;
  for (const el of list.querySelectorAll(".tg-left")) {
    const g = games.find((x) => x.id === el.closest("li").dataset.game);
    if (g) el.textContent = leftText(g);
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/turns", { credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    offset = data.now - Date.now();
    games = data.games;
    count = data.count;
    applyTitle();
    drawBadge();
    drawList();
  } catch {
    // offline for a moment: the next round tries again
  }
}

if (list) loadTexts(document.documentElement.lang || "en").then((loaded) => { texts = loaded; drawList(); });
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, EVERY);
if (list) setInterval(tickList, 1000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
