import { errorStatus } from '@cartwright/service';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { FuzzOperation, OpenApiDocument } from './document.ts';
import type { FuzzRequest } from './generator.ts';

// The oracle judges one response on its own: no 5xx, every 4xx a registered problem, every 2xx
// the operation's declared schema, and nothing of the other shop in it. (The other shop's rows are
// compared by the runner, which sees the whole run.)

export type FindingKind =
  /** The server failed: any 5xx. */
  | 'server-error'
  /** A 4xx that is not `application/problem+json` with a registered `code` matching its status. */
  | 'problem-shape'
  /** A success whose body does not match the declared schema, or a status the document does not declare. */
  | 'schema-mismatch'
  /** The declared schema cannot be compiled (dangling `$ref`…): 2xx bodies cannot be checked. */
  | 'schema-unusable'
  /** A method the document does not declare for the path: not answered with 405 and `Allow`. */
  | 'method-not-allowed'
  /** An id or key of shop B in a response to shop A that did not name it. */
  | 'foreign-leak'
  /** Shop B's rows changed. */
  | 'foreign-rows-changed'
  /** The request could not even be sent (a generator defect, not a server one). */
  | 'client-error';

export interface Finding {
  readonly kind: FindingKind;
  readonly operationId: string;
  readonly request: FuzzRequest | undefined;
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** What went wrong, in one line (server log message, schema error, changed tables). */
  readonly detail: string;
  readonly body: string | undefined;
  /** Specifics of this occurrence (not part of its cause): the declared methods, the leaked id. */
  readonly context?: string | undefined;
}

export interface Observed {
  readonly status: number;
  readonly contentType: string;
  readonly allow: string | null;
  readonly text: string;
  /** The error the server logged for this request id, if any. */
  readonly serverLog: string | undefined;
}

const registered = new Set(Object.keys(errorStatus));

export class Oracle {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction | Error>();
  private readonly problemValidator: ValidateFunction | undefined;
  private readonly byId: Map<string, FuzzOperation>;
  /** Shop B's ids that shop A sent in an accepted request (and so may see again). */
  private readonly echoed = new Set<string>();

