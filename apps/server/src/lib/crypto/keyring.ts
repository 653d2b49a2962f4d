// The data keys of this desk, unwrapped at start-up (modules/personal-data/data-keys.ts): one per record kind, the
// newest of a kind sealing new values, every one of them still opening what it sealed.
import { createHmac } from 'node:crypto';
import { open, seal, sealedKeyId, SealedValueError } from './aes-gcm.js';

/**
 * 'order': an order's sensitive fields; 'document': stored files; 'search': the keyed hash of passport numbers;
 * 'staff': staff members' second-factor secrets.
 */
export const DATA_KEY_KINDS = ['order', 'document', 'search', 'staff'] as const;
export type DataKeyKind = (typeof DATA_KEY_KINDS)[number];

export interface DataKey {
  id: number;
  kind: DataKeyKind;
  key: Buffer;
}

/** A value sealed under a data key this process does not hold (yet: another process may have just made it). */
export class UnknownDataKeyError extends SealedValueError {}

export class Keyring {
  private readonly byId = new Map<number, DataKey>();
  private readonly newest = new Map<DataKeyKind, DataKey>();

  constructor(
    keys: readonly DataKey[],
    /** Reads the data keys made since this process started (`npm run keys:rotate -- --new-data-keys`). */
    private readonly loadNewer?: () => Promise<DataKey[]>,
  ) {
    this.add(keys);
    for (const kind of DATA_KEY_KINDS) {
      if (!this.newest.has(kind)) throw new Error(`no ${kind} data key`);
    }
  }

  private add(keys: readonly DataKey[]): void {
    for (const key of keys) {
      this.byId.set(key.id, key);
      const newest = this.newest.get(key.kind);
      if (!newest || key.id > newest.id) this.newest.set(key.kind, key);
    }
  }

  /** Whether the key of `id` is held. */
  holds(id: number): boolean {
    return this.byId.has(id);
  }

  /**
   * Runs `use` (which opens values), and once more after reading newer data keys if it met a key it does not hold:
   * a server started before a rotation made new data keys reads what a newer server sealed with them.
   */
  async withNewerKeys<T>(use: () => T): Promise<T> {
    try {
      return use();
    } catch (err) {
      if (!(err instanceof UnknownDataKeyError) || !this.loadNewer) throw err;
      this.add(await this.loadNewer());
      return use();
    }
  }

  /** The key new values of `kind` are sealed with. */
  current(kind: DataKeyKind): DataKey {
    return this.newest.get(kind)!;
  }

  /** The key of `id`, which must be of `kind`: a value sealed under another kind's key is refused. */
  key(id: number, kind: DataKeyKind): DataKey {
    const key = this.byId.get(id);
    if (!key) throw new UnknownDataKeyError(`sealed with data key ${id}, which this process does not hold`);
    if (key.kind !== kind) throw new SealedValueError(`data key ${id} is a ${key.kind} key, not a ${kind} key`);
    return key;
  }

  seal(kind: DataKeyKind, plaintext: Buffer, aad: Buffer): Buffer {
    const key = this.current(kind);
    return seal(key.key, key.id, plaintext, aad);
  }

  open(kind: DataKeyKind, sealed: Buffer, aad: Buffer): Buffer {
    return open(this.key(sealedKeyId(sealed), kind).key, sealed, aad);
  }

  /**
   * HMAC-SHA256 under the search key: equal inputs give equal hashes, so an exact value can be looked up by its hash
   * in an index, and without the key a hash tells nothing (a passport number's few digits cannot be tried offline).
   * The search key is never replaced (rotation re-wraps it only): a new one would orphan every stored hash.
   */
  keyedHash(text: string): Buffer {
    return createHmac('sha256', this.current('search').key).update(text).digest();
  }
}
