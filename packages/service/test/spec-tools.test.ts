import { describe, expect, it } from 'vitest';
import { isMcpTool, operations } from '../src/index.ts';

// The spec's endpoint tables ("Endpoints": Automation, Channels and methods, Product media): every
// MCP tool it names exists, and each route it lists is served by the operation whose tool it names
// (one declaration, two transports). Path parameters are compared by position, not by name.

/** [method, path, MCP tool]; null where the spec names none (HTTP only) or names a tool shared by rows. */
const SPEC_ENDPOINTS: readonly (readonly [string, string, string | null])[] = [
  ['GET', '/api/automation/catalog', 'automation.catalog'],
  ['GET', '/api/automation', 'automation.list'],
  // The spec names `automation.list` for the executions too; that tool answers the definitions, and
  // the executions are their own operation (`automation.executions`).
  ['GET', '/api/automation/executions', null],
  ['PUT', '/api/automation/{kind}/{id}', 'automation.save'],
  ['GET', '/api/automation/{kind}/{id}/dependencies', 'automation.dependencies'],
  ['DELETE', '/api/automation/{kind}/{id}', 'automation.delete'],
  ['POST', '/api/automation/rules/preview', 'automation.preview'],
  ['POST', '/api/automation/import-condition', 'automation.import'],
  ['PUT', '/api/automation/entities/{entity}/{id}', null],
  ['GET', '/api/merchant/commerce/channels/{id}', 'merchant.commerce.read'],
  ['PUT', '/api/merchant/commerce/channels/{id}', 'merchant.commerce.save'],
  ['GET', '/api/merchant/commerce/methods/{area}/{id}/dependencies', 'merchant.commerce.dependencies'],
  ['GET', '/api/merchant/media/provider', 'merchant.media.provider'],
  ['POST', '/api/merchant/products/{id}/media/jobs', 'merchant.media.create'],
  ['GET', '/api/merchant/products/{id}/media/jobs', 'merchant.media.list'],
  ['GET', '/api/merchant/media/jobs/{id}', 'merchant.media.detail'],
  ['POST', '/api/merchant/media/jobs/{id}/apply', 'merchant.media.apply'],
];

/** A path with every parameter (`:name` or `{name}`) as `{}`. */
const shape = (path: string) => path.replace(/:[A-Za-z]+|\{[A-Za-z]+\}/g, '{}');

describe('the spec’s endpoints and MCP tools', () => {
  it.each(SPEC_ENDPOINTS.map((row) => [`${row[0]} ${row[1]}`, ...row] as const))(
    '%s is served, by the operation of the tool the spec names',
    (_name, method, path, tool) => {
      const served = operations.find(
        (operation) => operation.http?.method === method && shape(operation.http.path) === shape(path),
      );
      expect(served, `${method} ${path}`).toBeDefined();
      if (tool === null) return;
      expect(served!.name).toBe(tool);
      expect(isMcpTool(served!)).toBe(true);
    },
  );

  it('the entity metadata route is HTTP only, as the spec says', () => {
    const entities = operations.find(
      (operation) => operation.http?.path === '/api/automation/entities/:entity/:id',
    );
    expect(entities && isMcpTool(entities)).toBe(false);
  });
});
