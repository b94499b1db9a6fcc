/** Size limits of the public report endpoints, shared with the client (which trims to them); no Zod here. */
export const CLIENT_ERROR_LIMITS = { message: 500, stack: 4000, route: 300, userAgent: 300 } as const;
export const VITALS_BODY_LIMIT = 8 * 1024;
export const VITALS_MAX_METRICS = 10;
