// The player's own seed. Every throw is derived from the server's
// committed secret and both players' seeds, so neither the server nor a player alone decides
// them. The optional "Your seed" field (start and join pages) is remembered in localStorage;
// without one the game page gives a fresh random seed from crypto.getRandomValues.
// A seed is 1-64 printable ASCII characters without ":" (":" separates seat A's seed from
// seat B's in the HMAC message "game id:n:seed A:seed B"; see senet/service/fairness.py).

export const SEED_KEY = "senet.seed";

export function validSeed(seed) {
  return typeof seed === "string" && /^[\x20-\x7e]{1,64}$/.test(seed) && !seed.includes(":");
}

function remembered() {
  try { return (localStorage.getItem(SEED_KEY) || "").trim(); } catch { return ""; } // storage may be off
}

// The seed to give for a seat: the one the player typed, else a random 128-bit one in hex.
export function ownSeed() {
  const typed = remembered();
  if (validSeed(typed)) return typed;
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Fill every "Your seed" field with the remembered seed and remember what is typed there.
export function wireSeedFields() {
  for (const input of document.querySelectorAll("input.own-seed")) {
    input.value = remembered();
    const fold = input.closest("details");
    if (fold && input.value) fold.open = true; // a seed of one's own is in use: show it
    input.addEventListener("input", () => {
      const value = input.value.trim();
      input.setCustomValidity(value === "" || validSeed(value) ? "" : input.dataset.invalid || "invalid");
      try {
        if (value === "") localStorage.removeItem(SEED_KEY);
        else if (validSeed(value)) localStorage.setItem(SEED_KEY, value);
      } catch { /* storage off: the random seed is used */ }
    });
  }
}
