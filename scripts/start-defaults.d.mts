export function applyStartDefaults<T extends Record<string, string | undefined>>(env: T): T;
