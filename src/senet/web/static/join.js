// Opening an invitation in a browser takes the seat (a link preview robot runs no script):
// after a short pause, so that a player who wants a seed of their own can click into the
// "Your seed" field first; then they press the button themselves.
import { wireSeedFields } from "./seed.js";

wireSeedFields();
const form = document.getElementById("join-form");
if (form) {
  let choosing = false;
  for (const input of form.querySelectorAll("input.own-seed")) {
    for (const event of ["focus", "pointerdown", "keydown"]) input.addEventListener(event, () => { choosing = true; });
  }
  setTimeout(() => { if (!choosing) form.requestSubmit(); }, 1500);
}
