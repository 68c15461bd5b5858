import type { ReportIssue } from '../issues.ts';
import type { AppPermission, Entity } from '../schema.ts';
import { secretStemOf } from '../secrets.ts';
import { reportDuplicates } from './duplicates.ts';
import { checkFields } from './fields.ts';

/** Entity ids and names, and every entity's fields. */
export function checkEntities(
  entities: readonly Entity[],
  known: ReadonlyMap<string, Entity>,
  permissions: ReadonlySet<AppPermission> | null,
  report: ReportIssue,
): void {
  reportDuplicates(
    entities.map((entity) => entity.id),
    (index) => `/entities/${index}/id`,
    'entity',
    report,
  );
  entities.forEach((entity, index) => {
    // An entity named for credentials would hold them whatever its fields are called.
    const stem = secretStemOf(entity.id);
    if (stem) {
      report(
        'MANIFEST_SECRET_FIELD',
        `/entities/${index}/id`,
        `"${entity.id}" looks like it holds credentials or security settings ("${stem}"); app data may not`,
      );
    }
    checkFields(
      entity.fields,
      `/entities/${index}/fields`,
      {
        kind: 'entity',
        entities: known,
        permissions,
        publicAs: entity.publicRead ? 'a publicRead entity' : null,
      },
      report,
    );
  });
}
