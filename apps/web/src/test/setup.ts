import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor wait 1 s by default; a lazily loaded screen's first render took longer than that while the server
// suites ran beside the web tests on two cores (CI: "No unusual reading." not found after 1.5 s). What they wait for
// still has to appear; they wait for it as long as a loaded machine needs.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
