"""Text contrast as a person sees it, measured in the browser: each visible piece of text's own
colour against the background it is drawn on (the nearest ancestor's background colour that is
not transparent, half-transparent layers blended down to the page's), the ratio computed as
WCAG 2.x defines it (relative luminance of sRGB colours, (L1 + 0.05) / (L2 + 0.05))."""

from __future__ import annotations

import re

#: WCAG AA: 4.5:1 for text (3:1 is allowed for large text; every text is held to 4.5 here).
AA = 4.5

#: Every element inside ``root`` (a selector) with text of its own, visible and not a disabled
#: control's: its text, its colour, and the colours of the backgrounds under it, nearest first.
TEXTS = """(root) => {
  const out = [];
  for (const top of document.querySelectorAll(root)) {
    for (const el of [top, ...top.querySelectorAll('*')]) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
      if (!own) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (!box.width || !box.height || style.visibility === 'hidden' || el.closest(':disabled, .visually-hidden, [hidden]')) continue;
      const layers = [];
      for (let a = el; a; a = a.parentElement) layers.push(getComputedStyle(a).backgroundColor);
      layers.push(getComputedStyle(document.documentElement).backgroundColor);
      out.push({text: own.slice(0, 40), cls: el.className && String(el.className), color: style.color, layers});
    }
  }
  return out;
}"""


def _rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(p) for p in re.findall(r"[\d.]+", css)]
    r, g, b = parts[:3]
    return r, g, b, parts[3] if len(parts) > 3 else 1.0


def _over(top: tuple[float, ...], bottom: tuple[float, ...]) -> tuple[float, float, float, float]:
    a = top[3]
    return (
        top[0] * a + bottom[0] * (1 - a),
        top[1] * a + bottom[1] * (1 - a),
        top[2] * a + bottom[2] * (1 - a),
        1.0,
    )


def luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg: tuple[float, ...], bg: tuple[float, ...]) -> float:
    lighter, darker = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def background(layers: list[str]) -> tuple[float, float, float, float]:
    """The colour the nearest opaque background and the translucent ones above it make."""
    colours = [_rgba(c) for c in layers]
    base: tuple[float, float, float, float] = (255.0, 255.0, 255.0, 1.0)  # the canvas
    for index, colour in enumerate(colours):
        if colour[3] >= 1:
            base = colour
            colours = colours[:index]
            break
    for colour in reversed(colours):
        if colour[3] > 0:
            base = _over(colour, base)
    return base


def poor_contrast(page, root: str = "main", least: float = AA) -> list[dict]:
    """Each text inside ``root`` whose contrast is below ``least``, with its ratio."""
    poor = []
    for item in page.evaluate(TEXTS, root):
        bg = background(item["layers"])
        fg = _over(_rgba(item["color"]), bg)
        measured = ratio(fg, bg)
        if measured < least:
            poor.append({"text": item["text"], "cls": item["cls"], "ratio": round(measured, 2)})
    return poor
