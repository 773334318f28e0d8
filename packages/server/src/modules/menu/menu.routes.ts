import multipart from '@fastify/multipart';
import {
  copyMenu,
  createMenu,
  deleteMenu,
  getKeptMenu,
  getMenuTemplate,
  listMyMenus,
  saveMenu,
  updateMenu,
  MENU_MAX_FILE_BYTES,
  MENU_MAX_TESTS,
  MENU_MAX_TEXT_BYTES,
} from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { syncGeneration } from '../../lib/cached-json.js';
import { readUploadedFile } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { WorkerPool } from '../../lib/worker-pool.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { assertCsrf } from '../../plugins/csrf.js';
import { exportNotice } from '../../lib/export-notice.js';
import { buildTableOffThread } from '../exports/index.js';
import { AnalyteSearch } from '../search/index.js';
import type { ReadMenu } from './menu-input.js';
import type { MenuReadTask } from './menu-read.js';
import { KeptMenuService } from './kept-menus.service.js';
import { MenuSheets, type MenuThreadTask } from './menu-sheets.js';
import { menuTable } from './menu-sheet.js';
import { buildMenuTemplateCsv, buildMenuTemplateXlsx } from './menu-template.js';
import { MenuDataSource } from './menu.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const createMenuPool = () =>
  new WorkerPool<MenuThreadTask, unknown>({
    from: import.meta.url,
    file: './menu.thread.js',
    timeoutMs: 15_000,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    tooLong: { code: 'unprocessable', message: 'The menu took too long: send fewer tests.' },
    tooLarge: {
      code: 'payload_too_large',
      message: 'The menu needs too much memory: send fewer tests.',
    },
    busy: 'The menu service is busy; try again in a few seconds.',
  });

/** Checked on the event loop before a JSON body is cloned into a thread (422 past the count). */
function checkJsonShape(body: unknown): void {
  if (
    !body ||
    typeof body !== 'object' ||
    Array.isArray(body) ||
    !Array.isArray((body as { tests?: unknown }).tests)
  ) {
    throw new AppError(
      'bad_request',
      'Send {"tests": [{"name", "code", "matrix", "unit", "cva", "bias", "te"}, ...]}, CSV text (Content-Type: text/csv) or a file (multipart/form-data, part "file")',
    );
  }
  const n = (body as { tests: unknown[] }).tests.length;
  if (n > MENU_MAX_TESTS)
    throw new AppError(
      'unprocessable',
      `${n.toLocaleString('en')} tests: at most ${MENU_MAX_TESTS} per menu`,
    );
}

/**
 * A laboratory's test menu against BV (issue 32.2–3, decision 059): public, nothing stored, rate
 * class heavy. Reading a file or body runs on a pool thread; matching runs here against the
 * catalogue kept per data generation, and the sheet (the formulas, presenting, the contract's check
 * and JSON) on the same pool's thread (decision 068).
 */
