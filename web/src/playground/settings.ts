// Settings: every broker and consumer setting by its Kafka name with its default, the group's
// own configs (KIP-848), the network, and the seed. Applying them restarts the run with the changed scenario (settings are the
// world's, not an action); the changes travel in share links as a diff from the built-in.

import { html, nothing, render, type TemplateResult } from 'lit-html';
import type { Application, ConfigKeyInfo, ConsumerSpec, LinkSpec, Scenario, Settings } from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from '../common/i18n.ts';
import { element } from './element.ts';
import { t } from './text.ts';

export type ConfigKey = ConfigKeyInfo;

/** One consumer's changes: its own properties (over the scenario-wide ones) and its link. */
export interface ConsumerDiff {
  config?: Settings;
  network?: LinkSpec;
}

/** What a user changed from the built-in scenario. */
export interface SettingsDiff {
  broker?: Settings;
  /** The group's own configs (KIP-848 group configs, over the broker's `group.consumer.*`). */
  group?: Settings;
  consumer?: Settings;
  network?: LinkSpec;
  /** The application's timing for every consumer (its rebalance listener, its polls). */
  application?: Application;
  seed?: number;
  /** By consumer name (`client.id`). */
  consumers?: Record<string, ConsumerDiff>;
}

export function applyDiff(base: Scenario, diff: SettingsDiff): Scenario {
  const network = { ...(base.network ?? {}), ...(diff.network ?? {}) };
  return {
    ...base,
    broker: { ...(base.broker ?? {}), ...(diff.broker ?? {}) },
    group: { ...(base.group ?? {}), ...(diff.group ?? {}) },
    consumer: { ...(base.consumer ?? {}), ...(diff.consumer ?? {}) },
    network,
    application: { ...(base.application ?? {}), ...(diff.application ?? {}) },
    seed: diff.seed ?? base.seed,
    consumers: base.consumers.map((c): ConsumerSpec => {
      const d = diff.consumers?.[c.name];
      if (!d) return c;
      return {
        ...c,
        config: { ...(c.config ?? {}), ...(d.config ?? {}) },
        network: d.network ? { ...network, ...(c.network ?? {}), ...d.network } : c.network,
      };
    }),
  };
}

export function isEmpty(diff: SettingsDiff): boolean {
  return (
    !diff.seed &&
    !Object.keys(diff.broker ?? {}).length &&
    !Object.keys(diff.group ?? {}).length &&
    !Object.keys(diff.consumer ?? {}).length &&
    !Object.keys(diff.network ?? {}).length &&
    !Object.keys(diff.application ?? {}).length &&
    !Object.keys(diff.consumers ?? {}).length
  );
}

/** Whether `x` has the shape of a settings diff (links and files carry them; the simulation
 * checks the values when the run restarts). */
export function isSettingsDiff(x: unknown): x is SettingsDiff {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const flat = (v: unknown) =>
    v === undefined || (isObject(v) && Object.values(v).every((w) => ['number', 'string', 'boolean'].includes(typeof w)));
  const groups = ['broker', 'group', 'consumer', 'network', 'application', 'seed', 'consumers'];
  if (!isObject(x) || Object.keys(x).some((k) => !groups.includes(k))) return false;
  if (!flat(x.broker) || !flat(x.group) || !flat(x.consumer) || !flat(x.network) || !flat(x.application)) return false;
  if (x.seed !== undefined && !Number.isSafeInteger(x.seed)) return false;
  if (x.consumers === undefined) return true;
  return (
    isObject(x.consumers) &&
    Object.values(x.consumers).every(
      (d) => isObject(d) && Object.keys(d).every((k) => k === 'config' || k === 'network') && flat(d.config) && flat(d.network),
    )
  );
}

/** A setting typed in a field: true/false, a number, or text. */
export function parseSetting(text: string): number | string | boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

const LINK_KEYS: ConfigKey[] = [
  { name: 'latencyMs', default: '1', doc: 'one-way latency of the link', docZh: '链路的单向延迟' },
  { name: 'jitterMs', default: '0', doc: 'a further 0..jitter ms per message', docZh: '每条消息额外 0..jitter 毫秒的抖动' },
  { name: 'loss', default: '0', doc: 'probability 0..1 that a message is lost', docZh: '消息丢失的概率（0..1）' },
];

/** The group configs (KIP-848) a GROUP resource takes (`GroupConfig`'s consumer settings): an
 * admin's IncrementalAlterConfigs of the scenario's group before the run. Their defaults are
 * the broker's `group.consumer.*` values. */
