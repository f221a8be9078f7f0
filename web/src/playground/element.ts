// One element made from a lit-html template: for a view's parts that live as long as the view
// (its root, a canvas, a field), which it then fills with `render`.

import { render, type TemplateResult } from 'lit-html';

export function element<E extends Element>(template: TemplateResult): E {
  const fragment = document.createDocumentFragment();
  render(template, fragment);
  const el = fragment.firstElementChild;
  if (!el) throw new Error('the template has no element');
  return el as E;
}
