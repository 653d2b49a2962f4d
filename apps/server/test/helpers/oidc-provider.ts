// A loopback stand-in of an OpenID Connect provider, built on the real `oidc-provider` (so discovery, PKCE, state,
// nonce, signed ID tokens and client authentication are the real thing), for the desk as a relying party. One
// confidential client; no login or consent pages: the provider's interaction finishes at once as the account a test
// chose with signInAs, granting openid email profile. API tests follow the redirects with authorize(); browser tests
// simply let the browser follow them.
import { generateKeyPair, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Adapter, AdapterPayload, ClientMetadata, default as Provider, JWK } from 'oidc-provider';

export interface OidcAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface OidcStandIn {
  /** http://127.0.0.1:<port> (no trailing slash) — discovery works at issuer + '/.well-known/openid-configuration'. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The redirect URIs the client may use. Call it once the desk's port is known and before the first authorization;
   * calling it again replaces them (the client is read afresh on every request).
   */
  setRedirectUris(uris: string[]): void;
  /**
   * The account the next authorizations complete as: there is no login page; the provider's interaction finishes at
   * once as this account with every requested scope/claim granted (openid email profile). Signing in as another
   * `sub` ends the provider's sessions of other accounts, so a browser that signed in before goes through the
   * interaction again instead of silently continuing as the earlier account (which also voids their unredeemed codes).
   * Until it is called, authorizations end with error=access_denied.
   */
  signInAs(account: OidcAccount): void;
  /**
   * For API tests without a browser: follows an authorization URL through the provider (keeping the provider's
   * cookies across the redirects) until a redirect points at one of the redirect URIs, and returns that URL (with
   * code and state, or error). Each call starts without cookies, like a fresh browser.
   */
  authorize(url: string): Promise<URL>;
  /** Errors the provider hit while answering (its server_error events): the relying party sees only "server_error". */
  serverErrors: Error[];
  close(): Promise<void>;
}

const SCOPE = 'openid email profile';
const INTERACTION_PATH = '/interaction/';

let loading: Promise<typeof Provider> | undefined;

/**
 * oidc-provider warns on import that it wants Node 22+; it runs on Node 20.19 and the notice would be printed once
 * per test worker, so that one line (and nothing else) is held back while the module loads.
 */
function loadProvider(): Promise<typeof Provider> {
  loading ??= (async () => {
    /* eslint-disable no-console -- a narrow filter around the import, restored right after */
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
      warn.apply(console, args);
    };
    try {
      return (await import('oidc-provider')).default;
    } finally {
      console.warn = warn;
    }
    /* eslint-enable no-console */
  })();
  return loading;
}

const epoch = () => Math.floor(Date.now() / 1000);

/**
 * The provider's storage, in memory. oidc-provider has a memory adapter of its own, but it warns on every start; this
 * one also lets signInAs end sessions and serves the client from setRedirectUris.
 */