const GROUP_KEYS: { name: string; broker: string; doc: string; docZh: string }[] = [
  {
    name: 'consumer.session.timeout.ms',
    broker: 'group.consumer.session.timeout.ms',
    doc: "this group's session timeout for consumer-protocol members (within group.consumer.min/max.session.timeout.ms)",
    docZh: '本消费组 consumer 协议成员的会话超时（须在 group.consumer.min/max.session.timeout.ms 之间）',
  },
  {
    name: 'consumer.heartbeat.interval.ms',
    broker: 'group.consumer.heartbeat.interval.ms',
    doc: "this group's heartbeat interval for consumer-protocol members (within group.consumer.min/max.heartbeat.interval.ms)",
    docZh: '本消费组 consumer 协议成员的心跳间隔（须在 group.consumer.min/max.heartbeat.interval.ms 之间）',
  },
];

/** The application's timing (not Kafka settings): what a rebalance costs a real application. */
const APP_KEYS: ConfigKey[] = [
  {
    name: 'revokeMsPerPartition',
    default: '0',
    doc: 'onPartitionsRevoked: ms per partition given up (commit, flush state, stop work); the JoinGroup waits for it',
    docZh: 'onPartitionsRevoked：每个撤销分区耗时（提交、刷新状态、停止处理）毫秒；加入组请求等它返回后才发送',
  },
  {
    name: 'assignMsPerPartition',
    default: '0',
    doc: 'onPartitionsAssigned: ms per partition newly assigned (restore state, seek); the partition is processed after it',
    docZh: 'onPartitionsAssigned：每个新分配分区耗时（恢复状态、定位位移）毫秒；之后才开始处理该分区',
  },
  {
    name: 'lostMsPerPartition',
    default: '0',
    doc: 'onPartitionsLost: ms per partition lost (after the member was fenced)',
    docZh: 'onPartitionsLost：每个丢失分区耗时毫秒（成员被隔离之后）',
  },
  {
    name: 'processingJitterMs',
    default: '0',
    doc: 'each poll comes up to this much later than processingMs, drawn from the seed (below processingMs)',
    docZh: '每次 poll 比 processingMs 最多晚这么多毫秒，由种子决定（须小于 processingMs）',
  },
];

export class SettingsView {
  readonly root = element<HTMLDetailsElement>(html`<details class="panel settings" id="settings"></details>`);
  /** Per-consumer edits not applied yet (kept while another consumer is being edited). */
  private draft: Record<string, ConsumerDiff> = {};

  constructor(
    private readonly deps: {
      brokerKeys: ConfigKey[];
      consumerKeys: ConfigKey[];
      apply: (diff: SettingsDiff) => void;
    },
  ) {}

