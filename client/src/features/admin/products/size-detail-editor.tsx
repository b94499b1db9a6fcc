import { sortSizes } from '@shared/sizes';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';

const DEFAULT_MEASUREMENTS = ['Chest (in)', 'Length (in)', 'Sleeve (in)'];

/** A grid of sizes × measurements; empty cells are dropped on save. */
export function SizeDetailEditor({
  sizes,
  value,
  onChange,
  legend = 'Size Details',
  of,
}: {
  sizes: string[];
  value: Record<string, Record<string, string>>;
  onChange: (v: Record<string, Record<string, string>>) => void;
  legend?: string;
  /** Whose chart this is when not the product's ("Teal"): said in every box's label. */
  of?: string;
}) {
  const fromData = useMemo(
    () => [...new Set(Object.values(value).flatMap((row) => Object.keys(row)))],
    [value],
  );
  const [measurements, setMeasurements] = useState<string[]>(
    fromData.length > 0 ? fromData : DEFAULT_MEASUREMENTS,
  );
  const [newName, setNewName] = useState('');
  const ordered = sortSizes(sizes);
  if (ordered.length === 0) return null;
  const setCell = (size: string, m: string, v: string) =>
    onChange({ ...value, [size]: { ...(value[size] ?? {}), [m]: v } });
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-2 overflow-x-auto">
        <table className="text-sm">
          <thead>
            <tr>
              <th scope="col" className="pr-2 text-left font-medium">
                Size
              </th>
              {measurements.map((m) => (
                <th key={m} scope="col" className="px-1 text-left font-medium whitespace-nowrap">
                  {m}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ordered.map((size) => (
              <tr key={size}>
                <th scope="row" className="pr-2 text-left font-medium">
                  {size}
                </th>
                {measurements.map((m) => (
                  <td key={m} className="px-1 py-0.5">
                    <input
                      aria-label={`${m} for ${of ? `${of}, ` : ''}size ${size}`}
                      value={value[size]?.[m] ?? ''}
                      onChange={(e) => setCell(size, m, e.target.value)}
                      className="w-20 rounded border border-stone-line px-2 py-1"
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-2 flex items-center gap-2">
        <input
          aria-label={of ? `New measurement name for ${of}` : 'New measurement name'}
          placeholder="e.g. Hip (cm)"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          className="rounded border border-stone-line px-2 py-1 text-sm"
        />
        <Button
          variant="ghost"
          className="px-3 py-1"
          onClick={() => {
            const n = newName.trim();
            if (n && !measurements.includes(n)) setMeasurements([...measurements, n]);
            setNewName('');
          }}
        >
          <Plus aria-hidden="true" className="h-4 w-4" /> Add measurement
          {of ? <span className="sr-only"> for {of}</span> : null}
        </Button>
      </div>
    </fieldset>
  );
}
