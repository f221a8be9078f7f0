// The protocol's names in both languages and the classic group's transition table, as the model
// hands them over (`vocabulary()`, read once): no module keeps its own copy of a protocol table
// or name.

import {
  type ConsumerGroupState,
  type ConsumerLife,
  type ConsumerMemberState,
  type GroupState,
  type MemberState,
  type Name,
  type PauseKind,
  type Vocabulary,
  vocabulary,
} from '../../pkg/group_coordinator_wasm.js';
import type { Lang } from './i18n.ts';

interface Tables {
  groupStates: Map<string, Name>;
  transitions: { from: GroupState; to: GroupState; trigger: Name }[];
  consumerGroupStates: Map<string, Name>;
  consumerTransitions: { from: ConsumerGroupState; to: ConsumerGroupState; trigger: Name }[];
  consumerMemberStates: Map<string, Name>;
  client: Record<'classic' | 'consumer', { states: MemberState[]; transitions: [MemberState, MemberState][] }>;
  memberStates: Map<string, Name>;
  lives: Map<string, Name>;
  pauses: Map<string, Name>;
}

let tables: Tables | null = null;
/** The model's vocabulary as a recording carries it (recorded.ts), before the module loads. */
let given: Vocabulary | null = null;

/** Uses `v` (the model's own `vocabulary()`, recorded) instead of asking the module. */
export function useVocabulary(v: Vocabulary): void {
  given = v;
  tables = null;
}

/** The tables (from the wasm module, which must be initialised first, or as given). */
function get(): Tables {
  if (!tables) {
    const v = given ?? vocabulary();
    tables = {
      groupStates: new Map(v.groupStates),
      transitions: v.transitions,
      consumerGroupStates: new Map(v.consumerGroupStates),
      consumerTransitions: v.consumerTransitions,
      consumerMemberStates: new Map(v.consumerMemberStates),
      client: {
        classic: { states: v.clientStates, transitions: v.clientTransitions },
        consumer: { states: v.clientStatesConsumer, transitions: v.clientTransitionsConsumer },
      },
      memberStates: new Map(v.memberStates),
      lives: new Map(v.lives),
      pauses: new Map(v.pauses),
    };
  }
  return tables;
}

const pick = (name: Name | undefined, fallback: string, lang: Lang) => name?.[lang] ?? fallback;

/** How the page labels a state: Kafka's name, and in Chinese the book's before it. */
const label = (name: Name | undefined, fallback: string, lang: Lang) =>
  !name ? fallback : lang === 'zh' ? `${name.zh} ${name.en}` : name.en;

/** A group state as the page labels it. */
export function stateLabel(state: string, lang: Lang): string {
  return label(get().groupStates.get(state), state, lang);
}

/** A group state's name alone, in `lang`. */
export function stateName(state: GroupState, lang: Lang): string {
  return pick(get().groupStates.get(state), state, lang);
}

/** The classic group's transitions, each with what triggers it. */
export function transitions(): readonly { from: GroupState; to: GroupState; trigger: Name }[] {
  return get().transitions;
}

/** A consumer group's (KIP-848) state as the page labels it (as `stateLabel`). */
export function consumerStateLabel(state: ConsumerGroupState, lang: Lang): string {
  return label(get().consumerGroupStates.get(state), state, lang);
}

export function consumerStateName(state: ConsumerGroupState, lang: Lang): string {
  return pick(get().consumerGroupStates.get(state), state, lang);
}

/** The consumer group's changes of state, each with what causes it. */
export function consumerTransitions(): readonly { from: ConsumerGroupState; to: ConsumerGroupState; trigger: Name }[] {
  return get().consumerTransitions;
}

/** A consumer group member's state as the coordinator holds it. */
export function consumerMemberStateName(state: ConsumerMemberState, lang: Lang): string {
  return pick(get().consumerMemberStates.get(state), state, lang);
}

/** The client's state machine of a protocol: its states in order, and its transitions. */
export function clientMachine(protocol: 'classic' | 'consumer'): {
  states: readonly MemberState[];
  transitions: readonly [MemberState, MemberState][];
} {
  return get().client[protocol];
}

export function memberStateName(state: MemberState, lang: Lang): string {
  return pick(get().memberStates.get(state), state, lang);
}

export function lifeName(life: ConsumerLife, lang: Lang): string {
  return pick(get().lives.get(life), life, lang);
}

export function pauseName(kind: PauseKind, lang: Lang): string {
  return pick(get().pauses.get(kind), kind, lang);
}
