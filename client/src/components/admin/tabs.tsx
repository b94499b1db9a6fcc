import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export type TabItem<Id extends string> = { id: Id; label: string; disabled?: boolean };

const STEP: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };

/**
 * Tabs as the WAI-ARIA pattern has them: each tab names the panel it controls and the panel is labelled by
 * its tab; only the selected tab is in the Tab order (roving tabindex), the arrow keys move and select, Home
 * and End go to the first and the last. A disabled tab is skipped. Only the open panel's content is rendered,
 * so only it loads its data.
 */
export function Tabs<Id extends string>({
  label,
  tabs,
  active,
  onSelect,
  panel,
  listClassName = '',
  panelClassName = '',
}: {
  label: string;
  tabs: ReadonlyArray<TabItem<Id>>;
  active: Id;
  onSelect: (id: Id) => void;
  /** The content of the open tab's panel. */
  panel: (id: Id) => ReactNode;
  listClassName?: string;
  panelClassName?: string;
}) {
  const baseId = useId();
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const enabled = tabs.filter((t) => !t.disabled);

  const onKeyDown = (e: KeyboardEvent, id: Id) => {
    const at = enabled.findIndex((t) => t.id === id);
    let next: TabItem<Id> | undefined;
    if (e.key === 'Home') next = enabled[0];
    else if (e.key === 'End') next = enabled[enabled.length - 1];
    else if (STEP[e.key] !== undefined)
      next = enabled[(at + (STEP[e.key] ?? 0) + enabled.length) % enabled.length];
    if (!next) return;
    e.preventDefault();
    onSelect(next.id);
    refs.current.get(next.id)?.focus();
  };

  return (
    <>
      <div
        role="tablist"
        aria-label={label}
        className={`flex flex-wrap gap-1 border-b border-stone-line ${listClassName}`}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) refs.current.set(tab.id, el);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`${baseId}-panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            disabled={tab.disabled}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(e) => onKeyDown(e, tab.id)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm disabled:opacity-40 ${active === tab.id ? 'border-maroon font-medium text-maroon' : 'border-transparent text-muted hover:text-ink'}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <section
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={active !== tab.id}
          className={panelClassName}
        >
          {active === tab.id ? panel(tab.id) : null}
        </section>
      ))}
    </>
  );
}