function memoryStorage(client: () => AdapterPayload | undefined) {
  const models = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();
  const storeOf = (model: string) => {
    let store = models.get(model);
    if (!store) models.set(model, (store = new Map()));
    return store;
  };
  const live = (store: Map<string, { payload: AdapterPayload; expiresAt: number }>) =>
    [...store.entries()].filter(([, entry]) => entry.expiresAt > Date.now());

  const adapter = (model: string): Adapter => {
    const store = storeOf(model);
    const find = (id: string) => live(store).find(([key]) => key === id)?.[1].payload;
    return {
      upsert: async (id, payload, expiresIn) => {
        store.set(id, { payload, expiresAt: expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000 });
      },
      // The client is not a static one so that setRedirectUris can change it after the provider has started.
      find: async (id) => (model === 'Client' ? (client()?.client_id === id ? client() : undefined) : find(id)),
      findByUid: async (uid) => live(store).find(([, entry]) => entry.payload.uid === uid)?.[1].payload,
      findByUserCode: async (userCode) =>
        live(store).find(([, entry]) => entry.payload.userCode === userCode)?.[1].payload,
      consume: async (id) => {
        const payload = find(id);
        if (payload) payload.consumed = epoch();
      },
      destroy: async (id) => {
        store.delete(id);
      },
      revokeByGrantId: async (grantId) => {
        for (const other of models.values()) {
          for (const [id, entry] of other) if (entry.payload.grantId === grantId) other.delete(id);
        }
      },
    };
  };
  /** Ends the sessions of every account but this one. */
  const endSessionsExcept = (accountId: string) => {
    const sessions = storeOf('Session');
    for (const [id, entry] of sessions) if (entry.payload.accountId !== accountId) sessions.delete(id);
  };
  return { adapter, endSessionsExcept };
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startOidcProvider(): Promise<OidcStandIn> {
  const ProviderClass = await loadProvider();
  const clientId = `desk-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  let redirectUris: string[] = [];
  let current: OidcAccount | undefined;
  const accounts = new Map<string, OidcAccount>();
  const serverErrors: Error[] = [];

  const clientMetadata: () => ClientMetadata | undefined = () =>
    redirectUris.length === 0
      ? undefined
      : {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          // oidc-provider accepts client_secret_post too for a client registered with client_secret_basic (the
          // secret is the same); openid-client uses client_secret_post unless told otherwise.
          token_endpoint_auth_method: 'client_secret_basic',
        };
  const storage = memoryStorage(clientMetadata);

  // An RS256 signing key of our own: without one, oidc-provider warns and uses development keys.
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'stand-in', alg: 'RS256', use: 'sig' } as JWK;

  // The issuer names the port, so the server listens first and gets its handler once the provider exists.
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /**
   * The interaction has no page: it signs in as the current account and grants what the client asked for. When the
   * provider asks for consent after a login, it comes back here and the same answer covers that too.
   */
  async function finishInteraction(op: Provider, req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await op.interactionDetails(req, res);
    if (!current) {
      await op.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'the OIDC stand-in has no account: call signInAs first' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = current.sub;
    const grant = details.grantId
      ? ((await op.Grant.find(details.grantId)) ?? new op.Grant({ accountId, clientId }))
      : new op.Grant({ accountId, clientId });
    const asked = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    const requested = typeof details.params.scope === 'string' ? details.params.scope : '';
    grant.addOIDCScope([...new Set([...SCOPE.split(' '), ...requested.split(' ').filter(Boolean)])]);
    grant.addOIDCScope(asked.missingOIDCScope ?? []);
    grant.addOIDCClaims(asked.missingOIDCClaims ?? []);
    const grantId = await grant.save();
    await op.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  const provider = new ProviderClass(issuer, {
    adapter: storage.adapter,
    jwks: { keys: [signingKey] },
    // Signed cookies need keys; they work over plain http (oidc-provider sets Secure only on https requests).
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // With an access token issued, OIDC puts scope-requested claims only in userinfo; the desk reads them from the ID
    // token (tokens.claims()), so the ID token carries them too.
    conformIdTokenClaims: false,
    // oidc-provider requires PKCE only for public clients by default; the desk must always send it.
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified,
          ...(account.name === undefined ? {} : { name: account.name }),
        }),
      };
    },
    // Errors as JSON rather than oidc-provider's HTML page (which would also print a notice).
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
    // Explicit lifetimes: the defaults print a notice each time they are used.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  provider.on('server_error', (_ctx, error: Error) => serverErrors.push(error));
  const handle = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === 'GET' && req.url?.startsWith(INTERACTION_PATH)) {
      finishInteraction(provider, req, res).catch((error: unknown) => {
        serverErrors.push(error instanceof Error ? error : new Error(String(error)));
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    } else {
      void handle(req, res);
    }
  });

  const isRedirectUri = (url: URL) =>
    redirectUris.some((uri) => `${url.origin}${url.pathname}` === uri.split(/[?#]/)[0]);

  return {
    issuer,
    clientId,
    clientSecret,
    serverErrors,
    setRedirectUris(uris) {
      redirectUris = [...uris];
    },
    signInAs(account) {
      accounts.set(account.sub, { ...account });
      current = { ...account };
      storage.endSessionsExcept(account.sub);
    },
    async authorize(url) {
      const cookies = new Map<string, string>();
      let next = new URL(url);
      for (let hop = 0; hop < 10; hop++) {
        if (isRedirectUri(next)) return next;
        if (next.origin !== issuer) throw new Error(`authorize: redirected away from the provider to ${next.href}`);
        const response = await fetch(next, {
          redirect: 'manual',
          headers: cookies.size ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {},
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
          const at = pair.indexOf('=');
          const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
          // A cleared cookie comes back empty and already expired.
          const expired = attributes.some((attribute) => {
            const [key = '', val = ''] = attribute.split('=');
            if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
            return key.toLowerCase() === 'expires' && Date.parse(val) <= Date.now();
          });
          if (expired || value === '') cookies.delete(name);
          else cookies.set(name, value);
        }
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || !location) {
          throw new Error(`authorize: ${next.pathname} answered ${response.status}: ${await response.text()}`);
        }
        await response.body?.cancel();
        next = new URL(location, next);
      }
      throw new Error('authorize: too many redirects');
    },
    async close() {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // Keep-alive connections (fetch's, a browser's) would hold close() open.
      server.closeAllConnections();
      await closed;
    },
  };
}
