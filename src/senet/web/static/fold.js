// A long variant page on a phone held upright: each section after the rules folds under its
// heading (the rules stay open; starting a game and the open games are not folded), so that
// the page reads as a list of what it holds. A link to a part of a folded section (the table of
// contents, a reference to a decision) opens that section first.
const QUERY = "(max-width: 600px)";
const KEEP = new Set(["rules-h", "play-h", "lobby-h"]);

function fold(section) {
  const heading = document.getElementById(section.getAttribute("aria-labelledby"));
  if (!heading || KEEP.has(heading.id) || heading.parentElement !== section) return;
  const details = document.createElement("details");
  details.className = "fold";
  const summary = document.createElement("summary");
  section.before(details);
  summary.append(heading);
  details.append(summary, section);
  section.removeAttribute("aria-labelledby");
  section.setAttribute("aria-label", heading.textContent.trim());
}

function openTo(id) {
  const target = id && document.getElementById(id);
  const folded = target && target.closest("details.fold");
  if (folded) folded.open = true;
  return target;
}

if (matchMedia(QUERY).matches) {
  const page = document.querySelector("article.variant-page");
  for (const section of page ? [...page.querySelectorAll(":scope > section[aria-labelledby]")] : []) fold(section);
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) openTo(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  window.addEventListener("hashchange", () => openTo(decodeURIComponent(location.hash.slice(1))));
  const target = openTo(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
}
