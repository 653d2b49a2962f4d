// The portal's toasts (spec §8): success and error messages that close after 5 seconds (DESIGN §7) or on a tap.
import { useCallback, useRef, useState } from 'react';
import type { ToastKind } from '../hooks/portal-context';

const TOAST_MS = 5000;

interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const notify = useCallback(
    (kind: ToastKind, text: string) => {
      next.current += 1;
      const id = next.current;
      // A success settles what went wrong before it: the older error toasts go.
      setToasts((all) => [
        ...all.filter((toast) => toast.text !== text && !(kind === 'success' && toast.kind === 'error')),
        { id, kind, text },
      ]);
      setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  return { toasts, notify, dismiss };
}

export function ToastRegion({ toasts, dismiss }: { toasts: Toast[]; dismiss(id: number): void }) {
  return (
    <div className="portal-toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`portal-toast portal-toast--${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          <span>{toast.text}</span>
          <button type="button" aria-label="×" onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
