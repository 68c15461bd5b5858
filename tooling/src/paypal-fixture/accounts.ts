import { type ApiFamily, errorReply, type Reply } from './errors.ts';
import { isoSeconds, newAccessToken, newDebugId, newNonce, newResourceId } from './identifiers.ts';

/** A merchant's REST app as registered with the fixture: one per shop. */
export interface FixtureAccountInput {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Shown as `purchase_units[].payee.merchant_id` and on captures (§2.4, §4.2). */
  readonly merchantId: string;
  /** The app's webhook subscription id, the only `webhook_id` that verifies its events (§5.4). */
  readonly webhookId: string;
  /** `payee.email_address`; defaults to one derived from the merchant id. */
  readonly email?: string;
  /** Overrides the fixture's token lifetime for this account. */
  readonly tokenExpiresInSeconds?: number;
  /** Merchant profile blocks duplicate invoice ids (§2.1 `invoice_id`); default true. */
  readonly blocksDuplicateInvoiceIds?: boolean;
}

export interface FixtureAccount {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly merchantId: string;
  readonly webhookId: string;
  readonly email: string;
  readonly appId: string;
  readonly tokenExpiresInSeconds: number;
  readonly blocksDuplicateInvoiceIds: boolean;
}

interface IssuedToken {
  readonly accessToken: string;
  readonly clientId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
  revoked: boolean;
}

/** Scopes in the §1 sample's style: space-delimited URIs. */
const SCOPE = [
  'https://uri.paypal.com/services/payments/payment/authcapture',
  'https://uri.paypal.com/services/payments/refund',
  'https://uri.paypal.com/services/applications/webhooks',
  'https://uri.paypal.com/services/applications/verify-webhook-signature',
  'openid',
].join(' ');

export type Authentication =
  | { readonly ok: true; readonly account: FixtureAccount }
  | { readonly ok: false; readonly reply: Reply };

/** OAuth-style bodies (§1) are not the standard error body; they still carry a debug id header. */
function oauthError(status: number, error: string, description: string): Reply {
  return {
    status,
    headers: { 'paypal-debug-id': newDebugId() },
    body: { error, error_description: description },
  };
}

function basicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

/** The registered apps and the tokens issued to them (§1). */
export function createAccounts(options: { now: () => number; tokenExpiresInSeconds: number }) {
  const accounts = new Map<string, FixtureAccount>();
  const tokens = new Map<string, IssuedToken>();

  function isLive(token: IssuedToken): boolean {
    return !token.revoked && options.now() < token.expiresAt;
  }

  return {
    add(input: FixtureAccountInput): FixtureAccount {
      if (accounts.has(input.clientId)) throw new Error(`account ${input.clientId} is already registered`);
      const account: FixtureAccount = {
        clientId: input.clientId,
        clientSecret: input.clientSecret,
        merchantId: input.merchantId,
        webhookId: input.webhookId,
        email: input.email ?? `merchant-${input.merchantId.toLowerCase()}@example.com`,
        appId: `APP-${newResourceId()}`,
        tokenExpiresInSeconds: input.tokenExpiresInSeconds ?? options.tokenExpiresInSeconds,
        blocksDuplicateInvoiceIds: input.blocksDuplicateInvoiceIds ?? true,
      };
      accounts.set(account.clientId, account);
      return account;
    },

    get(clientId: string): FixtureAccount | undefined {
      return accounts.get(clientId);
    },

    /**
     * `POST /v1/oauth2/token` (§1): Basic auth, `grant_type=client_credentials` from the form body
     * or the query string. Like PayPal, a live token is handed out again with its remaining lifetime.
     */
    issueToken(authorization: string | undefined, grantType: string | null): Reply {
      const credentials = basicCredentials(authorization);
      const account = credentials && accounts.get(credentials.clientId);
      if (!account || account.clientSecret !== credentials.secret) {
        return oauthError(401, 'invalid_client', 'Client Authentication failed');
      }
      if (grantType === null || grantType === '')
        return oauthError(400, 'unsupported_grant_type', 'Grant Type is NULL');
      if (grantType !== 'client_credentials') {
        return oauthError(400, 'unsupported_grant_type', `unsupported grant_type ${grantType}`);
      }
      const now = options.now();
      let token = [...tokens.values()].find((entry) => entry.clientId === account.clientId && isLive(entry));
      if (!token) {
        token = {
          accessToken: newAccessToken(),
          clientId: account.clientId,
          issuedAt: now,
          expiresAt: now + account.tokenExpiresInSeconds * 1000,
          revoked: false,
        };
        tokens.set(token.accessToken, token);
      }
      return {
        status: 200,
        headers: { 'paypal-debug-id': newDebugId() },
        body: {
          scope: SCOPE,
          access_token: token.accessToken,
          token_type: 'Bearer',
          app_id: account.appId,
          expires_in: Math.max(0, Math.floor((token.expiresAt - now) / 1000)),
          nonce: newNonce(isoSeconds(now)),
        },
      };
    },

    /**
     * The account behind an API call's bearer token. No bearer → standard 401 body; an unknown,
     * expired or revoked token → OAuth-style `invalid_token` (§1, both shapes occur).
     */
    authenticate(authorization: string | undefined, family: ApiFamily): Authentication {
      const presented = bearerToken(authorization);
      if (presented === undefined) return { ok: false, reply: errorReply(family, { status: 401 }) };
      const token = tokens.get(presented);
      const account = token && isLive(token) ? accounts.get(token.clientId) : undefined;
      if (!account) {
        return { ok: false, reply: oauthError(401, 'invalid_token', 'Access Token not found in cache') };
      }
      return { ok: true, account };
    },

    /** The client id behind Basic credentials or a known bearer token, for the call log. */
    identify(authorization: string | undefined): string | undefined {
      const presented = bearerToken(authorization);
      if (presented !== undefined) return tokens.get(presented)?.clientId;
      const credentials = basicCredentials(authorization);
      return credentials && accounts.has(credentials.clientId) ? credentials.clientId : undefined;
    },

    /** Makes every live token (of one account, or all) answer `invalid_token` from now on. */
    expireTokens(clientId?: string): void {
      for (const token of tokens.values()) {
        if (clientId === undefined || token.clientId === clientId) token.revoked = true;
      }
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
