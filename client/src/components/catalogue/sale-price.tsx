import type { SalePrice } from '@shared/catalogue';

/**
 * A price as the shopper is charged it: while a sale runs, the sale price beside the regular one struck
 * through and a "−20%" badge (decision 0037). Screen readers hear "Sale price", "Regular price" and
 * "20% off" rather than a struck-through number and a minus sign. Without a sale, the price alone, as
 * before.
 */
export function PriceWithSale({
  regularMinor,
  sale,
  format,
}: {
  regularMinor: number;
  sale: SalePrice | null;
  format: (minor: number) => string;
}) {
  if (!sale) return <>{format(regularMinor)}</>;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2" data-testid="sale-price">
      <span className="text-red-800">
        <span className="sr-only">Sale price </span>
        {format(sale.salePriceMinor)}
      </span>
      <del className="text-sm font-normal text-muted" data-testid="regular-price">
        <span className="sr-only">Regular price </span>
        {format(regularMinor)}
      </del>
      <span
        className="rounded bg-red-800 px-1.5 py-0.5 text-xs font-semibold text-white"
        data-testid="sale-badge"
      >
        <span aria-hidden="true">−{sale.salePercent}%</span>
        <span className="sr-only">{sale.salePercent}% off</span>
      </span>
    </span>
  );
}
