import { type Manifest, parseManifest } from '@cartwright/app-manifest';
import emailDelivery from './email-delivery.manifest.json' with { type: 'json' };

// The apps that ship with the service. Each installs like any app (`PUT /api/apps/{app}` with its
// manifest), and the service itself serves what it declares: installing `email_delivery` lets the
// flow action `action.mail.send` send (decision 0037). A first-party manifest declares only what
// the service serves. `examples/apps/<app>/` holds the same manifests with their READMEs (a test
// keeps them equal).

/** The app ids of the first-party apps. */
export type FirstPartyAppId = 'email_delivery';

/** The Email Delivery app's id: installed in a shop, `action.mail.send` sends its mail. */
export const EMAIL_DELIVERY_APP_ID: FirstPartyAppId = 'email_delivery';

/** A manifest shipped with the service, checked as `parseManifest` answers it; an invalid one is a bug. */
function shipped(input: unknown): Manifest {
  const parsed = parseManifest(input);
  if (!parsed.ok) throw new Error(`a first-party manifest is invalid: ${parsed.detail}`);
  return parsed.value;
}

/** The manifests of the first-party apps, by app id, as `PUT /api/apps/{app}` takes them. */
export const FIRST_PARTY_MANIFESTS: Readonly<Record<FirstPartyAppId, Manifest>> = Object.freeze({
  email_delivery: shipped(emailDelivery),
});
