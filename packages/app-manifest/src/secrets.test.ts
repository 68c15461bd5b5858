import { describe, expect, it } from 'vitest';
import { secretStemOf } from './secrets.ts';

describe('secretStemOf', () => {
  it.each([
    ['password', 'password'],
    ['admin_pwd', 'pwd'],
    ['API-Key', 'apikey'],
    ['api_key', 'apikey'],
    ['myApiKey2', 'apikey'],
    ['private key', 'privatekey'],
    ['webhook_secret', 'secret'],
    ['client.secret', 'secret'],
    ['refresh_token', 'token'],
    ['SigningKey', 'signingkey'],
    ['erp_credentials', 'credential'],
    ['hmac_salt', 'hmac'],
    ['verify_ssl', 'verifyssl'],
    ['allowed_ips', 'allowedips'],
  ])('refuses %j (%s)', (name, stem) => {
    expect(secretStemOf(name)).toBe(stem);
  });

  it.each([
    'customer_id',
    'author',
    'sort_key',
    'shipping_note',
    'points',
    'tier',
    'body',
    'keynote',
    'passage',
  ])('lets %j pass', (name) => {
    expect(secretStemOf(name)).toBeNull();
  });
});
