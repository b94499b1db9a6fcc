import { useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'error' | 'info';
export type Toast = { id: number; kind: ToastKind; message: string };

const VISIBLE = 3;
const DURATION_MS = 4000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

function show(kind: ToastKind, message: string) {
  // The same message twice in a row is one toast, not a stack of them.
  if (toasts.at(-1)?.message === message) return;
  const item = { id: nextId++, kind, message };
  toasts = [...toasts, item].slice(-VISIBLE);
  emit();
  setTimeout(() => dismiss(item.id), DURATION_MS);
}

/** Small toasts, bottom-right, announced to screen readers (see components/ui/toaster.tsx). */
export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  dismiss,
};

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
    () => toasts,
  );
}
