import { RETURN_REASON_LABEL, type ReturnReasonName } from '@shared/returns';
import { useId } from 'react';
import { trpc } from '../../../lib/trpc';
import { reasonGrid, topReason } from './return-reasons-table';

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const label = (reason: string) => RETURN_REASON_LABEL[reason as ReturnReasonName] ?? reason;

/**
 * Returns on the product's admin page (issue 43): how many delivered units came back and why, by size,
 * because a size that keeps coming back "too small" says the size chart is wrong.
 */
export function ProductReturns({ productId }: { productId: string }) {
  const report = trpc.admin.returns.reasonsByProduct.useQuery({ productId });
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="border-t border-stone-line pt-6"
      data-testid="product-returns"
    >
      <h3 id={headingId} className="font-serif text-lg">
        Returns
      </h3>
      {report.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          Could not load returns: {report.error.message}
        </p>
      ) : !report.data ? (
        <div className="skeleton mt-2 h-16 rounded" aria-hidden="true" />
      ) : (
        <ReturnReport report={report.data} />
      )}
    </section>
  );
}

function ReturnReport({
  report,
}: {
  report: {
    deliveredUnits: number;
    returnedUnits: number;
    rate: number;
    bySizeAndReason: Array<{ size: string | null; reason: string; count: number }>;
  };
}) {
  if (report.returnedUnits === 0)
    return (
      <p className="mt-2 text-sm text-muted">
        None of the {report.deliveredUnits} unit{report.deliveredUnits === 1 ? '' : 's'} delivered came back.
      </p>
    );
  const { sizes, reasons, count } = reasonGrid(report.bySizeAndReason);
  const top = topReason(report.bySizeAndReason);
  return (
    <div className="mt-2 space-y-3 text-sm">
      <p>
        Return rate {percent.format(report.rate)}: {report.returnedUnits} of {report.deliveredUnits} units
        delivered.
        {top ? (
          <>
            {' '}
            Most often: {label(top.reason).toLowerCase()}
            {top.size ? ` in ${top.size}` : ''} ({top.count} of {top.of}).
          </>
        ) : null}
      </p>
      <div className="overflow-x-auto">
        <table className="text-left" aria-label="Returned units by size and reason">
          <thead>
            <tr className="border-b border-stone-line text-muted">
              <th scope="col" className="py-1 pr-4 font-medium">
                Size
              </th>
              {reasons.map((r) => (
                <th key={r} scope="col" className="py-1 pr-4 text-right font-medium">
                  {label(r)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sizes.map((size) => (
              <tr key={size} className="border-b border-stone-line/60">
                <th scope="row" className="py-1 pr-4 font-medium">
                  {size || 'One size'}
                </th>
                {reasons.map((r) => (
                  <td key={r} className="py-1 pr-4 text-right">
                    {count(size, r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
