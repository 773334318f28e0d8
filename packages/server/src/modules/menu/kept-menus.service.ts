import { randomBytes } from 'node:crypto';
import {
  LINK_MENU_RETENTION_MONTHS,
  type KeptMenu,
  type KeptMenuResponse,
  type MenuResponse,
  type MenuTestInput,
  type SaveMenuBody,
  type UpdateMenuBody,
} from '@bvdb/contract';
import { menuChanges, type MenuKeptTest } from '@bvdb/domain';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import type { SessionUser } from '../auth/auth.service.js';
import type { MenuLine } from './menu-input.js';
import { keptValuesOf } from './kept-menus.presenter.js';
import * as repo from './kept-menus.repository.js';
import type { MenuRow } from './kept-menus.repository.js';

type Level = MenuResponse['parameters']['level'];
/** Judges lines on today's data: the sheet of `POST /api/v1/menu`. */
export type MakeSheet = (lines: MenuLine[], level: Level, probability: number) => Promise<MenuResponse>;

const DEFAULT_LEVEL: Level = 'desirable';
const DEFAULT_PROBABILITY = 0.95;

/** 128 random bits, base64url: 22 characters nobody guesses (decision 064). */
export const newMenuId = () => randomBytes(16).toString('base64url');

/** The date a link menu is deleted when nobody opens it again. */
export function expiryOf(openedAt: Date): Date {
  const d = new Date(openedAt);
  d.setUTCMonth(d.getUTCMonth() + LINK_MENU_RETENTION_MONTHS);
  return d;
}

const linesOf = (tests: readonly MenuTestInput[]): MenuLine[] =>
  tests.map((input, i) => ({ line: i + 1, input }));

/** Tests compared per turn of the event loop when a kept menu is opened. */
const CHANGES_PER_TURN = 100;

/**
 * `menuChanges` in runs of tests, the event loop free between runs: every number is compared as the
 * sheet's text, and 1,000 tests with changes took ~0.4 s in one go (decision 064), a stall for every
 * other request (decision 070). The same changes, in the same order.
 */
export async function changesInTurns(
  kept: readonly MenuKeptTest[],
  today: readonly MenuKeptTest[],
  level: Level,
): Promise<ReturnType<typeof menuChanges>> {
  const changes: ReturnType<typeof menuChanges> = [];
  for (let from = 0; from < kept.length; from += CHANGES_PER_TURN) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve));
    changes.push(...menuChanges(kept.slice(from, from + CHANGES_PER_TURN), today, level));
  }
  return changes;
}

const notFound = () =>
  new AppError(
    'not_found',
    'No kept menu has this link: it may have been deleted, or not opened for 13 months',
  );

/**
 * Kept test menus (issue 32.4, decision 064): saved with the values the sheet showed, opened again
 * on today's data with what changed since. A link menu has no owner and is changed by nobody (an
 * administrator may delete it); a named menu is its owner's.
 */
