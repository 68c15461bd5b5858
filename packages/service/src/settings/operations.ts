import { AppId } from '@cartwright/app-manifest';
import {
  type BasisArea,
  basisTables,
  type Executor,
  findApp,
  findBasis,
  findTenant,
  listProductIdsPricedIn,
  listRevisioned,
} from '@cartwright/repository';
import * as v from 'valibot';
import { manifestOf } from '../apps/lifecycle.ts';
import { TaxRuleFields, taxRuleFailure, unknownSavedRules } from '../channels/records.ts';
import { bumpBasisRevision } from '../channels/settings.ts';
import { fail } from '../kernel/errors.ts';
import type { AnyOperation } from '../kernel/registry.ts';
import { type RevisionBoundResource, revisionBoundOperations } from '../kernel/revision-bound.ts';
import {
  Active,
  Amount,
  CurrencyCode,
  LanguageCode,
  Position,
  TranslationsOf,
  Uuid,
} from '../kernel/schemas.ts';
import { currenciesExist } from './currencies.ts';
import { type LanguageUse, refuseDisabledLanguages, translationLanguages } from './languages.ts';

// The shared basis of a shop, one resource per table, all made by the revision-bound factory:
// `basis.<name>.list|save|delete` under `/api/basis/<path>`, guarded by the settings permissions.

type BasisResource<A extends BasisArea, E extends v.ObjectEntries> = Omit<
  RevisionBoundResource<(typeof basisTables)[A], E>,
  'table' | 'name' | 'path' | 'event' | 'permissions'
> & { readonly area: A; readonly name: string; readonly path: string };

function basisOperations<A extends BasisArea, E extends v.ObjectEntries>(
  resource: BasisResource<A, E>,
): AnyOperation[] {
  const { area, name, path, check, ...rest } = resource;
  return revisionBoundOperations({
    ...rest,
    // Translated texts (and a country's subdivisions') are content: in enabled languages only.
    async check(tx, tenantId, input, current, key) {
      const refused = await refuseDisabledLanguages(tx, { tenantId }, basisLanguages(input));
      return refused ?? (await check?.(tx, tenantId, input, current, key)) ?? null;
    },
    table: basisTables[area],
    name: `basis.${name}`,
    path: `/api/basis/${path}`,
    event: `basis.${name}`,
    permissions: { read: 'settings.read', write: 'settings.write' },
    // Every basis write moves the shop's basis revision: channel saves name the one they saw.
    afterWrite: bumpBasisRevision,
  });
}

/** The languages a basis record's texts are in: its `translations` and its subdivisions'. */
function basisLanguages(input: { translations?: unknown; subdivisions?: unknown }): LanguageUse[] {
  const subdivisions = Array.isArray(input.subdivisions) ? input.subdivisions : [];
  return [
    ...translationLanguages(input.translations, ['translations']),
    ...subdivisions.flatMap((subdivision: { translations?: unknown }, index) =>
      translationLanguages(subdivision.translations, ['subdivisions', String(index), 'translations']),
    ),
  ];
}

/**
 * Refuses a tax class id the shop does not have; the class found is held FOR SHARE until the
 * transaction ends, so its delete waits and then sees the new use.
 */
async function unknownTaxClass(tx: Executor, tenantId: string, taxClassId: string | null) {
  if (taxClassId === null || (await findBasis(tx, 'taxClasses', tenantId, taxClassId, 'share'))) return null;
  return fail('VALIDATION_FAILED', 'The tax class does not exist in this shop.', {
    errors: [{ pointer: '/taxClassId', message: 'unknown tax class' }],
  });
}

