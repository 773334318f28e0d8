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
} from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SessionUser } from '../auth/index.js';
import { syncGeneration } from '../../lib/cached-json.js';
import { readUploadedFile } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { assertCsrf } from '../../plugins/csrf.js';
import { KeptMenuService } from './kept-menus.service.js';
import { buildMenuTemplateCsv, buildMenuTemplateXlsx } from './menu-template.js';
import type { MenuWorkbook } from './menu-workbook.js';
import { createMenuPool, MenuService, type MenuUpload } from './menu.service.js';
import type { TestLookup } from './test-lookup.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const sendWorkbook = (reply: FastifyReply, { bytes, fileName }: MenuWorkbook) =>
  reply
    .type(XLSX)
    .header('Content-Disposition', contentDisposition(fileName))
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/**
 * A laboratory's test menu against BV (issue 32.2–3, decision 059): public, nothing stored, rate
 * class heavy. The routes map HTTP to the menu service (reading, matching and the sheet: decision
 * 068) and to the kept menus (decision 064).
 */
export async function registerMenuRoutes(app: FastifyInstance): Promise<{ tests: TestLookup }> {
  await app.register(multipart, {
    limits: { fileSize: MENU_MAX_FILE_BYTES, files: 1, fields: 3, parts: 4, fieldSize: 1024 },
  });
  const pool = createMenuPool();
  app.addHook('onClose', () => pool.close());
  const menus = new MenuService(serviceDeps(app), pool);
  app.lifecycle.afterReady.push(menus.warmUp);

  route(app, createMenu, async ({ request, reply, body, query }) => {
    let upload: MenuUpload;
    if (request.isMultipart()) {
      const file = await readUploadedFile(request, {
        maxBytes: MENU_MAX_FILE_BYTES,
        choose: 'Choose a CSV or .xlsx file with one row per test (see the template)',
        hint: 'a menu of a thousand tests is far smaller',
      });
      upload = { kind: 'file', ...file };
    } else if (typeof body === 'string') upload = { kind: 'text', text: body };
    else upload = { kind: 'json', body };
    const read = await menus.read(upload);
    await syncGeneration(request);
    if (query.format === 'xlsx') return sendWorkbook(reply, await menus.workbook(read, query));
    // Made and checked against the contract in a menu thread: sent as it comes (decision 068).
    return reply.type('application/json; charset=utf-8').send(await menus.json(read, query));
  });

  // Kept menus (issue 32.4, decision 064). Saving is public (a link menu) and so checks the CSRF
  // token itself, as the mailing-list subscribe; the signed-in routes get it from their access level.
  const kept = new KeptMenuService(serviceDeps(app), menus.sheets, menus);
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
    return sendWorkbook(reply, await kept.openWorkbook(params.id, request.user));
  });
  const userOf = (request: { user: SessionUser | null }) => {
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
  return { tests: menus.tests };
}
