// Signs a staff member in for a test the way the app does: a stored { accessToken } whose payload names them.
import type { StaffType } from '@eta/contracts';

const base64Url = (value: string): string => btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function makeToken(name: string, type: StaffType): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64Url(JSON.stringify({ sub: '1', name, type, iat: 1_700_000_000, exp: 4_000_000_000 }));
  return `${header}.${payload}.signature`;
}

export function signIn(name: string, type: StaffType): string {
  const token = makeToken(name, type);
  window.localStorage.setItem('user', JSON.stringify({ accessToken: token }));
  return token;
}
