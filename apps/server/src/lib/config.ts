// Configuration is read from the environment once at start-up and checked; a bad value stops the
// process with one clear line (see server.ts).
import path from 'node:path';
import { STAFF_TYPES, type StaffType } from '@eta/contracts';
import { parseMasterKey } from './crypto/master-key.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  jwtExpiresIn: string;
  /**
   * STAFF_MFA_ROLES: the roles that must use a second factor until an Admin sets the sign-in policy (comma-separated;
   * default Admin,Manager; empty for none, so a test or a trial can start without one).
   */
  staffMfaRoles: StaffType[];
  /** Single sign-on through an OpenID Connect provider (SSO_ISSUER …); undefined: not offered. */
  sso: SsoConfig | undefined;
  demoData: boolean;
  demoOrders: number;
  /** URGENT_TRAVEL_HOURS: an open order whose traveller flies within this many hours is urgent (issue 35). */
  urgentTravelHours: number;
  logLevel: string;
  trustProxy: boolean;
  webDist: string | undefined;
  /** GET /metrics answers only with `Authorization: Bearer <metricsToken>` (METRICS_TOKEN); unset, not on PORT at all. */
  metricsToken: string | undefined;
  /** METRICS_PORT: /metrics on its own listener at metricsHost (default 127.0.0.1), for a scraper on a private network. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM waits for requests in flight before cutting the connections left. */
  shutdownTimeoutMs: number;
  /** Failed sign-ins per client address per 5 minutes (all accounts together). */
  loginLimitPerIp: number;
  /** Failed sign-ins per (account, client address) per 15 minutes. */
  loginFailuresPerAccount: number;
  /** Failed sign-ins per account from all addresses per hour before the account locks with a growing delay. */
  loginFailuresPerAccountHourly: number;
  /** Largest approved document an upload may carry, in MB (MiB). */
  maxUploadMb: number;
  /**
   * Where the customer portal lives when a landing site names no portal_url of its own (no trailing slash);
   * unset, the address this server listens on (`listenUrl`).
   */
  publicUrl: string;
  /** Failed order-tracking attempts per client address per 15 minutes. */
  trackLimitPerIp: number;
  /** Failed order-tracking attempts per order id per hour. */
  trackLimitPerOrder: number;
  /** A MaxMind-format (.mmdb) location database for the download log; undefined: the bundled country database. */
  geoipDb: string | undefined;
  /** The external translation widget's script for the portal; undefined: no translation bar. */
  translateWidgetUrl: string | undefined;
  mail: MailConfig;
  /** Orders per second one landing site's intake key may send, then 429. */
  intakeRatePerSecond: number;
  /** Requests with a wrong intake key per client address per 15 minutes, then 429. */
  intakeFailuresPerIp: number;
  payments: PaymentsConfig;
  /** Where documents are kept (DOCUMENTS_STORE): DATA_DIR/documents, or the S3 bucket of `s3` (issue 23). */
  documentsStore: 'local' | 's3';
  /** Set whenever S3_BUCKET is, also with the local store: `npm run documents:migrate` copies into it before the switch. */
  s3: S3Config | null;
  /**
   * DATA_KEY: the master key that wraps the data keys of personal data (issue 24), 32 bytes; unset, one made once in
   * DATA_DIR/secrets/data-key (a trial only; required in production on PostgreSQL).
   */
  dataKey: Buffer | undefined;
  /** DATA_KEY_PREVIOUS: during a key rotation, the master key being replaced, accepted for unwrapping only. */
  dataKeyPrevious: Buffer | undefined;
  /**
   * The retention job (issue 24): RETENTION_BATCH_SIZE orders erased between two progress records, and
   * RETENTION_STALE_SECONDS of silence after which a running run counts as dead and another process continues it.
   */
  retention: { batchSize: number; staleAfterMs: number };
}

