// Vite (and so vitest) loads any file as a string when its specifier ends in `?raw`.
declare module '*?raw' {
  const text: string;
  export default text;
}
