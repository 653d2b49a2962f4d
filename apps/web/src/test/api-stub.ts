// A stand-in for the server: stubs global fetch and records every call the browser makes.
import { vi } from 'vitest';

export interface RecordedCall {
  url: string;
  method: string;
  /** Path and query, e.g. '/api/admin/get-orders-list/newOrder?page=1&limit=10'. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** A JSON body, parsed. */
  body: unknown;
  /** A multipart body, as the browser would send it. */
  form?: FormData;
}

export interface StubReply {
  status?: number;
  body: unknown;
  /** A non-JSON answer (a PDF): sent as it is with this content type instead of `body`. */
  raw?: { content: string; contentType: string };
  headers?: Record<string, string>;
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
      form: init.body instanceof FormData ? init.body : undefined,
    };
    calls.push(call);
    const reply = handler(call) ?? {
      status: 404,
      body: { status: 0, message: `No stub for ${call.method} ${call.path}` },
    };
    return Promise.resolve(
      new Response(reply.raw ? reply.raw.content : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'Content-Type': reply.raw ? reply.raw.contentType : 'application/json', ...reply.headers },
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
