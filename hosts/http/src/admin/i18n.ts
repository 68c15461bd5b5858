import { IntlMessageFormat } from 'intl-messageformat';
import { AREA_MESSAGES } from './area-messages.ts';

// The admin UI's text: ICU messages (intl-messageformat) in four catalogs. `satisfies
// Record<Locale, Messages>` makes a message missing in one language a type error; numbers, money,
// dates and language names come from Node's Intl (decision 0047).

export const LOCALES = ['en', 'de', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

const en = {
  appName: 'Cartwright admin',
  skipToContent: 'Skip to content',
  'signIn.title': 'Sign in',
  'signIn.tokenHeading': 'With a personal token',
  'signIn.tokenLabel': 'Personal token',
  'signIn.tokenHint': 'Starts with cw_pat_. `pnpm start` prints the demo shop owner’s token once.',
  'signIn.tokenSubmit': 'Sign in with token',
  'signIn.passwordHeading': 'With e-mail and password',
  'signIn.email': 'E-mail address',
  'signIn.password': 'Password',
  'signIn.passwordHint': 'Set it with: pnpm cartwright user password --email ADDRESS',
  'signIn.passwordSubmit': 'Sign in with password',
  'signIn.failed': 'Sign-in failed: {detail}',
  'signIn.addShop': 'Add another shop with its personal token',
  'nav.label': 'Main',
  'nav.home': 'Overview',
  'nav.settings': 'Settings',
  'nav.apiDocs': 'API reference',
  'shop.label': 'Shop',
  'shop.switch': 'Switch shop',
  'shop.add': 'Add a shop',
  'uiLanguage.label': 'Interface language',
  'uiLanguage.apply': 'Apply',
  signOut: 'Sign out',
  'session.who': 'Signed in as {role, select, owner {owner} admin {admin} editor {editor} other {reader}}',
  'home.title': 'Overview',
  'home.nothing': 'Your role lets you read nothing in this shop yet.',
  'home.settingsCard': 'Sales channels and their settings',
  'home.channels': '{count, plural, =0 {No sales channel} one {# sales channel} other {# sales channels}}',
  'settings.title': 'Settings',
  'settings.channels': 'Sales channels',
  'settings.main': 'main channel',
  'settings.open': 'Open settings of {name}',
  'settings.updated': 'Last saved {date}',
  'channel.title': 'Settings of {name}',
  'channel.contentLanguage': 'Content language',
  'channel.contentLanguageHint': 'Names and descriptions below are shown and saved in this language.',
  'channel.showLanguage': 'Show',
  'channel.shipping': 'Shipping methods',
  'channel.payment': 'Payment methods',
  'channel.revision': 'Revision {revision} · shared settings revision {baseRevision}',
  'channel.readOnly': 'You can read these settings but not change them.',
  'field.name': 'Name',
  'field.description': 'Description',
  'field.nameOf': 'Name of {method}',
  'field.descriptionOf': 'Description of {method}',
  'field.price': '{count, plural, =0 {no price} one {# price} other {# prices}}: {prices}',
  'field.active': '{method} is offered in this channel',
  'field.inactive': '{method} is not offered in this channel',
  'field.labelOf': 'Tax label {label}',
  'channel.taxLabels': 'Tax labels',
  'channel.delivery': 'Delivery countries',
  'channel.own': 'This channel',
  'channel.taxRates': 'Tax rates',
  'field.rateOf': '{taxClass}, {place} (%)',
  'place.all': 'all countries',
  'field.pricesOf': 'Prices of {method}',
  'field.gross': 'Gross ({currency})',
  'field.net': 'Net ({currency})',
  'error.amount':
    '{count, plural, one {An amount or rate is} other {# amounts or rates are}} not a number with the allowed decimals; nothing was saved.',
  'field.paused': 'Paused: the storefront serves nothing',
  'field.private': 'Private: only with a staff token or an access grant',
  'delivery.all': 'Delivers to every country of the shared settings.',
  'delivery.subdivisions': '{count, plural, =0 {no subdivisions} one {# subdivision} other {# subdivisions}}',
  'provenance.inherited': 'inherited',
  'provenance.overridden': 'overridden',
  'provenance.removed': 'removed in this channel',
  'provenance.fallback': 'not translated: shows the {language} text',
  'action.reset': 'Reset to inherited',
  'action.save': 'Save',
  saved: 'Saved: the channel is at revision {revision}.',
  'stale.title': 'Someone else saved first',
  'stale.body':
    'Nothing was saved. Your entries are kept below; these fields changed since you opened the form:',
  'stale.field': '{field}: now “{now}”, before “{before}”',
  'stale.none': 'None of the fields in this form changed; another part of the settings did.',
  'stale.retry': 'Check them and save again.',
  'error.forbidden': 'Your role does not allow this change.',
  'error.refused': 'The change was refused: {detail}',
  'error.csrf': 'The form could not be checked. Reload the page and try again.',
  'error.notFound': 'This page does not exist.',
  'error.tooLarge':
    'The form sent more than this page accepts (at most {size, number} MiB); nothing was saved.',
  'empty.text': '(empty)',
  'value.yes': 'yes',
  'value.no': 'no',
  'field.channelName': 'Name of the channel ({language})',
  'field.mode': 'Mode',
  'mode.label':
    '{mode, select, headless {Headless: only the API, for your own front end} other {Storefront: Cartwright serves the shop pages}}',
  'field.languages': 'Languages of the channel',
  'field.languagesOf': 'Languages of the channel: {languages}',
  'field.languagesMain': 'The main channel uses the shop’s languages: {languages}',
  'field.domains': 'Domains',
  'field.catalog': 'Catalog',
  'catalog.hint': 'Tick the categories this channel sells; with none ticked it sells the whole catalog.',
  'catalog.whole': 'The whole catalog',
  'catalog.noCategories': 'The shop has no categories yet: the channel sells the whole catalog.',
  'field.navigation': 'Navigation starts at',
  'navigation.none': '(not set)',
  'domain.row': 'Domain {number}',
  'domain.new': 'Add a domain',
  'domain.newHint': 'Fill in the address to add a domain; leave it empty to add none.',
  'domain.url': 'Address (URL)',
  'domain.language': 'Language',
  'domain.currency': 'Currency',
  'domain.remove': 'Remove this domain',
  'domain.none': 'No domains yet.',
  'error.nameRequired': 'Give the channel a name.',
  'error.fields':
    '{count, plural, one {A field was refused} other {# fields were refused}}: see the marked fields. Nothing was saved.',
  'error.confirm': 'Tick the box to confirm the deletion. Nothing was deleted.',
  'channel.company': 'Company identity',
  'company.overridesHint':
    'Inherited from the shop field by field. A field you change here applies to this channel only; empty it to show none in this channel.',
  'company.basisHint':
    'The shop’s company identity, printed on documents: every channel inherits it field by field. It is saved on its own.',
  'company.group': '{group, select, name {Name} legal {Legal} contact {Contact} bank {Bank} other {Logos}}',
  'company.field':
    '{field, select, name {Company name} companyName {Legal company name} legalForm {Legal form} vatId {VAT ID} taxNumber {Tax number} registrationNumber {Registration number} registrationCourt {Registration court} managingDirectors {Managing directors} legalNotice {Legal notice} email {E-mail} phone {Phone} website {Website} address {Address} bankName {Bank name} iban {IBAN} bic {BIC} light {Logo on light background (URL)} dark {Logo on dark background (URL)} logoLight {Logo on light background (URL)} logoDark {Logo on dark background (URL)} street {Street} zipcode {Postcode} city {City} country {Country (ISO code, e.g. DE)} other {{field}}}',
  'company.listHint': 'One per line.',
  'company.notSet': '(not set)',
  'company.save': 'Save company identity',
  'company.saved': 'Saved: the company identity is at revision {revision}.',
  'company.stale':
    'Someone else saved the company identity first. Nothing was saved; your entries are kept below: check them and save again.',
  'settings.create': 'New sales channel',
  'settings.createSubmit': 'Create channel',
  'settings.deleted': 'The channel was deleted.',
  'channel.delete': 'Delete this channel',
  'channel.deleteHint':
    'Only a channel nothing uses can be deleted: no customers, carts, orders, product visibilities, overridden settings, and no rule, flow or promotion naming it. Otherwise pause it or make it private.',
  'channel.deleteConfirm': 'Yes, delete {name} for good',
  'channel.deleteRefused': 'The channel was not deleted: {detail}',
  'channel.blocker':
    '{kind, select, customers {Customers} carts {Carts} orders {Orders} product_visibility {Products with a visibility for it} overrides {Overridden settings} other {Rules, flows or promotions naming it}}: {count}',
} as const;

/** A complete set of catalogs for the messages `E` (each area of the admin declares one). */
export type Catalogs<E> = Readonly<Record<Locale, { readonly [K in keyof E]: string }>>;

/** The keys of the areas' messages (admin/area-messages.ts lists the areas). */
type AreaKey = (typeof AREA_MESSAGES)[number] extends infer A
  ? A extends { readonly en: infer E }
    ? keyof E
    : never
  : never;

export type MessageKey = keyof typeof en | AreaKey;
export type Messages = { readonly [K in MessageKey]: string };

const core = {
  en,
  de: {
    appName: 'Cartwright-Verwaltung',
    skipToContent: 'Zum Inhalt springen',
    'signIn.title': 'Anmelden',
    'signIn.tokenHeading': 'Mit persönlichem Token',
    'signIn.tokenLabel': 'Persönliches Token',
    'signIn.tokenHint': 'Beginnt mit cw_pat_. `pnpm start` zeigt das Token des Demo-Shop-Inhabers einmal an.',
    'signIn.tokenSubmit': 'Mit Token anmelden',
    'signIn.passwordHeading': 'Mit E-Mail und Passwort',
    'signIn.email': 'E-Mail-Adresse',
    'signIn.password': 'Passwort',
    'signIn.passwordHint': 'Festlegen mit: pnpm cartwright user password --email ADRESSE',
    'signIn.passwordSubmit': 'Mit Passwort anmelden',
    'signIn.failed': 'Anmeldung fehlgeschlagen: {detail}',
    'signIn.addShop': 'Weiteren Shop mit seinem persönlichen Token hinzufügen',
    'nav.label': 'Hauptmenü',
    'nav.home': 'Übersicht',
    'nav.settings': 'Einstellungen',
    'nav.apiDocs': 'API-Referenz',
    'shop.label': 'Shop',
    'shop.switch': 'Shop wechseln',
    'shop.add': 'Shop hinzufügen',
    'uiLanguage.label': 'Sprache der Oberfläche',
    'uiLanguage.apply': 'Übernehmen',
    signOut: 'Abmelden',
    'session.who':
      'Angemeldet als {role, select, owner {Inhaber} admin {Administrator} editor {Bearbeiter} other {Leser}}',
    'home.title': 'Übersicht',
    'home.nothing': 'Ihre Rolle erlaubt in diesem Shop noch nichts zu lesen.',
    'home.settingsCard': 'Verkaufskanäle und ihre Einstellungen',
    'home.channels':
      '{count, plural, =0 {Kein Verkaufskanal} one {# Verkaufskanal} other {# Verkaufskanäle}}',
    'settings.title': 'Einstellungen',
    'settings.channels': 'Verkaufskanäle',
    'settings.main': 'Hauptkanal',
    'settings.open': 'Einstellungen von {name} öffnen',
    'settings.updated': 'Zuletzt gespeichert {date}',
    'channel.title': 'Einstellungen von {name}',
    'channel.contentLanguage': 'Inhaltssprache',
    'channel.contentLanguageHint':
      'Namen und Beschreibungen unten werden in dieser Sprache gezeigt und gespeichert.',
    'channel.showLanguage': 'Anzeigen',
    'channel.shipping': 'Versandarten',
    'channel.payment': 'Zahlungsarten',
    'channel.revision': 'Revision {revision} · Revision der gemeinsamen Einstellungen {baseRevision}',
    'channel.readOnly': 'Sie können diese Einstellungen lesen, aber nicht ändern.',
    'field.name': 'Name',
    'field.description': 'Beschreibung',
    'field.nameOf': 'Name von {method}',
    'field.descriptionOf': 'Beschreibung von {method}',
    'field.price': '{count, plural, =0 {kein Preis} one {# Preis} other {# Preise}}: {prices}',
    'field.active': '{method} wird in diesem Kanal angeboten',
    'field.inactive': '{method} wird in diesem Kanal nicht angeboten',
    'field.labelOf': 'Steuerbezeichnung {label}',
    'channel.taxLabels': 'Steuerbezeichnungen',
    'channel.delivery': 'Lieferländer',
    'channel.own': 'Dieser Kanal',
    'channel.taxRates': 'Steuersätze',
    'field.rateOf': '{taxClass}, {place} (%)',
    'place.all': 'alle Länder',
    'field.pricesOf': 'Preise von {method}',
    'field.gross': 'Brutto ({currency})',
    'field.net': 'Netto ({currency})',
    'error.amount':
      '{count, plural, one {Ein Betrag oder Satz ist} other {# Beträge oder Sätze sind}} keine Zahl mit den erlaubten Nachkommastellen; nichts wurde gespeichert.',
    'field.paused': 'Pausiert: Der Shop liefert nichts aus',
    'field.private': 'Privat: nur mit Mitarbeiter-Token oder Zugangsberechtigung',
    'delivery.all': 'Liefert in jedes Land der gemeinsamen Einstellungen.',
    'delivery.subdivisions': '{count, plural, =0 {keine Regionen} one {# Region} other {# Regionen}}',
    'provenance.inherited': 'geerbt',
    'provenance.overridden': 'überschrieben',
    'provenance.removed': 'in diesem Kanal entfernt',
    'provenance.fallback': 'nicht übersetzt: zeigt den Text auf {language}',
    'action.reset': 'Auf geerbten Wert zurücksetzen',
    'action.save': 'Speichern',
    saved: 'Gespeichert: Der Kanal hat jetzt Revision {revision}.',
    'stale.title': 'Jemand anderes hat zuerst gespeichert',
    'stale.body':
      'Nichts wurde gespeichert. Ihre Eingaben stehen unten; diese Felder haben sich seit dem Öffnen geändert:',
    'stale.field': '{field}: jetzt „{now}“, vorher „{before}“',
    'stale.none': 'Kein Feld dieses Formulars hat sich geändert, aber ein anderer Teil der Einstellungen.',
    'stale.retry': 'Prüfen Sie sie und speichern Sie erneut.',
    'error.forbidden': 'Ihre Rolle erlaubt diese Änderung nicht.',
    'error.refused': 'Die Änderung wurde abgelehnt: {detail}',
    'error.csrf':
      'Das Formular konnte nicht geprüft werden. Laden Sie die Seite neu und versuchen Sie es erneut.',
    'error.notFound': 'Diese Seite gibt es nicht.',
    'error.tooLarge':
      'Das Formular hat mehr gesendet, als diese Seite annimmt (höchstens {size, number} MiB); nichts wurde gespeichert.',
    'empty.text': '(leer)',
    'value.yes': 'ja',
    'value.no': 'nein',
    'field.channelName': 'Name des Kanals ({language})',
    'field.mode': 'Modus',
    'mode.label':
      '{mode, select, headless {Headless: nur die API, für Ihr eigenes Frontend} other {Storefront: Cartwright liefert die Shop-Seiten aus}}',
    'field.languages': 'Sprachen des Kanals',
    'field.languagesOf': 'Sprachen des Kanals: {languages}',
    'field.languagesMain': 'Der Hauptkanal verwendet die Sprachen des Shops: {languages}',
    'field.domains': 'Domains',
    'field.catalog': 'Katalog',
    'catalog.hint':
      'Kreuzen Sie die Kategorien an, die dieser Kanal verkauft; ohne Auswahl verkauft er den ganzen Katalog.',
    'catalog.whole': 'Der ganze Katalog',
    'catalog.noCategories': 'Der Shop hat noch keine Kategorien: Der Kanal verkauft den ganzen Katalog.',
    'field.navigation': 'Navigation beginnt bei',
    'navigation.none': '(nicht gesetzt)',
    'domain.row': 'Domain {number}',
    'domain.new': 'Domain hinzufügen',
    'domain.newHint': 'Adresse ausfüllen, um eine Domain hinzuzufügen; leer lassen, um keine hinzuzufügen.',
    'domain.url': 'Adresse (URL)',
    'domain.language': 'Sprache',
    'domain.currency': 'Währung',
    'domain.remove': 'Diese Domain entfernen',
    'domain.none': 'Noch keine Domains.',
    'error.nameRequired': 'Geben Sie dem Kanal einen Namen.',
    'error.fields':
      '{count, plural, one {Ein Feld wurde abgelehnt} other {# Felder wurden abgelehnt}}: siehe die markierten Felder. Nichts wurde gespeichert.',
    'error.confirm': 'Setzen Sie das Häkchen, um das Löschen zu bestätigen. Nichts wurde gelöscht.',
    'channel.company': 'Firmenangaben',
    'company.overridesHint':
      'Feldweise vom Shop geerbt. Ein hier geändertes Feld gilt nur für diesen Kanal; leeren Sie es, um in diesem Kanal keinen Wert zu zeigen.',
    'company.basisHint':
      'Die Firmenangaben des Shops, gedruckt auf Belegen: Jeder Kanal erbt sie feldweise. Sie werden für sich gespeichert.',
    'company.group':
      '{group, select, name {Name} legal {Rechtliches} contact {Kontakt} bank {Bank} other {Logos}}',
    'company.field':
      '{field, select, name {Firmenname} companyName {Rechtlicher Firmenname} legalForm {Rechtsform} vatId {USt-IdNr.} taxNumber {Steuernummer} registrationNumber {Registernummer} registrationCourt {Registergericht} managingDirectors {Geschäftsführung} legalNotice {Rechtlicher Hinweis} email {E-Mail} phone {Telefon} website {Website} address {Anschrift} bankName {Bank} iban {IBAN} bic {BIC} light {Logo auf hellem Hintergrund (URL)} dark {Logo auf dunklem Hintergrund (URL)} logoLight {Logo auf hellem Hintergrund (URL)} logoDark {Logo auf dunklem Hintergrund (URL)} street {Straße} zipcode {Postleitzahl} city {Ort} country {Land (ISO-Code, z. B. DE)} other {{field}}}',
    'company.listHint': 'Einer pro Zeile.',
    'company.notSet': '(nicht gesetzt)',
    'company.save': 'Firmenangaben speichern',
    'company.saved': 'Gespeichert: Die Firmenangaben haben jetzt Revision {revision}.',
    'company.stale':
      'Jemand anderes hat die Firmenangaben zuerst gespeichert. Nichts wurde gespeichert; Ihre Eingaben stehen unten: Prüfen Sie sie und speichern Sie erneut.',
    'settings.create': 'Neuer Verkaufskanal',
    'settings.createSubmit': 'Kanal anlegen',
    'settings.deleted': 'Der Kanal wurde gelöscht.',
    'channel.delete': 'Diesen Kanal löschen',
    'channel.deleteHint':
      'Nur ein Kanal, den nichts verwendet, kann gelöscht werden: keine Kunden, Warenkörbe, Bestellungen, Produktsichtbarkeiten, überschriebenen Einstellungen und keine Regel, kein Ablauf und keine Aktion, die ihn nennt. Sonst pausieren Sie ihn oder machen ihn privat.',
    'channel.deleteConfirm': 'Ja, {name} endgültig löschen',
    'channel.deleteRefused': 'Der Kanal wurde nicht gelöscht: {detail}',
    'channel.blocker':
      '{kind, select, customers {Kunden} carts {Warenkörbe} orders {Bestellungen} product_visibility {Produkte mit einer Sichtbarkeit für ihn} overrides {Überschriebene Einstellungen} other {Regeln, Abläufe oder Aktionen, die ihn nennen}}: {count}',
  },
  es: {
    appName: 'Administración de Cartwright',
    skipToContent: 'Saltar al contenido',
    'signIn.title': 'Iniciar sesión',
    'signIn.tokenHeading': 'Con un token personal',
    'signIn.tokenLabel': 'Token personal',
    'signIn.tokenHint':
      'Empieza por cw_pat_. `pnpm start` muestra una vez el token del propietario de la tienda demo.',
    'signIn.tokenSubmit': 'Entrar con el token',
    'signIn.passwordHeading': 'Con correo y contraseña',
    'signIn.email': 'Correo electrónico',
    'signIn.password': 'Contraseña',
    'signIn.passwordHint': 'Defínala con: pnpm cartwright user password --email DIRECCIÓN',
    'signIn.passwordSubmit': 'Entrar con la contraseña',
    'signIn.failed': 'No se pudo iniciar sesión: {detail}',
    'signIn.addShop': 'Añadir otra tienda con su token personal',
    'nav.label': 'Principal',
    'nav.home': 'Resumen',
    'nav.settings': 'Ajustes',
    'nav.apiDocs': 'Referencia de la API',
    'shop.label': 'Tienda',
    'shop.switch': 'Cambiar de tienda',
    'shop.add': 'Añadir una tienda',
    'uiLanguage.label': 'Idioma de la interfaz',
    'uiLanguage.apply': 'Aplicar',
    signOut: 'Cerrar sesión',
    'session.who':
      'Sesión como {role, select, owner {propietario} admin {administrador} editor {editor} other {lector}}',
    'home.title': 'Resumen',
    'home.nothing': 'Su rol todavía no le permite leer nada en esta tienda.',
    'home.settingsCard': 'Canales de venta y sus ajustes',
    'home.channels':
      '{count, plural, =0 {Ningún canal de venta} one {# canal de venta} other {# canales de venta}}',
    'settings.title': 'Ajustes',
    'settings.channels': 'Canales de venta',
    'settings.main': 'canal principal',
    'settings.open': 'Abrir los ajustes de {name}',
    'settings.updated': 'Guardado por última vez {date}',
    'channel.title': 'Ajustes de {name}',
    'channel.contentLanguage': 'Idioma del contenido',
    'channel.contentLanguageHint': 'Los nombres y descripciones se muestran y guardan en este idioma.',
    'channel.showLanguage': 'Mostrar',
    'channel.shipping': 'Métodos de envío',
    'channel.payment': 'Métodos de pago',
    'channel.revision': 'Revisión {revision} · revisión de los ajustes comunes {baseRevision}',
    'channel.readOnly': 'Puede leer estos ajustes, pero no cambiarlos.',
    'field.name': 'Nombre',
    'field.description': 'Descripción',
    'field.nameOf': 'Nombre de {method}',
    'field.descriptionOf': 'Descripción de {method}',
    'field.price': '{count, plural, =0 {sin precio} one {# precio} other {# precios}}: {prices}',
    'field.active': '{method} se ofrece en este canal',
    'field.inactive': '{method} no se ofrece en este canal',
    'field.labelOf': 'Etiqueta de impuesto {label}',
    'channel.taxLabels': 'Etiquetas de impuestos',
    'channel.delivery': 'Países de entrega',
    'channel.own': 'Este canal',
    'channel.taxRates': 'Tipos impositivos',
    'field.rateOf': '{taxClass}, {place} (%)',
    'place.all': 'todos los países',
    'field.pricesOf': 'Precios de {method}',
    'field.gross': 'Bruto ({currency})',
    'field.net': 'Neto ({currency})',
    'error.amount':
      '{count, plural, one {Un importe o tipo no es} other {# importes o tipos no son}} un número con los decimales permitidos; no se guardó nada.',
    'field.paused': 'En pausa: la tienda no sirve nada',
    'field.private': 'Privado: solo con un token del personal o un acceso concedido',
    'delivery.all': 'Entrega en todos los países de los ajustes comunes.',
    'delivery.subdivisions': '{count, plural, =0 {sin regiones} one {# región} other {# regiones}}',
    'provenance.inherited': 'heredado',
    'provenance.overridden': 'sobrescrito',
    'provenance.removed': 'eliminado en este canal',
    'provenance.fallback': 'sin traducir: muestra el texto en {language}',
    'action.reset': 'Restablecer el valor heredado',
    'action.save': 'Guardar',
    saved: 'Guardado: el canal está en la revisión {revision}.',
    'stale.title': 'Otra persona guardó antes',
    'stale.body':
      'No se guardó nada. Sus datos siguen abajo; estos campos cambiaron desde que abrió el formulario:',
    'stale.field': '{field}: ahora «{now}», antes «{before}»',
    'stale.none': 'Ningún campo de este formulario cambió; cambió otra parte de los ajustes.',
    'stale.retry': 'Revíselos y vuelva a guardar.',
    'error.forbidden': 'Su rol no permite este cambio.',
    'error.refused': 'El cambio fue rechazado: {detail}',
    'error.csrf': 'No se pudo comprobar el formulario. Recargue la página e inténtelo de nuevo.',
    'error.notFound': 'Esta página no existe.',
    'error.tooLarge':
      'El formulario envió más de lo que esta página acepta (como máximo {size, number} MiB); no se guardó nada.',
    'empty.text': '(vacío)',
    'value.yes': 'sí',
    'value.no': 'no',
    'field.channelName': 'Nombre del canal ({language})',
    'field.mode': 'Modo',
    'mode.label':
      '{mode, select, headless {Headless: solo la API, para su propio front end} other {Tienda: Cartwright sirve las páginas de la tienda}}',
    'field.languages': 'Idiomas del canal',
    'field.languagesOf': 'Idiomas del canal: {languages}',
    'field.languagesMain': 'El canal principal usa los idiomas de la tienda: {languages}',
    'field.domains': 'Dominios',
    'field.catalog': 'Catálogo',
    'catalog.hint': 'Marque las categorías que vende este canal; sin ninguna marcada vende todo el catálogo.',
    'catalog.whole': 'Todo el catálogo',
    'catalog.noCategories': 'La tienda aún no tiene categorías: el canal vende todo el catálogo.',
    'field.navigation': 'La navegación empieza en',
    'navigation.none': '(sin definir)',
    'domain.row': 'Dominio {number}',
    'domain.new': 'Añadir un dominio',
    'domain.newHint': 'Rellene la dirección para añadir un dominio; déjela vacía para no añadir ninguno.',
    'domain.url': 'Dirección (URL)',
    'domain.language': 'Idioma',
    'domain.currency': 'Moneda',
    'domain.remove': 'Quitar este dominio',
    'domain.none': 'Aún no hay dominios.',
    'error.nameRequired': 'Dé un nombre al canal.',
    'error.fields':
      '{count, plural, one {Se rechazó un campo} other {Se rechazaron # campos}}: vea los campos marcados. No se guardó nada.',
    'error.confirm': 'Marque la casilla para confirmar la eliminación. No se eliminó nada.',
    'channel.company': 'Datos de la empresa',
    'company.overridesHint':
      'Heredados de la tienda campo a campo. Un campo que cambie aquí solo vale para este canal; vacíelo para no mostrar ninguno en este canal.',
    'company.basisHint':
      'Los datos de la empresa de la tienda, impresos en los documentos: cada canal los hereda campo a campo. Se guardan por separado.',
    'company.group':
      '{group, select, name {Nombre} legal {Datos legales} contact {Contacto} bank {Banco} other {Logotipos}}',
    'company.field':
      '{field, select, name {Nombre de la empresa} companyName {Razón social} legalForm {Forma jurídica} vatId {NIF-IVA} taxNumber {Número fiscal} registrationNumber {Número de registro} registrationCourt {Registro mercantil} managingDirectors {Administradores} legalNotice {Aviso legal} email {Correo electrónico} phone {Teléfono} website {Sitio web} address {Dirección} bankName {Banco} iban {IBAN} bic {BIC} light {Logo sobre fondo claro (URL)} dark {Logo sobre fondo oscuro (URL)} logoLight {Logo sobre fondo claro (URL)} logoDark {Logo sobre fondo oscuro (URL)} street {Calle} zipcode {Código postal} city {Ciudad} country {País (código ISO, p. ej. ES)} other {{field}}}',
    'company.listHint': 'Uno por línea.',
    'company.notSet': '(sin definir)',
    'company.save': 'Guardar datos de la empresa',
    'company.saved': 'Guardado: los datos de la empresa están en la revisión {revision}.',
    'company.stale':
      'Otra persona guardó antes los datos de la empresa. No se guardó nada; sus entradas se conservan abajo: revíselas y guarde de nuevo.',
    'settings.create': 'Nuevo canal de venta',
    'settings.createSubmit': 'Crear canal',
    'settings.deleted': 'El canal se eliminó.',
    'channel.delete': 'Eliminar este canal',
    'channel.deleteHint':
      'Solo se puede eliminar un canal que nada usa: sin clientes, carritos, pedidos, visibilidades de productos, ajustes sobrescritos, y sin regla, flujo o promoción que lo nombre. Si no, páuselo o hágalo privado.',
    'channel.deleteConfirm': 'Sí, eliminar {name} definitivamente',
    'channel.deleteRefused': 'El canal no se eliminó: {detail}',
    'channel.blocker':
      '{kind, select, customers {Clientes} carts {Carritos} orders {Pedidos} product_visibility {Productos con una visibilidad para él} overrides {Ajustes sobrescritos} other {Reglas, flujos o promociones que lo nombran}}: {count}',
  },
  fr: {
    appName: 'Administration Cartwright',
    skipToContent: 'Aller au contenu',
    'signIn.title': 'Connexion',
    'signIn.tokenHeading': 'Avec un jeton personnel',
    'signIn.tokenLabel': 'Jeton personnel',
    'signIn.tokenHint':
      'Commence par cw_pat_. `pnpm start` affiche une fois le jeton du propriétaire de la boutique de démonstration.',
    'signIn.tokenSubmit': 'Se connecter avec le jeton',
    'signIn.passwordHeading': 'Avec e-mail et mot de passe',
    'signIn.email': 'Adresse e-mail',
    'signIn.password': 'Mot de passe',
    'signIn.passwordHint': 'À définir avec : pnpm cartwright user password --email ADRESSE',
    'signIn.passwordSubmit': 'Se connecter avec le mot de passe',
    'signIn.failed': 'Échec de la connexion : {detail}',
    'signIn.addShop': 'Ajouter une autre boutique avec son jeton personnel',
    'nav.label': 'Principal',
    'nav.home': 'Vue d’ensemble',
    'nav.settings': 'Paramètres',
    'nav.apiDocs': 'Référence de l’API',
    'shop.label': 'Boutique',
    'shop.switch': 'Changer de boutique',
    'shop.add': 'Ajouter une boutique',
    'uiLanguage.label': 'Langue de l’interface',
    'uiLanguage.apply': 'Appliquer',
    signOut: 'Se déconnecter',
    'session.who':
      'Connecté en tant que {role, select, owner {propriétaire} admin {administrateur} editor {éditeur} other {lecteur}}',
    'home.title': 'Vue d’ensemble',
    'home.nothing': 'Votre rôle ne vous permet encore rien lire dans cette boutique.',
    'home.settingsCard': 'Canaux de vente et leurs paramètres',
    'home.channels':
      '{count, plural, =0 {Aucun canal de vente} one {# canal de vente} other {# canaux de vente}}',
    'settings.title': 'Paramètres',
    'settings.channels': 'Canaux de vente',
    'settings.main': 'canal principal',
    'settings.open': 'Ouvrir les paramètres de {name}',
    'settings.updated': 'Dernier enregistrement {date}',
    'channel.title': 'Paramètres de {name}',
    'channel.contentLanguage': 'Langue du contenu',
    'channel.contentLanguageHint':
      'Les noms et descriptions ci-dessous sont affichés et enregistrés dans cette langue.',
    'channel.showLanguage': 'Afficher',
    'channel.shipping': 'Modes de livraison',
    'channel.payment': 'Modes de paiement',
    'channel.revision': 'Révision {revision} · révision des paramètres communs {baseRevision}',
    'channel.readOnly': 'Vous pouvez lire ces paramètres, mais pas les modifier.',
    'field.name': 'Nom',
    'field.description': 'Description',
    'field.nameOf': 'Nom de {method}',
    'field.descriptionOf': 'Description de {method}',
    'field.price': '{count, plural, =0 {aucun prix} one {# prix} other {# prix}} : {prices}',
    'field.active': '{method} est proposé dans ce canal',
    'field.inactive': '{method} n’est pas proposé dans ce canal',
    'field.labelOf': 'Libellé de taxe {label}',
    'channel.taxLabels': 'Libellés de taxes',
    'channel.delivery': 'Pays de livraison',
    'channel.own': 'Ce canal',
    'channel.taxRates': 'Taux de taxe',
    'field.rateOf': '{taxClass}, {place} (%)',
    'place.all': 'tous les pays',
    'field.pricesOf': 'Prix de {method}',
    'field.gross': 'Brut ({currency})',
    'field.net': 'Net ({currency})',
    'error.amount':
      '{count, plural, one {Un montant ou taux n’est pas} other {# montants ou taux ne sont pas}} un nombre avec les décimales permises ; rien n’a été enregistré.',
    'field.paused': 'En pause : la boutique ne sert rien',
    'field.private': 'Privé : uniquement avec un jeton du personnel ou un accès accordé',
    'delivery.all': 'Livre dans tous les pays des paramètres communs.',
    'delivery.subdivisions': '{count, plural, =0 {aucune région} one {# région} other {# régions}}',
    'provenance.inherited': 'hérité',
    'provenance.overridden': 'remplacé',
    'provenance.removed': 'supprimé dans ce canal',
    'provenance.fallback': 'non traduit : affiche le texte en {language}',
    'action.reset': 'Rétablir la valeur héritée',
    'action.save': 'Enregistrer',
    saved: 'Enregistré : le canal est à la révision {revision}.',
    'stale.title': 'Quelqu’un d’autre a enregistré avant vous',
    'stale.body':
      'Rien n’a été enregistré. Vos saisies sont conservées ci-dessous ; ces champs ont changé depuis l’ouverture du formulaire :',
    'stale.field': '{field} : maintenant « {now} », avant « {before} »',
    'stale.none': 'Aucun champ de ce formulaire n’a changé ; une autre partie des paramètres, oui.',
    'stale.retry': 'Vérifiez-les et enregistrez à nouveau.',
    'error.forbidden': 'Votre rôle ne permet pas cette modification.',
    'error.refused': 'La modification a été refusée : {detail}',
    'error.csrf': 'Le formulaire n’a pas pu être vérifié. Rechargez la page et réessayez.',
    'error.notFound': 'Cette page n’existe pas.',
    'error.tooLarge':
      'Le formulaire a envoyé plus que cette page n’accepte (au plus {size, number} Mio) ; rien n’a été enregistré.',
    'empty.text': '(vide)',
    'value.yes': 'oui',
    'value.no': 'non',
    'field.channelName': 'Nom du canal ({language})',
    'field.mode': 'Mode',
    'mode.label':
      '{mode, select, headless {Headless : seulement l’API, pour votre propre front end} other {Boutique : Cartwright sert les pages de la boutique}}',
    'field.languages': 'Langues du canal',
    'field.languagesOf': 'Langues du canal : {languages}',
    'field.languagesMain': 'Le canal principal utilise les langues de la boutique : {languages}',
    'field.domains': 'Domaines',
    'field.catalog': 'Catalogue',
    'catalog.hint':
      'Cochez les catégories que ce canal vend ; sans aucune cochée, il vend tout le catalogue.',
    'catalog.whole': 'Tout le catalogue',
    'catalog.noCategories': 'La boutique n’a pas encore de catégories : le canal vend tout le catalogue.',
    'field.navigation': 'La navigation commence à',
    'navigation.none': '(non défini)',
    'domain.row': 'Domaine {number}',
    'domain.new': 'Ajouter un domaine',
    'domain.newHint':
      'Saisissez l’adresse pour ajouter un domaine ; laissez-la vide pour n’en ajouter aucun.',
    'domain.url': 'Adresse (URL)',
    'domain.language': 'Langue',
    'domain.currency': 'Devise',
    'domain.remove': 'Retirer ce domaine',
    'domain.none': 'Aucun domaine pour l’instant.',
    'error.nameRequired': 'Donnez un nom au canal.',
    'error.fields':
      '{count, plural, one {Un champ a été refusé} other {# champs ont été refusés}} : voir les champs marqués. Rien n’a été enregistré.',
    'error.confirm': 'Cochez la case pour confirmer la suppression. Rien n’a été supprimé.',
    'channel.company': 'Identité de l’entreprise',
    'company.overridesHint':
      'Héritée de la boutique champ par champ. Un champ modifié ici ne vaut que pour ce canal ; videz-le pour n’en afficher aucun dans ce canal.',
    'company.basisHint':
      'L’identité de l’entreprise de la boutique, imprimée sur les documents : chaque canal en hérite champ par champ. Elle s’enregistre à part.',
    'company.group':
      '{group, select, name {Nom} legal {Mentions juridiques} contact {Contact} bank {Banque} other {Logos}}',
    'company.field':
      '{field, select, name {Nom de l’entreprise} companyName {Raison sociale} legalForm {Forme juridique} vatId {Numéro de TVA} taxNumber {Numéro fiscal} registrationNumber {Numéro d’immatriculation} registrationCourt {Greffe} managingDirectors {Dirigeants} legalNotice {Mentions légales} email {E-mail} phone {Téléphone} website {Site web} address {Adresse} bankName {Banque} iban {IBAN} bic {BIC} light {Logo sur fond clair (URL)} dark {Logo sur fond sombre (URL)} logoLight {Logo sur fond clair (URL)} logoDark {Logo sur fond sombre (URL)} street {Rue} zipcode {Code postal} city {Ville} country {Pays (code ISO, p. ex. FR)} other {{field}}}',
    'company.listHint': 'Un par ligne.',
    'company.notSet': '(non défini)',
    'company.save': 'Enregistrer l’identité de l’entreprise',
    'company.saved': 'Enregistré : l’identité de l’entreprise est à la révision {revision}.',
    'company.stale':
      'Quelqu’un d’autre a enregistré l’identité de l’entreprise avant vous. Rien n’a été enregistré ; vos saisies sont conservées ci-dessous : vérifiez-les et enregistrez à nouveau.',
    'settings.create': 'Nouveau canal de vente',
    'settings.createSubmit': 'Créer le canal',
    'settings.deleted': 'Le canal a été supprimé.',
    'channel.delete': 'Supprimer ce canal',
    'channel.deleteHint':
      'Seul un canal que rien n’utilise peut être supprimé : ni clients, paniers, commandes, visibilités de produits, paramètres remplacés, ni règle, flux ou promotion qui le nomme. Sinon, mettez-le en pause ou rendez-le privé.',
    'channel.deleteConfirm': 'Oui, supprimer {name} définitivement',
    'channel.deleteRefused': 'Le canal n’a pas été supprimé : {detail}',
    'channel.blocker':
      '{kind, select, customers {Clients} carts {Paniers} orders {Commandes} product_visibility {Produits avec une visibilité pour lui} overrides {Paramètres remplacés} other {Règles, flux ou promotions qui le nomment}}: {count}',
  },
} as const satisfies Catalogs<typeof en>;

/** Every message of the admin in each locale: the core's and every area's. */
export const catalogs = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    Object.assign({}, core[locale], ...AREA_MESSAGES.map((area) => area[locale])) as Messages,
  ]),
) as Record<Locale, Messages>;

