import { describe, expect, it } from 'vitest';
import { PaymentConfigError, readPaymentConfig } from '../src/payments/config.ts';

// Issue 13: provider accounts are server-only configuration; every problem stops start-up with one
// line that names the variable and never repeats a value.

const SHOP = '0190f0c8-0000-7000-8000-00000000aa01';
const SECRET = 'very-secret-client-secret';
const account = (more: Record<string, unknown> = {}) => ({
  clientId: 'client-a',
  clientSecret: SECRET,
  webhookId: 'WH-1',
  bnCode: 'CARTWRIGHT_SP',
  environment: 'sandbox',
  ...more,
});
const accounts = (entries: Record<string, unknown>) => JSON.stringify(entries);

function refusal(variables: Record<string, string>): string {
  try {
    readPaymentConfig(variables);
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a refusal');
}

describe('readPaymentConfig', () => {
  it('answers no accounts when nothing is set', () => {
    expect(readPaymentConfig({})).toEqual({
      accounts: new Map(),
      publicBaseUrl: null,
      contractBaseUrl: null,
    });
  });

  it('reads accounts by exact shop id, from the current or the legacy name', () => {
    for (const name of ['PROVIDER_ACCOUNTS', 'PROVIDER_SANDBOX_ACCOUNTS']) {
      const config = readPaymentConfig({
        [name]: accounts({ [SHOP]: account({ merchantId: 'MERCHANT1' }) }),
        PUBLIC_BASE_URL: 'https://shop.example/',
      });
      expect(config.accounts.get(SHOP)).toMatchObject({ clientId: 'client-a', merchantId: 'MERCHANT1' });
      expect(config.publicBaseUrl).toBe('https://shop.example');
    }
    expect(
      readPaymentConfig({
        PROVIDER_ACCOUNTS: accounts({ [SHOP]: account() }),
        PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      }).accounts.get(SHOP)?.merchantId,
    ).toBeNull();
  });

  it('refuses malformed accounts without repeating a value', () => {
    const base = { PUBLIC_BASE_URL: 'https://shop.example' };
    expect(refusal({ ...base, PROVIDER_ACCOUNTS: `{"${SHOP}": ${SECRET}` })).toMatch(
      /^Invalid PROVIDER_ACCOUNTS: expected a JSON object/,
    );
    expect(refusal({ ...base, PROVIDER_ACCOUNTS: '[]' })).toMatch(/^Invalid PROVIDER_ACCOUNTS/);
    expect(refusal({ ...base, PROVIDER_ACCOUNTS: accounts({ 'shop-a': account() }) })).toMatch(
      /exact shop ids/,
    );
    expect(
      refusal({ ...base, PROVIDER_ACCOUNTS: accounts({ [SHOP]: account({ environment: 'prod' }) }) }),
    ).toMatch(/shop .* bad or unknown environment/);
    expect(
      refusal({ ...base, PROVIDER_ACCOUNTS: accounts({ [SHOP]: account({ clientSecret: '' }) }) }),
    ).toMatch(/clientSecret/);
    expect(
      refusal({ ...base, PROVIDER_ACCOUNTS: accounts({ [SHOP]: account({ apiKey: SECRET }) }) }),
    ).toMatch(/unknown apiKey/);
    expect(
      refusal({
        ...base,
        PROVIDER_ACCOUNTS: accounts({ [SHOP]: account() }),
        PROVIDER_SANDBOX_ACCOUNTS: accounts({ [SHOP]: account() }),
      }),
    ).toMatch(/not both/);
  });

  it('needs a public origin for return URLs, and https for a live account', () => {
    expect(refusal({ PROVIDER_ACCOUNTS: accounts({ [SHOP]: account() }) })).toMatch(
      /^Invalid PUBLIC_BASE_URL: required/,
    );
    expect(
      refusal({
        PROVIDER_ACCOUNTS: accounts({ [SHOP]: account({ environment: 'live' }) }),
        PUBLIC_BASE_URL: 'http://shop.example',
      }),
    ).toMatch(/live account needs an https/);
    expect(refusal({ PUBLIC_BASE_URL: 'ftp://shop.example' })).toMatch(/^Invalid PUBLIC_BASE_URL/);
    expect(refusal({ PUBLIC_BASE_URL: 'https://user:pw@shop.example' })).toMatch(/without credentials/);
  });

  it('accepts only a loopback contract base URL', () => {
    expect(readPaymentConfig({ PROVIDER_CONTRACT_BASE_URL: 'http://127.0.0.1:4010' }).contractBaseUrl).toBe(
      'http://127.0.0.1:4010',
    );
    expect(readPaymentConfig({ PROVIDER_CONTRACT_BASE_URL: 'http://[::1]:4010' }).contractBaseUrl).toBe(
      'http://[::1]:4010',
    );
    expect(readPaymentConfig({ PROVIDER_CONTRACT_BASE_URL: 'http://localhost:4010' }).contractBaseUrl).toBe(
      'http://localhost:4010',
    );
    for (const url of [
      'https://api-m.sandbox.paypal.com',
      'http://10.0.0.5:4010',
      'http://127.0.0.1.nip.io',
    ]) {
      expect(refusal({ PROVIDER_CONTRACT_BASE_URL: url })).toMatch(/only a loopback address/);
    }
  });
});
