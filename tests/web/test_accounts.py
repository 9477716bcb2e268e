"""Member accounts in the browser page (issue 15, docs/accounts.md): a person creates an
account in the lobby (a French phone), stays logged in across reloads, logs out, is refused
in French for a wrong password, logs in again, renames himself in the profile form and sits
at a friends table under that name. A new password ends the older sessions: the other
browser shows "logged out" on its next reload, at the lobby or at a table, and logs in again
from the table's header. The forms and the header's badge fit a phone (360x640) and a laptop
(1366x768) with nothing overlapping. Passwords are kept nowhere in the page."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import Client, WebServer

OpenClient = Callable[..., Client]

SAVED_EN = "Saved: your other sessions are over."
PHONE = (360, 640)
LAPTOP = (1366, 768)

# The boxes of what is shown: the header's items, and the account panel's.
LAYOUT = """() => {
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  const box = (n) => { const r = n.getBoundingClientRect();
    return {name: n.id || n.className || n.tagName, left: r.left, top: r.top, right: r.right,
            bottom: r.bottom, w: r.width, h: r.height}; };
  const all = (sel) => [...document.querySelectorAll(sel)].filter(shown).map(box)
    .filter((b) => b.w > 0);
  return {
    width: innerWidth, height: innerHeight,
    pageWidth: document.scrollingElement.scrollWidth,
    header: all('#top > :not(.spacer):not(#member), #member > *'),
    panel: all('#account-heading, #account-close, #account form:not([hidden]) label, '
      + '#account form:not([hidden]) .hint, #account form:not([hidden]) .account-actions > *, '
      + '#member-who, #logout, #account-error, #account-note'),
  };
}"""


def storage(page: Page) -> str:
    """Everything this browser keeps for the page (localStorage and sessionStorage)."""
    return str(
        page.evaluate(
            "() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])"
        )
    )


def kept_member(page: Page) -> dict[str, Any] | None:
    raw = page.evaluate("() => localStorage.getItem('brasseur.member')")
    return json.loads(raw) if raw else None


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def check_layout(client: Client, panel: bool) -> None:
    """The header's items (the badge or "Log in" among them) and, when open, the account
    panel's fields and buttons: inside the viewport, none on another, no sideways scroll."""
    page = client.page
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes = page.evaluate(LAYOUT)
    width, height = boxes["width"], boxes["height"]
    assert boxes["pageWidth"] <= width, boxes["pageWidth"]
    groups = [("header", boxes["header"])] + ([("panel", boxes["panel"])] if panel else [])
    for group, items in groups:
        assert items, group
        for item in items:
            assert item["left"] >= -0.5 and item["right"] <= width + 0.5, (group, item)
            assert item["top"] >= -0.5 and item["bottom"] <= height + 0.5, (group, item)
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                assert not overlap(a, b), (group, a, b)
    if panel:
        assert len(boxes["panel"]) >= 5, boxes["panel"]


def badge(page: Page, name: str) -> None:
    """The header's badge shows the member's display name (and "Log in" is gone)."""
    page.wait_for_function(
        "n => document.getElementById('member-name').textContent === n"
        " && !document.getElementById('member').hidden",
        arg=name,
    )
    assert page.locator("#member-name").is_visible()
    assert not page.locator("#account-open").is_visible()


def logged_out(page: Page) -> None:
    """The token is forgotten and the header offers "Log in" again."""
    page.wait_for_function(
        "() => localStorage.getItem('brasseur.member') === null"
        " && document.body.dataset.member === 'out'"
    )
    assert page.locator("#account-open").is_visible()
    assert not page.locator("#member").is_visible()


def open_panel(page: Page) -> None:
    if page.locator("#account").is_hidden():
        trigger = "#member-name" if page.locator("#member-name").is_visible() else "#account-open"
        page.click(trigger)
    page.wait_for_selector("#account", state="visible")


def log_in(page: Page, login: str, password: str) -> None:
    open_panel(page)
    page.fill("#l-login", login)
    page.fill("#l-password", password)
    page.click("#login-ok")
    assert page.input_value("#l-password") == ""  # emptied as the request leaves


def change_password(page: Page, current: str, new: str, saved: str) -> None:
    open_panel(page)
    before = kept_member(page)
    page.fill("#p-password", current)
    page.fill("#p-new", new)
    page.click("#profile-ok")
    assert page.input_value("#p-password") == "" and page.input_value("#p-new") == ""
    page.wait_for_function(
        "w => document.getElementById('account-note').textContent === w", arg=saved
    )
    after = kept_member(page)
    assert before and after and after["token"] != before["token"]  # the new token replaces the old


