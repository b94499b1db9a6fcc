import type { SizeDetail } from '@shared/catalogue';

export function SizeDetailsTable({ sizes, detail }: { sizes: string[]; detail: SizeDetail }) {
  const rows = sizes.filter((s) => detail[s] && Object.keys(detail[s] ?? {}).length > 0);
  if (rows.length === 0) return null;
  const measurements = [...new Set(rows.flatMap((s) => Object.keys(detail[s] ?? {})))];
  return (
    <section className="mt-10" aria-labelledby="size-details-heading">
      <h2 id="size-details-heading" className="font-serif text-xl">
        Size Details
      </h2>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-left text-sm">
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
      </div>
    </section>
  );
}
