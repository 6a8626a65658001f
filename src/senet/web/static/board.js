// The board: an SVG drawing of the 3×10 snake track, its Houses, spools and cones.
// Pure drawing: game.js owns the state and passes callbacks for clicks and keys.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 64, X0 = 12, Y0 = 14, OFF_GAP = 16;
export const OFF = 31;
// The track as rows and columns: three rows of ten, the snake of the ancient boards (the middle
// row runs right to left), the bearing-off cell after the end of the last row. One description
// feeds both drawings: wide, the rows run across (a desktop, a phone held sideways); upright, on a
// phone held upright, the same picture turned so that the rows run down as three columns of ten
// and the board is tall enough for squares a finger can tap. board_svg.py draws the same.
export const UPRIGHT_QUERY = "(orientation: portrait) and (max-width: 600px)";
let upright = false;

export function isUpright() {
  return typeof matchMedia === "function" && matchMedia(UPRIGHT_QUERY).matches;
}

// [row, column] of a square on the track (OFF: the eleventh column of the last row)
export function trackCell(sq) {
  if (sq === OFF) return [2, 10];
  const row = Math.floor((sq - 1) / 10), k = (sq - 1) % 10;
  return [row, row === 1 ? 9 - k : k];
}

export function boardSize() {
  const across = 11 * CELL + OFF_GAP + 2 * X0, down = 3 * CELL + 2 * Y0;
  return upright ? [down - 2 * Y0 + 2 * X0, across - 2 * X0 + 2 * Y0] : [across, down];
}

export function squareXY(sq) {
  const [row, col] = trackCell(sq);
  const along = col * CELL + (sq === OFF ? OFF_GAP : 0);
  return upright ? [X0 + row * CELL, Y0 + along] : [X0 + along, Y0 + row * CELL];
}

// Hieroglyphs drawn as simple strokes: many systems have no font for Egyptian hieroglyphs.
const GLYPHS = {
  "\u{132F9}": "M0 -2 a4 4.5 0 1 1 0.01 0 v13 M-6 1 h12", // ankh
  "\u{13124}": "M-4 -1 a4 5 0 1 0 8 0 a4 5 0 1 0 -8 0 M0 -9 v4 M-3 -6 h6", // nfr: beauty
  "\u{13217}": "M-8 -5 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 M-8 0 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 M-8 5 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2 l2 -2 l2 2", // water
  "\u{131F3}": "M0 -7 a7 7 0 1 1 -0.01 0 M0 -1 a1 1 0 1 1 -0.01 0", // sun disk: Ra
  "\u{13080}": "M-8 0 q8 -8 16 0 q-8 6 -16 0 M0 -3 a2 2 0 1 1 -0.01 0 M-3 3 l-2 6 M2 3 q4 2 2 6", // eye of Horus
  "\u{1319B}": "M-8 0 q6 -7 12 0 q-6 7 -12 0 M4 0 l5 -4 v8 z", // fish: the net
  "\u{1317D}": "M-6 4 q0 -8 8 -8 q4 0 5 3 l-3 1 q2 4 -2 6 z M-2 4 v5 M2 4 v5 M-7 -4 a3 3 0 1 1 0.01 0", // ba bird
};

function glyph(parent, symbol, x, y) {
  const d = GLYPHS[symbol];
  if (!d) return text(parent, x, y + 5, symbol, "house-symbol", { "text-anchor": "middle" });
  const node = el("path", { d, class: "glyph", transform: `translate(${x} ${y})` }, parent);
  node.setAttribute("aria-hidden", "true");
  return node;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, cls, extra = {}) {
  const node = el("text", { x, y, class: cls, ...extra }, parent);
  node.textContent = content;
  return node;
}

// A spool (seat A): a waisted bobbin. A cone (seat B): a rounded cone. Shapes, not only colours.
let darkSeat = 1;

