// Who may see what in the console (spec §6), in one table. The server enforces the same rules;
// these only decide what is shown.
import type { StaffType } from '@eta/contracts';

const EVERYONE: readonly StaffType[] = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'];
const except = (...hidden: StaffType[]): readonly StaffType[] => EVERYONE.filter((role) => !hidden.includes(role));

export const PERMISSIONS = {
  viewOrderHistory: except('Telecaller'),
  manageTeam: except('Night Staff'),
  viewProcessedOrders: ['Admin'],
  changeGateway: except('Night Staff'),
  changePassword: except('Night Staff'),
  deleteOrders: ['Admin', 'Manager'],
  /** In the My Orders view only Admin sees Delete. */
  deleteOwnQueueOrders: ['Admin'],
} as const satisfies Record<string, readonly StaffType[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: StaffType, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly StaffType[]).includes(role);
}
