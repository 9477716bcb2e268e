// Small DOM helpers shared by the views.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(cls, text, onClick) {
  const node = el("button", cls, text);
  node.type = "button";
  if (onClick) node.addEventListener("click", onClick);
  return node;
}

// Show or hide a node (the `hidden` attribute), and say whether it is shown.
export function show(node, visible) {
  node.hidden = !visible;
  return Boolean(visible);
}

// Options of a select, keeping the choice made.
export function fillSelect(select, options) {
  const value = select.value;
  select.replaceChildren(
    ...options.map(([v, label, data]) => {
      const o = el("option", "", label);
      o.value = v;
      Object.assign(o.dataset, data || {});
      return o;
    }),
  );
  if (options.some(([v]) => v === value)) select.value = value;
}
