// Configuration is read from the environment once at start-up and checked; a bad value stops the
// process with one clear line (see server.ts).
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  jwtExpiresIn: string;
  demoData: boolean;
  demoOrders: number;
  logLevel: string;
  trustProxy: boolean;
  webDist: string | undefined;
  /** Failed sign-ins per client address per 5 minutes (all accounts together). */
  loginLimitPerIp: number;
  /** Failed sign-ins per (account, client address) per 15 minutes. */
  loginFailuresPerAccount: number;
  /** Failed sign-ins per account from all addresses per hour before the account locks with a growing delay. */
  loginFailuresPerAccountHourly: number;
}

export class ConfigError extends Error {}

const bool = (name: string, raw: string | undefined, fallback: boolean): boolean => {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};

const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const adminEmail = env.ADMIN_EMAIL || undefined;
  if (adminEmail && !EMAIL.test(adminEmail))
    throw new ConfigError(`ADMIN_EMAIL is not an e-mail address: "${adminEmail}"`);
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminPassword && adminPassword.length < 6) throw new ConfigError('ADMIN_PASSWORD must be at least 6 characters');
  if (adminPassword && !adminEmail) throw new ConfigError('ADMIN_PASSWORD is set but ADMIN_EMAIL is not');
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
  const jwtExpiresIn = env.JWT_EXPIRES_IN || '12h';
  if (!/^\d+\s*[smhd]$/.test(jwtExpiresIn)) {
    throw new ConfigError(`JWT_EXPIRES_IN must look like 30m, 12h or 7d, got "${jwtExpiresIn}"`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const loginFailuresPerAccount = int('LOGIN_FAILURES_PER_ACCOUNT', env.LOGIN_FAILURES_PER_ACCOUNT, 5, 1, 1000);
  const loginFailuresPerAccountHourly = int(
    'LOGIN_FAILURES_PER_ACCOUNT_HOURLY',
    env.LOGIN_FAILURES_PER_ACCOUNT_HOURLY,
    30,
    1,
    100_000,
  );
  // One address gets at most 5 windows of 15 minutes into an hour; the account-wide lock must stay out of
  // its reach, or an attacker at one address could lock the owner out everywhere.
  if (loginFailuresPerAccountHourly <= 5 * loginFailuresPerAccount) {
    throw new ConfigError(
      `LOGIN_FAILURES_PER_ACCOUNT_HOURLY must be more than 5 x LOGIN_FAILURES_PER_ACCOUNT (${5 * loginFailuresPerAccount})`,
    );
  }
  return {
    port: int('PORT', env.PORT, 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    adminEmail,
    adminPassword,
    jwtSecret,
    jwtExpiresIn,
    demoData: bool('DEMO_DATA', env.DEMO_DATA, true),
    demoOrders: int('DEMO_ORDERS', env.DEMO_ORDERS, 2000, 0, 10_000_000),
    logLevel,
    trustProxy: bool('TRUST_PROXY', env.TRUST_PROXY, false),
    webDist: env.WEB_DIST || undefined,
    loginLimitPerIp: int('LOGIN_LIMIT_PER_IP', env.LOGIN_LIMIT_PER_IP, 30, 1, 100_000),
    loginFailuresPerAccount,
    loginFailuresPerAccountHourly,
  };
}