function piece(parent, seat, cx, cy) {
  const g = el("g", { class: `piece-shape seat-${seat} ${seat === darkSeat ? "dark" : "light"}` }, parent);
  if (seat === 0) {
    el("path", {
      d: `M${cx - 17} ${cy - 20} h34 v6 q-10 6 -10 14 q0 8 10 14 v6 h-34 v-6 q10 -6 10 -14 q0 -8 -10 -14 z`,
      class: "spool",
    }, g);
    el("line", { x1: cx - 17, y1: cy - 14, x2: cx + 17, y2: cy - 14, class: "spool-band" }, g);
    el("line", { x1: cx - 17, y1: cy + 14, x2: cx + 17, y2: cy + 14, class: "spool-band" }, g);
  } else {
    el("path", { d: `M${cx} ${cy - 22} L${cx + 16} ${cy + 16} Q${cx} ${cy + 24} ${cx - 16} ${cy + 16} Z`, class: "cone" }, g);
    el("circle", { cx, cy: cy - 20, r: 4, class: "cone-tip" }, g);
  }
  return g;
}

export function setDarkSeat(seat) { darkSeat = seat; }

export function houseIcon(symbol) {
  const svg = el("svg", { viewBox: "-12 -12 24 24", width: 24, height: 24, "aria-hidden": "true", class: "icon house-icon" });
  glyph(svg, symbol, 0, 0);
  return svg;
}

export function pieceIcon(seat) {
  const svg = el("svg", { viewBox: "0 0 48 48", width: 22, height: 22, "aria-hidden": "true", class: "icon" });
  piece(svg, seat, 24, 24);
  return svg;
}

