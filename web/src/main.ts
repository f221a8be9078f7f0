// The embed module: the same crate without the console, the assign widget and live mode
// (crates/wasm/src/lib.rs). Its imports are a subset of the full module's, so this one glue
// loads either (web/test/modules.test.ts checks that).
import embedModule from '../pkg/group_coordinator_embed_bg.wasm?url';
import init, {
  apis,
  assign,
  assignCompact,
  brokerConfigKeys,
  Coordinator,
  consumerConfigKeys,
  decodeAssignment,
  errorName,
  largeGroupScenario,
  Player,
  Simulation,
  scenario,
  scenarios,
  serverAssign,
  version,
} from '../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from './dom.ts';
import { detectLang, type Lang, setDocumentLang } from './i18n.ts';
import { PlaygroundView } from './playground/playground.ts';
import { ALL_VIEWS } from './playground/shell/embed.ts';
import { carried, fullModule, packedModule } from './playground/standalone.ts';
import { t } from './playground/text.ts';

/** The model's version line (set once the module is loaded). */
let versionText = '';
/** Whether this page is a self-contained export (one file, the playground only). */
let standalone = false;

async function main(): Promise<void> {
  const app = document.getElementById('app');
  if (!app) return;
  const params = new URLSearchParams(location.search);
  // A self-contained export (standalone.ts) is one file that plays its run: the console's and
  // the assign widget's code is not in it, so it offers neither.
  standalone = document.getElementById('kgp-wasm-gz') !== null;
  const asked = standalone ? null : params.get('mode');
  const mode = asked === 'console' ? 'console' : asked === 'assign' ? 'assign' : 'playground';
  // ?embed=1: the chrome-less view for other sites' pages (see public/kafka-group-playground.js).
  const embedded = params.get('embed') === '1';
  // An embedded scenario needs only the simulator and the player: it loads the smaller module.
  const small = embedded && mode === 'playground' && params.get('live') === null;
  try {
    const packed = await packedModule();
    await init({ module_or_path: packed ?? (small ? embedModule : fullModule) });
  } catch (e) {
    replaceChildren(app, h('p', { class: 'error' }, `The coordinator (WebAssembly) failed to load: ${(e as Error).message}`));
    return;
  }
  versionText = version();
  const chosen = params.get('lang');
  const lang: Lang = chosen === 'zh' || chosen === 'en' ? chosen : detectLang();
  setDocumentLang(lang);
  if (embedded) document.body.classList.add('embed');
  renderNav(mode, lang);
  if (mode === 'assign') {
    // The console and the assign widget load with their mode: a playground or an embed never
    // fetches their code.
    const { assignWidget } = await import('./assign/widget.ts');
    replaceChildren(app, assignWidget({ assign, assignCompact, serverAssign }, lang, params.get('strategy'), params.get('group')));
  } else if (mode === 'console') {
    const { ConsoleView } = await import('./console/view.ts');
    const view = new ConsoleView(
      {
        factory: (config, seed) => (seed ? Coordinator.withSeed(seed, config) : new Coordinator(config)),
        newLivePlayer: () => Player.live(),
        // A consumer-protocol assignment, decoded by the model's codec; other bytes stay opaque.
        assignment: (base64) => {
          try {
            return decodeAssignment(base64)
              .assignedPartitions.map((t) => `${t.topic} ${t.partitions.join(',')}`)
              .join('; ');
          } catch {
            return null;
          }
        },
        errorName,
        apis: apis(),
        configKeys: brokerConfigKeys(),
        lang,
        onLang: (l) => renderNav(mode, l),
      },
      params.get('example') ?? undefined,
    );
    replaceChildren(app, view.root);
    // ?live=ws://127.0.0.1:PORT: follow group-broker's live feed (`--live`).
    const live = params.get('live');
    if (live !== null) view.followLive(live);
  } else {
    // The built-in scenarios, then a living group of 50 consumers on 500 partitions.
    const large = largeGroupScenario(50, 10, 600_000);
    const list = [
      ...scenarios(),
      {
        name: large.name,
        title: large.title,
        description: large.description!,
        protocol: 'classic' as const,
        consumers: 50,
        durationMs: 600_000,
      },
    ];
    const view = new PlaygroundView(
      {
        newSimulation: (s) => new Simulation(s),
        newPlayer: (s, actions) => new Player(s, actions),
        newLivePlayer: () => Player.live(),
        scenarios: list,
        scenario: (name) => (name === large.name ? large : scenario(name)),
        lang,
        onLang: (l) => renderNav(mode, l),
        brokerKeys: brokerConfigKeys(),
        consumerKeys: consumerConfigKeys(),
        embed: embedded
          ? {
              views: new Set((params.get('views') ?? ALL_VIEWS.join(',')).split(',').filter((v) => (ALL_VIEWS as string[]).includes(v))),
              autoplay: params.get('autoplay') === '1',
            }
          : undefined,
      },
      location.search,
    );
    replaceChildren(app, view.root);
    // The browser tests' one way in (see shell/testing.ts).
    (window as unknown as { playgroundTest: PlaygroundView['test'] }).playgroundTest = view.test;
    // A self-contained export carries its run.
    const run = carried('kgp-run');
    if (typeof run === 'string') view.importText(run);
    // ?live=ws://127.0.0.1:PORT: follow group-broker's live feed (`--live`) in every view.
    const live = params.get('live');
    if (live !== null) view.followLive(live);
  }
  app.removeAttribute('aria-busy');
  document.body.dataset.wasm = 'ready';
  if (embedded) reportHeight();
}