def reload_checked(page: Page) -> None:
    """Reload and wait until the page's hello (with the session token) was answered: the
    lobby's own connection closes after the welcome."""
    with page.expect_websocket() as opened:
        page.reload()
    socket = opened.value
    if not socket.is_closed():
        socket.wait_for_event("close")


# ---------------------------------------------------------------------- one member, a phone


def test_a_member_registers_logs_in_and_sits_under_his_name(
    web_server: WebServer, open_client: OpenClient
) -> None:
    ana = open_client("ana", "fr-FR", PHONE)
    page = ana.page
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create-form")
    assert page.inner_text("#account-open") == "Connexion"
    check_layout(ana, panel=False)
    page.click("#account-open")
    page.wait_for_selector("#login-form", state="visible")
    assert page.inner_text("#account-heading") == "Se connecter"
    check_layout(ana, panel=True)
    ana.shot("account-login-360x640", full_page=False)
    page.click("#to-register")
    page.wait_for_selector("#register-form", state="visible")
    assert page.inner_text("#account-heading") == "Créer un compte"
    assert page.input_value("#r-lang") == "fr"  # the page's language, offered
    page.fill("#r-login", "Ana.M")
    page.fill("#r-password", "tulipe rouge 7")
    page.fill("#r-display", "Ana")
    check_layout(ana, panel=True)
    ana.shot("account-register-360x640", full_page=False)
    page.click("#register-ok")
    assert page.input_value("#r-password") == ""
    badge(page, "Ana")
    assert page.locator("#nick-form").is_hidden()  # a member needs no nickname
    member = kept_member(page)
    assert member is not None and member["login"] == "ana.m" and member["token"]
    assert "tulipe rouge 7" not in storage(page)
    check_layout(ana, panel=False)

    # a reload keeps the session: the server welcomed the token as Ana's
    reload_checked(page)
    badge(page, "Ana")
    assert page.locator("#nick-form").is_hidden()

    # log out: the token is forgotten (on a phone, "Déconnexion" is in the badge's panel)
    assert not page.locator("#logout-top").is_visible()
    open_panel(page)
    check_layout(ana, panel=True)
    page.click("#logout")
    logged_out(page)
    assert page.inner_text("#account-note") == "Vous êtes déconnecté."
    assert page.locator("#nick-form").is_visible()  # a guest picks a nickname again

    # a wrong password: the French words of account.bad_credentials
    log_in(page, "ana.m", "tulipe rouge 8")
    page.wait_for_selector("#account-error", state="visible")
    assert page.inner_text("#account-error") == "Identifiant ou mot de passe incorrect."
    assert page.locator("#account-open").is_visible()
    check_layout(ana, panel=True)
    ana.shot("account-refused-360x640", full_page=False)

    # log in again (the login is case-folded by the server)
    log_in(page, "ANA.M", "tulipe rouge 7")
    badge(page, "Ana")
    assert page.locator("#account").is_hidden()
    assert "tulipe rouge" not in storage(page)

    # the profile form: a new display name, shown in the badge
    open_panel(page)
    assert page.input_value("#p-display") == "Ana"
    assert "Ana" in page.inner_text("#member-who") and "ana.m" in page.inner_text("#member-who")
    page.fill("#p-display", "Ana Martin")
    page.click("#profile-ok")
    badge(page, "Ana Martin")
    assert page.inner_text("#account-note") == "Enregistré."
    check_layout(ana, panel=True)
    ana.shot("account-profile-360x640", full_page=False)

    # a friends table from its invite link: no nickname asked, the seat is the member's name
    page.goto(web_server.invite_link)
    page.wait_for_selector(".seat")
    badge(page, "Ana Martin")
    assert page.locator("#nick-form").is_hidden()
    page.click(".seat[data-seat='1'] button.sit")
    page.wait_for_selector(".seat.you[data-seat='1'][data-player='Ana Martin']")
    check_layout(ana, panel=False)
    ana.shot("account-seated-360x640", full_page=False)

    # logged out from the table's header: "Connexion" fits the phone's header beside "Mains"
    open_panel(page)
    check_layout(ana, panel=True)
    page.click("#logout")
    logged_out(page)
    page.click("#account-close")
    page.wait_for_selector("#account", state="hidden")
    assert (
        page.inner_text("#account-open") == "Connexion"
        and page.locator("#history-open").is_visible()
    )
    check_layout(ana, panel=False)
    assert "tulipe rouge" not in storage(page)


# ------------------------------------------------------------------ a new password, two browsers