// view: {pieces:[[...],[...]], houses, lastMove, selected, movable: Map(origin -> [{target, text}]),
//        targets: [{target, text}], seatNames, t, onSelect(origin), onMove(text), onCancel(),
//        fitScreen: the page begins with the board (upright, it then fits below its top)}
export function drawBoard(svg, view) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  upright = isUpright();
  const [width, height] = boardSize();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.classList.toggle("upright", upright);
  // upright, a board at the top of its page (view.fitScreen) is as tall as the screen below its
  // top allows; another, as tall as the screen (site.css reads the offset)
  if (upright && view.fitScreen) svg.style.setProperty("--board-top", `${Math.round(svg.getBoundingClientRect().top + scrollY)}px`);
  const t = view.t;
  const last = view.lastMove;
  const lastSquares = new Set();
  if (last && last.kind === "move") { lastSquares.add(last.origin); lastSquares.add(last.target); }
  const [frameW, frameH] = upright ? [3 * CELL, 10 * CELL] : [10 * CELL, 3 * CELL];
  el("rect", { x: X0 - 6, y: Y0 - 6, width: frameW + 12, height: frameH + 12, rx: 8, class: "board-frame" }, svg);
  const occupant = new Map();
  for (const seat of [0, 1]) for (const sq of view.pieces[seat]) occupant.set(sq, view.seatNames[seat]);
  for (let sq = 1; sq <= 30; sq++) {
    const [x, y] = squareXY(sq);
    const house = view.houses[String(sq)];
    // its full name for a screen reader: "14, cones", "27, House of Water, empty"
    const name = [String(sq), ...(house ? [house.name] : []), occupant.get(sq) || t("play.empty")].join(", ");
    const g = el("g", { class: "square" + (house ? " house" : "") + (lastSquares.has(sq) ? " last" : ""), "data-square": sq, role: "img", "aria-label": name }, svg);
    el("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, class: "cell" }, g);
    text(g, x + 5, y + 14, String(sq), "sq-num");
    if (house) {
      // the symbol, large; the name and what the House does are a hover (title) or a tap away.
      // Under a piece, small in the square's top right corner, clear of the piece (drawn large
      // there, the piece covered it and it the piece)
      const mark = glyph(g, house.symbol, 0, 0);
      mark.setAttribute("transform", occupant.has(sq) ? `translate(${x + CELL - 8} ${y + 9}) scale(0.55)`
        : `translate(${x + CELL - 17} ${y + 19}) scale(1.35)`);
      const title = el("title", {}, g);
      title.textContent = `${sq}: ${house.name}` + (house.meaning ? ` — ${house.meaning}` : "");
      if (view.onHouse) g.addEventListener("click", () => view.onHouse(sq));
    }
  }
  // the bearing-off zone
  const [ox, oy] = squareXY(OFF);
  const offG = el("g", { class: "off-zone" + (last && last.off ? " last" : "") }, svg);
  el("rect", { x: ox + 1, y: oy + 1, width: CELL - 2, height: CELL - 2, rx: 6, class: "cell off" }, offG);
  text(offG, ox + CELL / 2, oy + 36, t("g.off"), "off-label", { "text-anchor": "middle" });

  for (const seat of [0, 1]) {
    for (const sq of view.pieces[seat]) {
      const [x, y] = squareXY(sq);
      const options = view.movable.get(sq);
      const label = `${view.seatNames[seat]} ${t("g.on_square")} ${sq}` + (options ? ` — ${t("g.can_move")}` : "");
      const g = el("g", { class: "piece", "data-square": sq, "data-seat": seat, "aria-label": label }, svg);
      if (options) {
        g.classList.add("movable");
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        if (view.selected === sq) { g.classList.add("selected"); g.setAttribute("aria-pressed", "true"); }
        const activate = () => view.onSelect(sq);
        g.addEventListener("click", activate);
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); }
          if (e.key === "Escape") view.onCancel();
        });
      } else {
        g.setAttribute("role", "img");
      }
      el("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 6, class: "piece-hit" }, g);
      piece(g, seat, x + CELL / 2, y + CELL / 2 + 2);
    }
  }
  for (const option of view.targets) {
    const [x, y] = squareXY(option.target);
    const w = CELL;
    const g = el("g", {
      class: "target", tabindex: "0", role: "button", "data-target": option.target, "data-move": option.text,
      "aria-label": `${t("g.move_to")} ${option.target === OFF ? t("g.off") : option.target} (${option.text})`,
    }, svg);
    el("rect", { x: x + 3, y: y + 3, width: w - 6, height: CELL - 6, rx: 6, class: "target-ring" }, g);
    el("circle", { cx: x + w / 2, cy: y + CELL / 2, r: 9, class: "target-dot" }, g);
    const go = () => view.onMove(option.text);
    g.addEventListener("click", go);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); }
      if (e.key === "Escape") view.onCancel();
    });
  }
}

// The throw: four sticks (pattern bit set = marked side up) or Bell's long die. Before the
// first throw the instrument lies waiting, drawn faint, so the row shows what will be thrown.
export function drawThrow(box, lastThrow, instrument, animate, t) {
  box.replaceChildren();
  if (!lastThrow) {
    const [kind, count] = instrument === "die4" ? ["die", 1] : ["stick", 4];
    for (let i = 0; i < count; i++) {
      const part = document.createElement("div");
      part.className = `${kind} idle`;
      box.appendChild(part);
    }
    box.setAttribute("aria-label", `${t("g.throw")}: ${t("g.not_thrown")}`);
    return;
  }
  if (instrument === "die4") {
    const die = document.createElement("div");
    die.className = "die";
    die.textContent = String(lastThrow.value);
    box.appendChild(die);
  } else {
    for (let i = 0; i < 4; i++) {
      const stick = document.createElement("div");
      const up = (lastThrow.pattern >> i) & 1;
      stick.className = "stick " + (up ? "marked" : "plain");
      stick.title = up ? t("g.stick_marked") : t("g.stick_plain");
      box.appendChild(stick);
    }
  }
  box.setAttribute("aria-label", `${t("g.throw")}: ${lastThrow.value}`);
  if (animate) {
    box.classList.remove("rolling");
    void box.offsetWidth; // restart the animation
    box.classList.add("rolling");
  }
}

