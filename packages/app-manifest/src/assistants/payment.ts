import { PAYMENT_CONTRACT, PAYMENT_ROLES, type PaymentRole } from '../contracts.ts';
import { appDraft, defineAssistant } from './definition.ts';
import { actionTexts } from './entity-app.ts';
import { contractFields } from './fields.ts';
import type { ActionText } from './labels.ts';
import { appIdQuestion, methodLabelQuestion, nameQuestion } from './questions.ts';

const ROLE_TEXTS: Readonly<Record<PaymentRole, ActionText>> = {
  authorize: {
    label: {
      en: 'Authorize payment',
      de: 'Zahlung autorisieren',
      es: 'Autorizar el pago',
      fr: 'Autoriser le paiement',
    },
    description: {
      en: 'Creates the payment of an order attempt and answers its state (and where the buyer approves it).',
      de: 'Legt die Zahlung eines Bestellversuchs an und meldet ihren Zustand (und wo der Käufer sie freigibt).',
      es: 'Crea el pago de un intento de pedido y responde su estado (y dónde lo aprueba el comprador).',
      fr: 'Crée le paiement d’une tentative de commande et répond son état (et où l’acheteur l’approuve).',
    },
  },
  capture: {
    label: {
      en: 'Capture payment',
      de: 'Zahlung einziehen',
      es: 'Capturar el pago',
      fr: 'Capturer le paiement',
    },
    description: {
      en: 'Captures an approved payment and answers its state.',
      de: 'Zieht eine freigegebene Zahlung ein und meldet ihren Zustand.',
      es: 'Captura un pago aprobado y responde su estado.',
      fr: 'Capture un paiement approuvé et répond son état.',
    },
  },
  status: {
    label: { en: 'Payment status', de: 'Zahlungsstatus', es: 'Estado del pago', fr: 'État du paiement' },
    description: {
      en: 'Answers the current state of a payment.',
      de: 'Meldet den aktuellen Zustand einer Zahlung.',
      es: 'Responde el estado actual de un pago.',
      fr: 'Répond l’état actuel d’un paiement.',
    },
  },
  refund: {
    label: {
      en: 'Refund payment',
      de: 'Zahlung erstatten',
      es: 'Reembolsar el pago',
      fr: 'Rembourser le paiement',
    },
    description: {
      en: 'Refunds an amount of a capture and answers the refund’s state.',
      de: 'Erstattet einen Betrag einer Einziehung und meldet den Zustand der Erstattung.',
      es: 'Reembolsa un importe de una captura y responde el estado del reembolso.',
      fr: 'Rembourse un montant d’une capture et répond l’état du remboursement.',
    },
  },
};

/**
 * A payment method the app's own service serves: one external action per payment role, named as
 * the role and declaring exactly the contract's fields.
 */
export const payment = defineAssistant({
  id: 'payment',
  title: { en: 'Payment method', de: 'Zahlungsart', es: 'Método de pago', fr: 'Moyen de paiement' },
  description: {
    en: 'A payment method served by the app’s own service (configured by the operator): the external actions authorize, capture, refund and status with the payment contract’s fields.',
    de: 'Eine Zahlungsart, die der eigene Dienst der App bedient (vom Betreiber eingerichtet): die externen Aktionen authorize, capture, refund und status mit den Feldern des Zahlungsvertrags.',
    es: 'Un método de pago atendido por el servicio propio de la app (configurado por el operador): las acciones externas authorize, capture, refund y status con los campos del contrato de pago.',
    fr: 'Un moyen de paiement servi par le service propre de l’application (configuré par l’opérateur) : les actions externes authorize, capture, refund et status avec les champs du contrat de paiement.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    method_label: methodLabelQuestion(
      {
        en: 'Payment method name',
        de: 'Name der Zahlungsart',
        es: 'Nombre del método de pago',
        fr: 'Nom du moyen de paiement',
      },
      {
        en: 'What buyers see at checkout, 1-100 characters.',
        de: 'Was Käufer im Checkout sehen, 1–100 Zeichen.',
        es: 'Lo que ven los compradores al pagar, de 1 a 100 caracteres.',
        fr: 'Ce que voient les acheteurs au paiement, de 1 à 100 caractères.',
      },
    ),
  },
  generate(answers) {
    return {
      manifest: appDraft(answers, {
        actions: PAYMENT_ROLES.map((role) => ({
          id: role,
          kind: 'service',
          runtime: 'external',
          ...actionTexts(ROLE_TEXTS[role]),
          mcp: false,
          input: contractFields(PAYMENT_CONTRACT[role].input),
          output: contractFields(PAYMENT_CONTRACT[role].output),
        })),
        payment: {
          label: { en: answers.method_label },
          authorize: 'authorize',
          capture: 'capture',
          refund: 'refund',
          status: 'status',
        },
      }),
      module: null,
    };
  },
});
