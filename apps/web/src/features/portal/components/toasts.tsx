// The portal's toasts (spec §8): success and error messages that close after 5 seconds (DESIGN §7) or on a tap.
// They never cover the header: top-right below it (portal.css), at the bottom of the screen on a phone.
import { useCallback, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import type { ToastKind } from '../hooks/portal-context';

const TOAST_MS = 5000;
/** Space between the header (or the top of the window) and the first toast. */
const GAP_PX = 12;

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

/**
 * Where toasts start on a wider screen, read as the first one shows: below the header as it is on screen then (a
 * site's long menu wraps it to more rows), or at the top once the page has scrolled it away.
 */
function useTopBelowHeader(isShowing: boolean): number {
  const [top, setTop] = useState(GAP_PX);
  useLayoutEffect(() => {
    if (!isShowing) return;
    const bottom = document.querySelector('.portal-header')?.getBoundingClientRect().bottom ?? 0;
    setTop(Math.max(0, bottom) + GAP_PX);
  }, [isShowing]);
  return top;
}

export function ToastRegion({ toasts, dismiss }: { toasts: Toast[]; dismiss(id: number): void }) {
  const top = useTopBelowHeader(toasts.length > 0);
  return (
    <div className="portal-toasts" aria-live="polite" style={{ '--portal-toasts-top': `${top}px` } as CSSProperties}>
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
