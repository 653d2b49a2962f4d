// argon2id (the library's default algorithm) with its defaults m=19 MiB, t=2, p=1: OWASP's recommended minimum.
import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (plain: string): Promise<string> => hash(plain);

export const verifyPassword = async (stored: string, plain: string): Promise<boolean> => {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
};

/** A hash of a random password: verified against when the e-mail is unknown, so both paths cost the same. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(crypto.randomUUID()));
