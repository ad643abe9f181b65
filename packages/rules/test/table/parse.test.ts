import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTableCommand, TableCommandSchema } from '../../src/table';

/** What parseTableCommand answered before the compiled fast path: the schema's parse alone. */
function schemaAnswer(raw: unknown) {
  const parsed = TableCommandSchema.safeParse(raw);
  if (parsed.success) return { ok: true, command: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  return { ok: false, error: { code: 'invalid-command', message: `${field || 'command'}: ${issue.message}`, ...(field ? { field } : {}) } };
}

const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', '  ', ' Aldric ', 'x'.repeat(201)), fc.integer());
const count = fc.oneof(fc.integer({ min: -2, max: 32 }), fc.constantFrom(1.5, '3', null));
const side = fc.record(
  {
    name: text,
    dice: count,
    modifiers: fc.oneof(fc.array(fc.record({ value: count, source: text }, { requiredKeys: [] }), { maxLength: 3 }), fc.constant('none')),
    potentialThreshold: count,
    extra: fc.boolean(),
  },
  { requiredKeys: [] },
);
const command = fc.record(
  {
    type: fc.constantFrom('roll', 'say', 'set-visibility', 'remove-character', 'configure', 'nothing', 7),
    actor: side,
    reactor: side,
    difficulty: fc.oneof(count, text),
    assistants: fc.array(text, { maxLength: 3 }),
    steer: fc.record({ steps: count, source: text }, { requiredKeys: [] }),
    hidden: fc.oneof(fc.boolean(), fc.constant('yes')),
    purpose: text,
    character: text,
    id: text,
    text: text,
    to: fc.oneof(text, fc.constant(null)),
    preset: fc.constantFrom('core-2011', 'srd-v4', 'none'),
  },
  { requiredKeys: [] },
);

const name = fc.constantFrom('Roller', ' Aldric ', 'Opposition', 'a');
const validSide = fc.record(
  { name, dice: fc.integer({ min: 0, max: 30 }), modifiers: fc.array(fc.record({ value: fc.integer({ min: -30, max: 30 }), source: name }), { maxLength: 2 }), potentialThreshold: fc.integer({ min: 1, max: 100 }) },
  { requiredKeys: ['name', 'dice'] },
);
const validRoll = fc.record(
  { type: fc.constant('roll'), actor: validSide, reactor: validSide, difficulty: fc.oneof(fc.integer({ min: 0, max: 100 }), name), assistants: fc.array(name, { maxLength: 2 }), hidden: fc.boolean(), purpose: fc.string({ maxLength: 5 }) },
  { requiredKeys: ['type', 'actor'] },
);

describe('parseTableCommand', () => {
  it('answers as the schema does, valid or not, through the compiled fast path', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(validRoll, command, fc.anything()), (raw) => {
        const answer = parseTableCommand(raw);
        expect(answer).toEqual(schemaAnswer(raw));
        if (answer.ok) accepted++;
      }),
      { seed: 17, numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(500);
  });

  it('trims names and fills defaults as the schema does', () => {
    const raw = { type: 'roll', actor: { name: ' Roller ', dice: 3 }, reactor: { name: 'Opposition', dice: 2 } };
    expect(parseTableCommand(raw)).toEqual({ ok: true, command: { type: 'roll', actor: { name: 'Roller', dice: 3, modifiers: [] }, reactor: { name: 'Opposition', dice: 2, modifiers: [] }, hidden: false } });
  });
});