/** Documents in S3: the bucket and what every write asks for; credentials come from the SDK's default chain. */
export interface S3Config {
  bucket: string;
  /** AWS_REGION; unset, the SDK looks further (its shared config file). */
  region: string | undefined;
  /** AWS_ENDPOINT_URL_S3: another S3-compatible endpoint. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Server-side encryption requested on every write; 'none' only for a store that refuses the request. */
  sse: 'AES256' | 'aws:kms' | 'none';
  sseKmsKeyId: string | undefined;
  /** The SDK's checksum modes, WHEN_REQUIRED unless its own variables say otherwise (docs/decisions/document-storage.md). */
  requestChecksumCalculation: ChecksumMode;
  responseChecksumValidation: ChecksumMode;
  /**
   * S3_TIMEOUT_MS: how long the bucket may take to accept a connection or stay silent in a call before the call is
   * given up (issue 32); each call is tried twice, so a bucket that does not answer is given up after about twice this.
   */
  timeoutMs: number;
}

type ChecksumMode = 'WHEN_REQUIRED' | 'WHEN_SUPPORTED';

/** The payment gateways' credentials (issue 21); a gateway without them is not configured and never called. */
export interface PaymentsConfig {
  stripe: { secretKey: string; webhookSecret: string | null; apiUrl: string; filesUrl: string } | null;
  paypal: { clientId: string; clientSecret: string; webhookId: string | null; apiUrl: string } | null;
  authorizeNet: { loginId: string; transactionKey: string; apiUrl: string } | null;
}

