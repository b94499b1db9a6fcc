import { useCallback, useState } from 'react';

export type ImageState = 'loading' | 'loaded' | 'failed';

/**
 * Whether a picture has loaded or failed, including when that happened before React took over the page.
 * A server-rendered <img> starts loading as soon as the HTML arrives; its load or error event usually fires
 * before hydration attaches the handlers, so the events alone would leave it "loading" for good. The ref
 * reads the element's own state when it is attached: complete with a width is loaded, complete without
 * one is broken. A lazy picture not yet fetched is not complete, and its events still arrive later.
 */
export function useImageState(initial: ImageState = 'loading') {
  const [state, setState] = useState<ImageState>(initial);
  const ref = useCallback((img: HTMLImageElement | null) => {
    if (!img?.complete) return;
    const ok = img.naturalWidth > 0;
    // Once failed, the element shows the placeholder (or is a new element without the srcset): its load
    // must not bring the broken picture back.
    setState((s) => (s === 'failed' ? s : ok ? 'loaded' : 'failed'));
  }, []);
  const onLoad = useCallback(() => setState((s) => (s === 'failed' ? s : 'loaded')), []);
  const onError = useCallback(() => setState('failed'), []);
  return { state, ref, onLoad, onError };
}
