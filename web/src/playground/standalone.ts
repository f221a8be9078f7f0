// A run as one self-contained HTML file: this page's own script, style and WebAssembly module
// inlined (the module gzipped, base64), with the run to open. It works offline, from a file.

/** Builds the file from what this page loaded. */
export async function standaloneHtml(runJson: string, title: string): Promise<string> {
  const script = document.querySelector<HTMLScriptElement>('script[type=module][src]');
  if (!script) throw new Error('the page was not loaded from its built bundle (run `npm run build`)');
  const bundle = await (await fetch(script.src)).text();
  const css = (await Promise.all([...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')]
    .map(async (l) => (await fetch(l.href)).text()))).join('\n');
  const wasm = performance.getEntriesByType('resource').map((r) => r.name).find((n) => n.endsWith('.wasm'));
  if (!wasm) throw new Error('the WebAssembly module is not among the loaded resources');
  // The module travels gzipped (a third of its size) and base64-encoded; the page unpacks it
  // before starting (main.ts, `packedModule`).
  const bytes = await gzip(new Uint8Array(await (await fetch(wasm)).arrayBuffer()));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  // Nothing in the inlined text may close its element early.
  const safe = (text: string, tag: string) => text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);
  const header = document.querySelector('header')?.outerHTML ?? '';
  return `<!doctype html>
<html lang="${document.documentElement.lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${title.replace(/[<&]/g, '')}</title>
<style>${safe(css, 'style')}</style></head>
<body>${header}<main id="app" aria-busy="true"><p>Loading…</p></main>
<script>window.__KGP_RUN__ = ${safe(JSON.stringify(runJson), 'script')};
window.__KGP_WASM_GZ__ = "${btoa(binary)}";</script>
<script type="module">${safe(bundle, 'script')}</script>
</body></html>`;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The module a self-contained export carries, unpacked; undefined on the served page. */
export async function packedModule(): Promise<ArrayBuffer | undefined> {
  const packed = (globalThis as { __KGP_WASM_GZ__?: unknown }).__KGP_WASM_GZ__;
  if (typeof packed !== 'string') return undefined;
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}
