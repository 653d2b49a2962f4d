// The data keys' life (issue 24): made on the first start, unwrapped on every start (a wrong DATA_KEY stops the
// process here, with the line the operator needs), re-wrapped under a new master key by `npm run keys:rotate`.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { SealedValueError } from '../../lib/crypto/aes-gcm.js';
import { DATA_KEY_KINDS, Keyring, type DataKey, type DataKeyKind } from '../../lib/crypto/keyring.js';
import { LocalMasterKey, loadOrCreateMasterKey, type MasterKey } from '../../lib/crypto/master-key.js';
import type { Config } from '../../lib/config.js';
import {
  insertDataKey,
  lockDataKeys,
  nextDataKeyId,
  selectDataKeys,
  updateWrappedKey,
} from './data-keys.repository.js';

/** DATA_KEY, and during a rotation DATA_KEY_PREVIOUS (accepted for unwrapping only). */
export interface MasterKeys {
  current: MasterKey;
  previous?: MasterKey | undefined;
}

/** DATA_KEY (or, for a trial desk without it, the key made once in DATA_DIR/secrets) and DATA_KEY_PREVIOUS. */
export async function configuredMasterKeys(
  config: Pick<Config, 'dataKey' | 'dataKeyPrevious' | 'dataDir'>,
): Promise<MasterKeys> {
  return {
    current: new LocalMasterKey(config.dataKey ?? (await loadOrCreateMasterKey(config.dataDir))),
    previous: config.dataKeyPrevious && new LocalMasterKey(config.dataKeyPrevious),
  };
}

/** The data keys cannot be opened with the master keys given; the message is what the operator reads. */
export class DataKeyError extends Error {}

type DataKeyRow = Awaited<ReturnType<typeof selectDataKeys>>[number];

/** What a wrapping is bound to: a wrapped key moved to another row or kind does not unwrap. */
const wrapContext = (id: number, kind: DataKeyKind) => `eta-desk data key ${id} ${kind}`;

function masterOf(row: DataKeyRow, masters: MasterKeys): MasterKey {
  const { current, previous } = masters;
  const master = [current, previous].find((m) => m?.fingerprint === row.master_fingerprint);
  if (master) return master;
  const given = previous
    ? `DATA_KEY's fingerprint is ${current.fingerprint} and DATA_KEY_PREVIOUS's is ${previous.fingerprint}`
    : `DATA_KEY's fingerprint is ${current.fingerprint}`;
  throw new DataKeyError(
    `DATA_KEY does not open this database's data keys: the ${row.kind} data key (id ${row.id}) was wrapped by the ` +
      `master key with fingerprint ${row.master_fingerprint}, and ${given}. Start with the DATA_KEY this database ` +
      'was encrypted with (during a rotation: the new key as DATA_KEY and the old one as DATA_KEY_PREVIOUS).',
  );
}

async function unwrapRow(row: DataKeyRow, masters: MasterKeys): Promise<DataKey> {
  const master = masterOf(row, masters);
  try {
    // PGlite answers bytea as a Uint8Array, node-postgres as a Buffer.
    const wrapped = Buffer.from(row.wrapped);
    return { id: row.id, kind: row.kind, key: await master.unwrap(wrapped, wrapContext(row.id, row.kind)) };
  } catch (err) {
    if (!(err instanceof SealedValueError)) throw err;
    throw new DataKeyError(
      `The ${row.kind} data key (id ${row.id}) does not unwrap with the master key ${master.fingerprint} that it ` +
        'names: its data_keys row was altered or damaged. Restore that row from a backup.',
    );
  }
}

async function createDataKey(db: Kysely<DB>, kind: DataKeyKind, master: MasterKey): Promise<DataKey> {
  const id = await nextDataKeyId(db);
  const key = randomBytes(32);
  const wrapped = await master.wrap(key, wrapContext(id, kind));
  await insertDataKey(db, { id, kind, wrapped, fingerprint: master.fingerprint });
  return { id, kind, key };
}

/**
 * Every data key unwrapped (a key that does not unwrap stops start-up with a DataKeyError), and a first one of each
 * kind made under DATA_KEY where there is none: a new database, or one from before migration 021.
 */
export async function openKeyring(db: Kysely<DB>, masters: MasterKeys): Promise<Keyring> {
  const keys = await db.transaction().execute(async (trx) => {
    await lockDataKeys(trx);
    const unwrapped = await Promise.all((await selectDataKeys(trx)).map((row) => unwrapRow(row, masters)));
    for (const kind of DATA_KEY_KINDS) {
      if (!unwrapped.some((k) => k.kind === kind)) unwrapped.push(await createDataKey(trx, kind, masters.current));
    }
    return unwrapped;
  });
  return new Keyring(keys, async () => {
    const rows = await selectDataKeys(db);
    const known = new Set(keys.map((k) => k.id));
    const newer = await Promise.all(rows.filter((r) => !known.has(r.id)).map((row) => unwrapRow(row, masters)));
    for (const key of newer) {
      keys.push(key);
      known.add(key.id);
    }
    return newer;
  });
}

export interface RotationSummary {
  /** Data keys now wrapped by DATA_KEY that were wrapped by DATA_KEY_PREVIOUS. */
  rewrapped: number;
  /** Data keys that DATA_KEY wrapped already (a second run changes nothing). */
  alreadyCurrent: number;
  /** New order and document data keys made (--new-data-keys); new values are sealed with them. */
  created: { id: number; kind: DataKeyKind }[];
}

/**
 * `npm run keys:rotate`: every data key re-wrapped by DATA_KEY (each unwrapped with whichever of DATA_KEY and
 * DATA_KEY_PREVIOUS wrapped it), in one transaction; values are not touched, so it takes a moment whatever the data.
 * With `newDataKeys`, a new order and document key too: new values are sealed with them, old values still open with
 * the old ones. The search key is never replaced: its hashes are what the passport index holds.
 */
export async function rotateDataKeys(
  db: Kysely<DB>,
  masters: MasterKeys,
  options: { newDataKeys?: boolean } = {},
): Promise<RotationSummary> {
  return db.transaction().execute(async (trx) => {
    await lockDataKeys(trx);
    const summary: RotationSummary = { rewrapped: 0, alreadyCurrent: 0, created: [] };
    for (const row of await selectDataKeys(trx)) {
      if (row.master_fingerprint === masters.current.fingerprint) {
        await unwrapRow(row, masters); // proves it still unwraps before the run says all is well
        summary.alreadyCurrent += 1;
        continue;
      }
      const { key } = await unwrapRow(row, masters);
      const wrapped = await masters.current.wrap(key, wrapContext(row.id, row.kind));
      await updateWrappedKey(trx, row.id, wrapped, masters.current.fingerprint);
      summary.rewrapped += 1;
    }
    if (options.newDataKeys) {
      for (const kind of ['order', 'document'] as const) {
        const { id } = await createDataKey(trx, kind, masters.current);
        summary.created.push({ id, kind });
      }
    }
    return summary;
  });
}
