import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

const SECRET = 'unit-test-secret-that-is-long-enough-for-hs256';
const subject = { id: 7, name: 'Tess Team', type: 'Team' as const, passwordChangedAt: new Date(1_700_000_000_000) };

describe('TokenService', () => {
  it('verifies a token it signed, every time, and nothing forged or signed with another secret', async () => {
    const tokens = new TokenService(SECRET, '1h');
    const { token, jti, expiresAt } = await tokens.sign(subject);
    const first = await tokens.verify(token);
    expect(first).toEqual({ staffId: 7, pwv: subject.passwordChangedAt.getTime(), jti, expiresAt });
    expect(await tokens.verify(token)).toEqual(first);
    const [header, payload] = token.split('.');
    expect(await tokens.verify(`${header}.${payload}.${'A'.repeat(43)}`)).toBeNull();
    expect(await new TokenService(`${SECRET}-other`, '1h').verify(token)).toBeNull();
  });

  it('refuses a token once it has expired, even after it was verified before', async () => {
    const tokens = new TokenService(SECRET, '1s');
    const { token } = await tokens.sign(subject);
    expect(await tokens.verify(token)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await tokens.verify(token)).toBeNull();
  });
});
