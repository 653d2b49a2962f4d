// Queue reads for staff: folder counts now; lists, search and bulk moves build on the same queue filters.
import type { Kysely } from 'kysely';
import type { FolderCounts } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { selectFolderCounts } from './folder-counts.repository.js';

export class OrdersService {
  constructor(private readonly db: Kysely<DB>) {}

  /** Counts for the signed-in staff member; `userName` of the spec's call is not trusted for "My Orders". */
  folderCounts(staffId: number): Promise<FolderCounts> {
    return selectFolderCounts(this.db, staffId);
  }
}
