import type { ReactNode } from 'react';

/**
 * A chart's figures as a table, folded under a "Show the data" disclosure: the text alternative of the
 * picture for screen readers, and the exact numbers for anyone who wants them.
 */
export function ChartData({
  caption,
  headers,
  rows,
  testId,
}: {
  caption: string;
  headers: string[];
  rows: Array<{ key: string; cells: ReactNode[] }>;
  testId?: string;
}) {
  return (
    <details className="mt-2 text-sm" data-testid={testId}>
      <summary className="cursor-pointer text-maroon hover:underline">Show the data</summary>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="border-b border-stone-line text-muted">
              {headers.map((h, i) => (
                <th key={h} scope="col" className={`py-1 pr-3 font-medium ${i > 0 ? 'text-right' : ''}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-b border-stone-line/60">
                {row.cells.map((cell, i) =>
                  i === 0 ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns.
                    <th key={i} scope="row" className="py-1 pr-3 font-normal">
                      {cell}
                    </th>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns.
                    <td key={i} className="py-1 pr-3 text-right tabular-nums">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