  /** Draws the form for `base` with `diff` applied. */
  render(lang: Lang, base: Scenario, diff: SettingsDiff): void {
    this.draft = structuredClone(diff.consumers ?? {});
    const scenario = applyDiff(base, diff);
    const net = scenario.network ?? {};
    const everyStatic = scenario.consumers.length > 0 && scenario.consumers.every((c) => isStatic(c));
    const groupField = (k: (typeof GROUP_KEYS)[number]) => {
      const brokerDefault = scenario.broker?.[k.broker] ?? this.deps.brokerKeys.find((b) => b.name === k.broker)?.default ?? '';
      return field('group', { name: k.name, default: String(brokerDefault), doc: k.doc, docZh: k.docZh }, scenario.group?.[k.name], lang);
    };
    const seed = field(
      'seed',
      { name: 'seed', default: String(base.seed ?? 0), doc: 'the seed of every random draw', docZh: '所有随机抽取的种子' },
      diff.seed,
      lang,
    );
    const submit = (ev: Event) => {
      ev.preventDefault();
      const form = ev.currentTarget as HTMLFormElement;
      this.keepConsumer(one(), base);
      const next = this.read(form, base);
      const allStatic = form.querySelector<HTMLInputElement>('#static-all')?.checked ?? everyStatic;
      if (allStatic !== everyStatic) {
        for (const c of base.consumers) {
          const d = ((next.consumers ??= {})[c.name] ??= {});
          (d.config ??= {})['group.instance.id'] = allStatic ? c.name : '';
        }
      }
      this.deps.apply(next);
    };
    const pick = () => {
      this.keepConsumer(one(), base);
      showConsumer();
    };
    // (The flavour, 4.0 or 3.x, is the model's, not a Kafka setting.)
    const form = html`<form id="settings-form" @submit=${submit}>
      <fieldset><legend>${t('brokerSettings', lang)}</legend>${this.deps.brokerKeys
        .filter((k) => k.name !== 'flavour')
        .map((k) => field('broker', k, scenario.broker?.[k.name], lang))}</fieldset>
      <fieldset id="group-settings"><legend>${t('groupSettings', lang).replace('{group}', scenario.groupId ?? 'demo-group')}</legend>${GROUP_KEYS.map(groupField)}</fieldset>
      <fieldset><legend>${t('everyConsumer', lang)}</legend><label class="check"><input type="checkbox" id="static-all" ?checked=${everyStatic} />${t(
        'staticAll',
        lang,
      )}</label>${this.deps.consumerKeys.filter((k) => k.name !== 'group.instance.id').map((k) => field('consumer', k, scenario.consumer?.[k.name], lang))}</fieldset>
      <fieldset><legend>${t('oneConsumer', lang)} <select id="consumer-pick" aria-label=${t('consumerPick', lang)} @change=${pick}>${scenario.consumers.map(
        (c) => html`<option value=${c.name}>${c.name}</option>`,
      )}</select></legend><div id="consumer-settings"></div></fieldset>
      <fieldset id="application-settings"><legend>${t('applicationSettings', lang)}</legend>${APP_KEYS.map((k) =>
        field('application', k, (scenario.application as Record<string, unknown> | undefined)?.[k.name], lang),
      )}</fieldset>
      <fieldset><legend>${t('networkAndSeed', lang)}</legend>${LINK_KEYS.map((k) => field('network', k, (net as Record<string, unknown>)[k.name], lang))}${seed}</fieldset>
      <div class="row"><button type="submit" id="settings-apply" class="primary">${t('applySettings', lang)}</button><button type="button" id="settings-reset" @click=${() =>
        this.deps.apply({})}>${t('resetSettings', lang)}</button></div>
    </form>`;
    // Drawn afresh each time: the fields show the scenario's values, not what was typed before.
    render(nothing, this.root);
    render(
      html`<summary><h2 class="inline">${t('settings', lang)}</h2></summary><p class="muted">${t('settingsHint', lang)}</p>${form}`,
      this.root,
    );
    const one = () => this.root.querySelector<HTMLElement>('#consumer-settings') as HTMLElement;
    const picked = this.root.querySelector<HTMLSelectElement>('#consumer-pick') as HTMLSelectElement;
    const showConsumer = () => {
      const spec = scenario.consumers.find((c) => c.name === picked.value);
      if (!spec) return;
      const draft = this.draft[spec.name];
      const config = { ...(spec.config ?? {}), ...(draft?.config ?? {}) };
      const link = { ...net, ...(spec.network ?? {}), ...(draft?.network ?? {}) } as Record<string, unknown>;
      const toggleStatic = (ev: Event) => {
        const box = ev.currentTarget as HTMLInputElement;
        const input = one().querySelector<HTMLInputElement>('input[name="one:group.instance.id"]');
        if (input) input.value = box.checked ? spec.name : '';
      };
      const fields = this.deps.consumerKeys.map((k) =>
        field('one', { ...k, default: String(scenario.consumer?.[k.name] ?? k.default) }, config[k.name], lang),
      );
      const links = LINK_KEYS.map((k) =>
        field(
          'onelink',
          { ...k, default: String(link[k.name] ?? k.default) },
          draft?.network?.[k.name as keyof LinkSpec] ?? spec.network?.[k.name as keyof LinkSpec],
          lang,
        ),
      );
      render(nothing, one());
      render(
        html`<label class="check"><input type="checkbox" id="static-one" ?checked=${!!config['group.instance.id']} @change=${toggleStatic} />${t(
          'staticOne',
          lang,
        )}</label>${fields}${links}`,
        one(),
      );
      one().dataset.consumer = spec.name;
    };
    showConsumer();
  }