export interface MailConfig {
  /** Default sender; a landing site's own mail_sender wins. */
  from: string;
  /** Attempts per mail before it is failed for good (the first send counts). */
  maxAttempts: number;
  /** Run the outbox worker in this process (off in tests that drive delivery by hand). */
  worker: boolean;
  /** How often the worker looks for due mail besides the kick after each enqueue. */
  pollIntervalMs: number;
  /** Delay before the first retry; each further retry waits twice as long (capped at an hour). */
  retryBaseMs: number;
  /** How long a claimed mail belongs to its worker; a worker that died gives it up after this. */
  leaseMs: number;
  /** Amazon SES v2: configured when the region and both credentials are present. */
  aws: {
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
    endpoint?: string;
  } | null;
  sendgrid: { apiKey: string; apiUrl: string } | null;
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

/** A comma-separated list of staff roles as the spec names them ("Admin,Night Staff"); empty for none. */
const parseStaffRoles = (name: string, raw: string): StaffType[] => {
  const roles = raw
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  for (const role of roles) {
    if (!(STAFF_TYPES as readonly string[]).includes(role)) {
      throw new ConfigError(`${name} names "${role}", which is not a role (${STAFF_TYPES.join(', ')})`);
    }
  }
  return [...new Set(roles as StaffType[])];
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** "Name <address>" or a bare address, on one line. */
const SENDER = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

const url = (name: string, raw: string | undefined, fallback?: string): string | undefined => {
  const value = raw || fallback;
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got "${value}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
};

function loadMailConfig(env: NodeJS.ProcessEnv): MailConfig {
  const from = env.MAIL_FROM || 'eTA Desk <noreply@eta-desk.local>';
  if (!SENDER.test(from)) throw new ConfigError(`MAIL_FROM must be "Name <address>" or an address, got "${from}"`);
  const region = env.AWS_REGION || undefined;
  const accessKeyId = env.AWS_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together');
  }
  if (accessKeyId && !region) throw new ConfigError('AWS credentials are set but AWS_REGION is not');
  if (region && !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
    throw new ConfigError(`AWS_REGION must look like eu-west-1, got "${region}"`);
  }
  const endpoint = url('AWS_ENDPOINT_URL_SESV2', env.AWS_ENDPOINT_URL_SESV2);
  const sessionToken = env.AWS_SESSION_TOKEN || undefined;
  const apiKey = env.SENDGRID_API_KEY || undefined;
  if (apiKey && !apiKey.startsWith('SG.')) throw new ConfigError('SENDGRID_API_KEY must start with "SG."');
  return {
    from,
    maxAttempts: int('MAIL_MAX_ATTEMPTS', env.MAIL_MAX_ATTEMPTS, 5, 1, 50),
    worker: bool('MAIL_WORKER', env.MAIL_WORKER, true),
    pollIntervalMs: int('MAIL_POLL_SECONDS', env.MAIL_POLL_SECONDS, 5, 1, 3600) * 1000,
    retryBaseMs: int('MAIL_RETRY_BASE_SECONDS', env.MAIL_RETRY_BASE_SECONDS, 30, 1, 3600) * 1000,
    leaseMs: 120_000,
    aws:
      region && accessKeyId && secretAccessKey
        ? {
            region,
            accessKeyId,
            secretAccessKey,
            ...(sessionToken ? { sessionToken } : {}),
            ...(endpoint ? { endpoint } : {}),
          }
        : null,
    sendgrid: apiKey
      ? { apiKey, apiUrl: url('SENDGRID_API_URL', env.SENDGRID_API_URL, 'https://api.sendgrid.com')! }
      : null,
  };
}

function loadPaymentsConfig(env: NodeJS.ProcessEnv): PaymentsConfig {
  const set = (name: string) => env[name] || undefined;
  const together = (...names: string[]) => {
    const given = names.filter((n) => set(n));
    if (given.length > 0 && given.length < names.length) {
      throw new ConfigError(`${names.join(' and ')} must be set together (${given.join(', ')} is set)`);
    }
    return given.length === names.length;
  };
  const stripeKey = set('STRIPE_SECRET_KEY');
  if (stripeKey && !/^(sk|rk)_(test|live)_\w+$/.test(stripeKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_..., sk_test_... or rk_...)');
  }
  const stripeWebhook = set('STRIPE_WEBHOOK_SECRET');
  if (stripeWebhook && !stripeWebhook.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must start with "whsec_"');
  }
  const paypal = together('PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET');
  const authorizeNet = together('AUTHORIZE_NET_LOGIN_ID', 'AUTHORIZE_NET_TRANSACTION_KEY');
  return {
    stripe: stripeKey
      ? {
          secretKey: stripeKey,
          webhookSecret: stripeWebhook ?? null,
          apiUrl: url('STRIPE_API_URL', env.STRIPE_API_URL, 'https://api.stripe.com')!,
          filesUrl: url('STRIPE_FILES_URL', env.STRIPE_FILES_URL, 'https://files.stripe.com')!,
        }
      : null,
    paypal: paypal
      ? {
          clientId: env.PAYPAL_CLIENT_ID!,
          clientSecret: env.PAYPAL_CLIENT_SECRET!,
          webhookId: set('PAYPAL_WEBHOOK_ID') ?? null,
          apiUrl: url('PAYPAL_API_URL', env.PAYPAL_API_URL, 'https://api-m.paypal.com')!,
        }
      : null,
    authorizeNet: authorizeNet
      ? {
          loginId: env.AUTHORIZE_NET_LOGIN_ID!,
          transactionKey: env.AUTHORIZE_NET_TRANSACTION_KEY!,
          apiUrl: url('AUTHORIZE_NET_API_URL', env.AUTHORIZE_NET_API_URL, 'https://api.authorize.net')!,
        }
      : null,
  };
}

const oneOf = <T extends string>(name: string, raw: string | undefined, values: readonly T[], fallback: T): T => {
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  }
  return raw as T;
};

export interface SsoConfig {
  /** SSO_ISSUER: the provider's issuer, e.g. https://accounts.google.com or https://login.microsoftonline.com/<tenant>/v2.0. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** SSO_NAME: the provider's name on the sign-in button ("Sign in with Google"). */
  name: string;
}

function loadSsoConfig(env: NodeJS.ProcessEnv): SsoConfig | undefined {
  // Checked as a URL, kept as written: the provider's metadata must name exactly this issuer (a trailing slash counts).
  const issuer = url('SSO_ISSUER', env.SSO_ISSUER) && env.SSO_ISSUER!.trim();
  if (!issuer) {
    if (env.SSO_CLIENT_ID || env.SSO_CLIENT_SECRET) throw new ConfigError('SSO_CLIENT_ID is set but SSO_ISSUER is not');
    return undefined;
  }
  const clientId = env.SSO_CLIENT_ID || '';
  const clientSecret = env.SSO_CLIENT_SECRET || '';
  if (!clientId || !clientSecret) throw new ConfigError('SSO_ISSUER needs SSO_CLIENT_ID and SSO_CLIENT_SECRET');
  const name = (env.SSO_NAME || 'single sign-on').trim().slice(0, 40);
  return { issuer, clientId, clientSecret, name };
}

