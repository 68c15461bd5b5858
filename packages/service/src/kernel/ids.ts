import { v7 as uuidv7 } from 'uuid';

/** Where new ids come from (UUIDv7 in production). */
export interface IdSource {
  next(): string;
}

export const uuidV7Ids: IdSource = { next: () => uuidv7() };
