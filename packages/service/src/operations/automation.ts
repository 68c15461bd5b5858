import { type ChannelRow, type DefinitionRow, listChannels, listDefinitions } from '@cartwright/repository';
import * as v from 'valibot';
import { ok } from '../errors.ts';
import { defineOperation } from '../registry.ts';
import { EmptyInput, iso, Timestamp, Uuid } from '../schemas.ts';

const Definition = v.object({
  id: Uuid,
  key: v.nullable(v.string()),
  revision: v.number(),
  active: v.boolean(),
  data: v.unknown(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Channel = v.object({
  id: Uuid,
  key: v.nullable(v.string()),
  isMain: v.boolean(),
  /** Public: storefronts send it as `x-channel-key`. */
  accessKey: v.string(),
  revision: v.number(),
  baseRevision: v.number(),
  data: v.unknown(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

function definitionView(row: DefinitionRow): v.InferOutput<typeof Definition> {
  return {
    id: row.id,
    key: row.key,
    revision: row.revision,
    active: row.active,
    data: row.data,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function channelView(row: ChannelRow): v.InferOutput<typeof Channel> {
  return {
    id: row.id,
    key: row.key,
    isMain: row.isMain,
    accessKey: row.accessKey,
    revision: row.revision,
    baseRevision: row.baseRevision,
    data: row.data,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export const listAutomation = defineOperation({
  name: 'automation.list',
  summary: 'The shop’s automation configuration: rules, flows, promotions and channels.',
  http: { method: 'GET', path: '/api/automation' },
  permission: 'settings.read',
  readOnly: true,
  input: EmptyInput,
  output: v.object({
    rules: v.array(Definition),
    flows: v.array(Definition),
    promotions: v.array(Definition),
    channels: v.array(Channel),
  }),
  async handler({ services, tenantId }) {
    const db = services.database.db;
    const [definitions, channels] = await Promise.all([
      listDefinitions(db, tenantId),
      listChannels(db, tenantId),
    ]);
    const of = (kind: DefinitionRow['kind']) =>
      definitions.filter((row) => row.kind === kind).map(definitionView);
    return ok({
      rules: of('rule'),
      flows: of('flow'),
      promotions: of('promotion'),
      channels: channels.map(channelView),
    });
  },
});