function loadS3Config(env: NodeJS.ProcessEnv): S3Config | null {
  const bucket = env.S3_BUCKET || undefined;
  if (!bucket) {
    if (env.S3_SSE_KMS_KEY_ID) throw new ConfigError('S3_SSE_KMS_KEY_ID is set but S3_BUCKET is not');
    return null;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      `S3_BUCKET must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens), got "${bucket}"`,
    );
  }
  const sse = oneOf('S3_SSE', env.S3_SSE, ['AES256', 'aws:kms', 'none'] as const, 'AES256');
  const sseKmsKeyId = env.S3_SSE_KMS_KEY_ID || undefined;
  if (sseKmsKeyId && sse !== 'aws:kms') throw new ConfigError('S3_SSE_KMS_KEY_ID needs S3_SSE=aws:kms');
  const modes = ['WHEN_REQUIRED', 'WHEN_SUPPORTED'] as const;
  return {
    bucket,
    region: env.AWS_REGION || undefined,
    endpoint: url('AWS_ENDPOINT_URL_S3', env.AWS_ENDPOINT_URL_S3),
    forcePathStyle: bool('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, false),
    timeoutMs: int('S3_TIMEOUT_MS', env.S3_TIMEOUT_MS, 10_000, 100, 300_000),
    sse,
    sseKmsKeyId,
    requestChecksumCalculation: oneOf(
      'AWS_REQUEST_CHECKSUM_CALCULATION',
      env.AWS_REQUEST_CHECKSUM_CALCULATION,
      modes,
      'WHEN_REQUIRED',
    ),
    responseChecksumValidation: oneOf(
      'AWS_RESPONSE_CHECKSUM_VALIDATION',
      env.AWS_RESPONSE_CHECKSUM_VALIDATION,
      modes,
      'WHEN_REQUIRED',
    ),
  };
}

