import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerInSteps, contractJson } from './contract-json.js';

const Item = z.object({
  id: z.number().int(),
  name: z.string(),
  at: z.iso.datetime(),
});
const Answer = z.object({ code: z.literal('success'), data: z.array(Item), total: z.number().int() });
const serialise = (value: unknown) => contractJson(Answer, value);

async function joined(pieces: AsyncGenerator<string>): Promise<{ text: string; count: number }> {
  let text = '';
  let count = 0;
  for await (const piece of pieces) {
    text += piece;
    count++;
  }
  return { text, count };
}

const answerOf = (n: number) => ({
  total: n,
  code: 'success' as const,
  data: Array.from({ length: n }, (_, i) => ({
    id: i,
    name: `"name" ${i}`,
    at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
  })),
});

describe('answerInSteps (issue 44.1)', () => {
  it.each([0, 1, 99, 100, 101, 450])(
    'writes %i items as the serialiser writes the whole answer',
    async (n) => {
      const whole = answerOf(n);
      const { text, count } = await joined(answerInSteps(serialise, whole, 'data', Item));
      expect(text).toBe(serialise(whole));
      // The envelope's two halves and one piece per step of a hundred items.
      expect(count).toBe(2 + Math.ceil(n / 100));
    },
  );

  it('lets the event loop go between steps, not before the first', async () => {
    let others = 0;
    setImmediate(() => others++);
    const seen: number[] = [];
    for await (const _ of answerInSteps(serialise, answerOf(450), 'data', Item)) seen.push(others);
    // Head and first step before anything else ran; the second step after what was waiting.
    expect(seen).toEqual([0, 0, 1, 1, 1, 1, 1]);
  });

  it('refuses an item outside the contract, as the serialiser does', async () => {
    const whole = { ...answerOf(3), data: [{ id: 1.5, name: 'x', at: new Date().toISOString() }] };
    await expect(joined(answerInSteps(serialise, whole, 'data', Item))).rejects.toThrow(
      /outside the contract/,
    );
  });
});
