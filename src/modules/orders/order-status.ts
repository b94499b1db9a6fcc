import type { OrderStatus } from '../../db/database.js';

/** Final states: nothing a later (or replayed, or out-of-order) event says can move an order out of them. */
const FINAL: ReadonlySet<OrderStatus> = new Set(['paid', 'payment_failed', 'expired']);
const RANK: Record<OrderStatus, number> = {
  pending: 0,
  processing: 1,
  paid: 2,
  payment_failed: 2,
  expired: 2,
};

/** An order's status only moves forward: pending → processing → paid / payment_failed / expired. */
export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return !FINAL.has(from) && RANK[to] > RANK[from];
}
