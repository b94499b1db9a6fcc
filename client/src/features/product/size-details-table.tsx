import type { SizeDetail } from '@shared/catalogue';

export function SizeDetailsTable({ sizes, detail }: { sizes: string[]; detail: SizeDetail }) {
  const rows = sizes.filter((s) => detail[s] && Object.keys(detail[s] ?? {}).length > 0);
  if (rows.length === 0) return null;
  const measurements = [...new Set(rows.flatMap((s) => Object.keys(detail[s] ?? {})))];
  return (
    <div className="mt-10">
      <h2 id="size-details-heading" className="font-serif text-xl">
        Size Details
      </h2>
      {/* Wider than a phone, the table scrolls in its own box (WCAG 1.4.10 lets a table do so) rather than
          widening the page: the box is a named region a keyboard can reach and scroll with the arrow keys,
          and .scroll-cue shades the edge there is more to see beyond. Cells keep their lines whole. */}
      <section
        aria-labelledby="size-details-heading"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to be scrolled by keyboard
        tabIndex={0}
        className="scroll-cue mt-3 overflow-x-auto rounded-sm"
      >
        <table className="w-full text-left text-sm wrap-normal whitespace-nowrap">
          <thead>
            <tr className="border-b border-stone-line">
              <th scope="col" className="py-2 pr-4 font-medium">
                Size
              </th>
              {measurements.map((m) => (
                <th key={m} scope="col" className="py-2 pr-4 font-medium">
                  {m}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s} className="border-b border-stone-line/60">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {s}
                </th>
                {measurements.map((m) => (
                  <td key={m} className="py-2 pr-4 text-muted">
                    {detail[s]?.[m] ?? '—'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