/** A scraper's bearer token: long enough that guessing it over the network is hopeless. */
function metricsToken(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (raw.length < 16 || /\s/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  return raw;
}

/** Hosts that mean "every interface" or this machine: the server is reached at localhost there. */
const LOCAL_HOSTS = new Set(['0.0.0.0', '::', '[::]', '127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * http://<host>:<port> of the server itself, PUBLIC_URL's default: http://localhost:<PORT> on every interface or
 * this machine, else the interface it was told to listen on. (It once defaulted to port 3000 whatever PORT said,
 * so with PORT=4000 mail links and the mail preview's logo pointed at a server that was not there.)
 */
export function listenUrl(host: string, port: number): string {
  if (LOCAL_HOSTS.has(host)) return `http://localhost:${port}`;
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** What start-up should warn about: settings that work here but not for customers. Logged by server.ts. */
export function configWarnings(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const warnings: string[] = [];
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    warnings.push(
      `PUBLIC_URL is not set: mail links and the mail preview point to ${config.publicUrl}, where customers ` +
        'cannot reach this server. Set PUBLIC_URL to the address customers use (e.g. https://desk.example.com).',
    );
  }
  return warnings;
}

function masterKey(name: string, raw: string | undefined): Buffer | undefined {
  if (!raw) return undefined;
  const key = parseMasterKey(raw);
  if (!key) {
    throw new ConfigError(
      `${name} must be 32 bytes in base64 (44 characters) or hex (64 digits), e.g. the output of ` +
        '`openssl rand -base64 32`',
    );
  }
  // A random 32-byte key has ~28 distinct bytes; fewer than 16 is a typed or padded one (all zeros, a repeated
  // phrase), which would protect nothing.
  if (new Set(key).size < 16) {
    throw new ConfigError(
      `${name} is not a random key (only ${new Set(key).size} different bytes): make one with \`openssl rand -base64 32\``,
    );
  }
  return key;
}

function loadDataKeys(env: NodeJS.ProcessEnv, databaseUrl: string | undefined) {
  const dataKey = masterKey('DATA_KEY', env.DATA_KEY);
  const dataKeyPrevious = masterKey('DATA_KEY_PREVIOUS', env.DATA_KEY_PREVIOUS);
  if (dataKeyPrevious && !dataKey) throw new ConfigError('DATA_KEY_PREVIOUS is set but DATA_KEY is not');
  if (dataKey && dataKeyPrevious?.equals(dataKey)) {
    throw new ConfigError('DATA_KEY_PREVIOUS is the same key as DATA_KEY: give the key being replaced');
  }
  // A generated key sits in DATA_DIR beside the embedded database: a copy of one is a copy of both.
  if (!dataKey && databaseUrl && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'DATA_KEY is required in production with PostgreSQL: the master key of personal data, 32 bytes in base64 ' +
        '(`openssl rand -base64 32`), kept apart from the database and its backups (docs/DEPLOY.md)',
    );
  }
  return { dataKey, dataKeyPrevious };
}

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
  const staffMfaRoles = parseStaffRoles('STAFF_MFA_ROLES', env.STAFF_MFA_ROLES ?? 'Admin,Manager');
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
  const port = int('PORT', env.PORT, 3000, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const documentsStore = oneOf('DOCUMENTS_STORE', env.DOCUMENTS_STORE, ['local', 's3'] as const, 'local');
  const s3 = loadS3Config(env);
  if (documentsStore === 's3' && !s3) throw new ConfigError('DOCUMENTS_STORE=s3 needs S3_BUCKET');
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    adminEmail,
    adminPassword,
    jwtSecret,
    jwtExpiresIn,
    staffMfaRoles,
    sso: loadSsoConfig(env),
    demoData: bool('DEMO_DATA', env.DEMO_DATA, true),
    demoOrders: int('DEMO_ORDERS', env.DEMO_ORDERS, 2000, 0, 10_000_000),
    urgentTravelHours: int('URGENT_TRAVEL_HOURS', env.URGENT_TRAVEL_HOURS, 72, 1, 24 * 30),
    logLevel,
    trustProxy: bool('TRUST_PROXY', env.TRUST_PROXY, false),
    webDist: env.WEB_DIST || undefined,
    metricsToken: metricsToken(env.METRICS_TOKEN),
    metricsPort: env.METRICS_PORT ? int('METRICS_PORT', env.METRICS_PORT, 0, 1, 65535) : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000),
    loginLimitPerIp: int('LOGIN_LIMIT_PER_IP', env.LOGIN_LIMIT_PER_IP, 30, 1, 100_000),
    loginFailuresPerAccount,
    loginFailuresPerAccountHourly,
    maxUploadMb: int('MAX_UPLOAD_MB', env.MAX_UPLOAD_MB, 10, 1, 100),
    publicUrl: url('PUBLIC_URL', env.PUBLIC_URL, listenUrl(host, port))!,
    trackLimitPerIp: int('TRACK_LIMIT_PER_IP', env.TRACK_LIMIT_PER_IP, 10, 1, 100_000),
    trackLimitPerOrder: int('TRACK_LIMIT_PER_ORDER', env.TRACK_LIMIT_PER_ORDER, 10, 1, 100_000),
    geoipDb: env.GEOIP_DB ? path.resolve(env.GEOIP_DB) : undefined,
    translateWidgetUrl: url('TRANSLATE_WIDGET_URL', env.TRANSLATE_WIDGET_URL),
    mail: loadMailConfig(env),
    intakeRatePerSecond: int('INTAKE_RATE_PER_SECOND', env.INTAKE_RATE_PER_SECOND, 50, 1, 100_000),
    intakeFailuresPerIp: int('INTAKE_FAILURES_PER_IP', env.INTAKE_FAILURES_PER_IP, 20, 1, 100_000),
    payments: loadPaymentsConfig(env),
    documentsStore,
    s3,
    ...loadDataKeys(env, databaseUrl),
    retention: {
      batchSize: int('RETENTION_BATCH_SIZE', env.RETENTION_BATCH_SIZE, 100, 1, 10_000),
      staleAfterMs: int('RETENTION_STALE_SECONDS', env.RETENTION_STALE_SECONDS, 300, 1, 86_400) * 1000,
    },
  };
}
