// Vite's `?url` imports: the built asset's URL (the wasm modules, web/src/main.ts).
declare module '*.wasm?url' {
  const url: string;
  export default url;
}
