/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AdminSession } from '@cartwright/service';
import type { Translator } from '../i18n.ts';
import type { AdminKit } from '../kit.ts';
import { CsrfField, type PageContext } from '../layout.tsx';

// App data cards (issue 20 Build 7, decision 0047): the blocks apps declare on the admin's mounts
// (admin.product.general, admin.product.tab, admin.product, admin.customer, admin.order,
// admin.order.general), rendered as cards. Each reads and writes through `apps.actions.invoke`
// with the member's rights; a bound block reads only its context's rows. Other admin pages (the
// product and order pages) place them with `loadAppBlocks` + `<AppBlocks>`.

export const ADMIN_MOUNTS = [
  'admin.product.general',
  'admin.product.tab',
  'admin.product',
  'admin.customer',
  'admin.order',
  'admin.order.general',
] as const;
export type AdminMount = (typeof ADMIN_MOUNTS)[number];
/** The mounts of a product page and of an order page. */
export const PRODUCT_MOUNTS: readonly AdminMount[] = [
  'admin.product.general',
  'admin.product.tab',
  'admin.product',
];
export const ORDER_MOUNTS: readonly AdminMount[] = ['admin.order', 'admin.order.general'];
export type ContextKey = 'productId' | 'customerId' | 'orderId';
export type BlockContext = Partial<Record<ContextKey, string>>;

export const MOUNT_CONTEXT: Readonly<Record<AdminMount, ContextKey>> = {
  'admin.product.general': 'productId',
  'admin.product.tab': 'productId',
  'admin.product': 'productId',
  'admin.customer': 'customerId',
  'admin.order': 'orderId',
  'admin.order.general': 'orderId',
};

type Text = Record<string, string>;
export interface ManifestField {
  readonly name: string;
  readonly type: string;
  readonly label?: Text;
  readonly required?: boolean;
  readonly choices?: readonly { value: string; label: Text }[];
}
export interface ManifestAction {
  readonly id: string;
  readonly kind: string;
  readonly entity?: string;
  readonly label?: Text;
  readonly input?: readonly ManifestField[];
}
export interface ManifestBlock {
  readonly id: string;
  readonly kind: 'table' | 'card' | 'form' | 'action';
  readonly mount: string;
  readonly action: string;
  readonly title?: Text;
  readonly fields?: readonly string[];
  readonly contextBinding?: { field: string; key: ContextKey };
}
/** A panel the app ships (decision 0048): served by admin/apps/panel.ts into a sandboxed frame. */
export interface ManifestPanel {
  readonly id: string;
  readonly label: Text;
  readonly html: string;
  readonly script?: string;
  readonly style?: string;
}
export interface AppManifest {
  readonly id: string;
  readonly name: Text;
  readonly version: string;
  readonly entities?: readonly { id: string; fields: readonly ManifestField[] }[];
  readonly actions?: readonly ManifestAction[];
  readonly blocks?: readonly ManifestBlock[];
  readonly admin?: { readonly panels?: readonly ManifestPanel[] };
}
export interface InstalledApp {
  readonly appId: string;
  readonly version: string;
  readonly revision: number;
  readonly manifest: AppManifest;
}
interface RecordRow {
  readonly id: string;
  readonly revision: number;
  readonly data: Record<string, unknown>;
}

/** A block ready to render: what it shows (rows), or why it cannot (refused). */
export interface LoadedBlock {
  readonly app: InstalledApp;
  readonly block: ManifestBlock;
  readonly fields: readonly ManifestField[];
  readonly rows: readonly RecordRow[];
  readonly refused: string | null;
  readonly context: BlockContext;
}

export function textIn(text: Text | undefined, locale: string, fallback: string): string {
  return text?.[locale] ?? text?.en ?? (text ? Object.values(text)[0] : undefined) ?? fallback;
}

/** The fields a block shows or fills: its entity's (or a service action's input), narrowed to `fields`. */
function blockFields(manifest: AppManifest, block: ManifestBlock): ManifestField[] {
  const action = manifest.actions?.find((item) => item.id === block.action);
  const all =
    action?.kind === 'service'
      ? (action.input ?? [])
      : (manifest.entities?.find((entity) => entity.id === action?.entity)?.fields ?? []);
  return block.fields ? all.filter((field) => block.fields!.includes(field.name)) : [...all];
}

/** The admin blocks of `apps` on `mounts`, each read for `context` (table and card blocks list rows). */
export async function loadAppBlocks(
  kit: AdminKit,
  session: AdminSession,
  apps: readonly InstalledApp[],
  mounts: readonly string[],
  context: BlockContext,
): Promise<LoadedBlock[]> {
  const loaded: LoadedBlock[] = [];
  for (const app of apps) {
    for (const block of app.manifest.blocks ?? []) {
      if (!mounts.includes(block.mount) || !(ADMIN_MOUNTS as readonly string[]).includes(block.mount))
        continue;
      const fields = blockFields(app.manifest, block);
      const key = block.contextBinding?.key;
      if (key && !context[key]) {
        loaded.push({ app, block, fields, rows: [], refused: null, context });
        continue;
      }
      if (block.kind === 'table' || block.kind === 'card') {
        const listed = await kit.act(session, 'apps.actions.invoke', {
          appId: app.appId,
          actionId: block.action,
          block: block.id,
          ...(key ? { context: { [key]: context[key] } } : {}),
          limit: block.kind === 'card' ? 1 : 50,
        });
        loaded.push({
          app,
          block,
          fields,
          rows: listed.ok ? (listed.value as { items: RecordRow[] }).items : [],
          refused: listed.ok ? null : listed.detail,
          context,
        });
      } else {
        loaded.push({ app, block, fields, rows: [], refused: null, context });
      }
    }
  }
  return loaded;
}

