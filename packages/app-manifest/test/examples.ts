import { readFileSync } from 'node:fs';

const loyaltyFile = new URL('../../../examples/apps/loyalty/manifest.json', import.meta.url);
const loyaltyText = readFileSync(loyaltyFile, 'utf8');

/** A fresh copy of the example app's manifest (examples/apps/loyalty/manifest.json), as JSON. */
export function loyaltyManifest(): Record<string, unknown> {
  return JSON.parse(loyaltyText) as Record<string, unknown>;
}

/** The example manifest's text exactly as committed. */
export function loyaltyManifestText(): string {
  return loyaltyText;
}

/** A change to a JSON document at a pointer: set (an index equal to the length appends) or remove. */
export type Edit = readonly ['set', string, unknown] | readonly ['remove', string];

/** Applies edits to a copy of `document` and answers the copy. */
export function edited<T>(document: T, edits: readonly Edit[]): T {
  const copy = structuredClone(document);
  for (const edit of edits) {
    const keys = edit[1]
      .split('/')
      .slice(1)
      .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    if (last === undefined) throw new Error('an edit names a member, not the whole document');
    let parent: unknown = copy;
    for (const key of keys) parent = (parent as Record<string, unknown>)[key];
    if (typeof parent !== 'object' || parent === null) throw new Error(`no parent for ${edit[1]}`);
    if (Array.isArray(parent)) {
      const index = Number(last);
      if (edit[0] === 'remove') parent.splice(index, 1);
      else parent[index] = edit[2];
    } else if (edit[0] === 'remove') {
      delete (parent as Record<string, unknown>)[last];
    } else {
      (parent as Record<string, unknown>)[last] = edit[2];
    }
  }
  return copy;
}
