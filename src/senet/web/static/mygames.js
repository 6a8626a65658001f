// My games: the list is read again every few seconds (the seats are this browser's cookies).
const list = document.getElementById("my-games");
if (list) {
  const limit = Number(list.dataset.limit || 200);
  const refresh = async () => {
    try {
      const response = await fetch("/api/mine", { credentials: "same-origin" });
      if (!response.ok) return;
      const games = (await response.json()).slice(0, limit);
      const rows = games.map((g) => {
        const li = document.createElement("li");
        li.className = `my-game state-${g.state}`;
        li.dataset.game = g.id;
        const a = document.createElement("a");
        a.href = `/g/${g.id}`;
        a.textContent = g.title;
        const state = document.createElement("strong");
        state.className = "mg-state";
        state.textContent = g.label;
        // as the server draws it: the items alone, the dots between them drawn by the style
        const meta = document.createElement("span");
        meta.className = "row-meta dots";
        const item = (text) => { const s = document.createElement("span"); s.textContent = text; return s; };
        meta.append(item(g.mode_label), item(g.time_label), state);
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
    } catch (error) {
      // offline for a moment: the next round tries again
    }
  };
  refresh();
  setInterval(refresh, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}
