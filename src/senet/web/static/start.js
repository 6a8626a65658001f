// The start form: the computer's level matters only against the computer; say what a level means.
import { wireSeedFields } from "./seed.js";

wireSeedFields();
for (const form of document.querySelectorAll("form.start-form")) {
  const field = form.querySelector(".level-field");
  const select = field.querySelector("select");
  const desc = field.querySelector(".level-desc");
  const update = () => {
    const mode = form.querySelector("input[name=mode]:checked");
    field.hidden = !mode || mode.value !== "computer";
    const option = select.selectedOptions[0];
    desc.textContent = option ? option.dataset.description || "" : "";
  };
  form.addEventListener("change", update);
  update();
}
