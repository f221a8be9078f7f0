// A tiny element builder. Text always goes in as text nodes: nothing from a request, a response
// or a URL is ever parsed as HTML.

type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Scrolls `scroller`, and only it (not the page around it), so that `el` is inside it. */
export function scrollWithin(scroller: HTMLElement, el: HTMLElement): void {
  const box = scroller.getBoundingClientRect();
  const at = el.getBoundingClientRect();
  if (at.top < box.top) scroller.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) scroller.scrollTop += Math.min(at.bottom - box.bottom, at.top - box.top);
}
