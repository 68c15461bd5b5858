import { findCompanyIdentity, saveCompanyIdentity } from '@cartwright/repository';
import * as v from 'valibot';
import { bumpBasisRevision } from '../channels/settings.ts';
import { actorOf } from '../kernel/auth.ts';
import { ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { Revision } from '../kernel/schemas.ts';

const Text = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)));

/** The seller details printed on documents. Unknown fields are rejected, not dropped. */
export const CompanyIdentity = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  street: Text(200),
  zipcode: Text(20),
  city: Text(100),
  country: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(2, 'expected an ISO 3166-1 alpha-2 code such as DE'),
      v.regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE'),
    ),
  ),
  /** The legal name when it differs from `name` (the name shown). */
  companyName: Text(200),
  legalForm: Text(100),
  vatId: Text(50),
  taxNumber: Text(50),
  registrationNumber: Text(100),
  registrationCourt: Text(200),
  managingDirectors: v.optional(
    v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))), v.maxLength(20)),
  ),
  email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200), v.email('expected an email address'))),
  phone: Text(50),
  website: Text(200),
  bankName: Text(100),
  iban: Text(50),
  bic: Text(20),
  legalNotice: Text(2000),
  /** Logo URLs for light and dark backgrounds. */
  logoLight: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000), v.url('expected an absolute URL'))),
  logoDark: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000), v.url('expected an absolute URL'))),
});
export type CompanyIdentity = v.InferOutput<typeof CompanyIdentity>;

const StoredIdentity = v.object({ data: v.nullable(CompanyIdentity), revision: v.number() });

export const getCompany = defineOperation({
  name: 'company.get',
  summary: 'The company identity printed on documents, with its revision (revision 0: not set yet).',
  http: { method: 'GET', path: '/api/company' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({}),
  output: StoredIdentity,
  async handler({ services, tenantId }) {
    const row = await findCompanyIdentity(services.database.db, tenantId);
    return ok(
      row ? { data: row.data as CompanyIdentity, revision: row.revision } : { data: null, revision: 0 },
    );
  },
});

export const saveCompany = defineOperation({
  name: 'company.save',
  summary: 'Creates (revision 0) or replaces (the stored revision) the company identity of the shop.',
  http: { method: 'PUT', path: '/api/company' },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({ revision: Revision, data: CompanyIdentity }),
  output: StoredIdentity,
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      const saved = await saveCompanyIdentity(tx, tenantId, input.revision, input.data, services.clock.now());
      if (!saved.ok) return staleRevision(input.revision, saved.actual);
      // Channels inherit the identity field by field: it is part of the shared basis.
      await bumpBasisRevision(tx, tenantId);
      await recordEvent(tx, services, tenantId, actorOf(principal), 'company.saved', {
        revision: saved.row.revision,
      });
      return ok({ data: saved.row.data as CompanyIdentity, revision: saved.row.revision });
    });
  },
});

export const companyOperations = [getCompany, saveCompany];
