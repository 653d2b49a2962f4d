// Builds the single-page app: staff console (/ and /admin/...) and public portal (/track-order/...)
// as separate lazy chunks, so a customer never downloads console code.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { contractsAlias } from './contracts-alias';

const CHUNK_OF_SOURCE: ReadonlyArray<readonly [RegExp, string]> = [
  [/\/src\/(app\/routes\/staff-routes|features\/(auth|layout|dashboard|orders|folder-counts))\b/, 'console'],
  [/\/src\/(app\/routes\/public-routes|features\/portal)\b/, 'portal'],
  [/\/node_modules\/(react|react-dom|scheduler|react-router|@reduxjs|react-redux|redux|immer|reselect)\//, 'vendor'],
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: contractsAlias },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        manualChunks(id) {
          return CHUNK_OF_SOURCE.find(([pattern]) => pattern.test(id))?.[1];
        },
      },
    },
  },
});
