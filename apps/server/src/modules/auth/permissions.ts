// Who may call what: ONE table, route → allowed staff types ('public' = no sign-in). The guard in
// plugins/auth.ts denies any /api route missing here, and a test walks every registered route against it.
import { STAFF_TYPES, type StaffType } from '@eta/contracts';

export type Permission = 'public' | readonly StaffType[];

const ALL_STAFF = STAFF_TYPES;
const MANAGERS: readonly StaffType[] = ['Admin', 'Manager'];

export const PERMISSIONS: Record<string, Permission> = {
  'GET /api/health': 'public',
  // The OpenAPI document and its viewer describe the public contract; no data behind them.
  'GET /api/docs*': 'public',
  'POST /api/admin/admin-login': 'public',
  'GET /api/user_info': ALL_STAFF,
  'POST /api/admin/change-password': ['Admin', 'Manager', 'Team', 'Telecaller'],
  'GET /api/admin/get-folder-count': ALL_STAFF,

  'GET /api/admin/get-orders-list/:orderName': ALL_STAFF,
  'POST /api/admin/search-order': ALL_STAFF,
  'PUT /api/admin/assign-order-status': ALL_STAFF,
  'PUT /api/admin/change-order-status': ALL_STAFF,
  'PUT /api/admin/move-to-complete-refund': ALL_STAFF,
  'GET /api/admin/future-order-counts': ALL_STAFF,

  'GET /api/front/landing-sites/:key': 'public',
};

/** Finer rules inside a route, kept beside the table so all of who-may-do-what reads in one place. */
export const ACTION_RULES = {
  /** Soft delete (status Deleted): spec §6 "Delete Order ... shown to Manager and Admin only". */
  deleteOrders: MANAGERS,
  /** Restoring a Deleted order (to New): DESIGN §3. */
  restoreDeleted: ['Admin'] as readonly StaffType[],
  /** Giving orders to someone else than yourself. */
  assignToOthers: MANAGERS,
} as const;

const PREFIXES = Object.entries(PERMISSIONS)
  .filter(([key]) => key.endsWith('*'))
  .map(([key, permission]) => [key.slice(0, -1), permission] as const);

/** The permission for a route ("METHOD /url" as registered), exact entries first, then "prefix*" entries. */
export function permissionFor(method: string, url: string): Permission | undefined {
  const key = `${method} ${url}`;
  return PERMISSIONS[key] ?? PREFIXES.find(([prefix]) => key.startsWith(prefix))?.[1];
}

export const isAllowed = (permission: Permission | undefined, type: StaffType | undefined): boolean =>
  permission === 'public' || (permission !== undefined && type !== undefined && permission.includes(type));
