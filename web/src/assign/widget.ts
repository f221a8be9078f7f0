// The assign widget (`?mode=assign`): a group written as text, an assignor, and the result with
// what each member keeps, gets and gives up. It runs the model's assignors through the wasm
// module (the client side's `assign`, the server side's `serverAssign`), as the playground's
// consumers and coordinator do.

import { h, replaceChildren } from '../common/dom.ts';
import type { Lang } from '../common/i18n.ts';
import { type AssignFunctions, type Listed, more, run, STRATEGIES, type StrategyName, type Table, table } from './run.ts';
import { linePrefix, t } from './text.ts';

export { CELL_NAMES, TABLE_ROWS } from './run.ts';
export { type AssignFunctions, run, STRATEGIES, type StrategyName };

export const EXAMPLE = `topics: orders=6, payments=3
c1 gen=1: orders, payments | owns orders-0, orders-1, orders-2, payments-0, payments-1
c2 gen=1: orders, payments | owns orders-3, orders-4, orders-5, payments-2
c3: orders, payments`;

/** Partition names ("orders-1") a space apart, each kept on one line: a narrow column breaks
 * between them, not after a name's hyphen; past the list, how many more. */
const names = ({ names, total }: Listed, lang: Lang): (Node | string)[] => {
  if (!total) return ['—'];
  const out: (Node | string)[] = [];
  for (const [i, name] of names.entries()) {
    if (i) out.push(' ');
    out.push(h('span', { class: 'tp' }, name));
  }
  if (total > names.length) out.push(more(total - names.length, lang));
  return out;
};

export function assignWidget(fns: AssignFunctions, lang: Lang, strategy: string | null, group: string | null): HTMLElement {
  const select = h('select', { id: 'assign-strategy', 'aria-label': t('assignStrategy', lang) });
  const client = h('optgroup', { label: t('assignClient', lang) });
  const server = h('optgroup', { label: t('assignServer', lang) });
  for (const s of STRATEGIES) {
    (s.startsWith('server-') ? server : client).append(h('option', { value: s }, s.replace('server-', '')));
  }
  select.append(client, server);
  select.value = (STRATEGIES as readonly string[]).includes(strategy ?? '') ? (strategy as string) : 'cooperative-sticky';
  const area = h('textarea', { id: 'assign-group', rows: '7', spellcheck: 'false', 'aria-label': t('assignGroup', lang) });
  area.value = group ?? EXAMPLE;
  const result = h('div', { id: 'assign-result', 'aria-live': 'polite' });
  // A large group is assigned in a worker (worker.ts) while the page answers; the newest
  // request's answer is drawn, an older one's dropped. No worker (none here, or it failed to
  // start): here, as for any group.
  let worker: Worker | null | undefined;
  let asked = 0;
  const busy = h('p', { class: 'muted', id: 'assign-busy', hidden: '' }, t('assignBusy', lang));
  const update = () => {
    const strategy = select.value as StrategyName;
    const text = area.value;
    if (isLarge(text) && (worker ??= startWorker(draw, () => asked))) {
      asked++;
      busy.hidden = false;
      // The table drawn is the last group's until the answer comes: greyed, and said busy.
      result.setAttribute('aria-busy', 'true');
      worker.postMessage({ id: asked, strategy, text, lang } satisfies AssignRequest);
      return;
    }
    asked++;
    draw(table(run(fns, strategy, text), lang));
  };
  const draw = (r: Table) => {
    busy.hidden = true;
    result.removeAttribute('aria-busy');
    if (!r.ok) {
      const message = typeof r.message === 'string' ? r.message : r.message[lang];
      replaceChildren(result, h('p', { class: 'error', id: 'assign-error' }, r.line ? `${linePrefix(r.line, lang)}${message}` : message));
      return;
    }
    const body: HTMLElement[] = r.rows.map((row) =>
      h(
        'tr',
        { 'data-member': row.id },
        h('th', { scope: 'row' }, row.id),
        h('td', { class: 'assigned' }, row.assigned || '—'),
        h('td', { class: 'kept' }, ...names(row.kept, lang)),
        h('td', { class: 'added' }, ...names(row.added, lang)),
        h('td', { class: 'revoked' }, ...names(row.revoked, lang)),
      ),
    );
    if (r.more > 0) {
      const rest = r.more;
      body.push(
        h(
          'tr',
          { id: 'assign-more' },
          h(
            'td',
            { colspan: '5', class: 'muted' },
            lang === 'zh' ? `…另有 ${rest} 个成员（上面的合计包括他们）` : `… and ${rest} more members (counted in the totals below)`,
          ),
        ),
      );
    }
    replaceChildren(
      result,
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'assign-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['assignMember', 'assignAssigned', 'assignKept', 'assignAdded', 'assignRevoked'].map((k) =>
                h('th', { scope: 'col' }, t(k as 'assignMember', lang)),
              ),
            ),
          ),
          h('tbody', {}, ...body),
        ),
      ),
      h(
        'p',
        { class: 'muted', id: 'assign-moved' },
        `${r.revoked} ${t('assignGivenUp', lang)}${lang === 'zh' ? '，' : ', '}${r.added} ${t('assignNew', lang)}`,
      ),
      ...(r.notes.length ? [h('ul', { class: 'assign-notes', id: 'assign-notes' }, ...r.notes.map((n) => h('li', {}, n[lang])))] : []),
    );
  };
  // Typing in a large group waits for a pause: each keystroke assigned it again.
  let lastMs = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const timed = () => {
    clearTimeout(pending);
    const start = performance.now();
    update();
    lastMs = performance.now() - start;
    keepInAddress(select.value, area.value);
  };
  select.addEventListener('change', timed);
  area.addEventListener('input', () => {
    clearTimeout(pending);
    if (lastMs < 200) timed();
    else pending = setTimeout(timed, 300);
  });
  timed();
  return h(
    'section',
    { class: 'panel assign-widget' },
    h('h2', {}, t('assignTitle', lang)),
    h('p', { class: 'muted' }, t('assignHelp', lang)),
    h('label', {}, `${t('assignStrategy', lang)} `, select),
    area,
    busy,
    result,
  );
}

