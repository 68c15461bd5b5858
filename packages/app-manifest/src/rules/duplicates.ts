import type { ReportIssue } from '../issues.ts';

/** Reports every repeat of an id after its first occurrence, at the repeat's pointer. */
export function reportDuplicates(
  ids: readonly string[],
  pointerAt: (index: number) => string,
  what: string,
  report: ReportIssue,
): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) report('MANIFEST_DUPLICATE_ID', pointerAt(index), `${what} "${id}" is declared twice`);
    seen.add(id);
  });
}
