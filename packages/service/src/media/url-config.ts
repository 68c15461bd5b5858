import * as v from 'valibot';
import { integerVariable } from '../kernel/environment.ts';
import type { MediaUrlSettings } from '../kernel/services.ts';

/** The operator's variables of image URL fetching (decision 0043). */
export const mediaUrlEnvironment = {
  /** `true`: merchant image URLs may name loopback addresses (local fixtures and tests only). */
  MEDIA_URL_ALLOW_LOOPBACK: v.optional(v.picklist(['true', 'false'], 'expected true or false')),
  /** The deadline of one image URL fetch in milliseconds (redirects and body included). */
  MEDIA_URL_TIMEOUT_MS: integerVariable(10_000, 100, 60_000),
};

/** The variables the hosts pass in (unset and empty are the same). */
export interface MediaUrlVariables {
  readonly MEDIA_URL_ALLOW_LOOPBACK?: 'true' | 'false' | undefined;
  readonly MEDIA_URL_TIMEOUT_MS?: number | undefined;
}

export function mediaUrlsOf(variables: MediaUrlVariables): MediaUrlSettings {
  return {
    allowLoopback: variables.MEDIA_URL_ALLOW_LOOPBACK === 'true',
    timeoutMs: variables.MEDIA_URL_TIMEOUT_MS ?? 10_000,
  };
}
