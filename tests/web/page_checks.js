// In-page checks of the browser tests (tests/web/test_table.py), each one function
// expression that page.evaluate() runs; the Python side reads them by name.

// @layout (controls) -> the boxes of what the player needs at his turn
(controls) => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const shown = (node) => node && node.getClientRects().length > 0 && getComputedStyle(node).visibility !== 'hidden';
  const one = (sel) => { const n = document.querySelector(sel); return shown(n) ? box(n) : null; };
  const all = (sel) => [...document.querySelectorAll(sel)].filter(shown).map(box);
  const you = document.querySelector('.seat.you');
  const name = you && you.querySelector('.player');
  return {
    width: innerWidth, height: innerHeight, scrollX, scrollY,
    pageWidth: document.scrollingElement.scrollWidth,
    board: one('#board'), boardCards: all('#board .card'), pot: one('#pot'), turn: one('#turn'),
    pots: all('#pots .side-pot'), hole: all('#hole .card'),
    controls: Object.fromEntries(controls.map((s) => [s, one(s)]).filter(([, b]) => b)),
    bets: all('.bet'), dealer: all('.dealer'), seats: all('.seat:not(.free)'),
    you: you ? box(you) : null,
    youCut: name ? name.scrollWidth > name.clientWidth + 1 : null,
    turnText: document.getElementById('turn').textContent,
  };
}

// @contrast () -> the texts under 4.5:1 (WCAG 2.1) with what is behind them: on the felt, the
// felt's lightest green; elsewhere the nearest opaque backgrounds of its boxes, composed
() => {
  const rgba = (s) => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const felt = rgba(getComputedStyle(document.documentElement).getPropertyValue('--felt-light').trim()
    .replace('#', '').match(/../g).map((x) => parseInt(x, 16)).join(','));
  const behind = (node) => {
    const layers = [];
    let base = [255, 255, 255, 1];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      if (n.id === 'felt') { base = felt; break; }
      const bg = rgba(getComputedStyle(n).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) { base = layers.pop(); break; }
    }
    return layers.reverse().reduce((acc, layer) => over(layer, acc), base);
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const node = t.parentElement;
    if (!t.textContent.trim() || !node || !node.getClientRects().length) continue;
    if (node.closest('[hidden], dialog:not([open]), button:disabled, input:disabled, option')) continue;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden' || Number(style.opacity) < 1) continue;
    const fg = over(rgba(style.color), behind(node));
    const [a, b] = [lum(fg), lum(behind(node))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) out.push(`${t.textContent.trim().slice(0, 30)} (${node.className || node.tagName}): ${ratio.toFixed(2)}`);
  }
  return out;
}