export type Values = Record<string, string | number | Date>;

/** The UI text of one locale: `t(key, values)`, numbers, money, dates and language names through Intl. */
export interface Translator {
  readonly locale: Locale;
  t(key: MessageKey, values?: Values): string;
  money(amount: number, currency: string): string;
  date(value: Date | string): string;
  languageName(code: string): string;
}

const compiled = new Map<string, IntlMessageFormat>();

export function translator(locale: Locale): Translator {
  const names = new Intl.DisplayNames([locale], { type: 'language' });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return {
    locale,
    t(key, values) {
      const id = `${locale}:${key}`;
      let format = compiled.get(id);
      if (!format) {
        format = new IntlMessageFormat(catalogs[locale][key], locale);
        compiled.set(id, format);
      }
      return String(format.format(values));
    },
    // Amounts are integer minor units; Intl knows each currency's digits.
    money(amount, currency) {
      const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      return format.format(amount / 10 ** digits);
    },
    date(value) {
      return dates.format(typeof value === 'string' ? new Date(value) : value);
    },
    languageName(code) {
      try {
        return names.of(code) ?? code;
      } catch {
        return code;
      }
    },
  };
}

/**
 * An admin label held per language (a channel's or a saved rule's name, decision 0029) in the UI
 * language, else English, else any; `fallback` when it has none.
 */
export function nameIn(names: Record<string, string>, locale: Locale, fallback: string): string {
  return names[locale] ?? names.en ?? Object.values(names)[0] ?? fallback;
}

/** The UI locale: a chosen one (cookie) if known, else the first of Accept-Language we speak, else English. */
export function pickLocale(chosen: string | undefined, acceptLanguage: string | undefined): Locale {
  if (chosen && (LOCALES as readonly string[]).includes(chosen)) return chosen as Locale;
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)/.exec(p)?.[1]).find(Boolean);
      return { base: tag.toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  const found = wanted.find((entry) => (LOCALES as readonly string[]).includes(entry.base));
  return (found?.base as Locale | undefined) ?? 'en';
}
