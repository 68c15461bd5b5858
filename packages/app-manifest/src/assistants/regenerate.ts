import { entityOf, PRIVATE_CORE_REFERENCES } from '../access.ts';
import { PAYMENT_ROLES } from '../contracts.ts';
import { type Action, type Manifest, type Mount, STOREFRONT_MOUNTS } from '../schema.ts';
import { isVersion } from '../version.ts';

/** The next minor version of an installed one: `1.4.2` and `1.4.2-rc.1` both become `1.5.0`. */
export function nextMinorVersion(version: string): string {
  if (!isVersion(version)) throw new TypeError(`not a version: ${version}`);
  const [major, minor] = version.split(/[.-]/) as [string, string];
  // Digits past 2^53 stay exact.
  return `${major}.${(BigInt(minor) + 1n).toString()}.0`;
}

/**
 * Whether the rules let `action` be public or private, so the installer's choice is kept: a read of
 * a `publicRead` entity, or a service action that plays no payment or shipping role and holds no
 * customer or order reference; never one a storefront block runs (that one must be public).
 */
function isPublicChoice(manifest: Manifest, action: Action): boolean {
  const onStorefront = manifest.blocks.some(
    (block) => block.action === action.id && (STOREFRONT_MOUNTS as readonly Mount[]).includes(block.mount),
  );
  if (onStorefront) return false;
  if (action.kind === 'list' || action.kind === 'get') return entityOf(manifest, action)?.publicRead === true;
  if (action.kind !== 'service') return false;
  const roles = [
    ...(manifest.payment ? PAYMENT_ROLES.map((role) => manifest.payment?.[role]) : []),
    manifest.shipping?.rate,
  ];
  if (roles.includes(action.id)) return false;
  return ![...action.input, ...action.output].some(
    (field) =>
      field.type === 'string' && field.coreReference && PRIVATE_CORE_REFERENCES.includes(field.coreReference),
  );
}

/**
 * `generated` as the next version of `previous`, keeping what the installer decided (spec,
 * Versioning 5): for every action id both hold, `mcp` (absent stays absent) and, where the rules
 * allow either, `public`; the AI tools that still name an action; each kept schedule's `enabled`.
 * Everything else is the answers'.
 */
export function keepInstalledSettings(generated: Manifest, previous: Manifest): Manifest {
  const installedActions = new Map(previous.actions.map((action) => [action.id, action]));
  const actions = generated.actions.map((action): Action => {
    const installed = installedActions.get(action.id);
    if (!installed) return action;
    const kept: Action = {
      ...action,
      public: isPublicChoice(generated, action) ? installed.public : action.public,
    };
    if (installed.mcp === undefined) delete kept.mcp;
    else kept.mcp = installed.mcp;
    return kept;
  });
  const actionIds = new Set(actions.map((action) => action.id));
  const installedSchedules = new Map(previous.schedules.map((schedule) => [schedule.id, schedule]));
  return {
    ...generated,
    version: nextMinorVersion(previous.version),
    actions,
    intelligence: { tools: previous.intelligence.tools.filter((tool) => actionIds.has(tool)) },
    schedules: generated.schedules.map((schedule) => ({
      ...schedule,
      enabled: installedSchedules.get(schedule.id)?.enabled ?? schedule.enabled,
    })),
  };
}
