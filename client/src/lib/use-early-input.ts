import { type RefObject, useLayoutEffect, useRef } from 'react';

/**
 * Takes up what a shopper did to a server-rendered control before the app took the page over (hydration):
 * React keeps the page's own value as it hydrates, but its state still holds what the server rendered, and
 * the next render put that back (a size picked in the first second was reset to "Select size"). Once, as the
 * control mounts and before the browser paints again, `adopt` is given its element to bring the state in
 * line with it. On a control the app rendered itself the element holds React's own value: nothing to adopt.
 */
export function useEarlyInput<E extends Element>(adopt: (element: E) => void): RefObject<E | null> {
  const ref = useRef<E>(null);
  // The first render's `adopt`: the one whose state the element is compared with at mount.
  const atMount = useRef(adopt);
  useLayoutEffect(() => {
    if (ref.current) atMount.current(ref.current);
  }, []);
  return ref;
}
