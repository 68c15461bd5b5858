import { type ActionContract, PAYMENT_CONTRACT, PAYMENT_ROLES, SHIPPING_CONTRACT } from '../contracts.ts';
import type { ReportIssue } from '../issues.ts';
import type { Action, Payment, Shipping } from '../schema.ts';

/**
 * The action a role names: declared, a service action (external for payments: only the app's own
 * service can speak to a payment network), private, and declaring the role's contract fields.
 */
function checkRole(
  at: string,
  name: string,
  contract: ActionContract,
  runtimes: readonly ('module' | 'external')[],
  actions: ReadonlyMap<string, Action>,
  report: ReportIssue,
): void {
  const action = actions.get(name);
  if (!action) {
    report('MANIFEST_UNKNOWN_REFERENCE', at, `no action "${name}" in this app`);
    return;
  }
  if (action.kind !== 'service' || !runtimes.includes(action.runtime)) {
    report('MANIFEST_ACTION_KIND', at, `"${name}" must be a ${runtimes.join(' or ')} service action`);
    return;
  }
  if (action.public) {
    report('MANIFEST_PUBLIC_ACTION', at, `"${name}" is called by the service only, so it is never public`);
  }
  for (const side of ['input', 'output'] as const) {
    const declared = new Map(action[side].map((field) => [field.name, field]));
    for (const wanted of contract[side]) {
      const field = declared.get(wanted.name);
      const required = wanted.required ? 'required ' : '';
      if (!field || field.type !== wanted.type || (side === 'output' && wanted.required && !field.required)) {
        report(
          'MANIFEST_CONTRACT_MISMATCH',
          at,
          `"${name}" must declare the ${required}${wanted.type} ${side} field "${wanted.name}"`,
        );
      }
      declared.delete(wanted.name);
    }
    if (side === 'input') {
      for (const extra of declared.values()) {
        if (extra.required) {
          report(
            'MANIFEST_CONTRACT_MISMATCH',
            at,
            `"${name}" declares the required input "${extra.name}", which the service never sends`,
          );
        }
      }
    }
  }
}

/** `payment`: each role names an external service action with the role's contract. */
export function checkPayment(
  payment: Payment,
  actions: ReadonlyMap<string, Action>,
  report: ReportIssue,
): void {
  for (const role of PAYMENT_ROLES) {
    checkRole(`/payment/${role}`, payment[role], PAYMENT_CONTRACT[role], ['external'], actions, report);
  }
}

/** `shipping.rate`: a service action (module or external) with the rate contract. */
export function checkShipping(
  shipping: Shipping,
  actions: ReadonlyMap<string, Action>,
  report: ReportIssue,
): void {
  checkRole('/shipping/rate', shipping.rate, SHIPPING_CONTRACT, ['module', 'external'], actions, report);
}
