import { type Failure, fail } from './errors.ts';

// The cursor of a list paged newest change first by (updated_at, id): the last row of a page,
// opaque to callers (base64url of `<ISO time>|<uuid>`), answered as `next` and sent back as `before`.

/** Where a page ends: its last row's change time and id. */
export interface ChangeCursor {
  readonly updatedAt: Date;
  readonly id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeChangeCursor(row: ChangeCursor): string {
  return Buffer.from(`${row.updatedAt.toISOString()}|${row.id}`).toString('base64url');
}

/** The cursor `text` names, or undefined when it is not one a list answered. */
export function decodeChangeCursor(text: string): ChangeCursor | undefined {
  const [at, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const updatedAt = new Date(at ?? '');
  return Number.isNaN(updatedAt.getTime()) || !id || !UUID.test(id) ? undefined : { updatedAt, id };
}

/** The refusal of a cursor no list answered (`pointer`: where the input carried it). */
export function unknownCursor(pointer: string): Failure {
  return fail('VALIDATION_FAILED', 'The cursor is not one this list answered.', {
    errors: [{ pointer, message: 'unknown cursor' }],
  });
}
