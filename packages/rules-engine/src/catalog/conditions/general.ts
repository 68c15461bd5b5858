import { ANYWHERE, condition, EQUALITY, labels, operatorParam, optional, param } from './builders.ts';
import type { SourceGroup } from './source.ts';

/** The optional IANA zone the range is read in. */
const TIMEZONE = optional(param('timezone', 'string', 'string (IANA timezone)'));

/** Conditions of the context and the clock (group `general`), in the reference's order. */
export const GENERAL: SourceGroup = {
  group: 'general',
  conditions: [
    condition(
      'cartTaxDisplay',
      ANYWHERE,
      [param('taxDisplay', 'string')],
      labels('Tax display', 'Steueranzeige', 'Visualización de impuestos', 'Affichage des taxes'),
    ),
    condition(
      'alwaysValid',
      ANYWHERE,
      [],
      labels('Always valid', 'Immer gültig', 'Siempre válido', 'Toujours valide'),
    ),
    condition(
      'dateRange',
      ANYWHERE,
      [
        param('fromDate', 'datetime', 'datetime string Y-m-d\\TH:i:s'),
        param('toDate', 'datetime', 'datetime string Y-m-d\\TH:i:s'),
        param('useTime', 'bool'),
        TIMEZONE,
      ],
      labels('Date range', 'Zeitraum', 'Intervalo de fechas', 'Plage de dates'),
    ),
    condition(
      'timeRange',
      ANYWHERE,
      [param('fromTime', 'time', 'string H:MM'), param('toTime', 'time', 'string H:MM'), TIMEZONE],
      labels('Time of day', 'Uhrzeit', 'Franja horaria', 'Plage horaire'),
    ),
    condition(
      'dayOfWeek',
      ANYWHERE,
      [operatorParam(EQUALITY), param('dayOfWeek', 'weekday', 'int 1..7 (1=Monday)')],
      labels('Day of the week', 'Wochentag', 'Día de la semana', 'Jour de la semaine'),
    ),
    condition(
      'salesChannel',
      ANYWHERE,
      [param('salesChannelIds', 'uuid[]'), operatorParam(EQUALITY)],
      labels('Sales channel', 'Verkaufskanal', 'Canal de venta', 'Canal de vente'),
    ),
    condition(
      'currency',
      ANYWHERE,
      [param('currencyIds', 'uuid[]'), operatorParam(EQUALITY)],
      labels('Currency', 'Währung', 'Moneda', 'Devise'),
    ),
    condition(
      'language',
      ANYWHERE,
      [operatorParam(EQUALITY), param('languageIds', 'uuid[]')],
      labels('Language', 'Sprache', 'Idioma', 'Langue'),
    ),
  ],
};
