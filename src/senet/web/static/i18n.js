// The site's texts in the page's language: the server's catalog (senet.web.i18n, GET
// /api/i18n/LANG) read the same way — a plain text, a plural message (its form by the count, from
// the plural table the server made with Babel's rules) or a message that agrees with its subject.
let T = {};
let LANG = "en";

export async function loadTexts(lang) {
  LANG = lang;
  try { T = await (await fetch(`/api/i18n/${lang}`)).json(); } catch { /* keys stay visible */ }
  return T;
}

function pluralCategory(n) {
  const table = T["plural.table"] || [];
  if (!Number.isInteger(n) || n < 0 || !table.length) return "other";
  return table[n < table.length ? n : 100 + (n % 100)];
}

function form(entry, params) {
  if (entry.count !== undefined) {
    const forms = entry;
    return forms[pluralCategory(Number(params[entry.count]))] ?? forms.many ?? forms.other ?? "";
  }
  const grammar = T[`noun.${params[entry.agree]}`];
  return entry[grammar] ?? entry.other;
}

// A percentage (the number already times 100) with one decimal, in the page language's digits
// (ru: "1,7", en: "1.7"); the sentence around it places the sign.
export function percent(points) {
  return points.toLocaleString(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

// A line as a sentence: its first letter upper-case (many texts begin with a seat's name,
// written in lower case so that it also fits inside a sentence: "spools threw 3").
export function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function t(key, params = {}) {
  const entry = T[key];
  if (entry === undefined) return key;
  let s = typeof entry === "string" ? entry : form(entry, params);
  for (const [k, v] of Object.entries(params)) s = s.replaceAll(`{${k}}`, v);
  return s;
}

// An error the server answered with: its code in words (the message is for programs), and where
// refused text went wrong when the server says so. A well-written position the rules cannot reach
// is refused with the engine's reason (error.reason, its params): said in the page's language
// (pos.*, as senet.web.explain_text.position_reason_text), its variant and House by the names
// `names(params)` gives.
export function errorText(error, names = (params) => params) {
  if (error && error.reason && T[`pos.${error.reason}`] !== undefined) {
    return t("err.impossible", { reason: t(`pos.${error.reason}`, names(error.params || {})) });
  }
  const key = `err.${error && error.code}`;
  const params = error && Number.isInteger(error.retry_after) ? { seconds: error.retry_after } : {};
  const words = T[key] !== undefined ? t(key, params) : t("err.unknown");
  if (!error || !Number.isInteger(error.line) || !Number.isInteger(error.column)) return words;
  return `${words} ${t("err.where", { line: error.line, column: error.column })}`;
}
