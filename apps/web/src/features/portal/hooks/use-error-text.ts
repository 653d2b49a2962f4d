// A failed call in the customer's language: by its code when the portal has words for it, else the server's.
import { PortalError } from '../api/portal-client';
import { usePortal } from './portal-context';

export function useErrorText(): (error: unknown) => string {
  const { t } = usePortal();
  return (error) => {
    if (!(error instanceof PortalError)) return t.networkError;
    if (error.status === 0) return t.networkError;
    if (error.code === 'TOO_MANY_ATTEMPTS') {
      return t.tooManyAttempts(Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60)));
    }
    return (error.code && t.errors[error.code]) || error.message;
  };
}
