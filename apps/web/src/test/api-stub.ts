// A stand-in for the server: stubs global fetch and records every call the browser makes.
import { vi } from 'vitest';

export interface RecordedCall {
  url: string;
  method: string;
  /** Path and query, e.g. '/api/admin/get-orders-list/newOrder?page=1&limit=10'. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export interface StubReply {
  status?: number;
  body: unknown;
}

export type StubHandler = (call: RecordedCall) => StubReply | undefined;

export function stubApi(handler: StubHandler) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url, 'http://localhost');
    const call: RecordedCall = {
      url,
      method: init.method ?? 'GET',
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const reply = handler(call) ?? {
      status: 404,
      body: { status: 0, message: `No stub for ${call.method} ${call.path}` },
    };
    return Promise.resolve(
      new Response(JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    calls,
    callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}

export const ok = <T>(data: T, message = 'OK'): StubReply => ({ body: { status: 1, message, data } });
