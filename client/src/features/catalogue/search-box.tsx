import { tooShortToSearch } from '@shared/search-input';
import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useEarlyInput } from '../../lib/use-early-input';

const DEBOUNCE_MS = 300;

/** Debounced search: the URL (and so the query) changes 300 ms after the last keystroke. */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const last = useRef(value);
  // Words typed before the page was hydrated are kept, and searched for as if typed now.
  const input = useEarlyInput<HTMLInputElement>((element) => {
    if (element.value !== text) setText(element.value);
  });

  // Follow the URL when it changes from elsewhere (Back, Clear filters).
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === last.current) return;
    const timer = setTimeout(() => {
      last.current = text;
      onSearch(text);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);

  return (
    <div className="relative flex-1 basis-full md:basis-0">
      <label htmlFor="catalogue-search" className="sr-only">
        Search products
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-muted"
      />
      <input
        ref={input}
        id="catalogue-search"
        type="search"
        value={text}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
        placeholder="Search kurtas, lehengas, makers…"
        autoComplete="off"
        aria-describedby="catalogue-search-hint"
        className="w-full rounded-full border border-stone-line bg-white py-2.5 pr-10 pl-9 text-sm"
      />
      {text ? (
        <button
          type="button"
          onClick={() => setText('')}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full p-1.5 text-muted hover:bg-sand hover:text-ink"
          aria-label="Clear search"
        >
          <X aria-hidden="true" className="h-4 w-4" />
        </button>
      ) : null}
      {/* Always present, so a screen reader hears the hint when it appears. */}
      <p
        id="catalogue-search-hint"
        role="status"
        className="absolute top-full left-4 mt-1 text-xs text-muted"
        data-testid="search-hint"
      >
        {tooShortToSearch(text) ? 'Type at least two letters to search.' : ''}
      </p>
    </div>
  );
}
