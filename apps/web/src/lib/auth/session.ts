// The stored user session (spec §3): localStorage key 'user' holding { accessToken }.
// The token's payload is decoded on the client for the user's name and type (role); it is not verified here,
// the server checks it on every call.
import { useMemo, useSyncExternalStore } from 'react';
import type { StaffType } from '@eta/contracts';
import { STAFF_TYPES } from '@eta/contracts/domain';

const STORAGE_KEY = 'user';

export interface StoredUser {
  accessToken: string;
}

export interface SessionUser {
  name: string;
  type: StaffType;
  /** The staff id (the token's `sub`), so a page knows the signed-in person's own row. */
  id?: number;
}

const listeners = new Set<() => void>();

function notify(): void {
  listeners.forEach((listener) => listener());
}

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function parseStoredUser(raw: string | null): StoredUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && 'accessToken' in value) {
      const { accessToken } = value;
      if (typeof accessToken === 'string' && accessToken.length > 0) return { accessToken };
    }
  } catch {
    // A corrupt entry counts as no session.
  }
  return null;
}

export function hasStoredUser(): boolean {
  return parseStoredUser(readRaw()) !== null;
}

export function getAccessToken(): string | null {
  return parseStoredUser(readRaw())?.accessToken ?? null;
}

export function saveStoredUser(user: StoredUser): void {
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  notify();
}

export function removeStoredUser(): void {
  window.localStorage.removeItem(STORAGE_KEY);
  notify();
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function isStaffType(value: unknown): value is StaffType {
  return typeof value === 'string' && (STAFF_TYPES as readonly string[]).includes(value);
}

/** Reads { name, type, id } from a JWT's payload; null when the token is not a readable staff token. */
export function decodeSessionUser(token: string): SessionUser | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(payload));
    if (typeof claims !== 'object' || claims === null) return null;
    const { name, type, sub } = claims as Record<string, unknown>;
    if (typeof name !== 'string' || !isStaffType(type)) return null;
    const id = typeof sub === 'string' && /^\d{1,15}$/.test(sub) ? Number(sub) : undefined;
    return id === undefined ? { name, type } : { name, type, id };
  } catch {
    return null;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Signing out in another tab signs this tab out too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The user of the stored session, re-rendering when the session is saved or removed. */
export function useSessionUser(): SessionUser | null {
  const raw = useSyncExternalStore(subscribe, readRaw, () => null);
  return useMemo(() => {
    const stored = parseStoredUser(raw);
    return stored ? decodeSessionUser(stored.accessToken) : null;
  }, [raw]);
}
