// What the payment tests read of the desk, the same for every gateway: the folder counts, an order's row, its
// timeline remarks and disputes, the gateways' health, and "Refunded it" as an Admin clicks it.
import { withVersions } from './orders.js';
import { expect } from 'vitest';
import type { Dispute, FolderCounts, GatewayHealth } from '@eta/contracts';
import type { TestApp } from './test-app.js';

export function deskReads(t: TestApp, token: string) {
  const headers = { authorization: token };
  return {
    /** An Admin's counts: every queue. */
    counts: async (): Promise<Required<FolderCounts>> =>
      (await t.app.inject({ url: '/api/admin/get-folder-count', headers })).json().data,
    orderRow: (orderId: string) =>
      t.database.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow(),
    remarksOf: async (orderId: string) =>
      (
        await t.database.db
          .selectFrom('remarks')
          .innerJoin('orders', 'orders.id', 'remarks.order_id')
          .select(['remarks.remark_name', 'remarks.remark', 'remarks.chargeback', 'remarks.staff_id'])
          .where('orders.order_id', '=', orderId)
          .orderBy('remarks.id')
          .execute()
      ).map((r) => ({ ...r })),
    disputesOf: async (orderId: string): Promise<Dispute[]> => {
      const res = await t.app.inject({ url: `/api/admin/disputes/${orderId}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Dispute[] }>().data;
    },
    /** The gateway page's health, by gateway name. */
    health: async (): Promise<Record<string, GatewayHealth>> =>
      Object.fromEntries(
        (await t.app.inject({ url: '/api/admin/payment-gateways/health', headers }))
          .json<{ data: GatewayHealth[] }>()
          .data.map((g) => [g.gateway_name, g]),
      ),
    refundIt: async (orderIds: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/move-to-complete-refund',
        headers,
        payload: await withVersions(t.database.db, { orderId: orderIds }),
      }),
  };
}
