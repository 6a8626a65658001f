// Why can this piece not move? A tap on a piece of the deciding player that has no legal move
// asks the server (the engine explains, /api/learn/why) and shows the answer in one line under
// the board. Pages that draw a board with board.js call explainTaps once.

// board: the <svg> drawn by board.js; current(): {fen, seat} of the player who may ask now (seat
// null: nobody here decides), or null; lang: "en" or "ru". Returns {clear()} to hide the line.
export function explainTaps(board, current, lang) {
  const line = document.createElement("p");
  line.className = "why-line";
  line.id = "why";
  line.setAttribute("aria-live", "polite");
  line.hidden = true;
  const anchor = board.closest(".board-wrap") || board;
  anchor.after(line);
  let asked = 0;
  let shownFen = null;
  const clear = () => { asked++; line.hidden = true; line.textContent = ""; delete line.dataset.kind; };
  board.addEventListener("click", async (event) => {
    const piece = event.target.closest(".piece");
    if (!piece || piece.classList.contains("movable")) { clear(); return; }
    const now = current();
    if (!now || now.seat === null || Number(piece.dataset.seat) !== now.seat) { clear(); return; }
    const ticket = ++asked;
    const params = new URLSearchParams({ position: now.fen, square: piece.dataset.square, lang });
    const answer = await fetch(`/api/learn/why?${params}`).then((r) => r.json()).catch(() => null);
    if (ticket !== asked || !answer || answer.can_move || !answer.text) return;
    shownFen = now.fen;
    line.textContent = answer.text;
    line.dataset.kind = answer.kind;
    line.dataset.square = piece.dataset.square;
    line.hidden = false;
  });
  // The line belongs to one position: a redrawn board in another position hides it.
  new MutationObserver(() => {
    const now = current();
    if (!line.hidden && (!now || now.fen !== shownFen)) clear();
  }).observe(board, { childList: true });
  return { clear };
}
