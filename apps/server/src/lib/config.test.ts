import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      demoData: true,
      jwtExpiresIn: '12h',
      intakeRatePerSecond: 50,
      intakeFailuresPerIp: 20,
    });
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
    [{ MAX_UPLOAD_MB: '0' }, /MAX_UPLOAD_MB must be a whole number from 1 to 100/],
    [{ PUBLIC_URL: 'portal.example' }, /PUBLIC_URL must be an http/],
    [{ MAIL_FROM: 'Desk <not an address>' }, /MAIL_FROM/],
    [{ MAIL_MAX_ATTEMPTS: '0' }, /MAIL_MAX_ATTEMPTS/],
    [{ AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIA1' }, /must be set together/],
    [{ AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 's' }, /AWS_REGION is not/],
    [{ AWS_ENDPOINT_URL_SESV2: 'ftp://ses' }, /AWS_ENDPOINT_URL_SESV2/],
    [{ SENDGRID_API_KEY: 'not-a-key' }, /SENDGRID_API_KEY must start with "SG."/],
    [{ SENDGRID_API_KEY: 'SG.x', SENDGRID_API_URL: 'sendgrid' }, /SENDGRID_API_URL/],
    [{ INTAKE_RATE_PER_SECOND: '0' }, /INTAKE_RATE_PER_SECOND must be a whole number from 1/],
    [{ INTAKE_FAILURES_PER_IP: 'many' }, /INTAKE_FAILURES_PER_IP/],
    [{ DOCUMENTS_STORE: 's3' }, /DOCUMENTS_STORE=s3 needs S3_BUCKET/],
    [{ DOCUMENTS_STORE: 'gcs' }, /DOCUMENTS_STORE must be one of local, s3, got "gcs"/],
    [{ S3_BUCKET: 'Eta_Documents' }, /S3_BUCKET must be a bucket name/],
    [{ S3_BUCKET: 'eta-docs', S3_SSE: 'aes256' }, /S3_SSE must be one of AES256, aws:kms, none/],
    [{ S3_BUCKET: 'eta-docs', S3_SSE_KMS_KEY_ID: 'alias/eta' }, /S3_SSE_KMS_KEY_ID needs S3_SSE=aws:kms/],
    [{ S3_BUCKET: 'eta-docs', S3_TIMEOUT_MS: '50' }, /S3_TIMEOUT_MS must be a whole number from 100 to 300000/],
    [{ S3_SSE_KMS_KEY_ID: 'alias/eta' }, /S3_SSE_KMS_KEY_ID is set but S3_BUCKET is not/],
    [{ S3_BUCKET: 'eta-docs', S3_FORCE_PATH_STYLE: 'sometimes' }, /S3_FORCE_PATH_STYLE must be true or false/],
    [{ S3_BUCKET: 'eta-docs', AWS_ENDPOINT_URL_S3: 'minio:9000' }, /AWS_ENDPOINT_URL_S3 must be an http/],
    [{ S3_BUCKET: 'eta-docs', AWS_REQUEST_CHECKSUM_CALCULATION: 'always' }, /AWS_REQUEST_CHECKSUM_CALCULATION/],
  ])('stops on %j with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('asks Admin and Manager for a second factor unless STAFF_MFA_ROLES says otherwise (issue 34)', () => {
    expect(loadConfig({}).staffMfaRoles).toEqual(['Admin', 'Manager']);
    expect(loadConfig({ STAFF_MFA_ROLES: '' }).staffMfaRoles).toEqual([]);
    expect(loadConfig({ STAFF_MFA_ROLES: ' Admin , Night Staff,Admin' }).staffMfaRoles).toEqual([
      'Admin',
      'Night Staff',
    ]);
    expect(() => loadConfig({ STAFF_MFA_ROLES: 'Admin,Owner' })).toThrow(
      new ConfigError(
        'STAFF_MFA_ROLES names "Owner", which is not a role (Admin, Manager, Team, Telecaller, Night Staff)',
      ),
    );
  });

  it('offers single sign-on only with an issuer, a client id and a secret; the issuer kept as written (issue 34)', () => {
    expect(loadConfig({}).sso).toBeUndefined();
    const issuer = 'https://login.microsoftonline.com/tenant/v2.0/';
    expect(
      loadConfig({ SSO_ISSUER: issuer, SSO_CLIENT_ID: 'desk', SSO_CLIENT_SECRET: 's3cret', SSO_NAME: 'Microsoft' }).sso,
    ).toEqual({ issuer, clientId: 'desk', clientSecret: 's3cret', name: 'Microsoft' });
    expect(() => loadConfig({ SSO_ISSUER: issuer, SSO_CLIENT_ID: 'desk' })).toThrow(/SSO_CLIENT_SECRET/);
    expect(() => loadConfig({ SSO_CLIENT_ID: 'desk' })).toThrow(/SSO_ISSUER is not/);
    expect(() => loadConfig({ SSO_ISSUER: 'accounts.google.com', SSO_CLIENT_ID: 'a', SSO_CLIENT_SECRET: 'b' })).toThrow(
      /SSO_ISSUER must be an http/,
    );
  });

  it('points PUBLIC_URL, when unset, at the address the server listens on (issue 22)', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '4000', HOST: '127.0.0.1' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '4000', HOST: '::' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '8080', HOST: '10.0.0.5' }).publicUrl).toBe('http://10.0.0.5:8080');
    expect(loadConfig({ PORT: '8080', HOST: 'fd00::5' }).publicUrl).toBe('http://[fd00::5]:8080');
    expect(loadConfig({ PORT: '4000', PUBLIC_URL: 'https://desk.example.com' }).publicUrl).toBe(
      'https://desk.example.com',
    );
  });

  it('warns at start-up in production when PUBLIC_URL is not set, naming the address links would use', () => {
    const production = { NODE_ENV: 'production', PORT: '4000' };
    const [warning, ...more] = configWarnings(loadConfig(production), production);
    expect(warning).toMatch(/^PUBLIC_URL is not set: mail links .* point to http:\/\/localhost:4000,/);
    expect(more).toEqual([]);
    const set = { ...production, PUBLIC_URL: 'https://desk.example.com' };
    expect(configWarnings(loadConfig(set), set)).toEqual([]);
    expect(configWarnings(loadConfig({ PORT: '4000' }), { PORT: '4000' })).toEqual([]);
  });

  it('reads the mail settings; a provider is configured only with its credentials', () => {
    expect(loadConfig({}).mail).toMatchObject({ aws: null, sendgrid: null, maxAttempts: 5, worker: true });
    expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
    const c = loadConfig({
      MAX_UPLOAD_MB: '25',
      PUBLIC_URL: 'https://portal.example/',
      MAIL_FROM: 'Desk <desk@example.com>',
      MAIL_MAX_ATTEMPTS: '8',
      MAIL_WORKER: 'false',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_ENDPOINT_URL_SESV2: 'http://127.0.0.1:4566',
      SENDGRID_API_KEY: 'SG.key',
    });
    expect(c).toMatchObject({ maxUploadMb: 25, publicUrl: 'https://portal.example' });
    expect(c.mail).toMatchObject({
      from: 'Desk <desk@example.com>',
      maxAttempts: 8,
      worker: false,
      aws: {
        region: 'eu-west-1',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'secret',
        endpoint: 'http://127.0.0.1:4566',
      },
      sendgrid: { apiKey: 'SG.key', apiUrl: 'https://api.sendgrid.com' },
    });
  });

  it('keeps documents locally by default, and in the S3 bucket with DOCUMENTS_STORE=s3 (issue 23)', () => {
    expect(loadConfig({})).toMatchObject({ documentsStore: 'local', s3: null });
    // The bucket is read with the local store too: documents:migrate copies into it before the switch.
    expect(loadConfig({ S3_BUCKET: 'eta-docs' })).toMatchObject({
      documentsStore: 'local',
      s3: {
        bucket: 'eta-docs',
        region: undefined,
        endpoint: undefined,
        forcePathStyle: false,
        sse: 'AES256',
        sseKmsKeyId: undefined,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        timeoutMs: 10_000,
      },
    });
    expect(
      loadConfig({
        DOCUMENTS_STORE: 's3',
        S3_BUCKET: 'eta-docs',
        AWS_REGION: 'ca-central-1',
        AWS_ENDPOINT_URL_S3: 'http://minio:9000/',
        S3_FORCE_PATH_STYLE: 'true',
        S3_SSE: 'aws:kms',
        S3_SSE_KMS_KEY_ID: 'alias/eta',
        AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_SUPPORTED',
        AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_SUPPORTED',
        S3_TIMEOUT_MS: '2500',
      }),
    ).toMatchObject({
      documentsStore: 's3',
      s3: {
        bucket: 'eta-docs',
        region: 'ca-central-1',
        endpoint: 'http://minio:9000',
        forcePathStyle: true,
        sse: 'aws:kms',
        sseKmsKeyId: 'alias/eta',
        requestChecksumCalculation: 'WHEN_SUPPORTED',
        responseChecksumValidation: 'WHEN_SUPPORTED',
        timeoutMs: 2_500,
      },
    });
  });

  it('keeps metrics off by default and reads their token, port and the shutdown bound (issue 23)', () => {
    expect(loadConfig({})).toMatchObject({
      metricsToken: undefined,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      shutdownTimeoutMs: 10_000,
    });
    expect(
      loadConfig({
        METRICS_TOKEN: 'a-scraper-token-long-enough',
        METRICS_PORT: '9100',
        METRICS_HOST: '0.0.0.0',
        SHUTDOWN_TIMEOUT_MS: '20000',
      }),
    ).toMatchObject({
      metricsToken: 'a-scraper-token-long-enough',
      metricsPort: 9100,
      metricsHost: '0.0.0.0',
      shutdownTimeoutMs: 20_000,
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_PORT: '0' })).toThrow(/METRICS_PORT must be a whole number from 1/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it('reads the master key of personal data, refuses a malformed one, and requires it in production (issue 24)', () => {
    const key = randomBytes(32);
    expect(loadConfig({})).toMatchObject({ dataKey: undefined, dataKeyPrevious: undefined });
    expect(loadConfig({ DATA_KEY: key.toString('base64') }).dataKey).toEqual(key);
    expect(loadConfig({ DATA_KEY: key.toString('hex') }).dataKey).toEqual(key);
    expect(() => loadConfig({ DATA_KEY: 'not-a-key' })).toThrow(/DATA_KEY must be 32 bytes in base64/);
    expect(() => loadConfig({ DATA_KEY: Buffer.alloc(32).toString('base64') })).toThrow(
      /DATA_KEY is not a random key \(only 1 different bytes\)/,
    );
    expect(() => loadConfig({ DATA_KEY: 'ab'.repeat(32) })).toThrow(/not a random key/);
    expect(() => loadConfig({ DATA_KEY_PREVIOUS: key.toString('base64') })).toThrow(
      'DATA_KEY_PREVIOUS is set but DATA_KEY is not',
    );
    expect(() => loadConfig({ DATA_KEY: key.toString('base64'), DATA_KEY_PREVIOUS: key.toString('hex') })).toThrow(
      /the same key as DATA_KEY/,
    );
    // A generated key would sit beside the data it protects: production on PostgreSQL must name one.
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      /DATA_KEY is required in production with PostgreSQL/,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db', DATA_KEY: key.toString('base64') })
        .dataKey,
    ).toEqual(key);
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
