import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes sw.js beside the build: the service worker of sw/sw.js with the build's own files to keep
 * (every emitted file but index.html, which is kept as the shell '/') and a version made from their
 * names, so that a new build replaces the old cache.
 */
function serviceWorker(): Plugin {
  return {
    name: 'personae-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => f !== 'index.html' && f !== 'sw.js' && !f.endsWith('.map'))
        .sort()
        .map((f) => `/${f}`);
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      const template = readFileSync(new URL('./sw/sw.js', import.meta.url), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: template.replace("'__VERSION__'", JSON.stringify(version)).replace('__FILES__', JSON.stringify(files)) });
    },
  };
}

// Preact through the automatic JSX runtime; no framework plugin is needed for a production build.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [serviceWorker()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
