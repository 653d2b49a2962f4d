import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, databaseUrl: undefined, demoData: true, jwtExpiresIn: '12h' });
    expect(c.dataDir).toMatch(/data$/);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ ADMIN_EMAIL: 'not-an-email' }, /ADMIN_EMAIL/],
    [{ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: '123' }, /at least 6/],
    [{ ADMIN_PASSWORD: 'long-enough' }, /ADMIN_EMAIL is not/],
    [{ JWT_SECRET: 'short' }, /at least 32/],
    [{ JWT_EXPIRES_IN: 'forever' }, /JWT_EXPIRES_IN/],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA must be true or false/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('stops on %j with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '8080',
      DATA_DIR: '/srv/eta',
      DATABASE_URL: 'postgres://u@h/db',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'secret-pass',
      JWT_SECRET: 'x'.repeat(40),
      DEMO_DATA: 'false',
    });
    expect(c).toMatchObject({
      port: 8080,
      dataDir: '/srv/eta',
      databaseUrl: 'postgres://u@h/db',
      adminEmail: 'boss@example.com',
      adminPassword: 'secret-pass',
      demoData: false,
    });
  });
});
