// Member accounts in the page (issue 15, docs/accounts.md): log in or create an account from
// the header's panel, the session token kept across reloads (and sent with every hello), the
// header's badge with the member's display name, "Log out", and the profile (display name,
// language, a new password). Passwords go to the server once, over a connection of the
// request's own, and are kept nowhere: the inputs are emptied as the request leaves.
import { $ } from "./dom.js";
import { errorText, lang, setLang, t, words } from "./i18n.js";
import { request, sayHello } from "./net.js";
import { KEY, saveJSON, store } from "./store.js";
import { changed, showError } from "./ui.js";

const PANEL_FORMS = ["login-form", "register-form", "profile-form"];

// ------------------------------------------------------------------ the session

// The session as the server answered it (`account`): kept, and the page's name follows it.
function keep(msg) {
  const s = store.state;
  s.member = { token: msg.token, member: msg.member, login: msg.login, display: msg.display, lang: msg.lang };
  s.nick = msg.display; // a member plays under his display name: no nickname to ask
  saveJSON(KEY.member, s.member);
}

// Forget the session: the token goes, the page's name is the nickname typed (if any).
// `ended`: the server ended it (a new password elsewhere, expired), which the page says.
export function forget(ended) {
  store.update((s) => {
    s.member = null;
    s.nick = localStorage.getItem(KEY.nick) || "";
    Object.assign(s.account, { view: "login", error: null, note: ended ? "" : "accLoggedOut" });
  });
  localStorage.removeItem(KEY.member);
  if (ended) showError(t("sessionEnded"));
}

// A welcome read with the session token its hello carried: `member` nil means the session
// ended (docs/protocol.md, welcome); else the display name is the server's (it may have
// been changed from another browser).
export function sessionAnswer(welcome, sent) {
  const m = store.state.member;
  if (!sent || !m || m.token !== sent) return; // no session asked, or a newer one since
  if (!welcome.member) {
    forget(true);
    return;
  }
  if (welcome.nickname && welcome.nickname !== m.display) {
    store.update((s) => {
      s.member.display = welcome.nickname;
      s.nick = welcome.nickname;
      saveJSON(KEY.member, s.member);
    });
  }
}

// An unasked refusal about who we are, on any page's connection: the session ended by a new
// password set elsewhere (`account.session_ended`: logged out, said), or a nickname that
// would pass for the director or the host (`reserved_name`: forgotten, asked again). True
// when `msg` was one of them.
export function identityRefusal(msg) {
  if (msg.t !== "error") return false;
  if (msg.code === "account.session_ended") {
    forget(true);
    return true;
  }
  if (msg.code !== "reserved_name") return false;
  localStorage.removeItem(KEY.nick);
  store.update((s) => {
    s.nick = "";
  });
  $("nick-form").hidden = false;
  showError(refusalText(msg));
  return true;
}

// The lobby has no connection of its own: one hello says whether the session still holds.
export function checkSession() {
  if (!store.state.member) return;
  request(null, "welcome", sessionAnswer).catch(() => {}); // offline: checked on the next visit
}

// Say hello again on the page's connection (a table, a tournament) once logged in or out:
// the connection becomes the member's and his display name is his name there. A seat token
// is never sent twice (it is spent once used): with one, hello names only the member.
function helloAgain() {
  const s = store.state;
  if (s.mode === "lobby" || !s.net.ws || s.net.ws.readyState !== WebSocket.OPEN) return;
  const token = s.mode === "table" && !s.net.usingSeatToken ? s.invite || undefined : undefined;
  sayHello({ nickname: s.nick || undefined, token });
}

// ------------------------------------------------------------------ requests

// A refusal in words: the account's own codes, `account.locked` with its seconds (the
// server's message says them: "... try again in 300 s"), else the page's error words.
export function refusalText(error) {
  const own = words().accErrors[error.code];
  if (own) return own.replace("%n", ((error.message || "").match(/(\d+)\s*s\b/) || ["", "…"])[1]);
  return errorText(error.code, error.message, lang());
}

function ask(message, done) {
  store.update((s) => {
    Object.assign(s.account, { busy: true, error: null, note: "" });
  });
  request(message, "account")
    .then((msg) =>
      store.update((s) => {
        s.account.busy = false;
        keep(msg);
        done(msg);
      }),
    )
    .catch((error) =>
      store.update((s) => {
        s.account.busy = false;
        if (error.code === "bad_token") forget(true); // the session ended before this update
        else s.account.error = { code: error.code, message: error.message };
      }),
    );
}

// The value of a password input, emptied at once: it is kept nowhere in the page.
function takePassword(id) {
  const value = $(id).value;
  $(id).value = "";
  return value;
}

