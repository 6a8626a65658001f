// The game page's named players: once the game is over, each one's rating and the change this
// game made ("+14"), read from /api/games/{id}/ratings (the server rates the game as it ends).
// The list is drawn again from the answer: a player who took a seat after this page was loaded
// is in it too.
const box = document.getElementById("named-players");
const root = document.getElementById("game");
const gameId = root ? root.dataset.game : null;

function signed(change) {
  return (change < 0 ? "\u2212" : "+") + Math.abs(change);
}

function draw(seats) {
  const list = box.querySelector("ul");
  list.replaceChildren();
  for (const s of seats) {
    const row = document.createElement("li");
    row.dataset.seat = s.seat;
    const name = document.createElement("a");
    name.href = `/@/${encodeURIComponent(s.name)}`;
    name.translate = s.kind === "computer"; // a level's name is a word of the page
    name.textContent = s.label || s.name;
    const rating = document.createElement("span");
    rating.className = "np-rating";
    rating.textContent = s.rating || "";
    const change = document.createElement("strong");
    change.className = "np-change";
    change.textContent = s.change === null ? "" : signed(s.change);
    row.append(name);
    if (s.kind === "bot") {
      const tag = document.createElement("span");
      tag.className = "bot-tag";
      tag.textContent = box.dataset.botTag;
      row.append(" ", tag);
    }
    row.append(" ", rating, " ", change);
    list.append(row);
  }
}

async function showChanges() {
  for (let attempt = 0; attempt < 8; attempt++) {
    const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`, {
      headers: { Accept: "application/json" },
    });
    if (!answer.ok) return;
    const data = await answer.json();
    draw(data.seats);
    if (!data.rated || data.seats.every((s) => s.change !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
  }
}

if (box && root && gameId && box.dataset.rated) {
  let shown = false;
  const look = () => {
    if (!shown && root.dataset.over === "1") {
      shown = true;
      showChanges();
    }
  };
  new MutationObserver(look).observe(root, { attributes: true, attributeFilter: ["data-over"] });
  look();
}
