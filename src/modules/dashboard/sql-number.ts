/** PostgreSQL answers sums and counts of bigints as text; SQLite as numbers. */
export function num(value: unknown): number {
  return Number(value ?? 0);
}
