// A table wider than the screen scrolls sideways inside its box; a shaded edge on the side
// where more of it lies says so (a phone shows no scroll bar until the table is touched).
const EDGE = 1;  // px: rounding of scroll positions at the ends

function mark(cue, scroller) {
  const rest = scroller.scrollWidth - scroller.clientWidth - scroller.scrollLeft;
  cue.classList.toggle("more-left", scroller.scrollLeft > EDGE);
  cue.classList.toggle("more-right", rest > EDGE);
}

for (const cue of document.querySelectorAll(".scroll-cue")) {
  const scroller = cue.querySelector(".table-scroll");
  if (!scroller) continue;
  const update = () => mark(cue, scroller);
  scroller.addEventListener("scroll", update, { passive: true });
  new ResizeObserver(update).observe(scroller);
  update();
}
