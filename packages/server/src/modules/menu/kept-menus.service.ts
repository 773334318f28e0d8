import { randomBytes } from 'node:crypto';
import {
  facetsSent,
  LINK_MENU_RETENTION_MONTHS,
  type KeptMenu,
  type CopyMenuBody,
  type MenuResponse,
  type MenuTestInput,
  type SaveMenuBody,
  type UpdateMenuBody,
} from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import type { SessionUser } from '../auth/index.js';
import {
  keptSelectionOf,
  linesOf,
  populationAnswerOf,
  type MenuPopulation,
  type MenuSheetMaker,
} from './menu-sheet-maker.js';
import type { MenuService } from './menu.service.js';
import { buildMenuWorkbook, type MenuWorkbook } from './menu-workbook.js';
import * as repo from './kept-menus.repository.js';
import type { MenuRow } from './kept-menus.repository.js';

type Level = MenuResponse['parameters']['level'];
/** What the kept menus need of the sheets: values to keep, and a menu opened again (decision 068). */
export type KeptMenuSheets = Pick<MenuSheetMaker, 'keep' | 'reopen' | 'reopenSheet'>;
/** What the kept menus need of the populations (decision 101): the facets asked, and a kept selection. */
export type KeptMenuPopulations = Pick<MenuService, 'populationOf' | 'populationOfSelection'>;

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
    private readonly sheets: KeptMenuSheets,
    private readonly populations: KeptMenuPopulations,
  ) {}

  private url(id: string): string {
    const site = (this.deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '');
    return `${site}/applications/menu/${id}`;
  }

  /** The population a menu was kept for (decision 101), or none: the global estimates. */
  private async populationOfRow(row: MenuRow): Promise<MenuPopulation | undefined> {
    return row.population ? this.populations.populationOfSelection(row.population) : undefined;
  }

  /** A menu as the answers show it, with its population in words. */
  async present(row: MenuRow, user: SessionUser | null): Promise<KeptMenu> {
    return this.presentWith(row, user, await this.populationOfRow(row));
  }

  private presentWith(
    row: MenuRow,
    user: SessionUser | null,
    population: MenuPopulation | undefined,
  ): KeptMenu {
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
      population: population ? populationAnswerOf(population) : null,
      expires_at: row.ownerId === null ? expiryOf(row.openedAt).toISOString() : null,
    };
  }

  async save(body: SaveMenuBody, user: SessionUser | null): Promise<KeptMenu> {
    if (body.name !== undefined && !user) {
      throw new AppError('bad_request', 'Sign in to name a menu; without a name it is kept in its link');
    }
    const population = await this.populations.populationOf(body);
    const level = body.level ?? DEFAULT_LEVEL;
    const probability = body.probability ?? DEFAULT_PROBABILITY;
    const { keptJson, keptAt } = await this.sheets.keep(linesOf(body.tests), level, probability, population);
    const row = await repo.insertMenu(this.deps.db, {
      id: newMenuId(),
      ownerId: user?.id ?? null,
      name: body.name ?? null,
      level,
      probability,
      testCount: body.tests.length,
      lines: body.tests,
      keptValues: repo.jsonText(keptJson),
      population: population ? keptSelectionOf(population.population) : null,
      keptAt,
      openedAt: keptAt,
    });
    return this.presentWith(row, user, population);
  }

  /** The menu's row without its kept values (they are read as text only when opened). */
  private async find(id: string): Promise<MenuRow> {
    return (await this.findForOpening(id)).row;
  }

  /**
   * The menu, today's sheet and what changed since its values were kept, as the answer's text (made
   * in a menu thread); notes the opening. A menu kept for a population is judged for it, and its
   * kept values were kept for it: the changes compare the same population (decision 101).
   */
  async open(id: string, user: SessionUser | null): Promise<string> {
    const { row, keptJson } = await this.findForOpening(id);
    const population = await this.populationOfRow(row);
    const json = await this.sheets.reopen(
      this.presentWith(row, user, population),
      row.lines as MenuTestInput[],
      keptJson,
      population,
    );
    await repo.markOpened(this.deps.db, row.id, new Date());
    return json;
  }

  /** The same as a workbook: today's sheet, with the menu and the number of changes in its "Read me". */
  async openWorkbook(id: string, user: SessionUser | null): Promise<MenuWorkbook> {
    const { row, keptJson } = await this.findForOpening(id);
    const population = await this.populationOfRow(row);
    const menu = this.presentWith(row, user, population);
    const { sheet, changes } = await this.sheets.reopenSheet(
      menu,
      row.lines as MenuTestInput[],
      keptJson,
      population,
    );
    await repo.markOpened(this.deps.db, row.id, new Date());
    return buildMenuWorkbook(
      sheet,
      this.deps.config,
      `bvdb_test_menu_kept_${menu.kept_at.slice(0, 10)}_on_${sheet.parameters.generated_at.slice(0, 10)}.xlsx`,
      { keptAt: menu.kept_at, url: menu.url, name: menu.name, changes },
    );
  }

  private async findForOpening(id: string) {
    const found = await repo.findMenuForOpening(this.deps.db, id);
    if (!found) throw notFound();
    return found;
  }

  /**
   * A kept menu opened from its link saved as the caller's own named menu: a new menu with the same
   * lines, parameters and kept values, and the original's keep date, so its "changed since" still
   * refers to the day the values were kept. The original (and its link) is untouched. The copy keeps
   * the original's population; with facets sent it is judged for them instead, its values kept today
   * (decision 101).
   */
  async copy(id: string, body: CopyMenuBody, user: SessionUser): Promise<KeptMenu> {
    if (facetsSent(body)) return this.copyFor(id, body, user);
    const row = await repo.copyMenuRow(this.deps.db, id, {
      id: newMenuId(),
      ownerId: user.id,
      name: body.name,
      openedAt: new Date(),
    });
    if (!row) throw notFound();
    return this.present(row, user);
  }

  /** A copy judged for another population: the original's lines and parameters, values kept today. */
  private async copyFor(id: string, body: CopyMenuBody, user: SessionUser): Promise<KeptMenu> {
    const population = await this.populations.populationOf(body);
    const from = await this.find(id);
    const level = from.level as Level;
    const lines = from.lines as MenuTestInput[];
    const { keptJson, keptAt } = await this.sheets.keep(linesOf(lines), level, from.probability, population);
    const row = await repo.insertMenu(this.deps.db, {
      id: newMenuId(),
      ownerId: user.id,
      name: body.name,
      level,
      probability: from.probability,
      testCount: from.testCount,
      lines,
      keptValues: repo.jsonText(keptJson),
      population: population ? keptSelectionOf(population.population) : null,
      keptAt,
      openedAt: keptAt,
    });
    return this.presentWith(row, user, population);
  }

  async listMine(user: SessionUser, page: number, perPage: number) {
    const { rows, total } = await repo.listMenusOf(this.deps.db, user.id, perPage, (page - 1) * perPage);
    const pages = Math.max(1, Math.ceil(total / perPage));
    const from = total === 0 ? 0 : (page - 1) * perPage + 1;
    // Each population named once per page (its labels read once, not once per menu).
    const named = new Map<string, Promise<MenuPopulation | undefined>>();
    const populationOf = (row: MenuRow) => {
      if (!row.population) return Promise.resolve(undefined);
      const key = JSON.stringify(row.population);
      if (!named.has(key)) named.set(key, this.populationOfRow(row));
      return named.get(key)!;
    };
    const data: KeptMenu[] = [];
    for (const r of rows) data.push(this.presentWith(r, user, await populationOf(r)));
    return {
      data,
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

  /**
   * Rename, or keep today's values (mark as reviewed), or judge for another population (its values
   * kept today, decision 101): the owner only, at the version seen.
   */
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
    const repopulate = facetsSent(body);
    const population = repopulate
      ? await this.populations.populationOf(body)
      : await this.populationOfRow(row);
    if (repopulate) set.population = population ? keptSelectionOf(population.population) : null;
    // Values kept for another population compare nothing: a new population keeps today's values.
    if (body.review || repopulate) {
      const { keptJson, keptAt } = await this.sheets.keep(
        linesOf(row.lines as MenuTestInput[]),
        row.level as Level,
        row.probability,
        population,
      );
      set.keptValues = repo.jsonText(keptJson);
      set.keptAt = keptAt;
    }
    const saved = await repo.updateMenuAt(this.deps.db, id, body.version, set);
    if (!saved) {
      const current = (await repo.findMenuForOpening(this.deps.db, id))?.row;
      throw new AppError(
        'conflict',
        'This menu was changed after you opened it (renamed or reviewed elsewhere); reload it and try again',
        { current: current ? await this.present(current, user) : null },
      );
    }
    return this.presentWith(saved, user, population);
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
