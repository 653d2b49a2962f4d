// The browser's half of a passkey (issue 34), with @simplewebauthn/browser: options from the server go to the
// browser's WebAuthn prompt, and its answer goes back to the server, which checks it. A prompt the member closed, or
// one that timed out, is no error of theirs: it says so and they try again.
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { failureMessage, envelopeDataOf, isSuccess, sendRequest } from '../http';

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** A ceremony's outcome: the browser's answer for the server, or what to tell the member. */
export type PasskeyOutcome = { answer: object } | { failure: string };

const NOT_USED = 'The passkey was not used (the prompt was closed or timed out). Try again.';

function failureOf(error: unknown): string {
  if (error instanceof Error && error.name === 'NotAllowedError') return NOT_USED;
  if (error instanceof Error && error.name === 'InvalidStateError') return 'This device already has a passkey for you.';
  return error instanceof Error ? error.message : NOT_USED;
}

/** Asks the browser to sign with a passkey over `options`. */
export async function answerWithPasskey(options: object): Promise<PasskeyOutcome> {
  try {
    return { answer: await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON }) };
  } catch (error) {
    return { failure: failureOf(error) };
  }
}

/** Asks the browser to make a passkey from `options`. */
export async function makePasskey(options: object): Promise<PasskeyOutcome> {
  try {
    return { answer: await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }) };
  } catch (error) {
    return { failure: failureOf(error) };
  }
}

/** A sign-in's passkey: fetches the options (no session yet) and lets the browser answer them. */
export async function signInPasskey(optionsUrl: string, body: object = {}): Promise<PasskeyOutcome> {
  const outcome = await sendRequest({ url: optionsUrl, method: 'POST', body, staff: false });
  if (!isSuccess(outcome)) return { failure: failureMessage(outcome) };
  return answerWithPasskey(envelopeDataOf(outcome.body) as object);
}
