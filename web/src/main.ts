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
  importGroup,
  largeGroupScenario,
  Player,
  requestText,
  Simulation,
  scenario,
  scenarios,
  serverAssign,
  shortIds,
  version,
} from '../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from './common/dom.ts';
import { detectLang, type Lang, setDocumentLang } from './common/i18n.ts';
import { useVocabulary } from './common/vocabulary.ts';
import { type PlaygroundDeps, PlaygroundView } from './playground/playground.ts';
import { NeedsModule, RecordedPlayer, type Recording, type Recordings, recordingProblem } from './playground/recorded.ts';
import { applyDiff } from './playground/settings.ts';
import { ALL_VIEWS, type EmbedOptions } from './playground/shell/embed.ts';
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
  // An embedded scenario needs only the simulator and the player: it loads the smaller module,
  // and a built-in scenario opens from its recording without it, until the reader asks for more.
  const small = embedded && mode === 'playground' && params.get('live') === null;
  const chosen = params.get('lang');
  const lang: Lang = chosen === 'zh' || chosen === 'en' ? chosen : detectLang();
  let packed: Awaited<ReturnType<typeof packedModule>>;
  let recording: Recording | null = null;
  /** The playground's way to the step its link asked for (see `PlaygroundView.opening`). */
  let opening: Promise<void> = Promise.resolve();
  try {
    packed = await packedModule();
    if (small && !packed) recording = await recordingFor(params, lang);
    if (!recording) await init({ module_or_path: packed ?? (small ? embedModule : fullModule) });
  } catch (e) {
    setDocumentLang(lang);
    renderNav(mode, lang);
    replaceChildren(app, h('p', { class: 'error' }, `${t('modelFailed', lang)} ${(e as Error).message}`));
    return;
  }
  versionText = recording ? recording.version : version();
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
        words: { errorName, requestText, shortIds },
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
  } else if (recording) {
    useVocabulary(recording.vocabulary);
    const view = new PlaygroundView(
      { ...recordedDeps(recording), lang, onLang: (l) => renderNav(mode, l), embed: embedOptions(params) },
      location.search,
    );
    replaceChildren(app, view.root);
    (window as unknown as { playgroundTest: PlaygroundView['test'] }).playgroundTest = view.test;
    opening = view.opening;
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
        importGroup,
        scenarios: list,
        scenario: (name) => (name === large.name ? large : scenario(name)),
        lang,
        onLang: (l) => renderNav(mode, l),
        brokerKeys: brokerConfigKeys(),
        consumerKeys: consumerConfigKeys(),
        embed: embedded ? embedOptions(params) : undefined,
        followAddress: !embedded && !standalone && params.get('live') === null,
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
    opening = view.opening;
  }
  app.removeAttribute('aria-busy');
  // A far step is reached in slices, the page answering meanwhile: ready once it is there.
  await opening;
  // Ready to use; the model itself is loaded unless the run is recorded (`data-model`).
  document.body.dataset.wasm = 'ready';
  document.body.dataset.model ??= recording ? 'recorded' : 'module';
  if (embedded) reportHeight();
}

function embedOptions(params: URLSearchParams): EmbedOptions {
  const asked = (params.get('views') ?? ALL_VIEWS.join(','))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const known = (v: string) => (ALL_VIEWS as string[]).includes(v);
  return {
    views: new Set(asked.filter(known)),
    unknownViews: asked.filter((v) => !known(v) && v !== 'narration').slice(0, 10),
    autoplay: params.get('autoplay') === '1',
    // (`<kafka-group-playground>` without a height: the frame takes the content's height.)
    autoHeight: params.get('height') === 'auto',
  };
}

/** What an embed's link may hold for it to open from a recording: a built-in scenario, the
 * views, a step or the key moment, autoplay and the language (actions, settings or a seed need
 * the model from the start). */
const RECORDED_PARAMS = new Set(['embed', 'scenario', 'views', 'step', 'moment', 'autoplay', 'lang', 'height', 'v']);

/** The recording of scenario `name` in `lang`, served beside the page by the build
 * (scripts/record-embeds.mjs), or null. */
async function fetchRecording(name: string, lang: Lang): Promise<Recording | null> {
  let recording: unknown;
  try {
    const response = await fetch(new URL(`recordings/${encodeURIComponent(name)}.${lang}.json`, location.href));
    if (!response.ok) return null;
    recording = await response.json();
  } catch {
    return null;
  }
  if (recordingProblem(recording) !== null) return null;
  const r = recording as Recording;
  return r.scenario.name === name && r.lang === lang ? r : null;
}

