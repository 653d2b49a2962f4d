// Tickets for the live desk's stream: EventSource cannot send an Authorization header, so a browser first trades
// its staff token for a ticket (POST /api/admin/events/ticket) and opens the stream with ?ticket=. A ticket is a
// JWT signed with a key of its own (it never passes as a staff token, nor one as a ticket), valid 30 s, bound to
// the member and the session it came from, and used once in any process (its jti kept in revoked_sessions), so a
// ticket seen in a log or a proxy's access line is worth nothing.
import { createHash, randomUUID, webcrypto } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { EventsTicket } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { Session } from '../auth/auth.service.js';
import { findSessionStaff } from '../staff/staff.repository.js';
import { useTicketOnce } from './live-desk.repository.js';

export const TICKET_SECONDS = 30;
const AUDIENCE = 'eta-live-desk';
const INVALID = 'This stream ticket is not valid (used, expired or unknown). Ask for a new one.';

export class EventTickets {
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    private readonly db: Kysely<DB>,
    secret: string,
  ) {
    // Derived from the desk's secret, so no new setting is needed and staff tokens cannot be replayed as tickets.
    const derived = createHash('sha256').update(`eta-live-desk-ticket\0${secret}`).digest();
    this.key = webcrypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async issue(session: Session): Promise<EventsTicket> {
    const ticket = await new SignJWT({
      sid: session.token.jti,
      pwv: session.token.pwv,
      sexp: Math.floor(session.token.expiresAt.getTime() / 1000),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(AUDIENCE)
      .setSubject(String(session.staff.id))
      .setJti(randomUUID())
      .setExpirationTime(`${TICKET_SECONDS}s`)
      .sign(await this.key);
    return { ticket, expiresInSeconds: TICKET_SECONDS };
  }

  /** The session a ticket stands for, if the ticket is genuine, unexpired, unused and its session still counts. */
  async redeem(ticket: string): Promise<Session> {
    const claims = await this.verify(ticket);
    if (!claims) throw new AppError('UNAUTHORIZED', INVALID);
    const first = await useTicketOnce(this.db, {
      jti: claims.jti,
      staffId: claims.staffId,
      expiresAt: new Date(claims.exp * 1000),
    });
    if (!first) throw new AppError('UNAUTHORIZED', INVALID);
    // Read fresh: a logout, password change or deactivation since the ticket was issued refuses it.
    const row = await findSessionStaff(this.db, claims.staffId);
    if (!row || !row.active || row.password_changed_at.getTime() !== claims.pwv || !row.open.includes(claims.sid)) {
      throw new AppError('UNAUTHORIZED', INVALID);
    }
    const { open: _open, ...staff } = row;
    return {
      staff,
      token: { staffId: staff.id, pwv: claims.pwv, jti: claims.sid, expiresAt: new Date(claims.sexp * 1000) },
    };
  }

  private async verify(ticket: string) {
    try {
      const { payload } = await jwtVerify(ticket, await this.key, { algorithms: ['HS256'], audience: AUDIENCE });
      const staffId = Number(payload.sub);
      const { jti, exp, sid, pwv, sexp } = payload;
      if (
        !Number.isInteger(staffId) ||
        typeof jti !== 'string' ||
        typeof exp !== 'number' ||
        typeof sid !== 'string' ||
        typeof pwv !== 'number' ||
        typeof sexp !== 'number'
      ) {
        return null;
      }
      return { staffId, jti, exp, sid, pwv, sexp };
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
