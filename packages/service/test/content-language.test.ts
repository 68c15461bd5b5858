import { listChannels } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  type CreatedShop,
  createServices,
  createShop,
  invokeOperation,
  type Principal,
  type Services,
} from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledLanguages } from '../src/settings/languages.ts';
import { inputSchemaNodes } from './input-schemas.ts';
import { operationNamed, principalOf, successOf } from './principals.ts';

// Content language (decision 0029): which inputs name one, and what "enabled" means for a shop
// and a channel. The refusals over HTTP and MCP are in hosts/http/test/content-language.test.ts.

/** The `LanguageCode` pattern: every input that names a language carries it. */
const LANGUAGE_CODE = '^[a-z]{2}(-[A-Z]{2})?$';

/** Inputs checked by `refuseDisabledLanguages` (`*` an item or value, `<key>` a member name). */
const CHECKED = new Set([
  'basis.countries.save /translations/<key>',
  'basis.countries.save /subdivisions/*/translations/<key>',
  'basis.tax_classes.save /translations/<key>',
  'basis.shipping_methods.save /translations/<key>',
  'basis.payment_methods.save /translations/<key>',
  'catalog.products.create /translations/<key>',
  'catalog.products.update /translations/<key>',
  'catalog.categories.save /translations/<key>',
  'merchant.commerce.read /language',
  'merchant.commerce.save /language',
  'merchant.commerce.save /channel/languages/*',
  'merchant.commerce.save /channel/domains/*/language',
  'merchant.commerce.method /language',
  // The channel save behind the automation door runs the same save (channels/operations.ts).
  'automation.save /language',
  'automation.save /channel/languages/*',
  'automation.save /channel/domains/*/language',
  'store.products.list /language',
  'store.products.get /language',
  'store.reviews.create /language',
  'merchant.media.gallery.read /language',
  'merchant.media.gallery.add /altTexts/<key>',
  'merchant.media.gallery.alt /altTexts/<key>',
  'intelligence.list /language',
  'store.intelligence.recommendations /language',
]);

/** Inputs that name a language but carry no content. */
const NOT_CONTENT = new Set([
  // The operations that set up, enable and delete the languages themselves.
  'basis.languages.save /code',
  'basis.languages.delete /code',
  // A channel's name is an admin label in the platform's UI languages, like a rule's or flow's
  // name (the starter channel is named in en, de, es and fr in every shop).
  'merchant.commerce.save /channel/name/<key>',
  'automation.save /channel/name/<key>',
]);

/** `operation /path` of every input string or member name of the language code pattern. */
function languageInputs(): string[] {
  const found = new Set<string>();
  for (const { operation, schema, path } of inputSchemaNodes()) {
    if (schema.pattern === LANGUAGE_CODE) found.add(`${operation.name} ${path}`);
  }
  return [...found].sort();
}

describe('inputs that name a language', () => {
  it('are each checked as content or listed as no content (a new one must be decided)', () => {
    const decided = (input: string) => CHECKED.has(input) || NOT_CONTENT.has(input);
    expect(languageInputs().filter((input) => !decided(input))).toEqual([]);
  });

  it('include every checked input outside the automation door', () => {
    const found = new Set(languageInputs());
    expect([...CHECKED].filter((input) => !input.startsWith('automation.') && !found.has(input))).toEqual([]);
  });
});

describe('enabledLanguages', () => {
  let services: Services;
  let close: () => Promise<void>;
  let shop: CreatedShop;
  let owner: Principal;
  const call = async (name: string, input: Record<string, unknown>) =>
    successOf(await invokeOperation(services, operationNamed(name), owner, input));

  beforeAll(async () => {
    const database = await createTestDatabase();
    close = () => database.close();
    services = createServices(database);
    shop = await createShop(services, { name: 'Languages', ownerEmail: 'owner@languages.test' });
    owner = await principalOf(services, shop.token);
  });
  afterAll(async () => close?.());

  it('are the shop’s active languages and its main language, which stays enabled when deactivated', async () => {
    await call('basis.languages.save', { code: 'fr', revision: 0, name: 'Français' });
    await call('basis.languages.save', { code: 'de', revision: 0, name: 'Deutsch', active: false });
    await call('basis.languages.save', { code: 'en', revision: 1, name: 'English', active: false });
    const db = services.database.db;
    expect(await enabledLanguages(db, shop.tenantId)).toEqual(['en', 'fr']);
    const [main] = await listChannels(db, shop.tenantId);
    expect(await enabledLanguages(db, shop.tenantId, main!.id)).toEqual(['en', 'fr']);
    // Products still need (and may have) a name in the main language.
    await call('catalog.products.create', { sku: 'EN', translations: { en: { name: 'Tea' } } });
  });

  it('are an additional channel’s own, in its order, as far as the shop enables them', async () => {
    const main = (await listChannels(services.database.db, shop.tenantId)).find((channel) => channel.isMain)!;
    const { baseRevision } = (await call('merchant.commerce.read', { channelId: main.id })) as {
      baseRevision: number;
    };
    const id = '0190f0c8-0000-7000-8000-00000000c1b1';
    await call('merchant.commerce.save', {
      channelId: id,
      revision: 0,
      baseRevision,
      channel: {
        name: { en: 'Suisse' },
        mode: 'headless',
        paused: false,
        private: false,
        languages: ['fr-CH', 'en'],
      },
    });
    // A language the shop deactivates leaves its channels too (fr-CH goes with fr).
    await call('basis.languages.save', { code: 'fr', revision: 1, name: 'Français', active: false });
    expect(await enabledLanguages(services.database.db, shop.tenantId, id)).toEqual(['en']);
    await call('basis.languages.save', { code: 'fr', revision: 2, name: 'Français', active: true });
    expect(await enabledLanguages(services.database.db, shop.tenantId, id)).toEqual(['fr-CH', 'en']);
  });
});
