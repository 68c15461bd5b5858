import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from './actions.ts';
import { CATALOG_IS_COMPLETE, catalogDocument, findCondition } from './catalog.ts';
import { CONDITIONS } from './conditions/index.ts';
import { LANGUAGES, PARAM_REFERENCE_KINDS } from './model.ts';
import { PARAM_LABELS, PARAM_REFERENCES } from './param-labels.ts';

interface ReferenceParam {
  name: string;
  type: string;
  required: boolean | string;
  choices?: string[];
}
interface ReferenceCondition {
  name: string;
  group: string | null;
  isContainer: boolean;
  params: ReferenceParam[];
  operators: string[];
  productLineItemsOnly?: boolean;
  testStub: boolean;
}

// The reference data, copied into the package (test-data/shopware-6.7/README.md names its source).
const REFERENCE = new URL('../../test-data/shopware-6.7/', import.meta.url);
const reference: ReferenceCondition[] = JSON.parse(
  readFileSync(new URL('conditions.json', REFERENCE), 'utf8'),
);
const referenceActions: { name: string; configKeys: { name: string }[] }[] = JSON.parse(
  readFileSync(new URL('actions.json', REFERENCE), 'utf8'),
);
const concrete = reference.filter((entry) => !entry.testStub);

const DISABLED: Record<string, string> = {
  cartLineItemInGroup:
    'package builders, product provider, sorters and promotion group allocation are not connected',
  promotionCodeOfType: 'promotion line scopes and individual/global/fixed code processing are not connected',
  promotionLineItem: 'promotion line entities and their scope selection are not connected',
  scriptRule: 'no bounded compatible script runtime; arbitrary scripts are not evaluated',
  simple: 'internal helper, not an end-user condition',
  unknown_condition: 'unknown source conditions are rejected, never silently granted',
};

describe('condition catalog', () => {
  it('holds the 114 concrete source conditions with unique names', () => {
    expect(CONDITIONS).toHaveLength(114);
    expect(new Set(CONDITIONS.map((c) => c.name)).size).toBe(114);
    expect(CONDITIONS.map((c) => c.name)).toEqual(concrete.map((c) => c.name));
  });

  it('enables 108 and disables exactly the six with the spec reason', () => {
    expect(CONDITIONS.filter((c) => c.enabled)).toHaveLength(108);
    const disabled = Object.fromEntries(
      CONDITIONS.filter((c) => !c.enabled).map((c) => [c.name, c.disabledReason]),
    );
    expect(disabled).toEqual(DISABLED);
    for (const condition of CONDITIONS.filter((c) => c.enabled))
      expect(condition.disabledReason).toBeUndefined();
  });

  it('claims behavioural parity for no condition and never calls itself complete', () => {
    expect(CONDITIONS.every((c) => c.behavioralParity === false)).toBe(true);
    expect(CATALOG_IS_COMPLETE).toBe(false);
    expect(catalogDocument().isComplete).toBe(false);
  });

  it.each(concrete.map((entry) => [entry.name, entry] as const))(
    '%s matches the reference',
    (name, entry) => {
      const condition = findCondition(name);
      expect(condition).toBeDefined();
      expect(condition?.operators).toEqual(entry.operators);
      expect(condition?.group).toBe(entry.group ?? null);
      expect(condition?.isContainer).toBe(entry.isContainer);
      expect(condition?.productLineItemsOnly).toBe(entry.productLineItemsOnly ?? false);
      expect(
        condition?.params.map((p) => ({
          name: p.name,
          type: p.sourceType,
          required: p.required === 'unlessEmpty' ? 'unless operator=empty' : p.required,
          choices: p.choices,
        })),
      ).toEqual(
        entry.params.map((p) => ({ name: p.name, type: p.type, required: p.required, choices: p.choices })),
      );
      expect(condition?.scopes.length).toBeGreaterThan(0);
    },
  );

  it('returns undefined for an unknown name', () => {
    expect(findCondition('cartCartAmountX')).toBeUndefined();
  });
});

describe('labels', () => {
  const labelled = [...CONDITIONS, ...ACTIONS].map((entry) => [entry.name, entry.labels] as const);
  it.each(labelled)('%s has real labels in en, de, es, fr', (_name, labels) => {
    for (const language of LANGUAGES) expect(labels[language].trim()).not.toBe('');
    expect(new Set(LANGUAGES.map((language) => labels[language])).size).toBeGreaterThan(1);
  });

  it('gives cartCartAmount its translated labels', () => {
    expect(findCondition('cartCartAmount')?.labels).toEqual({
      en: 'Cart amount',
      de: 'Warenkorbwert',
      es: 'Importe del carrito',
      fr: 'Montant du panier',
    });
  });
});

