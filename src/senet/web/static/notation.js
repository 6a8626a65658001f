// Moves in the site's notation ("12-15", "12x15", "28-off", and "30-off/2" where a bearing off
// names the throw it uses), and the words a page shows a player for them ("12 → 15", "5 → 8 ⚔",
// "28 → off (2)"): the game's move buttons, its hints, the analysis board and the lessons.
import { OFF } from "./board.js";
import { t } from "./i18n.js";

// {origin, target, used} of a step (target OFF for a bearing off; used 0 unless named), or null
// for a word move (pass, risk, return, revive, enter).
export function parseMove(text) {
  const m = /^(\d+)[-x](\d+|off)(?:\/(\d))?$/.exec(text);
  if (!m) return null;
  return { origin: Number(m[1]), target: m[2] === "off" ? OFF : Number(m[2]), used: m[3] ? Number(m[3]) : 0 };
}

// A move as a move list writes it: the notation ("12-15", "12x15", "28-off/2") with its
// bearing off in the page's words, as the board names the way off ("28-выход"). Only shown:
// what programs read (records, the API, the URL of a position) keeps the notation itself.
export function notationWords(text) {
  return text.replace(/-off\b/, `-${t("g.off")}`);
}

export function moveLabel(text) {
  const step = parseMove(text);
  if (!step) return t(`move.${text}`);
  const capture = text.includes("x");
  const used = step.used ? ` (${step.used})` : "";
  return `${step.origin} → ${step.target === OFF ? t("g.off") : step.target}${used}` + (capture ? " ⚔" : "");
}

// A decision's words where the position matters: a pass by a player whose piece waits in the
// House of Water (kendall-1978, variant.waitSquares) is that wait, not "no move possible".
export function choiceLabel(text, variant, pieces, seat) {
  const waits = seat !== null && seat !== undefined
    && (variant.waitSquares || []).some((sq) => pieces[seat].includes(sq));
  return text === "pass" && waits ? t("move.wait_water") : moveLabel(text);
}