const CountryCode = v.pipe(
  v.string(),
  v.maxLength(2, 'expected an ISO 3166-1 alpha-2 code such as DE'),
  v.regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE'),
);
/** A stable key for programs (`standard`, `dhl_express`). */
const BasisKey = v.optional(
  v.nullable(v.pipe(v.string(), v.maxLength(64), v.regex(/^[a-z0-9_]{1,64}$/, 'expected a-z, 0-9 and _'))),
  null,
);
const TaxRate = v.pipe(
  v.number(),
  v.integer('expected hundredths of a percent (19 % = 1900)'),
  v.minValue(0),
  v.maxValue(10_000),
);
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
    async findUses(tx, tenantId, code) {
      const priced = await listProductIdsPricedIn(tx, tenantId, code, 100);
      return priced.map((id) => ({ kind: 'product', id }));
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
              v.maxLength(6, 'expected ISO 3166-2 such as DE-BY'),
              v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'expected ISO 3166-2 such as DE-BY'),
            ),
            translations: TranslationsOf(['name']),
          }),
        ),
        [],
      ),
      active: Active,
    },
    // A tax destination rule of the basis names the country and maybe one of its subdivisions:
    // every channel inherits it, so neither may go from under it.
    async check(tx, tenantId, input, _current, code) {
      const subdivisions = new Set(input.subdivisions.map((subdivision) => subdivision.code));
      const orphaned = (await listRevisioned(tx, basisTables.taxRules, tenantId)).filter(
        (rule) => rule.country === code && rule.state !== null && !subdivisions.has(rule.state),
      );
      if (orphaned.length === 0) return null;
      return fail('REFERENCED', 'A tax destination rule names a subdivision the save removes.', {
        extensions: {
          references: orphaned.map((rule) => ({ kind: 'tax_rule', id: rule.id, key: rule.state })),
        },
      });
    },
    async findUses(tx, tenantId, code) {
      const rules = await listRevisioned(tx, basisTables.taxRules, tenantId);
      return rules.filter((rule) => rule.country === code).map((rule) => ({ kind: 'tax_rule', id: rule.id }));
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
      key: BasisKey,
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
    area: 'taxRules',
    name: 'tax_rules',
    path: 'tax-rules',
    noun: 'tax destination rule',
    keyParam: 'id',
    keySchema: Uuid,
    // The fields a channel's effective tax rules have: channels inherit these rules (decision 0049).
    fields: TaxRuleFields,
    async check(tx, tenantId, input, _current, id) {
      // Held FOR SHARE: the country, the saved rule and the tax class cannot be deleted meanwhile.
      const country = await findBasis(tx, 'countries', tenantId, input.country, 'share');
      const countries = country ? { [country.code]: { subdivisions: country.subdivisions } } : {};
      const invalid = taxRuleFailure(countries, id, input, '');
      if (invalid) return invalid;
      const unknownRule = await unknownSavedRules(tx, tenantId, [{ pointer: '', ruleId: input.ruleId }]);
      if (unknownRule) return unknownRule;
      return unknownTaxClass(tx, tenantId, input.taxClassId);
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
      key: BasisKey,
      translations: TranslationsOf(['name', 'description']),
      active: Active,
      prices: v.optional(v.array(v.object({ currency: CurrencyCode, gross: Amount, net: Amount })), []),
      taxClassId: v.optional(v.nullable(Uuid), null),
      /** The installed app whose `shipping.rate` prices the method in every cart; `prices` then go unused. */
      appId: v.optional(v.nullable(AppId), null),
      position: Position,
    },
    async check(tx, tenantId, input) {
      const unknown = await currenciesExist(
        tx,
        tenantId,
        input.prices.map((price) => price.currency),
      );
      if (unknown) return unknown;
      const unknownClass = await unknownTaxClass(tx, tenantId, input.taxClassId);
      if (unknownClass) return unknownClass;
      // Checked now for the merchant's sake; pricing checks again on every cart, since the app can
      // be uninstalled or upgraded without its shipping role later.
      const app = input.appId ? await findApp(tx, tenantId, input.appId) : undefined;
      if (input.appId && !(app && manifestOf(app).shipping)) {
        return fail(
          'VALIDATION_FAILED',
          'No app installed in this shop computes shipping rates by that id.',
          {
            errors: [{ pointer: '/appId', message: 'not an installed app with a shipping rate' }],
          },
        );
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
      key: BasisKey,
      translations: TranslationsOf(['name', 'description']),
      active: Active,
      handler: v.picklist(['invoice', 'prepayment', 'cash_on_delivery', 'provider', 'app']),
      /** For handler `app`: the installed app whose `payment` actions take the money. */
      appId: v.optional(v.nullable(AppId), null),
      position: Position,
    },
    async check(tx, tenantId, input) {
      if (input.handler !== 'app') {
        return input.appId === null
          ? null
          : fail('VALIDATION_FAILED', 'Only a payment method with handler app names an app.', {
              errors: [{ pointer: '/appId', message: 'only with handler app' }],
            });
      }
      // Checked now for the merchant's sake; checkout checks again, since the app can be
      // uninstalled or upgraded without its payment role later.
      const app = input.appId ? await findApp(tx, tenantId, input.appId) : undefined;
      if (!(app && manifestOf(app).payment)) {
        return fail('VALIDATION_FAILED', 'Handler app needs an installed app that serves payments.', {
          errors: [{ pointer: '/appId', message: 'not an installed app with a payment method' }],
        });
      }
      return null;
    },
  }),
];