  /** Marks the setting the model refused, at its field: the message beside it, the field
   * invalid and focused (the panel open, on the right consumer). `path` is the refused field's
   * path in the scenario (`broker.group.max.size`, `consumers[1].config.session.timeout.ms`);
   * `consumers` are the scenario's consumer names. Returns whether a field was found. */
  refuse(message: string, path: string, consumers: string[]): boolean {
    this.root.open = true;
    for (const old of this.root.querySelectorAll('[aria-invalid="true"]')) old.removeAttribute('aria-invalid');
    this.root.querySelector('#settings-error')?.remove();
    let name: string | null = null;
    const own = /^consumers\[(\d+)\]\.config\.(.+)$/.exec(path);
    const shared = /^(broker|group|consumer|network|application)\.(.+)$/.exec(path);
    if (own) {
      const consumer = consumers[Number(own[1])];
      if (consumer) this.openFor(consumer);
      const field = this.root.querySelector<HTMLInputElement>(`input[name="${CSS.escape(`one:${own[2]}`)}"]`);
      // Set for all consumers and refused in this one: the shared field is the one to change.
      name = field?.value.trim() ? `one:${own[2]}` : `consumer:${own[2]}`;
    } else if (shared) {
      name = `${shared[1]}:${shared[2]}`;
    } else if (path === 'seed') {
      name = 'seed:seed';
    }
    const input = name ? this.root.querySelector<HTMLInputElement>(`input[name="${CSS.escape(name)}"]`) : null;
    const note = element(html`<p id="settings-error" class="field-error" role="alert">${message}</p>`);
    if (!input) {
      this.root.querySelector('form')?.prepend(note);
      return false;
    }
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'settings-error');
    (input.closest('label') ?? input).after(note);
    input.focus();
    return true;
  }

  /** Opens the panel on one consumer's settings. */
  openFor(name: string): void {
    this.root.open = true;
    const picked = this.root.querySelector<HTMLSelectElement>('#consumer-pick');
    if (picked && [...picked.options].some((o) => o.value === name) && picked.value !== name) {
      picked.value = name;
      picked.dispatchEvent(new Event('change'));
    }
    this.root.querySelector<HTMLElement>('#consumer-settings')?.scrollIntoView({ block: 'nearest' });
    this.root.querySelector<HTMLInputElement>('#static-one')?.focus();
  }

  /** Moves the shown consumer's fields into the draft, as a diff from its built-in spec. */
  private keepConsumer(one: HTMLElement, base: Scenario): void {
    const name = one.dataset.consumer;
    const spec = base.consumers.find((c) => c.name === name);
    if (!name || !spec) return;
    const d: ConsumerDiff = {};
    for (const input of one.querySelectorAll<HTMLInputElement>('input[name]')) {
      const [group, key] = input.name.split(':');
      const text = input.value.trim();
      if (group === 'one') {
        const baseValue = spec.config?.[key];
        // An emptied group.instance.id is a change (static -> dynamic); other emptied fields
        // fall back to the scenario's value.
        if (text === String(baseValue ?? '') || (text === '' && (key !== 'group.instance.id' || baseValue === undefined))) continue;
        (d.config ??= {})[key] = parseSetting(text);
      } else if (group === 'onelink') {
        const baseValue = (spec.network as Record<string, unknown> | null | undefined)?.[key];
        if (text === '' || text === String(baseValue ?? '')) continue;
        (d.network ??= {})[key as keyof LinkSpec] = Number(text);
      }
    }
    if (d.config || d.network) this.draft[name] = d;
    else delete this.draft[name];
  }

  /** The fields that differ from the scenario, as a diff (with the per-consumer drafts). */
  private read(form: HTMLFormElement, base: Scenario): SettingsDiff {
    const diff: SettingsDiff = {};
    for (const input of form.querySelectorAll<HTMLInputElement>('input[name]')) {
      const [group, key] = input.name.split(':');
      const text = input.value.trim();
      if (group === 'seed') {
        if (text && text !== String(base.seed ?? 0)) diff.seed = Number(text);
        continue;
      }
      if (group !== 'broker' && group !== 'group' && group !== 'consumer' && group !== 'network' && group !== 'application') continue;
      const baseValue =
        group === 'broker'
          ? base.broker?.[key]
          : group === 'group'
            ? base.group?.[key]
            : group === 'consumer'
              ? base.consumer?.[key]
              : ((group === 'network' ? base.network : base.application) as Record<string, unknown> | undefined)?.[key];
      if (text === '' || text === String(baseValue ?? '')) continue;
      const value = parseSetting(text);
      if (group === 'network') (diff.network ??= {})[key as keyof LinkSpec] = value as number;
      else if (group === 'application') (diff.application ??= {})[key as keyof Application] = value as number;
      else if (group === 'group') (diff.group ??= {})[key] = value;
      else (group === 'broker' ? (diff.broker ??= {}) : (diff.consumer ??= {}))[key] = value;
    }
    if (Object.keys(this.draft).length) diff.consumers = structuredClone(this.draft);
    return diff;
  }
}

function isStatic(c: ConsumerSpec): boolean {
  return typeof c.config?.['group.instance.id'] === 'string' && c.config['group.instance.id'] !== '';
}

function field(group: string, key: ConfigKey, current: unknown, lang: Lang): TemplateResult {
  return html`<label title=${lang === 'zh' ? key.docZh : key.doc}><span class="mono">${key.name}</span><input name=${`${group}:${key.name}`} value=${
    current === undefined || current === null ? '' : String(current)
  } placeholder=${key.default || t('noDefault', lang)} aria-label=${key.name} data-default=${key.default} /></label>`;
}
