import {
  type BasisArea,
  type BasisFields,
  type BasisRow,
  deleteBasis,
  type Executor,
  findBasis,
  findReferences,
  findTenant,
  listBasis,
  saveBasis,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../auth.ts';
import { type Failure, fail, ok } from '../errors.ts';
import { recordEvent } from '../events.ts';
import { type AnyOperation, defineOperation } from '../registry.ts';
import { iso, LanguageCode, Revision, Timestamp, TranslationsOf, Uuid } from '../schemas.ts';

// The shared basis of a shop, one resource per table, all with the same three operations:
// list, revision-bound save (create with revision 0, replace with the stored revision) and
// revision-bound delete. One factory makes them, so every resource behaves the same.

type Body = v.ObjectEntries;

interface BasisResource<A extends BasisArea, E extends Body> {
  readonly area: A;
  /** Tool name segment and URL segment: `basis.<name>.list`, `/api/basis/<path>`. */
  readonly name: string;
  readonly path: string;
  readonly noun: string;
  readonly keyParam: 'code' | 'id';
  readonly keySchema: v.GenericSchema<string>;
  /** The body fields of a save, besides `revision`. */
  readonly fields: E;
  /** Domain checks of a save beyond the schema (a failure changes nothing). */
  readonly check?: (
    tx: Executor,
    tenantId: string,
    input: v.InferOutput<v.ObjectSchema<E, undefined>>,
    current: BasisRow<A> | undefined,
  ) => Promise<Failure | null>;
  /** Why a delete is refused besides references (e.g. the main language). */
  readonly guardDelete?: (tx: Executor, tenantId: string, key: string) => Promise<Failure | null>;
}

function viewOf(row: object): Record<string, unknown> {
  const {
    tenantId: _,
    createdAt,
    updatedAt,
    ...rest
  } = row as { tenantId: string; createdAt: Date; updatedAt: Date };
  return { ...rest, createdAt: iso(createdAt), updatedAt: iso(updatedAt) };
}

function basisOperations<A extends BasisArea, E extends Body>(resource: BasisResource<A, E>): AnyOperation[] {
  const { area, keyParam } = resource;
  const Fields = v.object(resource.fields);
  const Record = v.object({
    [keyParam]: resource.keySchema,
    ...resource.fields,
    revision: v.number(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  });
  const prefix = `basis.${resource.name}`;
  const path = `/api/basis/${resource.path}`;

  const list = defineOperation({
    name: `${prefix}.list`,
    summary: `The shop's ${resource.noun}s.`,
    http: { method: 'GET', path },
    permission: 'settings.read',
    readOnly: true,
    input: v.object({}),
    output: v.object({ items: v.array(Record) }),
    async handler({ services, tenantId }) {
      const rows = await listBasis(services.database.db, area, tenantId);
      return ok({ items: rows.map(viewOf) as v.InferOutput<typeof Record>[] });
    },
  });

  const save = defineOperation({
    name: `${prefix}.save`,
    summary: `Creates (revision 0) or replaces (the stored revision) a ${resource.noun}.`,
    http: { method: 'PUT', path: `${path}/:${keyParam}` },
    permission: 'settings.write',
    readOnly: false,
    input: v.object({ [keyParam]: resource.keySchema, revision: Revision, ...resource.fields }),
    output: Record,
    async handler({ services, tenantId, principal }, input) {
      const key = (input as Record<string, unknown>)[keyParam] as string;
      const { revision, ...rest } = input as { revision: number } & Record<string, unknown>;
      const fields = v.parse(Fields, rest);
      return services.database.transaction(async (tx) => {
        const current = await findBasis(tx, area, tenantId, key);
        const refused = await resource.check?.(tx, tenantId, fields, current);
        if (refused) return refused;
        const saved = await saveBasis(
          tx,
          area,
          tenantId,
          key,
          revision,
          { ...fields, [keyParam]: key } as unknown as BasisFields<A>,
          services.clock.now(),
        );
        if (!saved.ok) return staleRevision(revision, saved.actual);
        await recordEvent(tx, services, tenantId, actorOf(principal), `basis.${resource.name}.saved`, {
          key,
          revision: saved.row.revision,
        });
        return ok(viewOf(saved.row) as v.InferOutput<typeof Record>);
      });
    },
  });

  const remove = defineOperation({
    name: `${prefix}.delete`,
    summary: `Deletes a ${resource.noun} at its stored revision; refused while anything references it.`,
    http: { method: 'DELETE', path: `${path}/:${keyParam}` },
    permission: 'settings.write',
    readOnly: false,
    input: v.object({ [keyParam]: resource.keySchema, revision: Revision }),
    output: v.object({ [keyParam]: resource.keySchema, deleted: v.literal(true) }),
    async handler({ services, tenantId, principal }, input) {
      const key = (input as Record<string, unknown>)[keyParam] as string;
      return services.database.transaction(async (tx) => {
        const current = await findBasis(tx, area, tenantId, key);
        if (!current) return fail('NOT_FOUND', `No ${resource.noun} ${key} exists in this shop.`);
        const guarded = await resource.guardDelete?.(tx, tenantId, key);
        if (guarded) return guarded;
        const references = await findReferences(tx, tenantId, key);
        if (references.length > 0) {
          return fail('REFERENCED', `The ${resource.noun} is still referenced; deactivate it instead.`, {
            extensions: { references },
          });
        }
        const { revision } = input as { revision: number };
        const deleted = await deleteBasis(tx, area, tenantId, key, revision);
        if (!deleted.ok) return staleRevision(revision, deleted.actual);
        await recordEvent(tx, services, tenantId, actorOf(principal), `basis.${resource.name}.deleted`, {
          key,
        });
        return ok({ [keyParam]: key, deleted: true as const });
      });
    },
  });
  return [list, save, remove];
}

function staleRevision(expected: number, actual: number): Failure {
  return fail('STALE_REVISION', `The record is at revision ${actual}, not ${expected}: reload and retry.`, {
    extensions: { expected, actual },
  });
}

const CurrencyCode = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as EUR'));
const CountryCode = v.pipe(
  v.string(),
  v.regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE'),
);
const Amount = v.pipe(v.number(), v.integer('expected minor units (an integer)'), v.minValue(0));
const TaxRate = v.pipe(
  v.number(),
  v.integer('expected hundredths of a percent (19 % = 1900)'),
  v.minValue(0),
  v.maxValue(10_000),
);
const Position = v.optional(v.pipe(v.number(), v.integer()), 0);
const Active = v.optional(v.boolean(), true);

async function currenciesExist(
  tx: Executor,
  tenantId: string,
  codes: readonly string[],
): Promise<Failure | null> {
  for (const [index, code] of codes.entries()) {
    if (!(await findBasis(tx, 'currencies', tenantId, code))) {
      return fail('VALIDATION_FAILED', `The currency ${code} is not set up in this shop.`, {
        errors: [{ pointer: `/prices/${index}/currency`, message: 'unknown currency' }],
      });
    }
  }
  return null;
}

export const basisResourceOperations: readonly AnyOperation[] = [
  ...basisOperations({
    area: 'languages',
    name: 'languages',
    path: 'languages',
    noun: 'language',
    keyParam: 'code',
    keySchema: LanguageCode,
    fields: { name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)), active: Active },
    async guardDelete(tx, tenantId, code) {
      const tenant = await findTenant(tx, tenantId);
      return tenant?.mainLanguage === code
        ? fail('CONFLICT', 'The main language of the shop cannot be deleted.')
        : null;
    },
  }),
  ...basisOperations({
    area: 'currencies',
    name: 'currencies',
    path: 'currencies',
    noun: 'currency',
    keyParam: 'code',
    keySchema: CurrencyCode,
    fields: {
      precision: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)),
      symbol: v.pipe(v.string(), v.minLength(1), v.maxLength(8)),
      active: Active,
    },
    async check(_tx, _tenantId, input, current) {
      if (current && current.precision !== input.precision) {
        return fail('CONFLICT', 'The precision of a currency is immutable once created.', {
          errors: [{ pointer: '/precision', message: `stays ${current.precision}` }],
        });
      }
      return null;
    },
  }),
  ...basisOperations({
    area: 'countries',
    name: 'countries',
    path: 'countries',
    noun: 'country',
    keyParam: 'code',
    keySchema: CountryCode,
    fields: {
      translations: TranslationsOf(['name']),
      subdivisions: v.optional(
        v.array(
          v.object({
            code: v.pipe(
              v.string(),
              v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'expected ISO 3166-2 such as DE-BY'),
            ),
            translations: TranslationsOf(['name']),
          }),
        ),
        [],
      ),
      active: Active,
    },
  }),
  ...basisOperations({
    area: 'taxClasses',
    name: 'tax_classes',
    path: 'tax-classes',
    noun: 'tax class',
    keyParam: 'id',
    keySchema: Uuid,
    fields: {
      key: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9_]{1,64}$/))), null),
      translations: TranslationsOf(['name', 'label']),
      rates: v.pipe(
        v.array(v.object({ country: v.nullable(CountryCode), rate: TaxRate })),
        v.check(
          (rates) => rates.some((rate) => rate.country === null),
          'needs a default rate (country null)',
        ),
        v.check(
          (rates) => new Set(rates.map((rate) => rate.country)).size === rates.length,
          'one rate per country',
        ),
      ),
    },
  }),
  ...basisOperations({
    area: 'shippingMethods',
    name: 'shipping_methods',
    path: 'shipping-methods',
    noun: 'shipping method',
    keyParam: 'id',
    keySchema: Uuid,
    fields: {
      key: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9_]{1,64}$/))), null),
      translations: TranslationsOf(['name', 'description']),
      active: Active,
      prices: v.optional(v.array(v.object({ currency: CurrencyCode, gross: Amount, net: Amount })), []),
      taxClassId: v.optional(v.nullable(Uuid), null),
      position: Position,
    },
    async check(tx, tenantId, input) {
      const unknown = await currenciesExist(
        tx,
        tenantId,
        input.prices.map((price) => price.currency),
      );
      if (unknown) return unknown;
      if (input.taxClassId && !(await findBasis(tx, 'taxClasses', tenantId, input.taxClassId))) {
        return fail('VALIDATION_FAILED', 'The tax class does not exist in this shop.', {
          errors: [{ pointer: '/taxClassId', message: 'unknown tax class' }],
        });
      }
      return null;
    },
  }),
  ...basisOperations({
    area: 'paymentMethods',
    name: 'payment_methods',
    path: 'payment-methods',
    noun: 'payment method',
    keyParam: 'id',
    keySchema: Uuid,
    fields: {
      key: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9_]{1,64}$/))), null),
      translations: TranslationsOf(['name', 'description']),
      active: Active,
      handler: v.picklist(['invoice', 'prepayment', 'cash_on_delivery', 'provider']),
      position: Position,
    },
  }),
];
