// esbuild extracts imported CSS into the page's stylesheet.
declare module '*.css';
