import { sortSizes } from '@shared/sizes';
import { useId } from 'react';
import { type ColourDraft, colourStockPath, withCount } from './product-form-state';

/**
 * Stock in one grid: the all-colours count and each colour's own, per size. An empty box is not counted
 * for that colour (decision 0036: its own row, else all colours', else untracked).
 */
export function StockGrid({
  sizes,
  stock,
  onStockChange,
  colours,
  onColourStockChange,
  error,
  sectionError,
}: {
  sizes: string[];
  stock: Record<string, number>;
  onStockChange: (stock: Record<string, number>) => void;
  colours: ColourDraft[];
  onColourStockChange: (key: string, stock: Record<string, number>) => void;
  error: (key: string) => string | undefined;
  sectionError: string | undefined;
}) {
  const hintId = useId();
  const sectionErrorId = useId();
  const ordered = sortSizes(sizes);
  const hasColours = colours.length > 0;
  return (
    <fieldset
      aria-describedby={sectionError ? `${hintId} ${sectionErrorId}` : hintId}
      data-testid="stock-editor"
    >
      <legend className="text-sm font-medium">Stock</legend>
      <p id={hintId} className="mt-1 text-xs text-muted">
        {hasColours
          ? "Leave a colour's box empty to count it from All colours; empty there too, the size is not tracked (always available)."
          : 'Leave empty for made-to-order sizes: always available.'}
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="text-sm">
          <thead>
            <tr>
              <th scope="col" className="pr-3 text-left font-medium">
                <span className="sr-only">Colour</span>
              </th>
              {ordered.map((size) => (
                <th key={size} scope="col" className="px-1 text-left font-medium">
                  {size}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row" className="pt-1.5 pr-3 text-left align-top font-medium whitespace-nowrap">
                All colours
              </th>
              {ordered.map((size) => (
                <CountCell
                  key={size}
                  // Without colours the row is the product's stock, labelled as it always was.
                  label={hasColours ? `Stock for all colours, size ${size}` : `Stock for ${size}`}
                  value={stock[size]}
                  onChange={(text) => onStockChange(withCount(stock, size, text))}
                  error={error(`stock.${size}`)}
                />
              ))}
            </tr>
            {colours.map((c, i) => {
              const name = c.name.trim() || `colour ${i + 1}`;
              return (
                <tr key={c.key}>
                  <th scope="row" className="pt-1.5 pr-3 text-left align-top font-medium whitespace-nowrap">
                    {name}
                  </th>
                  {ordered.map((size) => (
                    <CountCell
                      key={size}
                      label={`Stock of ${name}, size ${size}`}
                      value={c.stock[size]}
                      placeholder={stock[size] === undefined ? 'Not tracked' : 'All colours'}
                      onChange={(text) => onColourStockChange(c.key, withCount(c.stock, size, text))}
                      error={error(colourStockPath(c.name, size))}
                    />
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {sectionError ? (
        <p id={sectionErrorId} className="mt-1 text-xs text-red-700" data-field-error tabIndex={-1}>
          {sectionError}
        </p>
      ) : null}
    </fieldset>
  );
}

function CountCell({
  label,
  value,
  onChange,
  error,
  placeholder = 'Not tracked',
}: {
  label: string;
  value: number | undefined;
  onChange: (text: string) => void;
  error: string | undefined;
  placeholder?: string;
}) {
  const errorId = useId();
  return (
    <td className="px-1 py-0.5 align-top">
      <input
        aria-label={label}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        placeholder={placeholder}
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`w-28 rounded border bg-white px-2 py-1 ${error ? 'border-red-700' : 'border-stone-line'}`}
      />
      {error ? (
        <p id={errorId} className="mt-0.5 w-28 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </td>
  );
}
