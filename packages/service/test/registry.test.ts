import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  type CreatedShop,
  createServices,
  createShop,
  type ErrorCode,
  errorStatus,
  errorTitle,
  FileContent,
  fieldErrors,
  invokeOperation,
  operationInputSchema,
  operationOutputSchema,
  operations,
  type Principal,
  type Services,
} from '@cartwright/service';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrincipal, operationNamed, principalOf } from './principals.ts';

let database: Database;
let services: Services;
let shop: CreatedShop;
let owner: Principal;
let reader: Principal;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await createShop(services, { name: 'Registry shop', ownerEmail: 'owner@registry.test' });
  owner = await principalOf(services, shop.token);
  reader = await apiPrincipal(services, shop.tenantId, 'reader');
});
afterAll(async () => database?.close());

describe('invokeOperation', () => {
  const garbage = { email: 42, role: 'emperor', permissions: 'all' };

  it('answers FORBIDDEN before it looks at the input', async () => {
    const result = await invokeOperation(services, operationNamed('members.add'), reader, garbage);
    expect(result).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      extensions: { permission: 'members.manage' },
    });
  });

  it('answers VALIDATION_FAILED for the same input from a caller with the permission', async () => {
    const result = await invokeOperation(services, operationNamed('members.add'), owner, garbage);
    expect(result).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
  });

  it('points at each invalid field with a JSON pointer', async () => {
    const result = await invokeOperation(services, operationNamed('tokens.create'), owner, {
      name: '',
      kind: 'x',
    });
    if (result.ok) throw new Error('expected a validation failure');
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.errors?.map((error) => error.pointer).sort()).toEqual(['/kind', '/name']);
    for (const error of result.errors ?? []) expect(error.message).not.toBe('');
  });

  it('lets a permission-free operation through for any token of the shop', async () => {
    const result = await invokeOperation(services, operationNamed('shop.get'), reader, undefined);
    expect(result).toMatchObject({
      ok: true,
      value: { shop: { id: shop.tenantId }, caller: { role: 'reader' } },
    });
  });
});

describe('fieldErrors', () => {
  it('escapes ~ and / in keys and points at the whole input for a root issue', () => {
    const schema = v.object({ 'a/b': v.object({ 'c~d': v.string() }) });
    const nested = v.safeParse(schema, { 'a/b': { 'c~d': 1 } });
    const root = v.safeParse(schema, 'not an object');
    expect(fieldErrors(nested.issues ?? []).map((error) => error.pointer)).toEqual(['/a~1b/c~0d']);
    expect(fieldErrors(root.issues ?? []).map((error) => error.pointer)).toEqual(['']);
  });
});

