const pad = (n: number) => String(n).padStart(2, '0');

/** yyyy-MM-dd HH:mm:ss in the viewer's local time, or N/A. */
export function formatLoginTime(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'N/A';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** HH:MM:SS between two instants (hours keep counting past 24). */
export function formatDuration(fromIso: string, nowMs: number): string {
  const from = new Date(fromIso).getTime();
  const total = Number.isNaN(from) ? 0 : Math.max(0, Math.floor((nowMs - from) / 1000));
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
