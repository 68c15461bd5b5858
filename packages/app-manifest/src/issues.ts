import type { Failure } from '@cartwright/commerce';

/** Every code `parseManifest` answers, in the README's order. */
export const MANIFEST_ISSUE_CODES = [
  'MANIFEST_INVALID',
  'MANIFEST_DUPLICATE_ID',
  'MANIFEST_RESERVED_NAME',
  'MANIFEST_UNKNOWN_REFERENCE',
  'MANIFEST_SECRET_FIELD',
  'MANIFEST_CORE_REFERENCE_FIELD',
  'MANIFEST_PERMISSION_MISSING',
  'MANIFEST_PUBLIC_REFERENCE',
  'MANIFEST_PUBLIC_ACTION',
  'MANIFEST_EMITS_NOT_ALLOWED',
  'MANIFEST_ACTION_KIND',
  'MANIFEST_ACTION_NOT_EMITTING',
  'MANIFEST_BINDING_MISMATCH',
  'MANIFEST_FORM_INCOMPLETE',
  'MANIFEST_CRON_INVALID',
  'MANIFEST_SCHEDULE_INPUT',
  'MANIFEST_CONTRACT_MISMATCH',
  'MANIFEST_PANEL_CONTENT',
] as const;
export type ManifestIssueCode = (typeof MANIFEST_ISSUE_CODES)[number];

export interface ManifestIssue {
  readonly code: ManifestIssueCode;
  /** JSON pointer into the manifest as given. */
  readonly pointer: string;
  readonly message: string;
}

/** A refused manifest: `code` and `detail` name the first issue, `issues` lists them all. */
export interface ManifestRefusal extends Failure<ManifestIssueCode> {
  readonly issues: readonly ManifestIssue[];
}

/** How a rule reports: one call per problem. */
export type ReportIssue = (code: ManifestIssueCode, pointer: string, message: string) => void;
