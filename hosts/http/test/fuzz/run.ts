import fc from 'fast-check';
import { documentDefects, type FuzzOperation, loadDocument, type OpenApiDocument } from './document.ts';
import { CONTEXT_MARKER, type FuzzRequest, requestArbitrary } from './generator.ts';
import { type Finding, type FindingKind, type Observed, Oracle } from './oracle.ts';
import { type SweepDepth, sweepRequests } from './sweep.ts';
import type { World } from './world.ts';

// The campaign: a deterministic sweep of edge values per field, then fast-check samples per
// operation (seeded per operation and chunk, so a seed replays the same requests), each response
// judged by the oracle, shop B's rows compared at checkpoints, memory sampled as it goes.

export interface RunOptions {
  readonly seed: number;
  /** Bounded mode: this many sampled requests per operation, operation by operation. */
  readonly perOperation?: number;
  /** Long mode: this many requests in all (sweep included), round-robin over the operations. */
  readonly total?: number;
  /** Run the deterministic sweep first: `core` (bounded) or `thorough` (long run). */
  readonly sweep: SweepDepth | 'none';
  /** Compare shop B's rows after every block once this many requests have passed (0: every block). */
  readonly digestEvery: number;
  /** Only these operations (all when empty). */
  readonly only?: readonly string[];
  /** Requests sampled at once for one operation (bounds memory: huge strings live per chunk). */
  readonly chunk?: number;
  readonly onFinding?: (finding: Finding) => void;
  /** Called with the request count and RSS (MiB) at the start, every 10,000 requests and at the end. */
  readonly onMemory?: (point: MemoryPoint) => void;
}

export interface RunReport {
  readonly seed: number;
  readonly requests: number;
  readonly findings: readonly Finding[];
  readonly counts: Readonly<Record<FindingKind, number>>;
  readonly memory: readonly MemoryPoint[];
  /** Per operation: answers by status class. */
  readonly coverage: ReadonlyMap<string, Record<string, number>>;
  readonly slowest: readonly { readonly request: FuzzRequest; readonly ms: number }[];
  readonly documentDefects: readonly string[];
  readonly durationMs: number;
  /** CPU time of this process during the run (user + system). */
  readonly cpuMs: number;
  /** Milliseconds spent per operation: sending and answering, and judging (oracle). */
  readonly timeByOperation: ReadonlyMap<string, { readonly send: number; readonly judge: number }>;
}

const KINDS: readonly FindingKind[] = [
  'server-error',
  'problem-shape',
  'schema-mismatch',
  'schema-unusable',
  'method-not-allowed',
  'foreign-leak',
  'foreign-rows-changed',
  'client-error',
];

/**
 * Memory at one point of the run. RSS includes PGlite's WebAssembly memory, which grows with the
 * database (it lives in memory); the JS heap is what a leak in the app would grow.
 */
export interface MemoryPoint {
  readonly requests: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly databaseMiB: number;
}

const mebibytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The request with shop A's live visitor token in place of a context marker. */
function withLiveContext(
  world: World,
  request: FuzzRequest,
): { request: FuzzRequest; context: number | undefined } {
  const token = request.headers['x-context-token'];
  if (!token?.startsWith(CONTEXT_MARKER)) return { request, context: undefined };
  const context = Number(token.slice(CONTEXT_MARKER.length));
  return {
    request: { ...request, headers: { ...request.headers, 'x-context-token': world.contextOf(context) } },
    context,
  };
}

/** Sends one request to the app in process and reads everything the oracle needs. */
async function send(world: World, request: FuzzRequest): Promise<Observed | { clientError: string }> {
  let built: Request;
  try {
    built = new Request(`http://localhost${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  } catch (error) {
    return { clientError: String(error) };
  }
  let response: Response;
  try {
    response = await world.app.fetch(built);
  } catch (error) {
    // An exception that escapes the app is the server's failure, not the client's.
    return {
      status: 599,
      contentType: '',
      allow: null,
      text: '',
      serverLog: `escaped app.fetch: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    };
  }
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    allow: response.headers.get('allow'),
    text,
    serverLog: world.serverLog.take(response.headers.get('x-request-id')),
  };
}

/** A per-operation, per-chunk seed: every operation's stream is independent of the others'. */
function chunkSeed(seed: number, operationIndex: number, chunkIndex: number): number {
  return (seed ^ Math.imul(operationIndex + 1, 0x9e3779b1) ^ Math.imul(chunkIndex + 1, 0x85ebca6b)) | 0;
}

