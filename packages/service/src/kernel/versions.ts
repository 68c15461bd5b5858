// Version markers clients can read (spec: Versioning). The API document carries them in
// `info` (`x-behavior-version`, `x-provider-api-version`); the payment provider contract's
// own version lives with the ledger (`PROVIDER_API_VERSION`).

/** The spec's version marker of the intelligence, apps and payments behaviour (Versioning 6). */
export const BEHAVIOR_VERSION = 'v0.5';
