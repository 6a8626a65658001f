// The review of a long game takes a worker seconds to compute (once: then it is stored).  This page asks for
// it (the request waits until it is ready) and then shows it by loading the review page, which
// the server now answers at once.  A request cut short on the way (a proxy's time limit, a
// dropped connection) is asked again; a refusal (the game is not over) is shown in words.
import { errorText, loadTexts } from "./i18n.js";

const root = document.getElementById("review-wait");
const RETRY_MS = 2000;

async function waitForReview() {
  for (;;) {
    let response = null;
    try {
      response = await fetch(`/api/games/${root.dataset.game}/review`);
    } catch {
      response = null; // the connection dropped: ask again
    }
    if (response && response.ok) {
      window.location.reload();
      return;
    }
    if (response && response.status === 429) {
      // busy: say so in words ("busy — try again in 5 s"), then ask again after that time
      await loadTexts(root.dataset.lang);
      const error = await response.json().catch(() => null);
      document.getElementById("review-wait-text").textContent = errorText(error);
      const seconds = Number(response.headers.get("Retry-After")) || 5;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (response && response.status < 500) {
      await loadTexts(root.dataset.lang);
      const error = await response.json().catch(() => null);
      document.getElementById("review-wait-text").textContent = errorText(error);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

waitForReview();
