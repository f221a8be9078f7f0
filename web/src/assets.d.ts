// Vite's `?url` imports: the built asset's URL (the wasm modules, web/src/main.ts).
declare module '*.wasm?url' {
  const url: string;
  export default url;
}

// `?raw` imports: a file's text (the "Your group" panel's example, your-group.ts).
declare module '*.txt?raw' {
  const text: string;
  export default text;
}
