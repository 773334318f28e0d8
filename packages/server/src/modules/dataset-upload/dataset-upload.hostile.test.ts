import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { deflatedSpaces, member, rewriteXlsx } from '../../test/hostile-zip.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Issue 25 point 3: spreadsheets that declare far more than they hold (a cell at XFD1048576, a used
 * range or a merge over the whole sheet, a zip member that unpacks past its declared size) once
 * took gigabytes and seconds of the event loop. Each is refused within 2 s, the process grows
 * less than 200 MB, and /healthz answers within 200 ms meanwhile.
 */
const ctx = useTestApp({ demo: true });
let s: SignedIn;

const SHEET = 'xl/worksheets/sheet1.xml';
const URL = '/api/v1/bv_specifications/upload/preview';

async function workbook(fill?: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Datasets');
  ws.addRow(['Unique Identifier', 'Measurand', 'Matrix']);
  ws.addRow(['A-1', 'Sodium', 'Serum']);
  fill?.(ws);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function upload(bytes: Buffer) {
  const boundary = '----bvdbhostile';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hostile.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return ctx.app.inject({
    method: 'POST',
    url: URL,
    headers: { ...s.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

/** The upload, timed, with /healthz asked every 20 ms meanwhile (late answers counted from when due). */
async function uploadWatched(bytes: Buffer) {
  let done = false;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const due = performance.now() + 20;
      await new Promise((r) => setTimeout(r, 20));
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      slowest = Math.max(slowest, performance.now() - due);
    }
  })();
  const t0 = performance.now();
  const res = await upload(bytes).finally(() => (done = true));
  const ms = performance.now() - t0;
  await probe;
  return { res, ms, slowest };
}

const rows = (count: number) => {
  let xml = '';
  for (let r = 1; r <= count; r++) xml += `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`;
  return xml;
};
const inSheetData = (extra: string) => (xml: string) => xml.replace('</sheetData>', `${extra}</sheetData>`);

const HOSTILE: [string, () => Promise<Buffer>, number, RegExp][] = [
  [
    'a cell at XFD1048576',
    () => workbook((ws) => (ws.getCell('XFD1048576').value = 1)),
    400,
    /declares 16,384 columns \((its used range|cell XFD1048576) reaches column XFD\): at most 100 are read/,
  ],
  [
    'a used range A1:XFD1048576 and a cell at XFD1',
    async () =>
      rewriteXlsx(await workbook((ws) => (ws.getCell('XFD1').value = 1)), {
        [SHEET]: (xml) => xml.replace(/<dimension ref="[^"]*"\/>/, '<dimension ref="A1:XFD1048576"/>'),
      }),
    400,
    /declares 16,384 columns \(its used range reaches column XFD\): at most 100 are read/,
  ],
  [
    'a row spanning 16,384 columns',
    async () =>
      rewriteXlsx(await workbook(), {
        [SHEET]: (xml) => xml.replace(/<row r="1"( spans="[^"]*")?/, '<row r="1" spans="1:16384"'),
      }),
    400,
    /declares 16,384 columns \(a row’s span reaches column XFD\)/,
  ],
  [
    '20,000 unnumbered cells in one row',
    async () =>
      rewriteXlsx(await workbook(), {
        [SHEET]: inSheetData(`<row r="3">${'<c><v>1</v></c>'.repeat(20_000)}</row>`),
      }),
    400,
    /declares 101 columns \(cell CW3 reaches column CW\): at most 100 are read/,
  ],
  [
    '100,000 rows',
    async () =>
      rewriteXlsx(await workbook(), {
        [SHEET]: (xml) =>
          xml.replace(/<sheetData>.*<\/sheetData>/s, `<sheetData>${rows(100_000)}</sheetData>`),
      }),
    400,
    /declares 10,001 rows \(a row reaches row 10,001\): at most 10,000 are read/,
  ],
  [
    'a merge over the whole sheet',
    async () =>
      rewriteXlsx(await workbook(), {
        [SHEET]: (xml) =>
          xml.replace(
            '</sheetData>',
            '</sheetData><mergeCells count="1"><mergeCell ref="A3:XFD1048576"/></mergeCells>',
          ),
      }),
    400,
    /declares 16,384 columns \(a merged range reaches column XFD\)/,
  ],
  [
    'a drop-down down to row 1,048,576',
    async () =>
      rewriteXlsx(await workbook(), {
        [SHEET]: (xml) =>
          xml.replace(
            '</sheetData>',
            '</sheetData><dataValidations count="1"><dataValidation type="list" sqref="B2:B1048576"><formula1>"a,b"</formula1></dataValidation></dataValidations>',
          ),
      }),
    400,
    /declares 1,048,576 rows \(a drop-down or validation rule reaches row 1,048,576\)/,
  ],
  [
    'a named range over the whole sheet',
    async () =>
      rewriteXlsx(await workbook(), {
        'xl/workbook.xml': (xml) =>
          xml.replace(
            /<definedNames>.*<\/definedNames>|<\/sheets>/s,
            '</sheets><definedNames><definedName name="all">Datasets!$A$1:$XFD$1048576</definedName></definedNames>',
          ),
      }),
    400,
    /declares 16,384 columns \(a named range reaches column XFD\)/,
  ],
  [
    'a column format to column 2,000,000,000',
    async () =>
      rewriteXlsx(await workbook(), {
        [SHEET]: (xml) =>
          xml.replace(
            /<cols>.*<\/cols>|<sheetData>/s,
            '<cols><col min="1" max="2000000000" width="9"/></cols><sheetData>',
          ),
      }),
    400,
    /column formats up to column 2,000,000,000: a spreadsheet has 16,384 columns at most/,
  ],
  [
    '100,000,000 shared texts declared',
    async () =>
      rewriteXlsx(await workbook(), {
        'xl/sharedStrings.xml': (xml) =>
          xml.replace(/<sst\b[^>]*>/, (t) => t.replace(/count="\d+"/, 'count="100000000"')),
      }),
    400,
    /declares 100,000,000 texts: at most 500,000 are read/,
  ],
  [
    'a zip bomb: a sheet declaring its size, unpacking to 200 MB',
    async () => {
      const deflated = await deflatedSpaces(200);
      return rewriteXlsx(await workbook(), {
        [SHEET]: (xml) => ({ ...member(SHEET, xml), deflated }),
      });
    },
    400,
    /part xl\/worksheets\/sheet1\.xml unpacks to more than the size it declares/,
  ],
  [
    'a member declaring 4 GB',
    async () =>
      rewriteXlsx(await workbook(), { [SHEET]: (xml) => ({ ...member(SHEET, xml), size: 0xfffffff0 }) }),
    413,
    /declares more than 48 MB once unpacked/,
  ],
  [
    'a member declaring more than it holds',
    async () =>
      rewriteXlsx(await workbook(), { [SHEET]: (xml) => ({ ...member(SHEET, xml), size: 1_000_000 }) }),
    400,
    /part xl\/worksheets\/sheet1\.xml unpacks to less than the size it declares/,
  ],
];

let files: Buffer[] = [];
let baseline = 0;
beforeAll(async () => {
  s = await signInAs(ctx.app);
  files = [];
  for (const [, build] of HOSTILE) files.push(await build());
  // The reading thread started and exceljs loaded, as after the first upload; then the baseline.
  expect((await upload(await workbook())).statusCode).toBe(200);
  baseline = process.memoryUsage().rss;
}, 120_000);

describe('hostile spreadsheets', () => {
  it.each(HOSTILE.map(([name, , status, message], i) => [name, i, status, message] as const))(
    '%s: refused within 2 s naming the limit, /healthz within 200 ms',
    async (_, i, status, message) => {
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const { res, ms, slowest } = await uploadWatched(files[i]!);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(res.statusCode).toBe(status);
      expect(res.json<{ message: string }>().message).toMatch(message);
      expect(ms).toBeLessThan(2000);
      expect(slowest).toBeLessThan(200);
      expect((peak - baseline) / 1024 / 1024).toBeLessThan(200);
    },
    30_000,
  );

  it('any cell past column CV or row 10,000 is refused, whatever its place', async () => {
    const base = await workbook();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ col: fc.integer({ min: 101, max: 16_384 }), row: fc.integer({ min: 1, max: 10_000 }) }),
          fc.record({
            col: fc.integer({ min: 1, max: 100 }),
            row: fc.integer({ min: 10_001, max: 1_048_576 }),
          }),
        ),
        async ({ col, row }) => {
          let name = '';
          for (let c = col; c > 0; c = Math.floor((c - 1) / 26))
            name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
          const file = rewriteXlsx(base, {
            [SHEET]: inSheetData(`<row r="${row}"><c r="${name}${row}"><v>1</v></c></row>`),
          });
          const res = await upload(file);
          expect(res.statusCode).toBe(400);
          expect(res.json<{ message: string }>().message).toMatch(
            /^The sheet declares [\d,]+ (columns|rows)/,
          );
        },
      ),
      { numRuns: 12 },
    );
  });
});
