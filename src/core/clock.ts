/** Time as the store sees it: the system clock in production, a fixed or stepped one in tests. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
