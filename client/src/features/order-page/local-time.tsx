import { useHydrated } from '../../lib/use-hydrated';

const utc = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const local = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

const utcDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const localDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * A deadline in words ("Sunday, Nov 29, 6:33 PM GMT+5"), in the shopper's own time zone. The server renders
 * the order page without knowing that zone, so its render (and the browser's first, which must match it to
 * hydrate) says the time in UTC; the shopper's zone takes over right after.
 */
export function DeadlineText({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  return (
    <time dateTime={iso} data-testid="order-deadline">
      {hydrated ? local.format(date) : `${utc.format(date)} UTC`}
    </time>
  );
}

/**
 * A day ("Nov 28, 2026") in the shopper's time zone, as DeadlineText: the server's render and the hydration
 * say the UTC day (late in the evening UTC it is already the next day in Lahore).
 */
export function DayText({ iso }: { iso: string }) {
  const date = new Date(iso);
  return <time dateTime={iso}>{useHydrated() ? localDay.format(date) : utcDay.format(date)}</time>;
}
