import { useEffect, useRef, useState } from 'react';

/**
 * The width an element is laid out at, followed as it changes: the charts draw in real pixels, so their
 * labels keep their size at 320 px instead of shrinking with a scaled viewBox (WCAG 1.4.10, reflow).
 */
export function useWidth<E extends HTMLElement>(initial = 600) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(120, Math.floor(element.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