export async function runFuzz(world: World, options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const document: OpenApiDocument = loadDocument();
  const oracle = new Oracle(document, world.foreignSecrets);
  const operations = document.operations.filter(
    (operation) => !options.only || options.only.length === 0 || options.only.includes(operation.operationId),
  );
  const findings: Finding[] = [];
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<FindingKind, number>;
  const memory: MemoryPoint[] = [];
  const coverage = new Map<string, Record<string, number>>();
  const slowest: { request: FuzzRequest; ms: number }[] = [];
  const unusableReported = new Set<string>();
  let requests = 0;
  let sinceDigest = 0;
  let baseline = await world.foreignDigest();
  const blockLog: string[] = [];

  const record = (finding: Finding) => {
    // A schema that does not compile is one defect per operation, not one per request.
    if (finding.kind === 'schema-unusable') {
      if (unusableReported.has(finding.operationId)) return;
      unusableReported.add(finding.operationId);
    }
    counts[finding.kind] += 1;
    options.onFinding?.(finding);
    // Kept folded (repeated runs as `«unit»{×N}`), so a long run's memory stays flat.
    findings.push({
      ...finding,
      request: finding.request && { ...finding.request, body: shortText(finding.request.body, 4_000) },
      body: shortText(finding.body, 1_000),
    });
  };
  const sample = async () => {
    // With --expose-gc (the `fuzz` script) the heap is measured after a collection: comparable.
    (globalThis as { gc?: () => void }).gc?.();
    const usage = {
      rssMiB: mebibytes(process.memoryUsage().rss),
      heapMiB: mebibytes(process.memoryUsage().heapUsed),
      databaseMiB: mebibytes(await world.databaseBytes()),
    };
    const point = { requests, ...usage };
    memory.push(point);
    options.onMemory?.(point);
  };
  await sample();

  const timeByOperation = new Map<string, { send: number; judge: number }>();
  const deadContexts = new Set<number>();
  const execute = async (generated: FuzzRequest) => {
    const { request, context } = withLiveContext(world, generated);
    const before = performance.now();
    const observed = await send(world, request);
    // A context that was refused, or logged in or out, no longer is the logged-in visitor with a
    // cart that valid storefront requests need: renewed after this block.
    if (
      context !== undefined &&
      'status' in observed &&
      (observed.status === 401 ||
        (observed.status < 300 && /\/account\/(login|logout)$/.test(request.url.split('?')[0]!)))
    ) {
      deadContexts.add(context);
    }
    const ms = performance.now() - before;
    const time = timeByOperation.get(request.operationId) ?? { send: 0, judge: 0 };
    timeByOperation.set(request.operationId, time);
    time.send += ms;
    requests += 1;
    sinceDigest += 1;
    if ('clientError' in observed) {
      record({
        kind: 'client-error',
        operationId: request.operationId,
        request,
        status: undefined,
        code: undefined,
        detail: observed.clientError,
        body: undefined,
      });
    } else {
      const statusClass = `${Math.floor(observed.status / 100)}xx`;
      const tally = coverage.get(request.operationId) ?? {};
      tally[statusClass] = (tally[statusClass] ?? 0) + 1;
      if (request.mutation === 'valid') {
        // Why valid-by-schema requests were refused shows what the generator should learn.
        const code = observed.status >= 400 ? (/"code":"([A-Z_]+)"/.exec(observed.text)?.[1] ?? '') : '';
        const key = `valid ${statusClass}${code ? `:${code}` : ''}`;
        tally[key] = (tally[key] ?? 0) + 1;
      }
      coverage.set(request.operationId, tally);
      const judging = performance.now();
      for (const finding of oracle.check(request, observed)) record(finding);
      time.judge += performance.now() - judging;
    }
    if (slowest.length < 10 || ms > slowest.at(-1)!.ms) {
      slowest.push({ request: { ...request, body: shortText(request.body) }, ms });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 10);
    }
    if (requests % 10_000 === 0) await sample();
  };

  /** After a block of one operation's requests: has anything of shop B's changed? */
  const checkpoint = async (operation: FuzzOperation, what: string) => {
    blockLog.push(`${operation.operationId} (${what})`);
    world.serverLog.clear();
    if (deadContexts.size > 0) {
      await world.renewContexts(deadContexts);
      deadContexts.clear();
    }
    if (sinceDigest < options.digestEvery) return;
    sinceDigest = 0;
    const now = await world.foreignDigest();
    const changed = [...now.keys()].filter((table) => now.get(table) !== baseline.get(table));
    if (changed.length > 0) {
      record({
        kind: 'foreign-rows-changed',
        operationId: blockLog.length === 1 ? operation.operationId : `one of ${blockLog.length} blocks`,
        request: undefined,
        status: undefined,
        code: undefined,
        detail: `shop B's rows changed in ${changed.join(', ')} during: ${blockLog.slice(0, 20).join(', ')}${blockLog.length > 20 ? ', …' : ''}`,
        body: undefined,
      });
      baseline = now;
    }
    blockLog.length = 0;
  };

  if (options.sweep !== 'none') {
    for (const [index, operation] of operations.entries()) {
      const seed = chunkSeed(options.seed, index, -1);
      for (const request of sweepRequests(operation, document, world.pools, seed, options.sweep)) {
        await execute(request);
      }
      await checkpoint(operation, 'sweep');
    }
  }

  // Small runs still reach every operation; long ones sample 25 at a time.
  const chunk =
    options.chunk ?? Math.max(1, Math.min(25, Math.ceil((options.total ?? 0) / operations.length / 4) || 25));
  const arbitraries = operations.map((operation) => requestArbitrary(operation, document, world.pools));
  if (options.perOperation !== undefined) {
    for (const [index, operation] of operations.entries()) {
      for (let done = 0, chunkIndex = 0; done < options.perOperation; chunkIndex++) {
        const size = Math.min(chunk, options.perOperation - done);
        for (const request of fc.sample(arbitraries[index]!, {
          seed: chunkSeed(options.seed, index, chunkIndex),
          numRuns: size,
        })) {
          await execute(request);
        }
        done += size;
      }
      await checkpoint(operation, `${options.perOperation} sampled`);
    }
  }
  if (options.total !== undefined) {
    for (let chunkIndex = 0; requests < options.total; chunkIndex++) {
      for (const [index, operation] of operations.entries()) {
        const size = Math.min(chunk, options.total - requests);
        if (size <= 0) break;
        for (const request of fc.sample(arbitraries[index]!, {
          seed: chunkSeed(options.seed, index, chunkIndex),
          numRuns: size,
        })) {
          await execute(request);
        }
        await checkpoint(operation, `chunk ${chunkIndex}`);
      }
    }
  }
  sinceDigest = Math.max(sinceDigest, options.digestEvery);
  if (blockLog.length > 0 || sinceDigest > 0) {
    const last = operations.at(-1)!;
    await checkpoint(last, 'end');
  }
  await sample();
  return {
    seed: options.seed,
    requests,
    findings,
    counts,
    memory,
    coverage,
    slowest,
    documentDefects: documentDefects(document),
    durationMs: performance.now() - started,
    cpuMs: (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpuAtStart)),
    timeByOperation,
  };
}

