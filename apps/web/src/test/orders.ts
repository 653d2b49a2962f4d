// Order list, folder count and queue settings fixtures shaped like the server's answers (contracts OrderListRow /
// OrderListPage, FolderCounts, QueueSettings).
import type { FolderCounts, OrderListRow, QueueSettings } from '@eta/contracts';
import { FOLDER_COUNT_KEYS } from '@eta/contracts/domain';
import { ok, type RecordedCall, type StubReply } from './api-stub';

/** Every count different (1 to 14), so a count shown in the wrong place is noticed. */
export const FOLDER_COUNTS = Object.fromEntries(
  FOLDER_COUNT_KEYS.map((key, index) => [key, index + 1]),
) as FolderCounts;

export const isFolderCountCall = (call: RecordedCall): boolean =>
  call.method === 'GET' && call.path === '/api/admin/get-folder-count';

export function orderRow(overrides: Partial<OrderListRow> = {}): OrderListRow {
  return {
    order_id: 'ETA-200020076',
    process_status: 'New',
    passport_first_name: 'Maria',
    passport_surname: 'Lopez',
    email: 'maria@example.com',
    telephone_number: '6045550100',
    country_code: '1',
    create_ts: '2024-03-05T23:04:09.000Z',
    refund_date: null,
    processing_date: null,
    process_month: null,
    processing_type: 'Standard',
    assign_to: '',
    version: 1,
    travel_at: null,
    urgent: false,
    status_since: '2024-03-05T23:04:09.000Z',
    overdue_since: null,
    ...overrides,
  };
}

export function listPage(rows: OrderListRow[], { total = rows.length, page = 1, limit = 10 } = {}): StubReply {
  return ok({ rows, total, page, limit });
}

export const isListCall = (call: RecordedCall, queue: string): boolean =>
  call.method === 'GET' && call.path === `/api/admin/get-orders-list/${queue}`;

export const HOUR_MS = 3_600_000;
/** An ISO time this many hours from now (negative: ago). */
export const hoursFromNow = (hours: number): string => new Date(Date.now() + hours * HOUR_MS).toISOString();

export const isQueueSettingsCall = (call: RecordedCall): boolean =>
  call.method === 'GET' && call.path === '/api/admin/queue-settings';

/** The server's defaults: no queue sorted urgent first, 72 h, Priority 2 h, Standard and Future 24 h. */
export function queueSettings(overrides: Partial<QueueSettings> = {}): QueueSettings {
  return {
    urgentFirstQueues: [],
    urgentTravelHours: 72,
    targets: { Standard: 1440, Priority: 120, Future: 1440 },
    ...overrides,
  };
}
