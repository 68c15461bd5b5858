import { type Failure, fail, ok, type Success } from '@cartwright/commerce';
import * as v from 'valibot';
import type { PaymentEffect } from './effects.ts';
import { queue } from './effects.ts';
import { toProviderValue } from './money.ts';
import { AttemptInput, type AttemptState, type PaymentAttempt, PROVIDER_API_VERSION } from './records.ts';
import { attemptRequestIds } from './request-ids.ts';

export type AttemptIssueCode =
  /** A field is missing or has the wrong type, format or range (the pointer names it). */
  | 'INVALID_FIELD'
  | 'AMOUNT_NOT_POSITIVE'
  /** The provider cannot carry the amount (HUF 129.50) or it exceeds the provider's maximum. */
  | 'AMOUNT_NOT_REPRESENTABLE'
  /** Two reserved items name the same product and SKU. */
  | 'DUPLICATE_ITEM'
  /** Only sandbox attempts may go through the loopback contract fixture. */
  | 'FIXTURE_IN_LIVE';

export interface AttemptIssue {
  readonly code: AttemptIssueCode;
  /** JSON pointer into the input. */
  readonly pointer: string;
  readonly message: string;
}

/** A refused attempt: `code` and `detail` name the first issue, `issues` lists them all. */
export interface AttemptRefusal extends Failure<AttemptIssueCode> {
  readonly issues: readonly AttemptIssue[];
}

export interface CreatedAttempt {
  readonly attempt: PaymentAttempt;
  readonly state: AttemptState;
  readonly effects: readonly PaymentEffect[];
}

const escapePointer = (key: unknown) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

function schemaIssues(issues: readonly v.BaseIssue<unknown>[]): AttemptIssue[] {
  return issues.map((issue) => ({
    code: 'INVALID_FIELD',
    pointer: (issue.path ?? []).map((item) => `/${escapePointer(item.key)}`).join(''),
    message: issue.message,
  }));
}

function termIssues(input: v.InferOutput<typeof AttemptInput>): AttemptIssue[] {
  const issues: AttemptIssue[] = [];
  if (input.amount.amount === 0) {
    issues.push({
      code: 'AMOUNT_NOT_POSITIVE',
      pointer: '/amount/amount',
      message: 'a payment takes more than nothing',
    });
  }
  const value = toProviderValue(input.amount);
  if (!value.ok) {
    issues.push({ code: 'AMOUNT_NOT_REPRESENTABLE', pointer: '/amount', message: value.detail });
  }
  const seen = new Set<string>();
  input.items.forEach((item, index) => {
    const key = JSON.stringify([item.productId, item.sku]);
    if (seen.has(key)) {
      issues.push({
        code: 'DUPLICATE_ITEM',
        pointer: `/items/${index}`,
        message: `product ${item.productId} SKU ${item.sku} is listed twice`,
      });
    }
    seen.add(key);
  });
  if (input.contractFixture && input.environment === 'live') {
    issues.push({
      code: 'FIXTURE_IN_LIVE',
      pointer: '/contractFixture',
      message: 'a contract-fixture attempt must use the sandbox environment',
    });
  }
  return issues;
}

/**
 * Validates the attempt's terms and answers the immutable attempt (with its provider request ids
 * and adapter version), its first record (`creating`) and the effect that queues the create job.
 * Checkout has already reserved the items' stock; the attempt records what to give back.
 */
export function createAttempt(input: AttemptInput): Success<CreatedAttempt> | AttemptRefusal {
  const parsed = v.safeParse(AttemptInput, input);
  const issues = parsed.success ? termIssues(parsed.output) : schemaIssues(parsed.issues);
  const [first] = issues;
  if (first || !parsed.success) {
    const head = first ?? { code: 'INVALID_FIELD' as const, pointer: '', message: 'invalid attempt' };
    return { ...fail(head.code, `${head.pointer || '/'}: ${head.message}`), issues };
  }
  const terms = parsed.output;
  // valibot's output is a fresh copy, so the attempt shares no object with the caller's input.
  const attempt: PaymentAttempt = {
    ...terms,
    requestIds: attemptRequestIds(terms.id),
    adapterVersion: PROVIDER_API_VERSION,
  };
  return ok({ attempt, state: initialAttemptState(), effects: [queue('create', attempt)] });
}

/** The record of a new attempt: the create job is queued, nothing is known from the provider. */
export function initialAttemptState(): AttemptState {
  return {
    status: 'creating',
    providerOrderId: null,
    approvalUrl: null,
    uncertainOperation: null,
    capture: null,
    paid: false,
    stockReleased: false,
    review: null,
    failure: null,
  };
}