/**
 * Text with runs of a repeated character or short unit folded to `«unit»{×N}` (huge strings, deep
 * nesting), cut to `limit` characters; bytes shown as hex.
 */
export function shortText(body: string | Uint8Array | undefined, limit = 400): string | undefined {
  if (body === undefined) return undefined;
  const text =
    typeof body === 'string'
      ? body
      : `<bytes ${[...body].map((byte) => byte.toString(16).padStart(2, '0')).join(' ')}>`;
  const folded = text.replace(
    /(.{1,40}?)\1{9,}/gs,
    (run, unit: string) => `«${unit}»{×${run.length / unit.length}}`,
  );
  return folded.length > limit ? `${folded.slice(0, limit)}…(${text.length} chars)` : folded;
}

/** `shortText` with NUL, lone surrogates and other control characters escaped, for printing. */
export function shortBody(body: string | Uint8Array | undefined, limit = 400): string | undefined {
  const text = shortText(body, limit);
  return text === undefined ? undefined : JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"');
}

/** One line per finding: what was sent, what came back, why it fails. */
export function describeFinding(finding: Finding): string {
  const request = finding.request;
  const sent = request
    ? `${request.method} ${shortBody(request.url, 200)}${request.body !== undefined ? ` body=${shortBody(request.body, 300)}` : ''}`
    : '(a block of requests)';
  const answer =
    finding.status !== undefined ? ` → ${finding.status}${finding.code ? ` ${finding.code}` : ''}` : '';
  const body = finding.body ? ` | answer: ${shortBody(finding.body, 200)}` : '';
  const context = finding.context ? ` (${finding.context})` : '';
  return `[${finding.kind}] ${finding.operationId} ${request ? `(${request.mutation}) ` : ''}${sent}${answer} | ${finding.detail}${context}${body}`;
}

/** The input class of a mutation label: `string:huge(523412)@/name` → `string:huge`. */
function inputClass(mutation: string | undefined): string {
  if (!mutation) return '';
  return mutation
    .replace(/^sweep:/, '')
    .split('@')[0]!
    .replace(/\(\d+\)/g, '')
    .replace(/^(number:bound)\(.*\)$/, '$1');
}

