import type { QuotedLine } from '@shared/checkout';
import { formatMoney } from '@shared/money';

/**
 * A cart line's unit price: at a sale, the sale price beside the struck-through regular price and its
 * "−20%" badge (decision 0037), each said in words to a screen reader. The checkout page's lines and the
 * cart panel's show it alike.
 */
export function LinePrice({ line }: { line: QuotedLine }) {
  if (line.unitPriceMinor === null || !line.currency) return null;
  const price = formatMoney(line.unitPriceMinor, line.currency);
  const regular = line.regularUnitPriceMinor;
  if (!line.sale || regular === null || regular <= line.unitPriceMinor) {
    return <p className="text-sm text-muted">{price} each</p>;
  }
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm" data-testid="line-sale-price">
      <span className="font-medium text-red-800">
        <span className="sr-only">Sale price </span>
        {price} each
      </span>
      <s className="text-muted">
        <span className="sr-only">Regular price </span>
        {formatMoney(regular, line.currency)}
      </s>
      <span
        className="rounded-full bg-red-800 px-2 py-0.5 text-xs font-semibold text-white"
        title={line.sale.name}
      >
        <span aria-hidden="true">−{line.sale.percentOff}%</span>
        <span className="sr-only">
          {line.sale.percentOff}% off in {line.sale.name}
        </span>
      </span>
    </p>
  );
}
