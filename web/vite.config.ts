import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard's front end: built once into dist/dashboard, which the npm package ships, so that
// `npx focuscrawl serve` needs no build step. Fixed file names: `report` inlines them into one page.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    cssCodeSplit: false,
    assetsInlineLimit: 100_000,
    modulePreload: false,
    rollupOptions: {
      output: { entryFileNames: 'assets/dashboard.js', assetFileNames: 'assets/dashboard[extname]', inlineDynamicImports: true },
    },
  },
});
