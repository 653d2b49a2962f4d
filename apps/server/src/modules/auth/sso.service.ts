// Single sign-on with OpenID Connect (issue 34 item 3), on `openid-client`: an office on Google Workspace or
// Microsoft Entra signs its people in with the accounts it already runs, and its own second factor.
//
// The flow is the authorization code with PKCE (S256), a state and a nonce. `start` keeps the PKCE verifier and the
// nonce in a `sign_in_challenges` row keyed by the SHA-256 of the state (single use, CHALLENGE_MINUTES) and answers
// the provider's address; the console keeps the state in the tab (sessionStorage) and the provider sends the browser
// back to PUBLIC_URL/login/sso, whose page posts the provider's answer with the state it started with. `identify`
// refuses an answer for another state (a sign-in started elsewhere, or forged), an used or expired one, an ID token
// whose nonce, issuer, audience or signature is wrong (openid-client), and an e-mail the provider has not verified.
// Who that e-mail belongs to, and what they may do, is the auth service's business (AuthService.signInWithSso).
import * as oidc from 'openid-client';
import type { Kysely } from 'kysely';
import { CHALLENGE_MINUTES } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import type { SsoConfig } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { outsideRequest } from '../../db/statement-budget.js';
import { writeAudit } from '../audit/audit.repository.js';
import { CHALLENGE_EXPIRED, type SsoIdentity } from './auth.service.js';
import { challengeKey } from './passkey.service.js';
import { findChallenge, insertChallenge, useChallenge } from './sign-in.repository.js';

/** How long a call to the provider may take (discovery, the token exchange, userinfo), in seconds. */
const PROVIDER_TIMEOUT_S = 10;
/** After a failed discovery, the next sign-in tries again (not every request of a burst). */
const RETRY_DISCOVERY_MS = 15_000;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export class SsoService {
  private discovered: Promise<oidc.Configuration> | undefined;
  private failedAt = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: SsoConfig | undefined,
    publicUrl: string,
  ) {
    this.redirectUri = `${publicUrl}/login/sso`;
  }

  /** Where the provider sends the browser back: a page of the console (register it at the provider). */
  readonly redirectUri: string;

  get name(): string | null {
    return this.config?.name ?? null;
  }

  private settings(): SsoConfig {
    if (!this.config) throw new AppError('NOT_FOUND', 'Single sign-on is not set up on this server.');
    return this.config;
  }

  /** The provider's metadata, read once (and again after a failure, at most every RETRY_DISCOVERY_MS). */
  private configuration(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, name } = this.settings();
    if (!this.discovered || (this.failedAt && Date.now() - this.failedAt > RETRY_DISCOVERY_MS)) {
      this.failedAt = 0;
      const url = new URL(issuer);
      // Plain http only for a provider on this machine (a trial, the tests); anywhere else TLS is required.
      const execute = url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? [oidc.allowInsecureRequests] : [];
      this.discovered = oidc
        .discovery(url, clientId, clientSecret, undefined, { execute, timeout: PROVIDER_TIMEOUT_S })
        .catch((err: unknown) => {
          this.failedAt = Date.now();
          throw err;
        });
    }
    return this.discovered.catch(() => {
      throw new AppError(
        'SSO_UNAVAILABLE',
        `${name} cannot be reached just now. Try again in a minute, or sign in with your password.`,
      );
    });
  }

  /** Opens a sign-in: the provider's address to send the browser to, and the state it must come back with. */
  async start(): Promise<{ url: string; state: string }> {
    const configuration = await this.configuration();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await insertChallenge(this.db, {
      id: challengeKey(state),
      staffId: null,
      purpose: 'sso',
      expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
      codeVerifier,
      nonce,
    });
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /**
   * Checks the provider's answer (`callback`: the query string it sent to /login/sso) for the sign-in this browser
   * started (`state`), exchanges its code, and answers who signed in. Each refusal is audited and says what to do.
   */
  async identify(callback: string, state: string, ip: string): Promise<SsoIdentity> {
    const { name } = this.settings();
    const params = new URLSearchParams(callback.replace(/^\?/, ''));
    const refuse = async (reason: string, message: string, email?: string): Promise<never> => {
      await outsideRequest(() =>
        writeAudit(this.db, { id: null, name: null, ip }, [
          { action: 'security.sso-refused', target: email ?? 'single sign-on', after: { reason } },
        ]),
      );
      throw new AppError('SIGN_IN_REFUSED', message);
    };
    if (params.get('state') !== state) {
      return refuse('state', 'This sign-in did not start in this browser tab. Please start again.');
    }
    const row = await findChallenge(this.db, challengeKey(state), 'sso');
    if (!row?.code_verifier || !row.nonce || !(await useChallenge(this.db, row.id))) {
      throw new AppError('CHALLENGE_EXPIRED', CHALLENGE_EXPIRED);
    }
    const error = params.get('error');
    if (error) {
      return refuse(`provider: ${error}`, `${name} did not sign you in (${params.get('error_description') ?? error}).`);
    }
    const configuration = await this.configuration();
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, new URL(`${this.redirectUri}?${params}`), {
        pkceCodeVerifier: row.code_verifier,
        expectedState: state,
        expectedNonce: row.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      // Some providers put the e-mail in userinfo only.
      if (typeof claims.email !== 'string') {
        claims = { ...claims, ...(await oidc.fetchUserInfo(configuration, tokens.access_token, String(claims.sub))) };
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      return refuse(`token: ${(err as Error).message}`, `${name}'s answer could not be confirmed. Please start again.`);
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email) return refuse('no e-mail', `${name} did not tell the desk your e-mail address.`);
    if (claims.email_verified !== true) {
      return refuse(
        'e-mail not verified',
        `${name} has not verified the e-mail ${email}: the desk cannot use it.`,
        email,
      );
    }
    return { email, name: typeof claims.name === 'string' ? claims.name : '' };
  }
}
