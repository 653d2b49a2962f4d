// Every answer carries the security headers, whatever the route and whether it succeeds: a browser must never
// frame the console, sniff a document's type or run a script from elsewhere. Only the landing sites' logos may be
// loaded from another origin: the mails show them, in a webmail or the console's sandboxed mail preview.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40"/></svg>';

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  // A built console of its own: the page, one script and the seeded sites' logo where the build puts them.
  webDist = await mkdtemp(path.join(os.tmpdir(), 'eta-web-'));
  await mkdir(path.join(webDist, 'brand'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>eTA Desk</title>');
  await writeFile(path.join(webDist, 'assets', 'index.js'), 'console.log(1);');
  await writeFile(path.join(webDist, 'brand', 'default-logo.svg'), LOGO);
  t = await buildTestApp({ webDist });
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('security headers', () => {
  it.each([
    ['a public call', '/api/health', 200],
    ['a call refused without a token', '/api/admin/get-folder-count', 401],
    ['an unknown API path', '/api/no-such-call', 404],
  ])('are on %s', async (_label, url, status) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it("let any origin load a site's logo (the mail preview's sandboxed frame included), and nothing else", async () => {
    const logo = await t.app.inject({ method: 'GET', url: '/brand/default-logo.svg' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toContain('image/svg+xml');
    expect(logo.body).toBe(LOGO);
    expect(logo.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Every other security header stays on the logo.
    expect(String(logo.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(logo.headers['x-content-type-options']).toBe('nosniff');

    for (const url of ['/', '/admin/order-history', '/assets/index.js', '/api/health', '/brand/no-such-logo.svg']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
  });
});