export class KeptMenuService {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'config'>,
    private readonly makeSheet: MakeSheet,
  ) {}

  private url(id: string): string {
    const site = (this.deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '');
    return `${site}/applications/menu/${id}`;
  }

  present(row: MenuRow, user: SessionUser | null): KeptMenu {
    return {
      id: row.id,
      url: this.url(row.id),
      name: row.name,
      owned: row.ownerId !== null,
      mine: user !== null && row.ownerId === user.id,
      tests: row.testCount,
      level: row.level as Level,
      probability: row.probability,
      kept_at: row.keptAt.toISOString(),
      opened_at: row.openedAt.toISOString(),
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      version: row.version,
      expires_at: row.ownerId === null ? expiryOf(row.openedAt).toISOString() : null,
    };
  }

  async save(body: SaveMenuBody, user: SessionUser | null): Promise<KeptMenu> {
    if (body.name !== undefined && !user) {
      throw new AppError('bad_request', 'Sign in to name a menu; without a name it is kept in its link');
    }
    const level = body.level ?? DEFAULT_LEVEL;
    const probability = body.probability ?? DEFAULT_PROBABILITY;
    const sheet = await this.makeSheet(linesOf(body.tests), level, probability);
    const now = new Date(sheet.parameters.generated_at);
    const row = await repo.insertMenu(this.deps.db, {
      id: newMenuId(),
      ownerId: user?.id ?? null,
      name: body.name ?? null,
      level,
      probability,
      testCount: body.tests.length,
      lines: body.tests,
      keptValues: keptValuesOf(sheet),
      keptAt: now,
      openedAt: now,
    });
    return this.present(row, user);
  }

  private async find(id: string): Promise<MenuRow> {
    const row = await repo.findMenu(this.deps.db, id);
    if (!row) throw notFound();
    return row;
  }

  /** The menu, today's sheet and what changed since its values were kept; notes the opening. */
  async open(id: string, user: SessionUser | null): Promise<KeptMenuResponse> {
    const row = await this.find(id);
    const lines = row.lines as MenuTestInput[];
    const sheet = await this.makeSheet(linesOf(lines), row.level as Level, row.probability);
    const kept = row.keptValues as MenuKeptTest[];
    const changes = await changesInTurns(kept, keptValuesOf(sheet), row.level as Level);
    await repo.markOpened(this.deps.db, row.id, new Date());
    return { menu: this.present(row, user), lines, sheet, kept, changes };
  }

  async listMine(user: SessionUser, page: number, perPage: number) {
    const { rows, total } = await repo.listMenusOf(this.deps.db, user.id, perPage, (page - 1) * perPage);
    const pages = Math.max(1, Math.ceil(total / perPage));
    const from = total === 0 ? 0 : (page - 1) * perPage + 1;
    return {
      data: rows.map((r) => this.present(r, user)),
      meta: {
        pagination: {
          count: total,
          page,
          pages,
          next: page < pages ? page + 1 : null,
          prev: page > 1 ? page - 1 : null,
          from,
          to: from === 0 ? 0 : from + rows.length - 1,
        },
      },
    };
  }

  /** Rename, or keep today's values (mark as reviewed): the owner only, at the version seen. */
  async update(id: string, body: UpdateMenuBody, user: SessionUser): Promise<KeptMenu> {
    const row = await this.find(id);
    if (row.ownerId === null) {
      throw new AppError(
        'forbidden',
        'A menu kept in its link cannot be changed: keep it again to save new values',
      );
    }
    if (row.ownerId !== user.id)
      throw new AppError('forbidden', 'Only the person who kept this menu may change it');
    const set: Parameters<typeof repo.updateMenuAt>[3] = {};
    if (body.name !== undefined) set.name = body.name;
    if (body.review) {
      const sheet = await this.makeSheet(
        linesOf(row.lines as MenuTestInput[]),
        row.level as Level,
        row.probability,
      );
      set.keptValues = keptValuesOf(sheet);
      set.keptAt = new Date(sheet.parameters.generated_at);
    }
    const saved = await repo.updateMenuAt(this.deps.db, id, body.version, set);
    if (!saved) {
      const current = await repo.findMenu(this.deps.db, id);
      throw new AppError(
        'conflict',
        'This menu was changed after you opened it (renamed or reviewed elsewhere); reload it and try again',
        { current: current ? this.present(current, user) : null },
      );
    }
    return this.present(saved, user);
  }

  async remove(id: string, user: SessionUser): Promise<void> {
    const row = await this.find(id);
    const mayDelete = row.ownerId === user.id || user.role === 'admin';
    if (!mayDelete) {
      throw new AppError(
        'forbidden',
        row.ownerId === null
          ? 'Only administrators may delete a menu kept in its link'
          : 'Only the person who kept this menu (or an administrator) may delete it',
      );
    }
    await repo.deleteMenuRow(this.deps.db, id);
  }
}

/** Whether a kept menu has this link id (its page answers 404 when not); opening is not noted. */
export async function keptMenuExists(db: DbOrTx, id: string): Promise<boolean> {
  return (await repo.findMenu(db, id)) !== undefined;
}

/** Deletes the link menus nobody opened for 13 months (decision 064); the number deleted. */
export async function sweepLinkMenus(deps: Pick<ServiceDeps, 'db'>, now = new Date()): Promise<number> {
  const before = new Date(now);
  before.setUTCMonth(before.getUTCMonth() - LINK_MENU_RETENTION_MONTHS);
  return repo.deleteLinkMenusOpenedBefore(deps.db, before);
}
