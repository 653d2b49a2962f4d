// Single sign-on (issue 34): the server gives the provider's address and a state; the state stays in this tab
// (sessionStorage) and goes back with the provider's answer from /login/sso, so an answer for a sign-in this tab did
// not start (another tab's, or one an attacker started to sign the victim in as themself) is refused.
import { envelopeDataOf, failureMessage, isSuccess, sendRequest } from '../http';

const STATE_KEY = 'eta-desk-sso-state';

/** Goes to the provider; on failure (not set up, unreachable) answers what to tell the member. */
export async function startSingleSignOn(): Promise<string | undefined> {
  const outcome = await sendRequest({ url: 'admin/sso/start', method: 'POST', staff: false });
  if (!isSuccess(outcome)) return failureMessage(outcome);
  const { url, state } = envelopeDataOf(outcome.body) as { url: string; state: string };
  sessionStorage.setItem(STATE_KEY, state);
  window.location.assign(url);
  return undefined;
}

/** The state this tab started a sign-in with, taken (a state is good for one answer). */
export function takeSingleSignOnState(): string | null {
  const state = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  return state;
}
