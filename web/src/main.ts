import init, { apis, brokerConfigKeys, Coordinator, errorName, version } from '../pkg/group_coordinator_wasm.js';
import { ConsoleView } from './console/view.ts';
import { h, replaceChildren } from './dom.ts';
import { detectLang } from './i18n.ts';

async function main(): Promise<void> {
  const app = document.getElementById('app');
  if (!app) return;
  try {
    await init();
  } catch (e) {
    replaceChildren(app, h('p', { class: 'error' }, `The coordinator (WebAssembly) failed to load: ${(e as Error).message}`));
    return;
  }
  const versionEl = document.getElementById('version');
  if (versionEl) versionEl.textContent = version();
  const params = new URLSearchParams(location.search);
  const view = new ConsoleView({
    factory: (config) => new Coordinator(config),
    errorName,
    apis: apis(),
    configKeys: brokerConfigKeys(),
    lang: params.get('lang') === 'zh' || params.get('lang') === 'en' ? (params.get('lang') as 'en' | 'zh') : detectLang(),
  }, params.get('example') ?? undefined);
  replaceChildren(app, view.root);
  app.removeAttribute('aria-busy');
  document.body.dataset.wasm = 'ready';
}

void main();
