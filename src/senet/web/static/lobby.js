// Open games, live: the listing arrives over /ws/lobby at once and again after every change.
const section = document.querySelector("section.lobby");
if (section) {
  const list = section.querySelector("#open-games");
  const row = section.querySelector("#open-game-row");
  const texts = JSON.parse(section.dataset.texts);
  const variant = section.dataset.variant;
  let retry = 500;

  const render = (games) => {
    list.replaceChildren();
    if (!games.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = list.dataset.empty;
      list.append(li);
      return;
    }
    for (const g of games) {
      const li = row.content.firstElementChild.cloneNode(true);
      li.dataset.game = g.id;
      li.querySelector(".og-variant").textContent = texts.variants[g.variant] || g.variant;
      li.querySelector(".og-tc").textContent = texts.tc[g.time_control] || g.time_control;
      li.querySelector(".og-side").textContent = texts[`side_${g.side}`];
      li.querySelector(".og-quick").hidden = !g.quick;
      // a named player's seek: their name and rating in its variant ("Anna 1512?")
      li.querySelector(".og-player").textContent = g.player ? `${g.player} ${g.rating}` : "";
      // a bot's seek is marked BOT
      const bot = li.querySelector(".og-bot");
      bot.hidden = !g.bot;
      bot.textContent = g.bot ? texts.bot : "";
      li.querySelector("form").action = `/g/${g.id}/take`;
      list.append(li);
    }
  };

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = variant ? `?variant=${encodeURIComponent(variant)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby${query}`);
    ws.onmessage = (event) => {
      retry = 500;
      const message = JSON.parse(event.data);
      if (message.type === "lobby") render(message.games);
    };
    ws.onclose = () => { setTimeout(connect, retry); retry = Math.min(retry * 2, 10000); };
  };
  connect();

  // how alive the site is: the players at a board and the games being played, read again
  // every 20 s while the page is shown
  const activity = section.querySelector("#activity");
  const count = async () => {
    if (document.hidden) return;
    try {
      const response = await fetch("/api/activity", { credentials: "same-origin" });
      if (!response.ok) return;
      const now = await response.json();
      activity.textContent = now.text;
      activity.dataset.players = now.players_online;
      activity.dataset.games = now.games_playing;
      activity.hidden = false;
    } catch { /* offline for a moment: the next round tries again */ }
  };
  count();
  setInterval(count, 20000);
}
