// Passkeys on the name page: register one on a device that has a name, sign in with one on a
// device that has none.  The server makes every challenge (good once) and checks every answer.
import { errorText, loadTexts, t } from "./i18n.js";

await loadTexts(document.documentElement.lang || "en");

const add = document.getElementById("passkey-add");
const signIn = document.getElementById("passkey-sign-in");
const status = document.getElementById("passkey-status");

function fromB64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  let raw = "";
  for (const byte of new Uint8Array(buffer)) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function post(path, body) {
  const answer = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body || {}),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.code || "failed");
  return data;
}

function say(key) {
  status.textContent = t(key);
}

async function register() {
  say("passkey.working");
  try {
    const options = await post("/api/passkeys/register/options");
    options.challenge = fromB64url(options.challenge);
    options.user.id = fromB64url(options.user.id);
    options.excludeCredentials = (options.excludeCredentials || []).map((c) => ({
      ...c,
      id: fromB64url(c.id),
    }));
    const made = await navigator.credentials.create({ publicKey: options });
    const answer = await post("/api/passkeys/register", {
      id: made.id,
      rawId: toB64url(made.rawId),
      type: made.type,
      response: {
        clientDataJSON: toB64url(made.response.clientDataJSON),
        attestationObject: toB64url(made.response.attestationObject),
        transports: made.response.getTransports ? made.response.getTransports() : [],
      },
    });
    say("passkey.added");
    const count = document.getElementById("passkey-count");
    if (count && Number.isInteger(answer.passkeys)) {
      count.textContent = t("name.passkeys_text", { count: answer.passkeys });
    }
  } catch (err) {
    failed(err);
  }
}

// Why a ceremony failed, in words: cancelled by the person, an address WebAuthn refuses, a
// passkey this authenticator holds already, or the server's refusal (its code).
function failed(err) {
  const name = err && err.name;
  if (name === "NotAllowedError") say("passkey.cancelled");
  else if (name === "SecurityError") say("name.passkeys_need_name");
  else if (name === "InvalidStateError") say("err.passkey_known");
  else if (name === "Error" && err.message !== "failed") {
    status.textContent = errorText({ code: err.message });
  } else say("passkey.failed");
}

async function login() {
  say("passkey.working");
  try {
    const options = await post("/api/passkeys/login/options");
    options.challenge = fromB64url(options.challenge);
    options.allowCredentials = (options.allowCredentials || []).map((c) => ({
      ...c,
      id: fromB64url(c.id),
    }));
    const got = await navigator.credentials.get({ publicKey: options });
    await post("/api/passkeys/login", {
      id: got.id,
      rawId: toB64url(got.rawId),
      type: got.type,
      response: {
        clientDataJSON: toB64url(got.response.clientDataJSON),
        authenticatorData: toB64url(got.response.authenticatorData),
        signature: toB64url(got.response.signature),
        userHandle: got.response.userHandle ? toB64url(got.response.userHandle) : null,
      },
    });
    location.assign("/name");
  } catch (err) {
    failed(err);
  }
}

if (window.PublicKeyCredential) {
  if (add) {
    add.hidden = false;
    add.addEventListener("click", register);
  }
  if (signIn) {
    signIn.hidden = false;
    signIn.addEventListener("click", login);
  }
}
