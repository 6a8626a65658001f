// The verify view: recompute every throw of a finished game in the player's own browser.
// It reads the game record (the same text `senet verify FILE` reads), checks that the revealed
// seed matches the commitment published at the start, and derives each throw n as
// HMAC-SHA256(seed, "<game id>:<n>:<player seeds>"): four sticks take the low 4 bits of the
// last byte (marked sides up; none up counts 5, or 6 where the variant says so (data-blank)), Bell's die the low 2 bits plus one.  The page
// says which instrument the game's variant throws (data-instrument: "sticks" or "die4").
// <player seeds> is the PlayerSeeds tag as written: seat A's own seed, ":", seat B's own seed
// (each 1-64 printable ASCII characters without ":", empty for the computer's seat, so
// the message reads back one way only); the server committed before it accepted either seed.
// Records from before the players' seeds hold one free string there, checked the same way.
import { fromHex, hmacSha256, sha256, toHex, utf8 } from "./fairhash.js";
import { loadTexts, t } from "./i18n.js";

const TAG = /^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$/;
const TOKEN = /\{[^}]*\}|\((\d)\)|(\d+)\./g;

export function readRecord(text) {
  const tags = {};
  const throws = [];
  let turn = 0;
  let inBody = false;
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!inBody && (trimmed === "" || trimmed.startsWith("["))) {
      const match = TAG.exec(trimmed);
      if (match) tags[match[1]] = match[2].replace(/\\(.)/g, "$1");
      return;
    }
    inBody = true;
    for (const match of line.matchAll(TOKEN)) {
      if (match[2]) turn = Number(match[2]);
      else if (match[1]) throws.push({ recorded: Number(match[1]), turn, line: index + 1 });
    }
  });
  return { tags, throws };
}

export function deriveThrow(secret, gameId, n, playerSeeds, die, blank = 5) {
  const digest = hmacSha256(secret, utf8(`${gameId}:${n}:${playerSeeds}`));
  const last = digest[31];
  if (die) return { pattern: last & 0x03, value: (last & 0x03) + 1 };
  const pattern = last & 0x0f;
  let ups = 0;
  for (let bit = pattern; bit; bit >>= 1) ups += bit & 1;
  return { pattern, value: ups || blank };
}

export function verifyRecord(text, instrument, blank = 5) {
  const { tags, throws } = readRecord(text);
  const missing = ["Variant", "GameId", "Commitment", "Seed", "PlayerSeeds"].filter((t) => !(t in tags));
  if (missing.length) return { ok: false, missing, rows: [], commitmentOk: false };
  const secret = fromHex(tags.Seed);
  const commitmentOk = toHex(sha256(secret)) === tags.Commitment.toLowerCase();
  const die = instrument === "die4";
  const rows = throws.map((t, n) => {
    const derived = deriveThrow(secret, tags.GameId, n, tags.PlayerSeeds, die, blank);
    return { n: n + 1, ...t, pattern: derived.pattern, derived: derived.value, ok: derived.value === t.recorded };
  });
  return { ok: commitmentOk && rows.every((r) => r.ok), commitmentOk, rows, missing: [], tags };
}

function patternText(pattern, die) {
  if (die) return String(pattern);
  return pattern.toString(2).padStart(4, "0").replace(/1/g, "▮").replace(/0/g, "▯");
}

async function main() {
  const root = document.getElementById("verify");
  if (!root) return;
  await loadTexts(document.documentElement.lang);
  const summary = root.querySelector(".verify-summary");
  let text;
  try {
    const response = await fetch(root.dataset.record, { credentials: "same-origin" });
    text = await response.text();
  } catch (error) {
    summary.textContent = t("verify.fetch_failed");
    return;
  }
  let result;
  try {
    result = verifyRecord(text, root.dataset.instrument, Number(root.dataset.blank || 5));
  } catch (error) {
    summary.textContent = t("verify.bad_record");
    summary.className = "verify-summary bad";
    return;
  }
  if (result.missing.length) {
    summary.textContent = t("verify.not_yet");
    summary.className = "verify-summary pending";
    return;
  }
  const bad = result.rows.filter((r) => !r.ok);
  summary.className = `verify-summary ${result.ok ? "good" : "bad"}`;
  summary.textContent = result.ok
    ? t("verify.all_good", { n: result.rows.length })
    : !result.commitmentOk
      ? t("verify.commitment_bad")
      : t("verify.throws_bad", { n: bad.length });
  root.querySelector(".verify-commitment").textContent = result.tags.Commitment;
  root.querySelector(".verify-seed").textContent = result.tags.Seed;
  root.querySelector(".verify-player-seeds").textContent = result.tags.PlayerSeeds || "—";
  const body = root.querySelector("tbody");
  const die = root.dataset.instrument === "die4";
  for (const row of result.rows) {
    const tr = document.createElement("tr");
    tr.className = row.ok ? "ok" : "mismatch";
    for (const cell of [row.n, row.turn, row.recorded, patternText(row.pattern, die), row.derived, row.ok ? "✓" : "✗"]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  root.querySelector("table").hidden = false;
}

main();
