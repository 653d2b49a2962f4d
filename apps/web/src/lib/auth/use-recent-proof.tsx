// The recent proof a change that takes an account over asks for (issue 34): the call is made; refused with
// RECENT_PROOF_REQUIRED, a dialog asks for the current password (or a code), and the call is made once more.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { ApiError } from '../api';
import { ConfirmIdentityDialog } from '../../components/confirm-identity-dialog';

const needsProof = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as ApiError).code === 'RECENT_PROOF_REQUIRED';

export function useRecentProof(): {
  /**
   * Runs `call` (an unwrapped mutation), asking for a proof once if it needs one: its result, undefined when the
   * member cancelled the proof; any other failure is thrown as the call threw it.
   */
  withProof: <T>(call: () => Promise<T>) => Promise<T | undefined>;
  proofDialog: ReactNode;
} {
  const [open, setOpen] = useState(false);
  const answer = useRef<((proved: boolean) => void) | null>(null);
  const close = useCallback((proved: boolean) => {
    setOpen(false);
    answer.current?.(proved);
    answer.current = null;
  }, []);

  const withProof = useCallback(async <T,>(call: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await call();
    } catch (error) {
      if (!needsProof(error)) throw error;
    }
    const proved = await new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setOpen(true);
    });
    return proved ? call() : undefined;
  }, []);

  return {
    withProof,
    proofDialog: <ConfirmIdentityDialog open={open} onDone={() => close(true)} onCancel={() => close(false)} />,
  };
}
