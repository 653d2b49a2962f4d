// Builds the single-page app. The staff console (/ and /admin/...) and the public portal (/track-order/...)
// are separate lazy chunks (dynamic imports in app/router.tsx), so a customer never downloads console code.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { contractsAlias } from './contracts-alias.ts';

const FRAMEWORK =
  /\/node_modules\/(react|react-dom|scheduler|react-router|@reduxjs\/toolkit|react-redux|redux|redux-thunk|immer|reselect|react-toastify|clsx)\//;

export default defineConfig({
  plugins: [react()],
  resolve: { alias: contractsAlias },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // One group for the framework every page needs. The console and the portal are NOT groups: a group also
        // captures its modules' dependencies, which would pull code the entry shares into the console chunk.
        // Their dynamic imports already make them the console-routes and portal-routes chunks.
        codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] },
      },
    },
  },
});
