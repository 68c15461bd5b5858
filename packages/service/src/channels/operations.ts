import * as v from 'valibot';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { LanguageCode, Revision, Uuid } from '../kernel/schemas.ts';
import {
  ChannelSaveBody,
  ChannelView,
  DeletedChannel,
  deleteChannelAt,
  readChannelAt,
  saveSalesChannel,
} from './records.ts';

// The merchant channel endpoints; the work is `records.ts`'s (shared with `/api/automation/channels`).

export const readChannel = defineOperation({
  name: 'merchant.commerce.read',
  summary:
    'A sales channel: its own fields, its sparse overrides, the effective settings in one content language and, per field, whether it is inherited or overridden.',
  http: { method: 'GET', path: '/api/merchant/commerce/channels/:channelId' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({ channelId: Uuid, language: v.optional(LanguageCode) }),
  output: ChannelView,
  handler: readChannelAt,
});

export const saveChannel = defineOperation({
  name: 'merchant.commerce.save',
  summary:
    'Creates (revision 0) or replaces a sales channel: its own fields and its sparse overrides, bound to the channel `revision` and the shared basis `baseRevision`.',
  http: { method: 'PUT', path: '/api/merchant/commerce/channels/:channelId' },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({ channelId: Uuid, ...ChannelSaveBody }),
  output: ChannelView,
  handler: saveSalesChannel,
});

export const deleteSalesChannel = defineOperation({
  name: 'merchant.commerce.delete',
  summary:
    'Deletes a sales channel at its revision; the main channel never, a channel with customers, carts, orders, product visibilities or overrides, or one a rule, flow or promotion names, neither (deactivate it instead).',
  http: { method: 'DELETE', path: '/api/merchant/commerce/channels/:channelId' },
  permission: 'settings.write',
  readOnly: false,
  input: v.object({ channelId: Uuid, revision: Revision }),
  output: DeletedChannel,
  handler: deleteChannelAt,
});

export const channelOperations: readonly AnyOperation[] = [readChannel, saveChannel, deleteSalesChannel];
