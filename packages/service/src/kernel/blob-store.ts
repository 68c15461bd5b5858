import { createHash } from 'node:crypto';
import { deleteBlob, type Executor, findBlob, insertBlob } from '@cartwright/repository';
import type { IdSource } from './ids.ts';

export interface StoredBlob {
  readonly id: string;
  readonly size: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
}

export interface BlobContent {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
}

/**
 * Where file bytes live (documents, download assets). Writes and reads run in the caller's
 * transaction, so a file and the row naming it commit or roll back together.
 */
export interface BlobStore {
  put(
    tx: Executor,
    tenantId: string,
    file: { readonly bytes: Uint8Array; readonly contentType: string },
  ): Promise<StoredBlob>;
  get(tx: Executor, tenantId: string, id: string): Promise<BlobContent | null>;
  /** Forgets a blob nothing names any more; true when it existed. */
  delete(tx: Executor, tenantId: string, id: string): Promise<boolean>;
}

/** Keeps bytes in the `blobs` table: works on PGlite and PostgreSQL, and every replica reads the same. */
export function databaseBlobStore(ids: IdSource): BlobStore {
  return {
    async put(tx, tenantId, { bytes, contentType }) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const row = await insertBlob(tx, {
        tenantId,
        id: ids.next(),
        contentType,
        size: bytes.byteLength,
        sha256,
        bytes,
      });
      return { id: row.id, size: row.size, sha256: row.sha256 };
    },
    async get(tx, tenantId, id) {
      const row = await findBlob(tx, tenantId, id);
      if (!row) return null;
      // postgres.js answers a Buffer, PGlite a Uint8Array: hand out a plain Uint8Array either way.
      const bytes = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      return { bytes, contentType: row.contentType, size: row.size, sha256: row.sha256 };
    },
    delete: (tx, tenantId, id) => deleteBlob(tx, tenantId, id),
  };
}
