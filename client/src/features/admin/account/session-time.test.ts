import { describe, expect, it } from 'vitest';
import { formatDuration, formatLoginTime } from './session-time';

describe('session time', () => {
  it('formats the login time as yyyy-MM-dd HH:mm:ss', () => {
    expect(formatLoginTime('2026-03-04T05:06:07.000Z')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(formatLoginTime(null)).toBe('N/A');
    expect(formatLoginTime('nonsense')).toBe('N/A');
  });

  it('counts the session duration as HH:MM:SS', () => {
    const start = '2026-03-04T05:00:00.000Z';
    const t = new Date(start).getTime();
    expect(formatDuration(start, t)).toBe('00:00:00');
    expect(formatDuration(start, t + 3_723_000)).toBe('01:02:03');
    expect(formatDuration(start, t + 26 * 3600_000)).toBe('26:00:00');
    expect(formatDuration(start, t - 5000)).toBe('00:00:00');
  });
});
