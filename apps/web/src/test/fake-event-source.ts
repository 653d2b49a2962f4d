// A stand-in for the browser's EventSource (jsdom has none): records every stream the app opens and lets a test
// play the server's side of it (open, send an event, fail).
import { act } from '@testing-library/react';
import { vi } from 'vitest';

export class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];

  readonly url: string;
  isClosed = false;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeEventSource.instances.push(this);
  }

  /** The ticket the stream was opened with. */
  get ticket(): string | null {
    return new URL(this.url, 'http://localhost').searchParams.get('ticket');
  }

  close(): void {
    this.isClosed = true;
  }

  open(): void {
    this.onopen?.(new Event('open'));
  }

  send(name: string, data: unknown): void {
    this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify(data) }));
  }

  fail(): void {
    this.onerror?.(new Event('error'));
  }
}

/** Installs the stand-in for this test (vitest unstubs globals after each test); returns the streams opened. */
export function stubEventSource(): FakeEventSource[] {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return FakeEventSource.instances;
}

/** The one stream still open, once the app has opened it. */
export function openStream(): FakeEventSource {
  const open = FakeEventSource.instances.filter((source) => !source.isClosed);
  if (open.length !== 1) throw new Error(`Expected one open stream, found ${open.length}`);
  return open[0]!;
}

/** Plays a server event into the app, as React would see it arrive. */
export function sendEvent(name: string, data: unknown): void {
  act(() => openStream().send(name, data));
}

/** The ticket call's answer, numbered so each stream's ticket is told apart. */
export function ticketReply(serial: number) {
  return { body: { status: 1, message: 'OK', data: { ticket: `ticket-${serial}`, expiresInSeconds: 30 } } };
}
