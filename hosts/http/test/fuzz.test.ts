import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentDefects, loadDocument } from './fuzz/document.ts';
import type { FuzzRequest } from './fuzz/generator.ts';
import { Oracle } from './fuzz/oracle.ts';
import { formatCoverage, formatReport, groupFindings, runFuzz } from './fuzz/run.ts';
import { createWorld, type World } from './fuzz/world.ts';

// Issue 12: requests generated from docs/api/openapi.json, valid and hostile, against two shops.
// The bounded run here is a fixed seed; `corepack pnpm fuzz` runs 100,000 requests.
// Replay a failure: FUZZ_SEED=<seed> [FUZZ_PER_OPERATION=<n>] [FUZZ_ONLY=<operationId,…>]
// corepack pnpm --filter @cartwright/http exec vitest run test/fuzz.test.ts

const SEED = Number(process.env.FUZZ_SEED ?? 1_212_026);
const PER_OPERATION = Number(process.env.FUZZ_PER_OPERATION ?? 8);
const ONLY = (process.env.FUZZ_ONLY ?? '').split(',').filter(Boolean);

let world: World;

beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world?.close());

describe('the fuzz oracle', () => {
  const document = loadDocument();
  const request = (operationId: string, method?: string): FuzzRequest => {
    const operation = document.operations.find((candidate) => candidate.operationId === operationId)!;
    return {
      operationId,
      method: method ?? operation.method,
      url: operation.path,
      headers: {},
      body: undefined,
      mutation: 'valid',
      declaredMethod: operation.method,
    };
  };
  const oracle = new Oracle(document, new Map([['0190f0c8-0000-7000-8000-00000000b00b', 'products id']]));
  const kinds = (found: ReturnType<Oracle['check']>) => found.map((finding) => finding.kind);
  const problem = (status: number, code: string) =>
    JSON.stringify({ type: 'about:blank', title: 't', status, code, detail: 'd' });

  it('accepts a registered problem and a success of the declared shape', () => {
    const shop = request('shop.get');
    expect(
      oracle.check(shop, {
        status: 404,
        contentType: 'application/problem+json',
        allow: null,
        text: problem(404, 'NOT_FOUND'),
        serverLog: undefined,
      }),
    ).toEqual([]);
    expect(
      oracle.check(request('store.account.logout'), {
        status: 200,
        contentType: 'application/json',
        allow: null,
        text: JSON.stringify({ loggedOut: true }),
        serverLog: undefined,
      }),
    ).toEqual([]);
  });

  it('flags a 5xx, a 4xx that is not a registered problem, a wrong shape, a wrong-method answer and a leak', () => {
    const shop = request('shop.get');
    const observed = { contentType: 'application/problem+json', allow: null, serverLog: 'RangeError: boom' };
    expect(kinds(oracle.check(shop, { ...observed, status: 500, text: problem(500, 'INTERNAL') }))).toEqual([
      'server-error',
    ]);
    expect(
      kinds(
        oracle.check(shop, { ...observed, status: 404, contentType: 'text/plain', text: '404 Not Found' }),
      ),
    ).toEqual(['problem-shape']);
    expect(
      kinds(oracle.check(shop, { ...observed, status: 422, text: problem(422, 'NO_SUCH_CODE') })),
    ).toEqual(['problem-shape']);
    expect(kinds(oracle.check(shop, { ...observed, status: 409, text: problem(409, 'NOT_FOUND') }))).toEqual([
      'problem-shape',
    ]);
    expect(
      kinds(
        oracle.check(request('store.account.logout'), {
          ...observed,
          status: 200,
          contentType: 'application/json',
          text: JSON.stringify({ loggedOut: 'yes' }),
        }),
      ),
    ).toEqual(['schema-mismatch']);
    expect(
      kinds(
        oracle.check(request('shop.get', 'PATCH'), {
          ...observed,
          status: 404,
          text: problem(404, 'ROUTE_NOT_FOUND'),
        }),
      ),
    ).toEqual(['method-not-allowed']);
    expect(
      kinds(
        oracle.check(shop, {
          ...observed,
          status: 404,
          text: JSON.stringify({
            ...JSON.parse(problem(404, 'NOT_FOUND')),
            detail: '0190f0c8-0000-7000-8000-00000000b00b',
          }),
        }),
      ),
    ).toEqual(['foreign-leak']);
  });
});

describe('the HTTP fuzz suite', () => {
  it('generates from a sound OpenAPI document: every $ref resolves, every security scheme is defined', () => {
    expect(documentDefects(loadDocument())).toEqual([]);
  });

  it(`answers every generated request without a 5xx, with registered problems and declared shapes, and leaves shop B alone (seed ${SEED})`, async () => {
    const report = await runFuzz(world, {
      seed: SEED,
      perOperation: PER_OPERATION,
      sweep: 'core',
      digestEvery: 0,
      only: ONLY,
    });
    const replay = `FUZZ_SEED=${SEED} FUZZ_PER_OPERATION=${PER_OPERATION}`;
    if (report.findings.length > 0 || process.env.FUZZ_VERBOSE) {
      console.error(`${formatReport(report, replay)}\ncoverage:\n${formatCoverage(report)}`);
    }
    // The suite must reach past validation: valid requests of most operations succeed.
    const succeeded = [...report.coverage.values()].filter((tally) => (tally['valid 2xx'] ?? 0) > 0).length;
    expect(succeeded).toBeGreaterThan(report.coverage.size / 2);
    expect(
      groupFindings(report.findings).map(
        (group) =>
          `${report.requests} requests, seed ${SEED}: [${group.kind}] ${group.status ?? ''} ${group.code ?? ''} ${group.cause} (${[...group.operations.keys()].join(', ')})`,
      ),
    ).toEqual([]);
  });
});
