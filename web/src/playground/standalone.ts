// A run as one self-contained HTML file: this page's own script, style and WebAssembly module
// inlined (the module gzipped, base64), with the run to open. It works offline, from a file.
//
// The run is data the user (or a link, or an imported file) wrote: titles, consumer names,
// settings. It travels in a `<script type="application/json">` element with every `<` written
// as \u003c (and U+2028/2029 escaped), so no text in it can end the element or move the HTML
// parser into a script state (`<!--<script>` once left an export stuck on "Loading…"). A
// Content-Security-Policy lets only the inlined module run (by its hash) and compile WebAssembly.

import fullModule from '../../pkg/group_coordinator_wasm_bg.wasm?url';

/** The full module's URL (what the page loads, and what an export carries whichever module
 * this page loaded: an embed loads the smaller one, and the file's console and assign modes
 * need the full one). */
export { fullModule };

/** Builds the file from what this page loaded. */
export async function standaloneHtml(runJson: string, title: string): Promise<string> {
  const script = document.querySelector<HTMLScriptElement>('script[type=module][src]');
  if (!script) throw new Error('the page was not loaded from its built bundle (run `npm run build`)');
  const bundle = await (await fetch(script.src)).text();
  const css = (
    await Promise.all(
      [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].map(async (l) => (await fetch(l.href)).text()),
    )
  ).join('\n');
  const wasm = new URL(fullModule, location.href).href;
  // The module travels gzipped (a third of its size) and base64-encoded; the page unpacks it
  // before starting (main.ts, `packedModule`).
  const bytes = await gzip(new Uint8Array(await (await fetch(wasm)).arrayBuffer()));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  // Our own bundle and style: nothing in them may close their element early.
  const safe = (text: string, tag: string) => text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);
  const module = safe(bundle, 'script');
  const header = document.querySelector('header')?.outerHTML ?? '';
  const csp = [
    "default-src 'none'",
    `script-src '${await sha256(module)}' 'wasm-unsafe-eval'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="${document.documentElement.lang}">
<head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${title.replace(/[<&]/g, '')}</title>
<style>${safe(css, 'style')}</style></head>
<body>${header}<main id="app" aria-busy="true"><p>Loading…</p></main>
<script type="application/json" id="kgp-run">${inlineJson(runJson)}</script>
<script type="application/json" id="kgp-wasm-gz">"${btoa(binary)}"</script>
<script type="module">${module}</script>
</body></html>`;
}

/** A value as JSON text that is safe inside any HTML element: no `<` (so no `</script>`, no
 * `<!--`), no U+2028/2029. JSON.parse reads it back unchanged. */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A value an export carried in `<script type="application/json" id="...">`, or undefined. */
export function carried(id: string): unknown {
  const el = document.getElementById(id);
  if (el?.getAttribute('type') !== 'application/json') return undefined;
  try {
    return JSON.parse(el.textContent ?? '');
  } catch {
    return undefined;
  }
}

/** A CSP source for an inline script: 'sha256-<base64 of its text's SHA-256>'. */
async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The module a self-contained export carries, unpacked; undefined on the served page. */
export async function packedModule(): Promise<ArrayBuffer | undefined> {
  const packed = carried('kgp-wasm-gz');
  if (typeof packed !== 'string') return undefined;
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}
