// The game page's named players: once the game is over, the rating change each one got
// ("+14"), read from /api/games/{id}/ratings (the server rates the game as it ends).
const box = document.getElementById("named-players");
const root = document.getElementById("game");
const gameId = root ? root.dataset.game : null;

async function showChanges() {
  for (let attempt = 0; attempt < 8; attempt++) {
    const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`, {
      headers: { Accept: "application/json" },
    });
    if (!answer.ok) return;
    const data = await answer.json();
    const done = !data.rated || data.seats.every((s) => s.change !== null);
    for (const s of data.seats) {
      const row = box.querySelector(`[data-seat="${s.seat}"]`);
      if (!row) continue;
      row.querySelector(".np-rating").textContent = s.rating || "";
      if (s.change !== null) {
        const text = (s.change < 0 ? "\u2212" : "+") + Math.abs(s.change);
        row.querySelector(".np-change").textContent = text;
      }
    }
    if (done) return;
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
