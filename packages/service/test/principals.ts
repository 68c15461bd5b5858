import {
  type Actor,
  type AnyOperation,
  authenticate,
  createToken,
  findOperation,
  type Principal,
  type Result,
  type Role,
  type Services,
} from '@cartwright/service';

export const testActor: Actor = { kind: 'system', process: 'test' };

/** The value of a successful result; fails the test with the code of any other. */
export function successOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}

/** The principal a token authenticates as; fails the test when it does not authenticate. */
export async function principalOf(services: Services, token: string): Promise<Principal> {
  return successOf(await authenticate(services, token));
}

/** A new API token of the shop with this role, and the principal it authenticates as. */
export async function apiPrincipal(services: Services, tenantId: string, role: Role): Promise<Principal> {
  const issued = await services.database.transaction((tx) =>
    createToken(tx, services, tenantId, testActor, { name: `${role} token`, kind: 'api', role }),
  );
  return principalOf(services, successOf(issued).token);
}

/** The registered operation with this name; fails the test when there is none. */
export function operationNamed(name: string): AnyOperation {
  const operation = findOperation(name);
  if (!operation) throw new Error(`no operation ${name}`);
  return operation;
}
