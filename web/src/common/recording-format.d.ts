// Types of recording-format.js (plain JavaScript, so that Node reads it at build time).
import type { FrameRequest } from '../../pkg/group_coordinator_wasm.js';

export const RECORDING_FORMAT: number;
export const DERIVED_KEYS: readonly string[];
export const GONE: '-';
export const DEFAULT_WINDOW_MS: number;
export const DEFAULT_ASSIGNMENT_COLUMNS: number;
export const DEFAULT_CHANGED_ONLY: boolean;
export const DEFAULT_UPCOMING: number;
export function recordedRequest(lang: 'en' | 'zh'): FrameRequest;