def test_a_new_password_ends_the_other_browsers_session(
    web_server: WebServer, open_client: OpenClient
) -> None:
    first = open_client("first", "en-US", LAPTOP)
    page = first.page
    page.goto(web_server.base + "/")
    page.click("#account-open")
    page.wait_for_selector("#login-form", state="visible")
    check_layout(first, panel=True)
    first.shot("account-login-1366x768", full_page=False)
    page.click("#to-register")
    page.fill("#r-login", "bob")
    page.fill("#r-password", "short")
    page.click("#register-ok")  # the server's rule, in words: account.weak_password
    page.wait_for_function(
        "() => document.getElementById('account-error').textContent.startsWith("
        "'A password has 10 to 256 characters')"
    )
    page.fill("#r-password", "première clé 1")
    page.fill("#r-display", "Bob")
    page.select_option("#r-lang", "en")
    check_layout(first, panel=True)
    first.shot("account-register-1366x768", full_page=False)
    page.click("#register-ok")
    badge(page, "Bob")
    assert page.locator("#logout-top").is_visible()  # a laptop's header has room for it
    check_layout(first, panel=False)
    open_panel(page)
    check_layout(first, panel=True)
    first.shot("account-profile-1366x768", full_page=False)

    # a password changed in the first browser: its new token keeps it logged in
    change_password(page, "première clé 1", "deuxième clé 2", SAVED_EN)
    reload_checked(page)
    badge(page, "Bob")

    # a second browser logs in with the new password, and goes to a friends table
    second = open_client("second", "fr-FR", PHONE)
    other = second.page
    other.goto(web_server.base + "/")
    log_in(other, "bob", "première clé 1")  # the old one is refused
    other.wait_for_function(
        "() => document.getElementById('account-error').textContent"
        " === 'Identifiant ou mot de passe incorrect.'"
    )
    log_in(other, "bob", "deuxième clé 2")
    badge(other, "Bob")
    assert other.evaluate("document.documentElement.lang") == "en"  # the member's language
    other.goto(web_server.invite_link)
    other.wait_for_selector(".seat")
    badge(other, "Bob")

    # the first browser changes the password again: the second's session ends at once (the
    # server tells its open connection: account.session_ended), no reload needed
    change_password(page, "deuxième clé 2", "troisième clé 3", SAVED_EN)
    logged_out(other)
    other.wait_for_function(
        "() => document.getElementById('error-text').textContent.includes('logged out')"
    )
    other.reload()  # and it stays so
    logged_out(other)
    other.wait_for_selector("#nick-form", state="visible")  # a guest again: a nickname is asked
    check_layout(second, panel=False)
    second.shot("account-ended-at-table-360x640", full_page=False)

    # logged in again from the table's header: the nickname box goes, the seat is Bob's
    log_in(other, "bob", "troisième clé 3")
    badge(other, "Bob")
    other.wait_for_selector("#nick-form", state="hidden")
    other.click(".seat[data-seat='4'] button.sit")
    other.wait_for_selector(".seat.you[data-seat='4'][data-player='Bob']")

    # and the lobby says it too: a new password in the second ends the first's session
    # (the second browser speaks the member's language since he logged in: English)
    change_password(other, "troisième clé 3", "quatrième clé 4", SAVED_EN)
    reload_checked(page)
    logged_out(page)
    page.wait_for_function(
        "() => document.getElementById('error-text').textContent.includes('logged out')"
    )
    for client in (first, second):
        assert "clé" not in storage(client.page)


# ---------------------------------------------------------------------- the refusals in words


@pytest.mark.parametrize(
    ("code", "message", "french"),
    [
        (
            "account.locked",
            "too many attempts: try again in 300 s",
            "Trop d'essais : réessayez dans 300 s.",
        ),
        ("account.taken", "this login is taken", "Cet identifiant est déjà pris."),
        (
            "account.bad_login",
            "a login is 3-32 of a-z 0-9 _ . -",
            "Un identifiant fait 3 à 32 caractères parmi a-z 0-9 _ . - et commence par une "
            "lettre ou un chiffre.",
        ),
        (
            "account.bad_display",
            "a display name is 1-32 printable characters",
            "Un nom affiché fait 1 à 32 caractères imprimables.",
        ),
        (
            "busy",
            "too many account requests now: retry",
            "Le serveur est occupé : réessayez dans un instant.",
        ),
    ],
)
def test_account_refusals_are_said_in_french(
    web_server: WebServer, open_client: OpenClient, code: str, message: str, french: str
) -> None:
    client = open_client("words", "fr-FR", PHONE)
    page = client.page
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create-form")
    said = page.evaluate(
        "async ([code, message]) => (await import('/js/account.js')).refusalText({code, message})",
        [code, message],
    )
    assert said == french