/** The recording of the scenario an embed asks for (recorded.ts), if there is one and it
 * reaches the step asked for; otherwise null, and the page loads the module as before. */
async function recordingFor(params: URLSearchParams, lang: Lang): Promise<Recording | null> {
  const name = params.get('scenario');
  if (!name || [...params.keys()].some((k) => !RECORDED_PARAMS.has(k))) return null;
  const r = await fetchRecording(name, lang);
  if (!r) return null;
  const step = Number(params.get('step') ?? 0);
  const reaches = params.get('moment') === 'key' ? r.key !== null : !Number.isFinite(step) || step <= r.frames.length - 1;
  return reaches ? r : null;
}

/** The playground's model calls for a recorded run: the recording's until the module is
 * loaded (`loadModule`), the model's after. */
function recordedDeps(recording: Recording): Omit<PlaygroundDeps, 'lang'> {
  let loaded: Promise<void> | null = null;
  let ready = false;
  // The run in each language fetched so far (every recorded player of the run reads them).
  const recordings: Recordings = { [recording.lang]: recording };
  // The scenario as the playground loads it (a built-in one, with no settings changed).
  const recorded = JSON.stringify(applyDiff(recording.scenario, {}));
  return {
    loadModule: () =>
      (loaded ??= init({ module_or_path: embedModule }).then(
        () => {
          ready = true;
          versionText = version();
        },
        (err) => {
          // A failed load (the network, say) may be tried again by the reader's next request.
          loaded = null;
          throw err;
        },
      )),
    loadLanguage: async (lang) => {
      const r = recordings[lang] ?? (await fetchRecording(recording.scenario.name, lang));
      if (!r || r.frames.length !== recording.frames.length) return false;
      recordings[lang] = r;
      return true;
    },
    newPlayer: (s, actions) => {
      if (ready) return new Player(s, actions);
      if (actions.length > 0 || JSON.stringify(s) !== recorded) throw new NeedsModule('another run');
      return new RecordedPlayer(recordings);
    },
    newSimulation: (s) => {
      if (!ready) throw new NeedsModule('a simulation');
      return new Simulation(s);
    },
    scenarios: [recording.info],
    scenario: (name) => {
      if (name === recording.scenario.name) return structuredClone(recording.scenario);
      if (!ready) throw new NeedsModule('another scenario');
      return scenario(name);
    },
  };
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
    // The playground's scroll height is its content's (a fixed-height frame scrolls it inside
    // itself, at 100vh). The assign widget and the console flow in the page: the document's
    // scroll height would never be less than the frame's, so a frame could only grow; the
    // content's bottom is measured.
    const height = Math.ceil(playground ? playground.scrollHeight : contentHeight());
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

/** The height the page's content takes: down to the bottom of `#app` and its margin (which
 * may collapse through the body and so lie outside the body's box). */
function contentHeight(): number {
  const app = document.getElementById('app');
  if (!app) return document.body.scrollHeight;
  const margin = Number.parseFloat(getComputedStyle(app).marginBottom) || 0;
  return app.getBoundingClientRect().bottom + window.scrollY + margin;
}

function renderNav(mode: string, lang: Lang): void {
  const title = document.getElementById('page-title');
  if (title) {
    const sub = mode === 'console' ? 'console' : mode === 'assign' ? 'assigners' : 'playground';
    replaceChildren(title, `${t('product', lang)} `, h('span', { class: 'sub' }, t(sub, lang)));
  }
  document.title = t('documentTitle', lang);
  const versionEl = document.getElementById('version');
  // "0.1.0 (Kafka group coordinator: ...)": the model's own line, or its number and the
  // words in Chinese; nothing when the module failed to load.
  if (versionEl && versionText)
    versionEl.textContent = lang === 'zh' ? `${versionText.split(' ')[0]}${t('versionWords', 'zh')}` : versionText;
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
  // (The Chinese page links the Chinese book.)
  const chapter = lang === 'zh' ? 'book/zh/leaving.html' : 'book/leaving.html';
  const book = h('a', { href: new URL(chapter, location.href).toString(), id: 'mode-book' }, t('book', lang));
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