function normalized(detail: string): string {
  return detail
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/:\d+:\d+\)/g, ')')
    .replace(/\b\d+\b/g, 'N')
    .slice(0, 240);
}

export interface FindingGroup {
  readonly kind: FindingKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly cause: string;
  readonly inputs: readonly string[];
  readonly operations: ReadonlyMap<string, number>;
  readonly examples: readonly Finding[];
  readonly count: number;
}

/**
 * Findings grouped by cause: kind, status, code and the normalized server message or schema error.
 * Each group lists the input classes and operations that hit it and one example per operation.
 */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<
    string,
    { group: Omit<FindingGroup, 'count'> & { count: number }; inputs: Set<string> }
  >();
  for (const finding of findings) {
    const cause = normalized(finding.detail);
    const key = `${finding.kind}|${finding.status}|${finding.code}|${cause}`;
    let entry = groups.get(key);
    if (!entry) {
      entry = {
        group: {
          kind: finding.kind,
          status: finding.status,
          code: finding.code,
          cause,
          inputs: [],
          operations: new Map(),
          examples: [],
          count: 0,
        },
        inputs: new Set(),
      };
      groups.set(key, entry);
    }
    entry.group.count += 1;
    entry.inputs.add(inputClass(finding.request?.mutation));
    const operations = entry.group.operations as Map<string, number>;
    if (!operations.has(finding.operationId)) (entry.group.examples as Finding[]).push(finding);
    operations.set(finding.operationId, (operations.get(finding.operationId) ?? 0) + 1);
  }
  return [...groups.values()]
    .map(({ group, inputs }) => ({ ...group, inputs: [...inputs].filter(Boolean).sort() }))
    .sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || b.count - a.count);
}

/** The report a run prints: totals, memory, then every group of findings with reproductions. */
export function formatReport(report: RunReport, replay: string, examplesPerGroup = 3): string {
  const lines: string[] = [];
  lines.push(
    `fuzz: ${report.requests} requests, seed ${report.seed}, ${(report.durationMs / 1000).toFixed(1)} s (${(report.cpuMs / 1000).toFixed(1)} s CPU)`,
  );
  lines.push(
    `  5xx: ${report.counts['server-error']}, 4xx without a registered problem+json: ${report.counts['problem-shape']}, ` +
      `schema mismatches: ${report.counts['schema-mismatch']} (+${report.counts['schema-unusable']} uncompilable), ` +
      `wrong method not 405: ${report.counts['method-not-allowed']}, B leaks: ${report.counts['foreign-leak']}, ` +
      `B-digest changes: ${report.counts['foreign-rows-changed']}, client errors: ${report.counts['client-error']}`,
  );
  lines.push(
    `  memory (MiB; requests: RSS / JS heap / database): ${report.memory
      .map((point) => `${point.requests}: ${point.rssMiB} / ${point.heapMiB} / ${point.databaseMiB}`)
      .join(', ')}`,
  );
  if (report.documentDefects.length > 0) {
    lines.push(`  OpenAPI document defects (${report.documentDefects.length}):`);
    for (const defect of report.documentDefects) lines.push(`    - ${defect}`);
  }
  const groups = groupFindings(report.findings);
  if (groups.length > 0) lines.push(`  ${groups.length} distinct causes (replay: ${replay}):`);
  for (const [index, group] of groups.entries()) {
    const operations = [...group.operations.entries()].map(([name, count]) => `${name}×${count}`);
    lines.push(
      `  ${index + 1}. [${group.kind}]${group.status !== undefined ? ` ${group.status}` : ''}${group.code ? ` ${group.code}` : ''} — ${group.cause}`,
    );
    lines.push(`     ${group.count} times; inputs: ${group.inputs.join(', ') || '-'}`);
    lines.push(`     operations (${operations.length}): ${operations.join(', ')}`);
    for (const example of group.examples.slice(0, examplesPerGroup))
      lines.push(`     e.g. ${describeFinding(example)}`);
  }
  return lines.join('\n');
}

/** Per operation: how its answers fell (to see which operations the run reached past validation). */
export function formatCoverage(report: RunReport): string {
  return [...report.coverage.entries()]
    .map(([operation, tally]) => {
      const time = report.timeByOperation.get(operation);
      const ms = time ? ` (${Math.round(time.send)} ms answering, ${Math.round(time.judge)} ms judging)` : '';
      const statuses = Object.entries(tally)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, count]) => `${status}=${count}`)
        .join(' ');
      return `  ${operation}${ms}: ${statuses}`;
    })
    .join('\n');
}
