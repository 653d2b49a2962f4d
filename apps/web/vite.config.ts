// Builds two pages: the staff console (index.html: / and /admin/...) and the customer portal (portal.html:
// /track-order/..., /get-new-order-details/..., /faq, /contact), which shares nothing with the console but React.
// The server picks the page by path (contracts PORTAL_PAGES); the dev server here does the same.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { isPortalPath } from '../../packages/contracts/src/domain.ts';
import { contractsAlias } from './contracts-alias.ts';

const REACT = /\/node_modules\/(react|react-dom|scheduler)\//;
const CONSOLE_FRAMEWORK =
  /\/node_modules\/(react-router|@reduxjs\/toolkit|react-redux|redux|redux-thunk|immer|reselect|react-toastify|clsx)\//;

/** `vite dev`: portal paths get portal.html, as the server gives them in production. */
const portalPages = (): Plugin => ({
  name: 'eta-portal-pages',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      const path = req.url?.split('?')[0] ?? '';
      if (req.method === 'GET' && isPortalPath(path)) req.url = `/portal.html${req.url?.slice(path.length) ?? ''}`;
      next();
    });
  },
});

export default defineConfig({
  plugins: [react(), portalPages()],
  resolve: { alias: contractsAlias },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by scripts/check-bundle-size.mjs to add up what each page loads first.
    manifest: true,
    rolldownOptions: {
      input: { console: 'index.html', portal: 'portal.html' },
      output: {
        // React is shared by both pages; the rest of the console's framework is the console's alone. The console's
        // own screens are NOT a group: a group also captures its modules' dependencies, which would pull shared code
        // into one chunk. Each screen's dynamic import (app/router.tsx) already makes it a chunk of its own, and
        // what several screens share goes into chunks of its own.
        codeSplitting: {
          groups: [
            { name: 'react', test: REACT, priority: 2 },
            { name: 'framework', test: CONSOLE_FRAMEWORK, priority: 1 },
          ],
        },
      },
    },
  },
});
