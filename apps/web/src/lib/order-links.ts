// Links between an order list and the order detail page (issue 7 "Working a queue"). The list a person opened
// an order from travels in the router's location state: Back returns to that list with its page, size and
// search, and "Next order" walks the ids of that page without going back. Both features use this contract.
// The tab also remembers it for the order last opened (sessionStorage), so a reload of the page keeps Back and
// Next order (issue 22).
import { paths } from '../config/paths';
import { decodeOrderId } from './order-id';

/** The list an order was opened from. */
export interface OrderListOrigin {
  /** The list's URL, path and query (?page=&limit=&q=, ?month=). */
  path: string;
  /** The list's title, for "Back to <title>". */
  title: string;
  /** The order ids of the list page, in the order shown. */
  orderIds: readonly string[];
}

/** Router location state of /admin/view-order/… when opened from a list. */
export interface OrderLinkState {
  fromList: OrderListOrigin;
}

/** Server-side order ids are at most this long (contracts' OrderDetailsParams). */
const MAX_ORDER_ID_LENGTH = 64;

/** /admin/view-order/{base64url of the order id} (DESIGN §4). */
export const orderDetailPath = (orderId: string): string => paths.viewOrder.build(orderId);

/**
 * The order id in a detail route, or null when the segment is not base64url or does not decode to something an
 * order id could be (a person edited the URL): such a page shows "Order not found" without asking the server.
 */
export function decodeOrderParam(encoded: string | undefined): string | null {
  const orderId = decodeOrderId(encoded ?? '')?.trim();
  if (!orderId || orderId.length > MAX_ORDER_ID_LENGTH || /\p{Cc}/u.test(orderId)) return null;
  return orderId;
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The origin list in a location's state; null when the page was not opened from a list (a typed URL, a reload). */
export function readOrderLinkState(state: unknown): OrderListOrigin | null {
  if (typeof state !== 'object' || state === null || !('fromList' in state)) return null;
  const origin = (state as { fromList: unknown }).fromList;
  if (typeof origin !== 'object' || origin === null) return null;
  const { path, title, orderIds } = origin as Record<string, unknown>;
  if (!isString(path) || !path.startsWith('/admin') || !isString(title)) return null;
  if (!Array.isArray(orderIds) || !orderIds.every(isString)) return null;
  return { path, title, orderIds };
}

/** Where the tab keeps the list its last opened order came from: one entry, so it never grows. */
const REMEMBERED_ORIGIN_KEY = 'eta.orderOrigin';

/** Remembers, for this tab, the list `orderId` was opened from. */
export function rememberOrderOrigin(orderId: string, origin: OrderListOrigin): void {
  try {
    window.sessionStorage.setItem(
      REMEMBERED_ORIGIN_KEY,
      JSON.stringify({ orderId: orderId.toUpperCase(), fromList: origin }),
    );
  } catch {
    // Storage refused (private mode, full): a reload then offers the plain Back.
  }
}

/** The list `orderId` was opened from in this tab, when it is the order last opened from a list; else null. */
export function recallOrderOrigin(orderId: string): OrderListOrigin | null {
  let saved: unknown;
  try {
    saved = JSON.parse(window.sessionStorage.getItem(REMEMBERED_ORIGIN_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (typeof saved !== 'object' || saved === null) return null;
  if ((saved as { orderId?: unknown }).orderId !== orderId.toUpperCase()) return null;
  return readOrderLinkState(saved);
}

/** The order after `orderId` on the origin list's page; null when it is the last one or not on that page. */
export function nextOrderId(origin: OrderListOrigin | null, orderId: string): string | null {
  if (!origin) return null;
  const key = orderId.toUpperCase();
  const index = origin.orderIds.findIndex((id) => id.toUpperCase() === key);
  return index >= 0 ? (origin.orderIds[index + 1] ?? null) : null;
}
