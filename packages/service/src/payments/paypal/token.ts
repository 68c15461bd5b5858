import * as v from 'valibot';
import type { ProviderAnswer } from '../../kernel/payment-provider.ts';
import type { ProviderAccount } from '../config.ts';
import { exchange, failedAnswer, type HttpClient } from './client.ts';

// OAuth2 client-credentials tokens (contract §1), cached per account until shortly before they
// expire. Concurrent calls of one account share one token request; a failed request is not cached.

/** A token is renewed this long before PayPal says it expires (at most half its lifetime). */
export const TOKEN_SAFETY_MARGIN_MS = 300_000;

const TokenAnswer = v.object({
  access_token: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
  token_type: v.optional(v.string()),
  expires_in: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export type TokenResult = { readonly ok: true; readonly token: string } | ProviderAnswer<never>;

interface Cached {
  readonly token: string;
  readonly renewAt: number;
}

export interface TokenSource {
  /** A valid bearer token of the account: the cached one, or a new one. */
  tokenOf(account: ProviderAccount, baseUrl: string): Promise<TokenResult>;
  /** Drops `token` after PayPal refused it (401), unless a newer one replaced it already. */
  discard(account: ProviderAccount, token: string): void;
}

export function createTokenSource(client: HttpClient, now: () => number): TokenSource {
  const cache = new Map<ProviderAccount, Cached>();
  const pending = new Map<ProviderAccount, Promise<TokenResult>>();

  async function request(account: ProviderAccount, baseUrl: string): Promise<TokenResult> {
    const basic = Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64');
    const requestedAt = now();
    const result = await exchange(client, {
      method: 'POST',
      url: `${baseUrl}/v1/oauth2/token`,
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const secrets = [account.clientSecret, basic];
    if (result.kind === 'answered' && result.status >= 200 && result.status < 300) {
      const parsed = v.safeParse(TokenAnswer, result.body);
      if (parsed.success && (parsed.output.token_type ?? 'Bearer').toLowerCase() === 'bearer') {
        const lifetime = parsed.output.expires_in * 1000;
        const renewAt = requestedAt + lifetime - Math.min(TOKEN_SAFETY_MARGIN_MS, lifetime / 2);
        cache.set(account, { token: parsed.output.access_token, renewAt });
        return { ok: true, token: parsed.output.access_token };
      }
    }
    const failed = failedAnswer(result, secrets);
    // No command was sent yet, but a token failure must not read as the command's own outcome:
    // a refusal names the token request, and anything else stays unknown so the caller retries.
    switch (failed.outcome) {
      case 'refused':
        return { ...failed, detail: `token request: ${failed.detail}` };
      case 'unknown':
        return { outcome: 'unknown', reason: `token request: ${failed.reason}` };
      default:
        return { outcome: 'unknown', reason: 'token request: HTTP 404' };
    }
  }

  return {
    tokenOf(account, baseUrl) {
      const cached = cache.get(account);
      if (cached && now() < cached.renewAt) return Promise.resolve({ ok: true, token: cached.token });
      const inFlight = pending.get(account);
      if (inFlight) return inFlight;
      const started = request(account, baseUrl).finally(() => pending.delete(account));
      pending.set(account, started);
      return started;
    },
    discard(account, token) {
      if (cache.get(account)?.token === token) cache.delete(account);
    },
  };
}
