/**
 * Stems of names that hold credentials or security configuration. A name matches when its
 * letters and digits, lower-cased and without separators, contain a stem: `API-Key`, `api_key`
 * and `myApiKey2` all contain `apikey`. Short or common words (`key`, `auth`, `pin`) are left
 * out because they are parts of ordinary names (`sort_key`, `author`, `shipping`).
 */
export const SECRET_NAME_STEMS = [
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'credential',
  'apikey',
  'privatekey',
  'signingkey',
  'accesskey',
  'authkey',
  'encryptionkey',
  'masterkey',
  'sharedkey',
  'hmac',
  'bearer',
  'authorization',
  'sessionid',
  'totp',
  'verifyssl',
  'sslverify',
  'verifytls',
  'tlsverify',
  'allowedips',
  'ipallowlist',
  'ipwhitelist',
  'allowedorigins',
] as const;

/**
 * The stem a name matches when it looks like a credential or security configuration, else null.
 * Editor-writable app data may hold neither (spec, Authentication 7).
 */
export function secretStemOf(name: string): string | null {
  const letters = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAME_STEMS.find((stem) => letters.includes(stem)) ?? null;
}
