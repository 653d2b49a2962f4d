// A passkey made in the test: a P-256 key pair and the bytes a WebAuthn authenticator sends (attestation 'none',
// authenticator data, a signed assertion), so the server's real WebAuthn library (@simplewebauthn/server) checks them
// exactly as it checks a browser's. The browser tests use Chromium's own virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const UP = 0x01; // user present
const UV = 0x04; // user verified (PIN, biometric)
const AT = 0x40; // attested credential data included

interface Options {
  /** PUBLIC_URL of the server under test: its origin and host name (the RP id). */
  origin: string;
  /** Whether the device says it checked its owner (the default); a passkey alone needs it. */
  userVerified?: boolean;
}

export interface SoftAuthenticator {
  credentialId: string;
  /** The answer to registration options (RegistrationResponseJSON). */
  register(options: { challenge: string }): object;
  /** The answer to authentication options (AuthenticationResponseJSON), signed by this passkey. */
  authenticate(options: { challenge: string }, overrides?: { origin?: string }): object;
}

export function softAuthenticator({ origin, userVerified = true }: Options): SoftAuthenticator {
  const rpIdHash = sha256(new URL(origin).hostname);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(32);
  let counter = 0;
  const flags = UP | (userVerified ? UV : 0);

  const authData = (extra: number, body: Uint8Array = new Uint8Array()) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([rpIdHash, Buffer.from([flags | extra]), count, body]);
  };
  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  return {
    credentialId: b64url(credentialId),
    register({ challenge }) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData(AT, attested))],
        ]) as never,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    authenticate({ challenge }, overrides = {}) {
      counter += 1;
      const data = authData(0);
      const client = clientData('webauthn.get', challenge, overrides.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}

/** The public key as COSE (EC2, ES256, P-256), as an authenticator reports it. */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]) as never,
  );
}