// A move seen on the board: the piece now on `target` walks there from `origin` square by
// square (the swapped piece, if any, goes straight back). Nothing moves for a reader who asked
// for reduced motion. Returns the squares walked (for the page's record), [] if none.
export function animateMove(svg, move, swapped) {
  if (typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches) return [];
  const { origin, target, seat } = move;
  const node = svg.querySelector(`.piece[data-square="${target}"][data-seat="${seat}"]`);
  if (!node || !node.animate || origin === target) return [];
  const squares = [];
  const step = target > origin ? 1 : -1;
  for (let sq = origin; sq !== target; sq += step) {
    if (sq > 30 && sq !== OFF) break;
    squares.push(sq);
  }
  squares.push(target);
  const [tx, ty] = squareXY(target);
  const frames = squares.map((sq) => {
    const [x, y] = squareXY(sq);
    return { transform: `translate(${x - tx}px, ${y - ty}px)` };
  });
  const duration = Math.min(90 * squares.length, 720);
  node.animate(frames, { duration, easing: "ease-in-out" });
  if (swapped) {
    const other = svg.querySelector(`.piece[data-square="${origin}"][data-seat="${1 - seat}"]`);
    const [ox, oy] = squareXY(origin);
    if (other && other.animate) {
      other.animate([{ transform: `translate(${tx - ox}px, ${ty - oy}px)` }, { transform: "none" }], { duration, easing: "ease-in-out" });
    }
  }
  return squares;
}

// Moves drawn as arrows over a drawn board, from the centre of the origin to the centre of the
// target (bearing off: the off zone). marks: [{origin, target, kind, good}], kind "played" (solid,
// filled head; red, blue where good: no mistake) or "best" (dashed, open head): told apart by shape, not only by colour. The two
// bow to opposite sides, so a move that is both played and best shows as two arrows.
export function drawMoveMarks(svg, marks) {
  const layer = el("g", { class: "move-marks", "aria-hidden": "true" }, svg);
  const defs = el("defs", {}, layer);
  for (const kind of ["played", "best", "good"]) {
    const marker = el("marker", {
      id: `mark-head-${kind}`, viewBox: "0 0 12 12", refX: "9", refY: "6",
      markerWidth: "3.4", markerHeight: "3.4", orient: "auto-start-reverse", markerUnits: "strokeWidth",
    }, defs);
    el("path", { d: kind === "best" ? "M2 1.5 L10 6 L2 10.5" : "M1 1 L11 6 L1 11 Z", class: `rp-head ${kind === "good" ? "played good" : kind}` }, marker);
  }
  for (const mark of marks) {
    const [ox, oy] = squareXY(mark.origin).map((v) => v + CELL / 2);
    const [tx, ty] = squareXY(mark.target).map((v) => v + CELL / 2);
    const dx = tx - ox, dy = ty - oy;
    const length = Math.hypot(dx, dy) || 1;
    const bow = (mark.kind === "played" ? 1 : -1) * Math.min(30, 10 + length / 6);
    const cx = (ox + tx) / 2 - (dy / length) * bow, cy = (oy + ty) / 2 + (dx / length) * bow;
    // stop short of the target's centre, so that the head does not hide what stands there
    const ex = tx - (tx - cx) * (14 / Math.hypot(tx - cx, ty - cy)), ey = ty - (ty - cy) * (14 / Math.hypot(tx - cx, ty - cy));
    // the move played is red only where it was a mistake; a good one is drawn in blue
    const good = mark.kind === "played" && mark.good ? " good" : "";
    el("circle", { cx: ox, cy: oy, r: 7, class: `rp-origin ${mark.kind}${good}` }, layer);
    el("path", {
      d: `M${ox} ${oy} Q${cx} ${cy} ${ex} ${ey}`, class: `rp-arrow ${mark.kind}${good}`,
      "marker-end": `url(#mark-head-${good ? "good" : mark.kind})`, "data-move": mark.text,
    }, layer);
  }
}
