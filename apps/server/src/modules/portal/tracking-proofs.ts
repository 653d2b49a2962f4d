// What the portal hands a customer who proved an order (id AND e-mail), and the one-document download ticket.
// Both are HS256 JWTs under a key derived from the server secret for this purpose alone (HKDF), so neither
// can stand in for a staff session, nor a staff token for them; `aud` keeps a proof and a ticket apart.
import { hkdfSync, webcrypto } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';

/** How long a tracked order stays open in the customer's tab before they must track it again. */
export const PROOF_TTL_SECONDS = 30 * 60;
/** A download link works this long after the download call: the page follows it a second later. */
export const TICKET_TTL_SECONDS = 2 * 60;

const PROOF = 'eta-desk/track-proof';
const TICKET = 'eta-desk/download-ticket';

export interface DownloadTicket {
  orderId: string;
  documentId: number;
  timezone: string | null;
}

export class TrackingProofs {
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    serverSecret: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    const derived = Buffer.from(hkdfSync('sha256', serverSecret, 'eta-desk', 'customer portal proofs', 32));
    this.key = webcrypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  private async sign(audience: string, subject: string, ttlSeconds: number, claims: Record<string, unknown> = {}) {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(await this.key);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  private async verify(audience: string, token: string) {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        audience,
        currentDate: this.now(),
      });
      return payload;
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }

  /** The proof that whoever holds it gave this order's id and e-mail. */
  issueProof(orderId: string): Promise<{ token: string; expiresAt: Date }> {
    return this.sign(PROOF, orderId, PROOF_TTL_SECONDS);
  }

  /** True only for a current proof of exactly this order. */
  async proves(token: string | undefined, orderId: string): Promise<boolean> {
    if (!token) return false;
    const payload = await this.verify(PROOF, token);
    return payload?.sub === orderId;
  }

  async issueTicket(ticket: DownloadTicket): Promise<string> {
    const { token } = await this.sign(TICKET, ticket.orderId, TICKET_TTL_SECONDS, {
      doc: ticket.documentId,
      tz: ticket.timezone,
    });
    return token;
  }

  async readTicket(token: string): Promise<DownloadTicket | null> {
    const payload = await this.verify(TICKET, token);
    if (!payload || typeof payload.sub !== 'string' || typeof payload.doc !== 'number') return null;
    return {
      orderId: payload.sub,
      documentId: payload.doc,
      timezone: typeof payload.tz === 'string' ? payload.tz : null,
    };
  }
}