export async function registerMenuRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MENU_MAX_FILE_BYTES, files: 1, fields: 3, parts: 4, fieldSize: 1024 },
  });
  const pool = createMenuPool();
  app.addHook('onClose', () => pool.close());
  const source = new MenuDataSource(serviceDeps(app));
  const search = new AnalyteSearch(serviceDeps(app));
  const siteUrl = (app.deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '');
  const sheets = new MenuSheets(source, (text) => search.suggest(text), pool);
  const readMenu = async (task: MenuReadTask) => (await pool.run(task)) as ReadMenu;

  route(app, createMenu, async ({ request, reply, body, query }) => {
    let read: ReadMenu;
    if (request.isMultipart()) {
      const { bytes, fileName } = await readUploadedFile(request, {
        maxBytes: MENU_MAX_FILE_BYTES,
        choose: 'Choose a CSV or .xlsx file with one row per test (see the template)',
        tooLarge: 'payload_too_large',
        hint: 'a menu of a thousand tests is far smaller',
      });
      read = await readMenu({ kind: 'file', bytes: new Uint8Array(bytes), fileName });
    } else if (typeof body === 'string') {
      const size = Buffer.byteLength(body);
      if (size > MENU_MAX_TEXT_BYTES) {
        throw new AppError(
          'payload_too_large',
          `The body is ${Math.ceil(size / 1024)} KB: at most ${MENU_MAX_TEXT_BYTES / 1024} KB`,
        );
      }
      read = await readMenu({ kind: 'text', text: body });
    } else {
      checkJsonShape(body);
      read = await readMenu({ kind: 'json', body });
    }
    const level = read.level ?? query.level;
    const probability = read.probability ?? query.probability;
    await syncGeneration(request);
    if (query.format !== 'xlsx') {
      // Made and checked against the contract in a menu thread: sent as it comes (decision 068).
      return reply
        .type('application/json; charset=utf-8')
        .send(await sheets.json(read.lines, level, probability));
    }
    const answer = await sheets.sheet(read.lines, level, probability);
    const bytes = await buildTableOffThread(
      'xlsx',
      menuTable(answer, exportNotice(app.deps.config), siteUrl),
    );
    return reply
      .type(XLSX)
      .header(
        'Content-Disposition',
        contentDisposition(`bvdb_test_menu_${answer.parameters.generated_at.slice(0, 10)}.xlsx`),
      )
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  // Kept menus (issue 32.4, decision 064). Saving is public (a link menu) and so checks the CSRF
  // token itself, as the mailing-list subscribe; the signed-in routes get it from their access level.
  const kept = new KeptMenuService(serviceDeps(app), sheets);
  route(app, saveMenu, async ({ request, reply, body }) => {
    assertCsrf(request);
    await syncGeneration(request);
    const menu = await kept.save(body, request.user);
    return reply.code(201).send(menu);
  });
  route(app, getKeptMenu, async ({ request, reply, params, query }) => {
    await syncGeneration(request);
    if (query.format !== 'xlsx') {
      return reply.type('application/json; charset=utf-8').send(await kept.open(params.id, request.user));
    }
    const { menu, sheet, changes } = await kept.openSheet(params.id, request.user);
    const bytes = await buildTableOffThread(
      'xlsx',
      menuTable(sheet, exportNotice(app.deps.config), siteUrl, {
        keptAt: menu.kept_at,
        url: menu.url,
        name: menu.name,
        changes,
      }),
    );
    return reply
      .type(XLSX)
      .header(
        'Content-Disposition',
        contentDisposition(
          `bvdb_test_menu_kept_${menu.kept_at.slice(0, 10)}_on_${sheet.parameters.generated_at.slice(0, 10)}.xlsx`,
        ),
      )
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  const userOf = (request: { user: Parameters<typeof kept.present>[1] }) => {
    if (!request.user) throw unauthenticated();
    return request.user;
  };
  route(app, listMyMenus, async ({ request, query }) =>
    kept.listMine(userOf(request), query.page, query.per_page),
  );
  route(app, updateMenu, async ({ request, params, body }) => {
    await syncGeneration(request);
    return kept.update(params.id, body, userOf(request));
  });
  route(app, copyMenu, async ({ request, reply, params, body }) => {
    const menu = await kept.copy(params.id, body, userOf(request));
    return reply.code(201).send(menu);
  });
  route(app, deleteMenu, async ({ request, params }) => {
    await kept.remove(params.id, userOf(request));
    return { code: 'success' as const };
  });

  let xlsx: Promise<Buffer> | null = null;
  route(app, getMenuTemplate, async ({ params, reply }) => {
    if (params.file === 'menu_template.csv') {
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', contentDisposition('bvdb_menu_template.csv'))
        .header('Cache-Control', 'public, max-age=3600')
        .send(buildMenuTemplateCsv());
    }
    xlsx ??= buildMenuTemplateXlsx();
    return reply
      .type(XLSX)
      .header('Content-Disposition', contentDisposition('bvdb_menu_template.xlsx'))
      .header('Cache-Control', 'public, max-age=3600')
      .send(await xlsx);
  });
}