describe('operations', () => {
  it('have unique names and unique HTTP routes', () => {
    const names = operations.map((operation) => operation.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = operations.flatMap((operation) =>
      operation.http ? [`${operation.http.method} ${operation.http.path}`] : [],
    );
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s declares a summary, object schemas and a consistent readOnly flag',
    (_, operation) => {
      expect(operation.summary.trim().length).toBeGreaterThan(10);
      expect(operationInputSchema(operation)).toMatchObject({ type: 'object' });
      // An output may be one of several objects (`automation.save` answers a definition or a channel).
      const output = operationOutputSchema(operation);
      for (const option of (output.anyOf as (typeof output)[] | undefined) ?? [output]) {
        expect(option).toMatchObject({ type: 'object' });
      }
      // A file operation answers FileContent, which the hosts send as bytes; no other does.
      expect(operation.output === FileContent).toBe(operation.file === true);
      if (operation.http) {
        // GET reads; PUT, PATCH and DELETE write; a POST may compute without writing (preview).
        if (operation.http.method === 'GET') expect(operation.readOnly).toBe(true);
        else if (operation.http.method !== 'POST') expect(operation.readOnly).toBe(false);
        expect(operation.http.path).toMatch(operation.audience === 'store' ? /^\/store-api\// : /^\/api\//);
        const parameters = [...operation.http.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
        const properties = Object.keys(operationInputSchema(operation).properties ?? {});
        for (const parameter of parameters) expect(properties).toContain(parameter);
      }
    },
  );
});

describe('errorStatus', () => {
  // Record<ErrorCode, …> does not compile when a code is missing here.
  const expected: Record<ErrorCode, number> = {
    UNAUTHENTICATED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    ROUTE_NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    INVALID_JSON: 400,
    UNSUPPORTED_MEDIA_TYPE: 415,
    PAYLOAD_TOO_LARGE: 413,
    HEADERS_TOO_LARGE: 431,
    VALIDATION_FAILED: 422,
    LANGUAGE_NOT_ENABLED: 422,
    STALE_REVISION: 409,
    CONFLICT: 409,
    LAST_OWNER: 409,
    REFERENCED: 409,
    SKU_TAKEN: 409,
    EMAIL_TAKEN: 409,
    TRANSITION_REFUSED: 409,
    APPROVAL_REQUIRED: 422,
    EVIDENCE_SIMULATED_ONLY: 409,
    INSUFFICIENT_STOCK: 409,
    REFUND_EXCEEDS_BALANCE: 409,
    CART_INVALID: 422,
    PAYMENT_REQUIRED: 402,
    NOT_READY: 503,
    BUSY: 503,
    FLOW_INVALID_GRAPH: 422,
    FLOW_DUPLICATE_NODE: 422,
    FLOW_EDGE_MISSING: 422,
    FLOW_CYCLE: 422,
    FLOW_UNREACHABLE: 422,
    FLOW_SIZE: 422,
    FLOW_DELAY_TOO_LONG: 422,
    FLOW_UNKNOWN_ACTION: 422,
    FLOW_INVALID_ACTION_CONFIG: 422,
    FLOW_UNSUPPORTED_OPTION: 422,
    SETTING_BASIS_ONLY: 422,
    MAIN_CHANNEL: 409,
    CHANNEL_IN_USE: 409,
    CHANNEL_PRIVATE: 401,
    RULE_UNKNOWN_CONDITION: 422,
    RULE_CONDITION_DISABLED: 422,
    RULE_INVALID_TREE: 422,
    RULE_INVALID_VALUE: 422,
    RULE_SCOPE_MISSING: 422,
    RULE_REFERENCE_MISSING: 422,
    RULE_REFERENCE_DISABLED: 422,
    RULE_REFERENCE_CYCLE: 422,
    RULE_REFERENCE_DEPTH: 422,
    RULE_REFERENCE_LIMIT: 422,
    CONTEXT_REQUIRED: 400,
    APP_NOT_INSTALLED: 409,
    APP_INCOMPATIBLE: 409,
    APP_ACTION_NOT_FOUND: 404,
    APP_CONTEXT_REQUIRED: 422,
    APP_WEBHOOK_UNKNOWN: 404,
    APP_WEBHOOK_HEADERS_INVALID: 400,
    APP_WEBHOOK_SIGNATURE_INVALID: 401,
    APP_WEBHOOK_TIMESTAMP_SKEW: 401,
    APP_WEBHOOK_BODY_TOO_LARGE: 413,
    APP_WEBHOOK_EVENT_REUSED: 409,
    APP_WEBHOOK_SANDBOX_SHOP: 403,
    APP_WEBHOOK_HTTPS_REQUIRED: 403,
    APP_MODULE_TIMEOUT: 504,
    APP_MODULE_OUT_OF_MEMORY: 502,
    APP_MODULE_ERROR: 502,
    APP_MODULE_INVALID: 502,
    APP_MODULE_OUTPUT_INVALID: 502,
    APP_SANDBOX_INPUT_TOO_LARGE: 413,
    APP_SANDBOX_BUSY: 503,
    APP_SANDBOX_UNAVAILABLE: 503,
    APP_SERVICE_NOT_CONFIGURED: 503,
    APP_SERVICE_UNAVAILABLE: 503,
    APP_SERVICE_REFUSED: 422,
    APP_SERVICE_ANSWER_INVALID: 502,
    UNSUPPORTED_ACTION: 422,
    PROMOTION_CODE_UNKNOWN: 422,
    PROMOTION_CODE_EXHAUSTED: 409,
    PROPOSAL_STALE: 409,
    PROPOSAL_DECIDED: 409,
    IMAGE_TOO_LARGE: 413,
    IMAGE_UNSUPPORTED_TYPE: 415,
    IMAGE_INVALID: 422,
    IMAGE_DIMENSIONS_EXCEEDED: 422,
    IMAGE_URL_REFUSED: 422,
    IMAGE_URL_FAILED: 422,
    GALLERY_LIMIT_REACHED: 409,
    MEDIA_ASSET_LIMIT_REACHED: 409,
    IMAGE_PROVIDER_DISABLED: 503,
    MEDIA_DRAFT_LIMIT: 429,
    MEDIA_DRAFT_STALE: 409,
    MEDIA_DRAFT_NOT_READY: 409,
    MAIL_NOT_CONFIGURED: 503,
    MAIL_REFUSED: 502,
    MAIL_UNAVAILABLE: 503,
    MAIL_UNCERTAIN: 409,
    INTERNAL: 500,
  };

  it('maps every code to its HTTP error status and a title', () => {
    expect(errorStatus).toEqual(expected);
    for (const code of Object.keys(expected) as ErrorCode[]) {
      expect(errorStatus[code]).toBeGreaterThanOrEqual(400);
      expect(errorStatus[code]).toBeLessThan(600);
      expect(errorTitle(code)).toMatch(/\S/);
    }
  });
});
