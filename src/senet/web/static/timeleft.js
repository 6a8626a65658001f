// Time left on a clock, in words of the page's language: minutes and seconds under an hour
// ("4:05"), hours and minutes under a day ("5 h 12 min"), else days and hours ("2 d 23 h": a
// turn-based game's days per move).
import { t } from "./i18n.js";

export function timeLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return t("clock.days_hours", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("clock.hours_minutes", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
