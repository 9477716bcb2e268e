"""What a person sees, asked of the page (issue 29's acceptance): a control is shown, inside
the window and not covered (the element found at its centre, ``document.elementFromPoint``,
is itself or inside it), and the text shown holds no code ("=>", "${")."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

SIZES = [(390, 844), (360, 640), (1366, 768)]
"""Issue 29's sizes: two phones and a laptop."""
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]

UNCOVERED = """(sels) => sels.map((sel) => {
  const n = document.querySelector(sel);
  if (!n || !n.getClientRects().length) return {sel, shown: false};
  const r = n.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {sel, shown: r.width > 0 && r.height > 0,
    inside: r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
    self: Boolean(at) && (at === n || n.contains(at)),
    on: at ? `${at.tagName}#${at.id}.${at.className}` : null};
})"""


def assert_seen(page: Page, *selectors: str, who: str = "") -> None:
    """Each selector's element is shown, inside the window and on top at its centre."""
    size = page.viewport_size or {}
    where = f"{who} at {size.get('width')}x{size.get('height')}"
    found: list[dict[str, Any]] = page.evaluate(UNCOVERED, list(selectors))
    for f in found:
        assert f["shown"], f"{where}: {f['sel']} is not shown"
        assert f["inside"], f"{where}: {f['sel']} is out of the window"
        assert f["self"], f"{where}: {f['sel']} is covered by {f['on']}"


def assert_no_code(page: Page, who: str = "") -> str:
    """The page's rendered text holds no code; returns it."""
    text: str = page.evaluate("() => document.body.innerText")
    for code in ("=>", "${"):
        assert code not in text, f"{who}: the page shows code {code!r}: {text[:2000]}"
    return text
