import { z } from 'zod';

const WordPressPageSchema = z.object({
  id: z.number(),
  title: z.object({ rendered: z.string() }),
  content: z.object({ rendered: z.string() }),
});
export type WordPressPage = z.infer<typeof WordPressPageSchema>;

export class ContentUnavailableError extends Error {}

/** GET {base}/wp-json/wp/v2/pages/{id}, with a timeout; any failure is a ContentUnavailableError. */
export async function fetchWordPressPage(
  base: string,
  id: number,
  timeoutMs: number,
): Promise<WordPressPage> {
  const url = `${base.replace(/\/+$/, '')}/wp-json/wp/v2/pages/${id}`;
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    throw new ContentUnavailableError(`content service unreachable: ${(err as Error).message}`);
  }
  if (!res.ok) throw new ContentUnavailableError(`content service answered ${res.status}`);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ContentUnavailableError('content service sent malformed JSON');
  }
  const page = WordPressPageSchema.safeParse(json);
  if (!page.success) throw new ContentUnavailableError('content service sent an unexpected page shape');
  return page.data;
}
