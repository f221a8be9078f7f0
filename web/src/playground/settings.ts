// Settings: every broker and consumer setting by its Kafka name with its default, the network,
// and the seed. Applying them restarts the run with the changed scenario (settings are the
// world's, not an action); the changes travel in share links as a diff from the built-in.

import type { LinkSpec, Scenario, Settings } from '../../pkg/group_coordinator_wasm.js';
import { h, replaceChildren } from '../dom.ts';
import type { Lang } from '../i18n.ts';

export interface ConfigKey { name: string; default: string; doc: string }

/** What a user changed from the built-in scenario. */
export interface SettingsDiff { broker?: Settings; consumer?: Settings; network?: LinkSpec; seed?: number }

export function applyDiff(base: Scenario, diff: SettingsDiff): Scenario {
  return {
    ...base,
    broker: { ...(base.broker ?? {}), ...(diff.broker ?? {}) },
    consumer: { ...(base.consumer ?? {}), ...(diff.consumer ?? {}) },
    network: { ...(base.network ?? {}), ...(diff.network ?? {}) },
    seed: diff.seed ?? base.seed,
  };
}

export function isEmpty(diff: SettingsDiff): boolean {
  return !diff.seed && !Object.keys(diff.broker ?? {}).length && !Object.keys(diff.consumer ?? {}).length
    && !Object.keys(diff.network ?? {}).length;
}

/** A setting typed in a field: true/false, a number, or text. */
export function parseSetting(text: string): number | string | boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

export class SettingsView {
  readonly root = h('details', { class: 'panel settings', id: 'settings' });

  constructor(private readonly deps: {
    brokerKeys: ConfigKey[];
    consumerKeys: ConfigKey[];
    apply: (diff: SettingsDiff) => void;
  }) {}

  /** Draws the form for `base` with `diff` applied. */
  render(lang: Lang, base: Scenario, diff: SettingsDiff): void {
    const en = lang === 'en';
    const field = (group: string, key: ConfigKey, current: unknown) =>
      h('label', { title: key.doc },
        h('span', { class: 'mono' }, key.name),
        h('input', { name: `${group}:${key.name}`, value: current === undefined ? '' : String(current),
          placeholder: key.default || (en ? '(none)' : '（无）'), 'aria-label': key.name, 'data-default': key.default }));
    const scenario = applyDiff(base, diff);
    const net = scenario.network ?? {};
    const form = h('form', { id: 'settings-form' },
      h('fieldset', {}, h('legend', {}, en ? 'Broker (group coordinator)' : 'Broker（消费组协调者）'),
        ...this.deps.brokerKeys.filter((k) => k.name !== 'flavour').map((k) => field('broker', k, scenario.broker?.[k.name]))),
      h('fieldset', {}, h('legend', {}, en ? 'Every consumer (each consumer\'s own settings still apply)' : '所有消费者（各消费者自己的设置仍然生效）'),
        ...this.deps.consumerKeys.map((k) => field('consumer', k, scenario.consumer?.[k.name]))),
      h('fieldset', {}, h('legend', {}, en ? 'Network and seed' : '网络与随机种子'),
        field('network', { name: 'latencyMs', default: '1', doc: 'one-way latency of every link' }, net.latencyMs),
        field('network', { name: 'jitterMs', default: '0', doc: 'a further 0..jitter ms per message' }, net.jitterMs),
        field('network', { name: 'loss', default: '0', doc: 'probability 0..1 that a message is lost' }, net.loss),
        field('seed', { name: 'seed', default: String(base.seed ?? 0), doc: 'the seed of every random draw' }, diff.seed)),
      h('div', { class: 'row' },
        h('button', { type: 'submit', id: 'settings-apply', class: 'primary' }, en ? 'Apply and restart the run' : '应用并重新开始'),
        h('button', { type: 'button', id: 'settings-reset' }, en ? 'Back to the scenario\'s settings' : '恢复场景设置')));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.deps.apply(this.read(form, base));
    });
    form.querySelector('#settings-reset')?.addEventListener('click', () => this.deps.apply({}));
    replaceChildren(this.root,
      h('summary', {}, h('h2', { class: 'inline' }, en ? 'Settings (Kafka property names)' : '设置（Kafka 属性名）')),
      h('p', { class: 'muted' }, en ? 'Empty = the default shown. Applying restarts the run with these settings; share links carry the changes.'
        : '留空 = 使用显示的默认值。应用后以这些设置重新开始；分享链接会带上这些修改。'),
      form);
  }

  /** The fields that differ from the scenario, as a diff. */
  private read(form: HTMLFormElement, base: Scenario): SettingsDiff {
    const diff: SettingsDiff = {};
    for (const input of form.querySelectorAll<HTMLInputElement>('input[name]')) {
      const [group, key] = input.name.split(':');
      const text = input.value.trim();
      if (group === 'seed') {
        if (text && text !== String(base.seed ?? 0)) diff.seed = Number(text);
        continue;
      }
      const baseValue = group === 'broker' ? base.broker?.[key] : group === 'consumer' ? base.consumer?.[key]
        : (base.network as Record<string, unknown> | undefined)?.[key];
      if (text === '' || text === String(baseValue ?? '')) continue;
      const value = parseSetting(text);
      if (group === 'network') (diff.network ??= {})[key as keyof LinkSpec] = value as number;
      else ((group === 'broker' ? (diff.broker ??= {}) : (diff.consumer ??= {})))[key] = value;
    }
    return diff;
  }
}