/** A group with at least this many partitions on its topics line, or this much text, is
 * assigned in the widget's worker: a million partitions took the page's main thread 0.34 s, a
 * host page's other embeds waiting as long. Smaller groups are assigned at once, as they were:
 * a worker costs a second compile of the module, which most embeds never need. */
export const WORKER_PARTITIONS = 100_000;
export const WORKER_CHARS = 200_000;

/** Whether `text` is a group for the worker (the topics lines' counts, read roughly: the parser
 * in the worker reads them properly). */
export function isLarge(text: string): boolean {
  if (text.length >= WORKER_CHARS) return true;
  let partitions = 0;
  for (const line of text.split('\n')) {
    if (!/^\s*topics\s*:/i.test(line)) continue;
    for (const m of line.matchAll(/=\s*(\d+)/g)) partitions += Number(m[1]);
  }
  return partitions >= WORKER_PARTITIONS;
}

/** What the widget asks its worker, and what it answers. */
export interface AssignRequest {
  id: number;
  strategy: StrategyName;
  text: string;
  lang: Lang;
}
export interface AssignAnswer {
  id: number;
  result: Table;
}

/** The widget's worker, answering into `draw` (only the newest request, `latest()`); null when
 * none can start here (no Worker, as in Node). */
function startWorker(draw: (r: Table) => void, latest: () => number): Worker | null {
  if (typeof Worker === 'undefined') return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  worker.addEventListener('message', (e: MessageEvent<AssignAnswer>) => {
    if (e.data.id === latest()) draw(e.data.result);
  });
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    draw({ ok: false, message: `The assignors' worker failed: ${e.message || 'it could not start'}` });
  });
  return worker;
}

/** The most group text the address carries (a longer group is not put in it: links that long
 * are cut by the places they are pasted into). */
const ADDRESS_MAX = 4000;

/** The page's address holds the group and the assignor as typed, so that it can be shared or
 * reloaded (not in an embed, whose group is its element's). */
function keepInAddress(strategy: string, group: string): void {
  if (document.body.classList.contains('embed')) return;
  const url = new URL(location.href);
  url.searchParams.set('strategy', strategy);
  if (group.length <= ADDRESS_MAX) url.searchParams.set('group', group);
  else url.searchParams.delete('group');
  if (url.href !== location.href) history.replaceState(null, '', url);
}