  constructor(
    private readonly document: OpenApiDocument,
    /** Ids, keys and tokens of shop B that shop A must never be shown, with what each is. */
    private readonly foreignSecrets: ReadonlyMap<string, string>,
  ) {
    this.ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: false });
    formats.default(this.ajv);
    this.ajv.addSchema(document.raw, 'openapi.json');
    this.byId = new Map(document.operations.map((operation) => [operation.operationId, operation]));
    try {
      this.problemValidator = this.ajv.getSchema('openapi.json#/components/schemas/Problem');
    } catch {
      this.problemValidator = undefined;
    }
  }

  /** The compiled success schema of an operation, or the error that kept it from compiling. */
  successValidator(operation: FuzzOperation): ValidateFunction | Error | undefined {
    const pointer = operation.successSchemaPointer;
    if (!pointer) return undefined;
    let validator = this.validators.get(pointer);
    if (!validator) {
      try {
        validator = this.ajv.getSchema(`openapi.json${pointer}`) ?? new Error(`no schema at ${pointer}`);
      } catch (error) {
        validator = error instanceof Error ? error : new Error(String(error));
      }
      this.validators.set(pointer, validator);
    }
    return validator;
  }

  check(request: FuzzRequest, observed: Observed): Finding[] {
    const operation = this.byId.get(request.operationId)!;
    const findings: Finding[] = [];
    let parsed: unknown;
    let parseError: string | undefined;
    try {
      parsed = observed.text === '' ? undefined : JSON.parse(observed.text);
    } catch (error) {
      parseError = (error as Error).message;
    }
    const code =
      parsed && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'string'
        ? (parsed as { code: string }).code
        : undefined;
    const finding = (kind: FindingKind, detail: string, context?: string): Finding => ({
      kind,
      context,
      operationId: operation.operationId,
      request,
      status: observed.status,
      code,
      detail,
      body: observed.text,
    });
    const { status } = observed;
    // A probe sends another method than the operation's: a wrong method when no route of the
    // document takes it for this URL, else (or a preflight) simply another route.
    const probe = request.method !== request.declaredMethod;
    const declared = this.document.methodsFor(request.url.split('?')[0]!);
    const wrongMethod =
      probe && request.method !== 'OPTIONS' && declared.length > 0 && !declared.includes(request.method);

    // A path segment `..` is resolved by the URL (the request reaches another route, e.g.
    // /api/orders/../payments is /api/payments): its success answers that route's schema.
    const rawPath = request.url.split('?')[0]!;
    const elsewhere = new URL(rawPath, 'http://fuzz.invalid').pathname !== rawPath;

    if (status >= 500) {
      findings.push(finding('server-error', observed.serverLog ?? '(nothing in the server log)'));
    } else if (status >= 400) {
      if (!/^application\/problem\+json\b/i.test(observed.contentType)) {
        findings.push(finding('problem-shape', `content-type ${JSON.stringify(observed.contentType)}`));
      } else if (parseError !== undefined || !parsed || typeof parsed !== 'object') {
        findings.push(
          finding('problem-shape', `body is not a JSON object${parseError ? `: ${parseError}` : ''}`),
        );
      } else if (code === undefined || !registered.has(code)) {
        findings.push(
          finding('problem-shape', `code ${JSON.stringify(code)} is not registered in errorStatus`),
        );
      } else if (errorStatus[code as keyof typeof errorStatus] !== status) {
        findings.push(
          finding(
            'problem-shape',
            `code ${code} is registered as ${errorStatus[code as keyof typeof errorStatus]}, answered ${status}`,
          ),
        );
      } else if ((parsed as { status?: unknown }).status !== status) {
        findings.push(
          finding('problem-shape', `body status ${(parsed as { status?: unknown }).status} ≠ ${status}`),
        );
      } else if (this.problemValidator && !this.problemValidator(parsed)) {
        findings.push(
          finding('problem-shape', `not a Problem: ${this.ajv.errorsText(this.problemValidator.errors)}`),
        );
      }
    } else if (status >= 200 && status < 300 && !probe && !elsewhere) {
      if (status !== operation.successStatus) {
        findings.push(
          finding('schema-mismatch', `status ${status}, the document declares ${operation.successStatus}`),
        );
      } else if (operation.successIsJson) {
        const validator = this.successValidator(operation);
        if (!/^application\/json\b/i.test(observed.contentType)) {
          findings.push(finding('schema-mismatch', `content-type ${JSON.stringify(observed.contentType)}`));
        } else if (parseError !== undefined) {
          findings.push(finding('schema-mismatch', `body is not JSON: ${parseError}`));
        } else if (validator instanceof Error) {
          findings.push(finding('schema-unusable', `response schema does not compile: ${validator.message}`));
        } else if (validator && !validator(parsed)) {
          findings.push(
            finding('schema-mismatch', this.ajv.errorsText(validator.errors, { separator: '; ' })),
          );
        }
      }
    } else if (status < 200 || (status >= 300 && status < 400)) {
      findings.push(finding('schema-mismatch', `status ${status} is not declared`));
    }

    if (wrongMethod) {
      if (status !== 405) {
        findings.push(
          finding(
            'method-not-allowed',
            'a method no route declares for this path must answer 405',
            `declared: ${declared.join(', ')}`,
          ),
        );
      } else if (
        !observed.allow ||
        declared.some((method) => !observed.allow!.toUpperCase().includes(method))
      ) {
        findings.push(
          finding(
            'method-not-allowed',
            '405 without an Allow header naming the declared methods',
            `Allow: ${JSON.stringify(observed.allow)}, declared: ${declared.join(', ')}`,
          ),
        );
      }
    }

    const sent = `${request.url} ${JSON.stringify(request.headers)} ${typeof request.body === 'string' ? request.body : ''}`;
    for (const [secret, what] of this.foreignSecrets) {
      if (!this.echoed.has(secret) && observed.text.includes(secret) && !sent.includes(secret)) {
        findings.push(
          finding(
            'foreign-leak',
            `the response contains shop B's ${what}, which the request did not name`,
            secret,
          ),
        );
        break;
      }
    }
    // A stored write may echo what it was given later on (a B id saved into A's channel overrides):
    // that is the caller's own data, not a leak.
    if (status >= 200 && status < 300) {
      for (const secret of this.foreignSecrets.keys()) if (sent.includes(secret)) this.echoed.add(secret);
    }
    return findings;
  }
}
