/** The most a condition note may hold, as admin.returns.receive bounds it. */
export const MAX_CONDITION = 1000;

export type ReceiveValues = { condition: string; restock: Record<number, string> };
export type ReceiveInput = { condition: string; restock: Array<{ lineId: number; quantity: number }> };

/**
 * The receive form's check: each line's restock is a whole number from 0 to the units that came back (a
 * unit goes back on the shelf once); the condition fits. Error keys: 'condition', 'restock.<lineId>'.
 */
export function checkReceive(
  values: ReceiveValues,
  lines: ReadonlyArray<{ lineId: number; quantity: number }>,
): { errors: Record<string, string>; input: ReceiveInput | null } {
  const errors: Record<string, string> = {};
  const condition = values.condition.trim();
  if (condition.length > MAX_CONDITION)
    errors.condition = `Keep it to ${MAX_CONDITION} characters (${condition.length} now).`;
  const restock: ReceiveInput['restock'] = [];
  for (const line of lines) {
    const text = (values.restock[line.lineId] ?? '').trim();
    const quantity = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(quantity) || quantity > line.quantity)
      errors[`restock.${line.lineId}`] = `Enter a whole number from 0 to ${line.quantity}.`;
    else restock.push({ lineId: line.lineId, quantity });
  }
  return Object.keys(errors).length > 0 ? { errors, input: null } : { errors, input: { condition, restock } };
}
