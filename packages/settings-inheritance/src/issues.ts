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
 * Overrides (or a patch) refused where valid input is a precondition: resolving, patching. It has
 * the shape of `@cartwright/commerce`'s `Failure` (`code` and `detail` name the first issue) and
 * carries every issue with its pointer, so a service answers it like `validateOverrides`' list.
 * `issues` is never empty.
 */
export interface SettingsRefusal {
  readonly ok: false;
  readonly code: OverrideIssueCode;
  readonly detail: string;
  readonly issues: readonly OverrideIssue[];
}

/** What resolving and patching return instead of throwing. */
export type SettingsResult<T> = { readonly ok: true; readonly value: T } | SettingsRefusal;

/** The refusal of `issues`, in the words `SettingsInheritanceError` used before decision 0024. */
export function refuse(issues: readonly [OverrideIssue, ...OverrideIssue[]]): SettingsRefusal {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return {
    ok: false,
    code: first.code,
    detail: `Invalid settings overrides: ${first.code} at "${first.pointer}": ${first.message}${more}`,
    issues,
  };
}
