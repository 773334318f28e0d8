import { z } from 'zod';

const WordPressPageSchema = z.object({
  id: z.number(),
  title: z.object({ rendered: z.string() }),
  content: z.object({ rendered: z.string() }),
});
export type WordPressPage = z.infer<typeof WordPressPageSchema>;

export class ContentUnavailableError extends Error {}

/** A WordPress page is a few tens of kilobytes; anything past this is not a page we want to keep. */
export const CONTENT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The body as text, at most `maxBytes` of it: a larger Content-Length is refused before reading, and
 * a body without one is counted as it streams and cut off at the limit.
 */
async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new ContentUnavailableError(`content service sent ${declared} bytes, more than ${maxBytes}`);
  }
  if (!res.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new ContentUnavailableError(`content service sent more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET {base}/wp-json/wp/v2/pages/{id}. The timeout covers the whole exchange, body included (a
 * server that sends its headers and then drips the body is cut off too); the body is read up to
 * CONTENT_MAX_BYTES. Any failure is a ContentUnavailableError.
 */
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
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new ContentUnavailableError(`content service answered ${res.status}`);
  }
  let text: string;
  try {
    text = await readLimited(res, CONTENT_MAX_BYTES);
  } catch (err) {
    if (err instanceof ContentUnavailableError) throw err;
    throw new ContentUnavailableError(`content service stopped answering: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ContentUnavailableError('content service sent malformed JSON');
  }
  const page = WordPressPageSchema.safeParse(json);
  if (!page.success) throw new ContentUnavailableError('content service sent an unexpected page shape');
  return page.data;
}
