/**
 * The `PayPal-Request-Id` store (§3): a key is (account, request id, method + path), and a replay
 * finds the resource the first request produced, so the route re-renders it in its current state.
 * Keys live 6 h for Orders v2 and 45 days for Payments v2 (§3); only successes are remembered, so
 * a retry after a refusal or an injected 5xx performs the operation.
 */
export function createIdempotencyStore(now: () => number) {
  const remembered = new Map<string, { readonly resourceId: string; readonly expiresAt: number }>();
  const inFlight = new Set<string>();

  return {
    /** The resource an earlier successful request with this key produced, while the key lives. */
    recall(key: string): string | undefined {
      const entry = remembered.get(key);
      if (!entry) return undefined;
      if (now() >= entry.expiresAt) {
        remembered.delete(key);
        return undefined;
      }
      return entry.resourceId;
    },
    remember(key: string, resourceId: string, ttlMs: number): void {
      remembered.set(key, { resourceId, expiresAt: now() + ttlMs });
    },
    /** Claims a key for a request being performed; false when another holds it (→ 409, §3). */
    claim(key: string): boolean {
      if (inFlight.has(key)) return false;
      inFlight.add(key);
      return true;
    },
    release(key: string): void {
      inFlight.delete(key);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

export function idempotencyKey(accountId: string, requestId: string, method: string, path: string): string {
  return JSON.stringify([accountId, requestId, method, path]);
}
