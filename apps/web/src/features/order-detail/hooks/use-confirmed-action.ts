// One Yes/No confirmation at a time for the page's actions (Move-to buttons, holder actions), then the change
// with its outcome reported: the server's message as a success toast (a warning when the mail it asked for was
// not sent, issue 22); a stale copy (STALE_VERSION) named with
// who changed the order and when, and the order reloaded (the API layer invalidates it); any other refusal has
// been shown by the API layer already. Nothing is retried on the person's behalf.
import { useState } from 'react';
import { toast } from 'react-toastify';
import type { ApiError } from '../../../lib/api';
import { answerToastType } from '../../../lib/mail-delivery';
import type { ChangeOutcome } from '../api/order-detail-api';

export const RELOADED_TEXT = 'The order has been reloaded.';

interface Unwrappable<T> {
  unwrap: () => Promise<ChangeOutcome<T>>;
}

export const isApiError = (error: unknown): error is ApiError =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error;

/** How a change ended: made, refused because the order had changed (now reloaded), or refused otherwise. */
export type ChangeResult = 'done' | 'stale' | 'refused';

/** Sends a change and reports it. */
export async function reportChange<T>(request: Unwrappable<T>): Promise<ChangeResult> {
  try {
    const { message, data } = await request.unwrap();
    toast(message, { type: answerToastType(data) });
    return 'done';
  } catch (error) {
    if (isApiError(error) && error.code === 'STALE_VERSION') {
      // Long and important: it stays until the person closes it.
      toast.warning(`${error.message} ${RELOADED_TEXT}`, { autoClose: false });
      return 'stale';
    }
    return 'refused';
  }
}

interface PendingAction {
  text: string;
  run: () => Promise<unknown>;
}

export function useConfirmedAction() {
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const confirm = async () => {
    if (!pending) return;
    setIsBusy(true);
    try {
      await pending.run();
    } finally {
      setIsBusy(false);
      setPending(null);
    }
  };

  return {
    /** Asks `text`; on Yes runs `run`. */
    request: (text: string, run: () => Promise<unknown>) => setPending({ text, run }),
    isBusy,
    confirmDialog: {
      open: pending !== null,
      text: pending?.text,
      busy: isBusy,
      onConfirm: () => void confirm(),
      onCancel: () => setPending(null),
    },
  };
}
