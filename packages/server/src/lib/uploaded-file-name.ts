/**
 * The name an uploader's system gave a file, minus any folder, control characters, quotes and
 * excess length; '' when nothing usable is left ('.' and '..' included). Callers add their default
 * and extension.
 */
export function uploadedFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned === '.' || cleaned === '..' ? '' : cleaned;
}