describe('parameter labels and references', () => {
  const params = CONDITIONS.flatMap((condition) =>
    condition.params.map((param) => [`${condition.name}.${param.name}`, param] as const),
  );

  it.each(params)('%s is labelled in en, de, es, fr', (_name, param) => {
    for (const language of LANGUAGES) expect(param.labels[language]?.trim() ?? '').not.toBe('');
  });

  it('labels every one of the 83 parameter names, and only those', () => {
    const names = new Set(params.map(([, param]) => param.name));
    expect(names.size).toBe(83);
    expect(new Set(Object.keys(PARAM_LABELS))).toEqual(names);
  });

  it('marks id parameters with a known kind, and only id parameters', () => {
    const referencing = params.filter(([, param]) => param.references !== undefined);
    for (const [name, param] of referencing) {
      expect(PARAM_REFERENCE_KINDS, name).toContain(param.references);
      expect(['uuid', 'uuid[]'], name).toContain(param.type);
    }
    for (const name of Object.keys(PARAM_REFERENCES)) expect(Object.keys(PARAM_LABELS)).toContain(name);
    expect(
      Object.fromEntries(
        referencing.map(([name, param]) => [name, param.references]).sort(([a], [b]) => (a! < b! ? -1 : 1)),
      ),
    ).toEqual({
      'cartLineItemInCategory.categoryIds': 'category',
      'cartLineItemTaxation.taxIds': 'taxClass',
      'currency.currencyIds': 'currency',
      'customerBillingCountry.countryIds': 'country',
      'customerBillingState.stateIds': 'countryState',
      'customerCustomerGroup.customerGroupIds': 'customerGroup',
      'customerRequestedGroup.customerGroupIds': 'customerGroup',
      'customerShippingCountry.countryIds': 'country',
      'customerShippingState.stateIds': 'countryState',
      'language.languageIds': 'language',
      'paymentMethod.paymentMethodIds': 'paymentMethod',
      'salesChannel.salesChannelIds': 'salesChannel',
      'shippingMethod.shippingMethodIds': 'shippingMethod',
    });
  });

  it('lets a condition narrow a shared name: address states are regions, order states are not', () => {
    const stateIds = (name: string) => findCondition(name)?.params.find((p) => p.name === 'stateIds');
    expect(stateIds('customerBillingState')?.labels.de).toBe('Bundesländer/Regionen');
    expect(stateIds('orderStatus')?.labels.de).toBe('Status');
    expect(stateIds('orderStatus')?.references).toBeUndefined();
  });

  it('answers each parameter with its label in the requested language', () => {
    const amount = catalogDocument('de')
      .conditions.find((c) => c.name === 'cartCartAmount')
      ?.params.map((p) => [p.name, p.label]);
    expect(amount).toEqual([
      ['amount', 'Wert'],
      ['operator', 'Operator'],
    ]);
    const groups = catalogDocument('fr').conditions.find((c) => c.name === 'customerCustomerGroup');
    expect(groups?.params.find((p) => p.name === 'customerGroupIds')).toMatchObject({
      name: 'customerGroupIds',
      label: 'Groupes de clients',
      references: 'customerGroup',
    });
  });
});

describe('actions', () => {
  it('registers the 16 reference actions plus note, ai_proposal and app_action', () => {
    expect(ACTIONS).toHaveLength(19);
    expect(new Set(ACTIONS.map((a) => a.name)).size).toBe(19);
    expect(ACTIONS.filter((a) => a.origin === 'reference').map((a) => a.name)).toEqual(
      referenceActions.map((a) => a.name),
    );
    expect(ACTIONS.filter((a) => a.origin === 'native').map((a) => a.name)).toEqual([
      'note',
      'ai_proposal',
      'app_action',
    ]);
  });

  it('keeps the reference config keys of every source action', () => {
    for (const source of referenceActions) {
      const action = ACTIONS.find((a) => a.name === source.name);
      expect(action?.sourceConfigKeys).toEqual(source.configKeys.map((k) => k.name));
    }
  });

  it('types every config key for an editor, labelled in the four languages', () => {
    for (const action of ACTIONS) {
      for (const key of action.configKeys) {
        for (const language of LANGUAGES) expect(key.labels[language].length, key.name).toBeGreaterThan(0);
        expect(key.input === 'choice', `${action.name}.${key.name}`).toBe((key.choices?.length ?? 0) > 0);
        expect(key.input === 'reference', `${action.name}.${key.name}`).toBe(key.references !== undefined);
      }
    }
    const document = catalogDocument('de');
    const note = document.actions.find((action) => action.name === 'note')!;
    expect(note.configKeys).toEqual([
      expect.objectContaining({ name: 'text', input: 'text', label: 'Notiz' }),
    ]);
    const app = document.actions.find((action) => action.name === 'app_action')!;
    expect(app.configKeys.map((key) => [key.name, key.input, key.references ?? null])).toEqual([
      ['appId', 'reference', 'app'],
      ['action', 'reference', 'appAction'],
      ['input', 'json', null],
    ]);
  });

  it('names the config keys and areas of the spec flow table', () => {
    const keys = (name: string) =>
      ACTIONS.find((a) => a.name === name)?.configKeys.map((k) => [k.name, k.alias ?? null]);
    expect(keys('action.add.order.tag')).toEqual([['tags', 'tagIds']]);
    expect(keys('action.set.order.custom.field')).toEqual([
      ['field', null],
      ['value', null],
    ]);
    expect(keys('action.change.customer.group')).toEqual([['groupId', 'customerGroupId']]);
    expect(keys('action.change.customer.status')).toEqual([['active', null]]);
    expect(keys('action.set.order.state')).toEqual([
      ['kind', null],
      ['state', null],
    ]);
    expect(keys('action.generate.document')).toEqual([['kind', null]]);
    expect(keys('action.grant.download.access')).toEqual([['value', null]]);
    expect(keys('action.mail.send')).toEqual([['templateId', null]]);
    expect(ACTIONS.find((a) => a.name === 'action.generate.document')?.area).toBe('documents');
    expect(ACTIONS.find((a) => a.name === 'ai_proposal')?.area).toBe('knowledge');
  });
});

describe('catalogDocument', () => {
  it('serialises to JSON and back unchanged, labelled in the requested language', () => {
    const document = catalogDocument('de');
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(document.conditions).toHaveLength(114);
    expect(document.actions).toHaveLength(19);
    expect(document.conditions.find((c) => c.name === 'cartCartAmount')?.label).toBe('Warenkorbwert');
    expect(document.conditions.find((c) => c.name === 'scriptRule')?.disabledReason).toBe(
      DISABLED.scriptRule,
    );
    expect(catalogDocument().language).toBe('en');
  });
});
