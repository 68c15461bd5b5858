/** Every reason an overrides document is refused; a service answers them as its own 422 codes. */
export const OVERRIDE_ISSUE_CODES = [
  'BASIS_ONLY',
  'UNKNOWN_FIELD',
  'UNKNOWN_ID',
  'INVALID_OVERRIDE',
] as const;
export type OverrideIssueCode = (typeof OVERRIDE_ISSUE_CODES)[number];

/** One refused part of an overrides document; `pointer` is its JSON pointer inside the overrides. */
export interface OverrideIssue {
  readonly code: OverrideIssueCode;
  readonly pointer: string;
  readonly message: string;
}

/**
 * Thrown where valid input is a precondition (resolving, patching): it means the caller skipped
 * `validateOverrides` or sent a patch path that continues past a leaf. It carries the issues so a
 * service can still answer them as a client error.
 */
export class SettingsInheritanceError extends Error {
  readonly issues: readonly OverrideIssue[];

  constructor(issues: readonly OverrideIssue[]) {
    const first = issues[0];
    super(
      first
        ? `Invalid settings overrides: ${first.code} at "${first.pointer}": ${first.message}` +
            (issues.length > 1 ? ` (and ${issues.length - 1} more)` : '')
        : 'Invalid settings overrides.',
    );
    this.name = 'SettingsInheritanceError';
    this.issues = issues;
  }
}
