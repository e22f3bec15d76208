// Vite turns CSS imports into injected styles; TypeScript only needs to know they are modules.
declare module '*.css';