/** An embed tells the page around it how tall its content is, so that a
 * `<kafka-group-playground>` without a `height` sizes its frame to fit (public/kafka-group-playground.js).
 * Only a number crosses: nothing of the run. */
function reportHeight(): void {
  if (window.parent === window) return;
  let last = -1;
  let pending = false;
  const measure = () => {
    pending = false;
    const playground = document.querySelector<HTMLElement>('.playground');
    // The playground scrolls inside the frame (100vh): its scroll height is its content's.
    const height = Math.ceil(playground ? playground.scrollHeight : document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'kafka-group-playground:height', height }, '*');
  };
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(measure);
  };
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true, characterData: true });
  new ResizeObserver(soon).observe(document.body);
  soon();
}

function renderNav(mode: string, lang: Lang): void {
  const title = document.getElementById('page-title');
  if (title) {
    const sub = mode === 'console' ? 'console' : mode === 'assign' ? 'assigners' : 'playground';
    replaceChildren(title, `${t('product', lang)} `, h('span', { class: 'sub' }, t(sub, lang)));
  }
  document.title = t('documentTitle', lang);
  const versionEl = document.getElementById('version');
  // "0.1.0 (Kafka classic group coordinator, ...)": the model's own line, or its number and the
  // words in Chinese.
  if (versionEl) versionEl.textContent = lang === 'zh' ? `${versionText.split(' ')[0]}${t('versionWords', 'zh')}` : versionText;
  const nav = document.getElementById('modes');
  if (!nav) return;
  nav.setAttribute('aria-label', t('modes', lang));
  const link = (m: string, label: string) => {
    const url = new URL(location.href);
    url.search = '';
    if (m !== 'playground') url.searchParams.set('mode', m);
    return h('a', { href: url.toString(), 'aria-current': m === mode ? 'page' : undefined, id: `mode-${m}` }, label);
  };
  // The book (docs/, built by mdBook next to the page): the reference and the seed's chapter.
  const book = h('a', { href: new URL('book/leaving.html', location.href).toString(), id: 'mode-book' }, t('book', lang));
  if (standalone) {
    replaceChildren(nav, link('playground', t('playground', lang)));
    return;
  }
  replaceChildren(
    nav,
    link('playground', t('playground', lang)),
    ' · ',
    link('console', t('console', lang)),
    ' · ',
    link('assign', t('assigners', lang)),
    ' · ',
    book,
  );
}

void main();
