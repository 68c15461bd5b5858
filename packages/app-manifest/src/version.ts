import * as v from 'valibot';

// Semantic Versioning 2.0.0 without build metadata: precedence ignores build metadata, so two
// versions that differ only there could not be ordered, and a shop's versions must be.
const NUMERIC = '0|[1-9]\\d*';
const PRE_RELEASE_IDENTIFIER = `(?:${NUMERIC}|\\d*[a-zA-Z-][0-9a-zA-Z-]*)`;
const VERSION_PATTERN = new RegExp(
  `^(${NUMERIC})\\.(${NUMERIC})\\.(${NUMERIC})(?:-(${PRE_RELEASE_IDENTIFIER}(?:\\.${PRE_RELEASE_IDENTIFIER})*))?$`,
);

export const VERSION_MAX_LENGTH = 64;

/** An app version: `MAJOR.MINOR.PATCH` with an optional pre-release (`1.4.0-beta.2`), no build metadata. */
export const Version = v.pipe(
  v.string(),
  v.maxLength(VERSION_MAX_LENGTH),
  v.regex(
    VERSION_PATTERN,
    'a version is MAJOR.MINOR.PATCH with an optional pre-release (1.4.0, 1.4.0-beta.2), without leading zeros or build metadata',
  ),
  v.description('Semantic version MAJOR.MINOR.PATCH[-pre.release], without build metadata.'),
);
export type Version = v.InferOutput<typeof Version>;

/** True when `text` is a version `compareVersions` can order. */
export function isVersion(text: string): boolean {
  return text.length <= VERSION_MAX_LENGTH && VERSION_PATTERN.test(text);
}

// Digit strings without leading zeros compare by length first, so numbers past 2^53 still order.
function compareNumeric(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

const isNumeric = (identifier: string) => /^\d+$/.test(identifier);

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = isNumeric(a);
  const bNumeric = isNumeric(b);
  if (aNumeric && bNumeric) return compareNumeric(a, b);
  // Numeric identifiers have lower precedence than alphanumeric ones (semver.org §11.4.3).
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Semver precedence of two versions: negative when `a` is lower, 0 when equal, positive when
 * higher. A pre-release is lower than its release; pre-release identifiers compare one by one.
 * Throws a `TypeError` on text that is not a `Version` (a bug: parse first).
 */
export function compareVersions(a: string, b: string): number {
  const left = VERSION_PATTERN.exec(a);
  const right = VERSION_PATTERN.exec(b);
  if (!left || !right || a.length > VERSION_MAX_LENGTH || b.length > VERSION_MAX_LENGTH) {
    throw new TypeError(`not a version: ${left ? b : a}`);
  }
  for (const index of [1, 2, 3]) {
    const order = compareNumeric(left[index]!, right[index]!);
    if (order !== 0) return order;
  }
  const leftPre = left[4];
  const rightPre = right[4];
  if (leftPre === undefined || rightPre === undefined) {
    if (leftPre === rightPre) return 0;
    return leftPre === undefined ? 1 : -1;
  }
  const leftIds = leftPre.split('.');
  const rightIds = rightPre.split('.');
  for (let index = 0; index < Math.min(leftIds.length, rightIds.length); index++) {
    const order = compareIdentifiers(leftIds[index]!, rightIds[index]!);
    if (order !== 0) return order;
  }
  return Math.sign(leftIds.length - rightIds.length);
}