function logIn() {
  const message = { t: "account_login", login: $("l-login").value.trim(), password: takePassword("l-password") };
  ask(message, (msg) => {
    store.state.account.open = false;
    setLang(msg.lang); // the member's language is the page's
    helloAgain();
  });
}

function register() {
  const message = {
    t: "account_register",
    login: $("r-login").value.trim(),
    password: takePassword("r-password"),
    display: $("r-display").value.trim() || undefined,
    lang: $("r-lang").value,
  };
  ask(message, (msg) => {
    store.state.account.open = false;
    setLang(msg.lang);
    helloAgain();
  });
}

function saveProfile() {
  const m = store.state.member;
  if (!m) return;
  const current = takePassword("p-password");
  const fresh = takePassword("p-new");
  if (fresh && !current) {
    store.update((s) => {
      s.account.note = "accNeedCurrent";
    });
    return;
  }
  const message = { t: "account_update", token: m.token };
  const display = $("p-display").value.trim();
  if (display && display !== m.display) message.display = display;
  if ($("p-lang").value !== m.lang) message.lang = $("p-lang").value;
  if (fresh) Object.assign(message, { password: current, new_password: fresh });
  ask(message, (msg) => {
    store.state.account.note = fresh ? "accSavedPassword" : "accSaved";
    fillProfile();
    setLang(msg.lang);
    helloAgain(); // the new display name is the name at this table from now on
  });
}

// ------------------------------------------------------------------ the panel

function fillProfile() {
  const m = store.state.member;
  if (!m) return;
  $("p-display").value = m.display;
  $("p-lang").value = m.lang;
}

function openPanel(open) {
  store.update((s) => {
    s.account.open = open;
    Object.assign(s.account, { error: null, note: open ? s.account.note : "" });
  });
  if (!open) return;
  fillProfile();
  $("r-lang").value = lang();
  const first = store.state.member ? "p-display" : store.state.account.view === "register" ? "r-login" : "l-login";
  requestAnimationFrame(() => $(first).focus({ preventScroll: true }));
}

function showForm(view) {
  store.update((s) => {
    Object.assign(s.account, { view, error: null, note: "" });
  });
  requestAnimationFrame(() => $(view === "register" ? "r-login" : "l-login").focus({ preventScroll: true }));
}

export function setupAccount() {
  const submit = { "login-form": logIn, "register-form": register, "profile-form": saveProfile };
  for (const id of PANEL_FORMS) {
    $(id).addEventListener("submit", (event) => {
      event.preventDefault();
      if (!store.state.account.busy) submit[id]();
    });
  }
  $("account-open").addEventListener("click", () => openPanel(!store.state.account.open));
  $("member-name").addEventListener("click", () => openPanel(!store.state.account.open));
  $("account-close").addEventListener("click", () => openPanel(false));
  $("to-register").addEventListener("click", () => showForm("register"));
  $("to-login").addEventListener("click", () => showForm("login"));
  for (const id of ["logout", "logout-top"]) {
    $(id).addEventListener("click", () => {
      forget(false);
      helloAgain(); // (the server keeps the connection's member until it closes)
    });
  }
}

export function renderAccount() {
  const s = store.state;
  const a = s.account;
  const m = s.member;
  if (!changed("account", [m, a, s.mode === "lobby" && s.nick])) return; // (drawn each frame)
  $("account-open").hidden = Boolean(m);
  $("account-open").setAttribute("aria-expanded", String(a.open && !m));
  $("member").hidden = !m;
  $("member-name").textContent = m ? m.display : "";
  $("member-name").setAttribute("aria-expanded", String(a.open && Boolean(m)));
  $("account").hidden = !a.open;
  $("login-form").hidden = Boolean(m) || a.view !== "login";
  $("register-form").hidden = Boolean(m) || a.view !== "register";
  $("profile").hidden = !m;
  $("account-heading").textContent = t(m ? "profileTitle" : a.view === "register" ? "registerTitle" : "loginTitle");
  $("member-who").textContent = m ? t("loggedInAs").replace("%n", m.display).replace("%l", m.login) : "";
  $("account-error").hidden = !a.error;
  $("account-error").textContent = a.error ? refusalText(a.error) : "";
  $("account-note").textContent = a.note ? t(a.note) : "";
  for (const id of PANEL_FORMS) $(id).querySelector("button[type='submit']").disabled = a.busy;
  document.body.dataset.member = m ? "in" : "out";
  if (s.mode === "lobby") $("nick-form").hidden = Boolean(s.nick); // a member needs no nickname
}
