import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import {
  Action,
  Block,
  ContextBinding,
  Description,
  Entity,
  EntityField,
  Id,
  Label,
  ListItem,
  Manifest,
  Panel,
  Schedule,
  ShapeField,
  Webhook,
} from '../src/index.ts';

/** Where the published JSON Schema of the manifest is committed, relative to the repository root. */
export const MANIFEST_SCHEMA_PATH = 'docs/app-manifest/manifest-v1.schema.json';

/**
 * The manifest's JSON Schema, generated from the valibot schema `parseManifest` uses. It states the
 * shape and bounds; the rules between parts (references, public data, bindings, cron, secrets)
 * are the README's and are only checked by `parseManifest`.
 */
export function manifestJsonSchema(): JsonSchema {
  // Named parts become `$defs`, so the document reads as the README does.
  const definitions = {
    Id,
    Label,
    Description,
    ListItem,
    EntityField,
    ShapeField,
    Entity,
    Action,
    ContextBinding,
    Block,
    Schedule,
    Webhook,
    Panel,
  };
  // Checks JSON Schema cannot state (finite numbers) are left out rather than failing the document.
  const { $schema, ...schema } = toJsonSchema(Manifest, {
    definitions,
    errorMode: 'ignore',
    typeMode: 'input',
  });
  return {
    $schema,
    title: 'Cartwright app manifest, API 1',
    description:
      'The shape and bounds of an app manifest. The rules between its parts are documented in packages/app-manifest/README.md and checked by parseManifest.',
    ...schema,
  };
}
