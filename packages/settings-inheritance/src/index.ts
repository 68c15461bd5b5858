export { CHANNEL_SETTINGS_SHAPE } from './channel-settings.ts';
export {
  OVERRIDE_ISSUE_CODES,
  type OverrideIssue,
  type OverrideIssueCode,
  type SettingsRefusal,
  type SettingsResult,
} from './issues.ts';
export { type Json, type JsonObject, jsonPointer } from './json.ts';
export { normalizeOverrides } from './normalize.ts';
export { applyPatch, diffOverrides, invertPatch, type PatchOperation, type SettingsPatch } from './patch.ts';
export { type Provenance, type ProvenanceMap, type ResolvedSettings, resolveSettings } from './resolve.ts';
export {
  type BasisOnlyShape,
  basisOnly,
  type CollectionShape,
  collectionOf,
  type LeafShape,
  leaf,
  type MapShape,
  mapOf,
  type RecordShape,
  record,
  type Shape,
} from './shape.ts';
export { validateOverrides } from './validate.ts';
