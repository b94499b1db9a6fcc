import { X } from 'lucide-react';
import { useId, useState } from 'react';

/** Values typed and committed with Enter; blanks and duplicates (after trimming) are ignored; each removable. */
export function ChipsInput({
  label,
  values,
  onChange,
  placeholder,
  error,
}: {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  placeholder?: string;
  error?: string | null;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const commit = () => {
    const v = text.trim();
    if (v && !values.some((x) => x.toLowerCase() === v.toLowerCase())) onChange([...values, v]);
    setText('');
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div
        className={`mt-1 flex flex-wrap gap-2 rounded-lg border bg-white p-2 ${error ? 'border-red-700' : 'border-stone-line'}`}
      >
        {values.map((v) => (
          <span key={v} className="inline-flex items-center gap-1 rounded-full bg-sand px-2.5 py-1 text-xs">
            {v}
            <button
              type="button"
              onClick={() => onChange(values.filter((x) => x !== v))}
              className="rounded-full hover:text-red-700"
              aria-label={`Remove ${v}`}
            >
              <X aria-hidden="true" className="h-3 w-3" />
            </button>
          </span>
        ))}
        <input
          id={id}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            } else if (e.key === 'Backspace' && text === '' && values.length > 0) {
              onChange(values.slice(0, -1));
            }
          }}
          onBlur={commit}
          placeholder={placeholder ?? 'Type and press Enter'}
          className="min-w-32 flex-1 bg-transparent px-1 py-0.5 text-sm"
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
