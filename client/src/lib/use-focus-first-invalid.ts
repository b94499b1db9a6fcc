import { type RefObject, useEffect, useState } from 'react';

/**
 * After a form is refused, its first field in error takes focus, so a keyboard or screen reader user lands on
 * it and hears its message. `request()` asks for it; the focus moves once React has drawn the errors.
 */
export function useFocusFirstInvalid(container: RefObject<HTMLElement | null>): () => void {
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked === 0) return;
    container.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [asked, container]);
  return () => setAsked((n) => n + 1);
}
