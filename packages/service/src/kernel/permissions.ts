import * as v from 'valibot';

/** Granular permissions. Each flow action additionally needs its own area's permission. */
export const PERMISSIONS = [
  'settings.read',
  'settings.write',
  'catalog.read',
  'catalog.write',
  'customers.read',
  'customers.write',
  'orders.read',
  'orders.write',
  'documents.read',
  'documents.write',
  'apps.read',
  'apps.write',
  'apps.manage',
  'knowledge.read',
  'knowledge.write',
  'members.manage',
] as const;

export const Permission = v.picklist(PERMISSIONS);
export type Permission = v.InferOutput<typeof Permission>;

export const ROLES = ['owner', 'admin', 'editor', 'reader'] as const;
export const Role = v.picklist(ROLES);
export type Role = v.InferOutput<typeof Role>;

const reads = PERMISSIONS.filter((permission) => permission.endsWith('.read'));
const writes = PERMISSIONS.filter((permission) => permission.endsWith('.write'));

/**
 * Role defaults. Owners and admins hold everything (only owners may make or unmake owners);
 * editors read and write data but neither install apps nor manage people; readers only read.
 */
export const rolePermissions: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  editor: [...reads, ...writes],
  reader: reads,
};

/** The permissions a member or token holds: an explicit grant list replaces the role's defaults. */
export function effectivePermissions(
  role: Role,
  granted: readonly string[] | null | undefined,
): Set<Permission> {
  if (!granted) return new Set(rolePermissions[role]);
  return new Set(granted.filter((permission): permission is Permission => v.is(Permission, permission)));
}