/** The block's title, and the app's name when it differs (a card on another page names its app). */
function blockTitle(block: ManifestBlock, app: InstalledApp, locale: string): string {
  const title = textIn(block.title, locale, block.id);
  const name = textIn(app.manifest.name, locale, app.appId);
  return title === name ? title : `${title} · ${name}`;
}

/**
 * The blocks every installed app declares on `mounts`, read for `context`: what a product, customer
 * or order page places with `<AppBlocks>` (empty for a member who may not read apps).
 */
export async function appBlocksFor(
  kit: AdminKit,
  session: AdminSession,
  mounts: readonly AdminMount[],
  context: BlockContext,
): Promise<LoadedBlock[]> {
  if (!session.principal.permissions.has('apps.read')) return [];
  const listed = await kit.act(session, 'apps.list', {});
  if (!listed.ok) return [];
  return loadAppBlocks(kit, session, (listed.value as { items: InstalledApp[] }).items, mounts, context);
}

function shown(t: Translator, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t.t(value ? 'apps.yes' : 'apps.no');
  if (typeof value === 'number') return new Intl.NumberFormat(t.locale).format(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function FieldInput({ t, field, id }: { t: Translator; field: ManifestField; id: string }) {
  const name = `f.${field.name}`;
  const label = textIn(field.label, t.locale, field.name);
  if (field.type === 'boolean') {
    return (
      <div class="field">
        <input type="checkbox" id={id} name={name} value="yes" />{' '}
        <label for={id} class="inline">
          {label}
        </label>
      </div>
    );
  }
  if (field.type === 'choice') {
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <select id={id} name={name} required={field.required}>
          {field.required ? null : <option value=""></option>}
          {(field.choices ?? []).map((choice) => (
            <option value={choice.value}>{textIn(choice.label, t.locale, choice.value)}</option>
          ))}
        </select>
      </div>
    );
  }
  const type =
    field.type === 'integer' || field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text';
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {field.type === 'text' ? (
        <textarea id={id} name={name} required={field.required}></textarea>
      ) : (
        <input
          type={type}
          id={id}
          name={name}
          required={field.required}
          step={field.type === 'number' ? 'any' : undefined}
        />
      )}
    </div>
  );
}

/** Reads a block form's `f.<field>` entries as the field types want them. */
export function blockValues(
  fields: readonly ManifestField[],
  form: Record<string, unknown>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = form[`f.${field.name}`];
    if (field.type === 'boolean') {
      values[field.name] = raw === 'yes';
      continue;
    }
    if (typeof raw !== 'string' || raw === '') continue;
    values[field.name] = field.type === 'integer' || field.type === 'number' ? Number(raw) : raw;
  }
  return values;
}

export function blockFieldsOf(app: InstalledApp, block: ManifestBlock): ManifestField[] {
  return blockFields(app.manifest, block);
}

/** The cards of loaded blocks; forms and buttons only for a member who may write (`writes`). */
export function AppBlocks({
  page,
  blocks,
  writes,
  back,
}: {
  page: PageContext;
  blocks: readonly LoadedBlock[];
  writes: boolean;
  /** Where a block's post returns to (an /admin path). */
  back: string;
}) {
  const { t, csrf } = page;
  return (
    <div class="cards">
      {blocks.map(({ app, block, fields, rows, refused, context }) => {
        const headingId = `block-${app.appId}-${block.id}`;
        const key = block.contextBinding?.key;
        const bound = block.contextBinding?.field;
        const visible = fields.filter((field) => field.name !== bound);
        const action = `/admin/apps/${app.appId}/blocks/${block.id}`;
        return (
          <section class="card app-block" aria-labelledby={headingId} data-block={block.id}>
            <h3 id={headingId}>{blockTitle(block, app, t.locale)}</h3>
            <p class="meta">{t.t('apps.mount', { mount: block.mount })}</p>
            {key && !context[key] ? (
              <p class="hint">{t.t('apps.needContext')}</p>
            ) : refused ? (
              <p class="hint">{t.t('apps.refused', { detail: refused })}</p>
            ) : block.kind === 'table' ? (
              rows.length === 0 ? (
                <p>{t.t('apps.empty')}</p>
              ) : (
                <table class="data">
                  <thead>
                    <tr>
                      {visible.map((field) => (
                        <th scope="col">{textIn(field.label, t.locale, field.name)}</th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr>
                        {visible.map((field) => (
                          <td>{shown(t, row.data[field.name])}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              )
            ) : block.kind === 'card' ? (
              rows[0] ? (
                <dl>
                  {visible.map((field) => (
                    <>
                      <dt>{textIn(field.label, t.locale, field.name)}</dt>
                      <dd>{shown(t, rows[0]!.data[field.name])}</dd>
                    </>
                  ))}
                </dl>
              ) : (
                <p>{t.t('apps.empty')}</p>
              )
            ) : writes ? (
              <form method="post" action={action}>
                <CsrfField token={csrf} />
                <input type="hidden" name="back" value={back} />
                {key ? <input type="hidden" name="context" value={context[key]} /> : null}
                {block.kind === 'form'
                  ? visible.map((field) => (
                      <FieldInput t={t} field={field} id={`${headingId}-${field.name}`} />
                    ))
                  : null}
                <button type="submit">{t.t(block.kind === 'form' ? 'apps.save' : 'apps.run')}</button>
              </form>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
