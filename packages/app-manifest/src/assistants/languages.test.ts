import { describe, expect, it } from 'vitest';
import type { AssistantSummary, Text } from './definition.ts';
import { listAssistants } from './index.ts';

// @ts-expect-error: a text without one of the four languages does not compile.
const untranslated: Text = { en: 'Fields', de: 'Felder', es: 'Campos' };
void untranslated;

/** What must be the same in every language: ids, types, requirement, defaults, choice values. */
function structure(assistants: readonly AssistantSummary[]) {
  return assistants.map((assistant) => [
    assistant.id,
    assistant.questions.map((question) => [
      question.id,
      question.type,
      question.required,
      question.default,
      question.choices?.map((choice) => choice.value),
    ]),
  ]);
}

/** Every shown text of the assistants, in order. */
function shownTexts(assistants: readonly AssistantSummary[]): { kind: string; text: string }[] {
  return assistants.flatMap((assistant) => [
    { kind: 'title', text: assistant.title },
    { kind: 'description', text: assistant.description },
    ...assistant.questions.flatMap((question) => [
      { kind: 'label', text: question.label },
      { kind: 'help', text: question.help },
      ...(question.choices ?? []).map((choice) => ({ kind: 'choice', text: choice.label })),
    ]),
  ]);
}

describe('listAssistants', () => {
  const english = listAssistants('en');

  it('lists the nine assistants, each asking app_id and name first and a few questions', () => {
    expect(english.map((assistant) => assistant.id)).toEqual([
      'frontend',
      'admin',
      'combined',
      'payment',
      'shipping',
      'integration',
      'subscriber',
      'webhook',
      'schedule',
    ]);
    for (const assistant of english) {
      expect(assistant.questions.slice(0, 2).map((question) => question.id)).toEqual(['app_id', 'name']);
      // Shipping asks eight: its method's name, the runtime and the module's four amounts.
      expect(assistant.questions.length).toBeLessThanOrEqual(assistant.id === 'shipping' ? 8 : 7);
      for (const question of assistant.questions) expect(question.id).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
  });

  it('states defaults and requirements from the answers’ schemas', () => {
    const questions = new Map(
      english.flatMap((assistant) =>
        assistant.questions.map((question) => [`${assistant.id}.${question.id}`, question]),
      ),
    );
    expect(questions.get('frontend.entity')).toMatchObject({ required: false, default: 'entry' });
    expect(questions.get('frontend.fields')).toMatchObject({ required: true });
    expect(questions.get('frontend.product_bound')).toMatchObject({ type: 'boolean', default: true });
    expect(questions.get('integration.cron')).toMatchObject({ type: 'cron', default: '0 0 * * * *' });
    expect(questions.get('integration.fields')).toMatchObject({ required: false, default: [] });
    expect(questions.get('schedule.cron')).toMatchObject({ default: '0 0 6 * * *' });
    expect(questions.get('subscriber.events')).toMatchObject({ type: 'events', default: ['order.placed'] });
    expect(questions.get('shipping.tax_rate_percent')).toMatchObject({ default: 19 });
    expect(questions.get('shipping.base')).toMatchObject({ required: false });
    expect('default' in questions.get('shipping.base')!).toBe(false);
    expect(questions.get('admin.mounts')?.choices?.map((choice) => choice.value)).toEqual([
      'admin.product.general',
      'admin.product.tab',
      'admin.customer',
      'admin.order',
      'admin.order.general',
    ]);
  });

  it('answers in English for a language it does not speak', () => {
    expect(listAssistants('xx')).toEqual(english);
    expect(listAssistants('')).toEqual(english);
  });

  it.each(['de', 'es', 'fr'])('speaks %s: every text there, the same questions, translated', (language) => {
    const translated = listAssistants(language);
    expect(structure(translated)).toEqual(structure(english));
    const texts = shownTexts(translated);
    const originals = shownTexts(english);
    for (const { text } of texts) expect(text.trim()).not.toBe('');
    const same = texts.filter(({ text }, index) => text === originals[index]!.text);
    // Short labels may coincide ("Message", "Bronze"); sentences never do.
    expect(same.filter(({ kind }) => kind === 'help' || kind === 'description')).toEqual([]);
    expect(same.length / texts.length).toBeLessThan(0.1);
  });
});
