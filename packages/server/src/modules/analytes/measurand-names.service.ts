import type { MeasurandNames, UpdateMeasurandNamesBody } from '@bvdb/contract';
import { measurandNameKey, measurandNameKeys } from '@bvdb/domain';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './measurand-names.repository.js';

/** A measurand's alternative names by id, for the menu's catalogue (every measurand without `ids`). */
export async function alternativeNamesByMeasurand(
  db: DbOrTx,
  ids?: number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const r of await repo.listNamesByAnalyte(db, ids))
    out.set(r.analyteId, [...(out.get(r.analyteId) ?? []), r.name]);
  return out;
}

export async function getMeasurandNames(db: DbOrTx, id: number): Promise<MeasurandNames> {
  const row = await repo.findAnalyteVersion(db, id);
  if (!row) throw notFound(`Measurand ${id}`);
  const names = await repo.listNamesOf(db, id);
  return {
    measurand_id: id,
    version: row.version,
    names: names.map((n) => ({ name: n.name, source: n.source })),
  };
}

const taken = (name: string, other: { name: string; analyteId: number; displayName: string }) =>
  new AppError(
    'conflict',
    `"${name}" is already a name of another measurand: ${other.displayName} (id ${other.analyteId})${
      other.name === other.displayName ? '' : ` goes by "${other.name}"`
    }. A name can belong to one measurand only; remove it there first.`,
    { fields: [{ path: 'body.names', message: `"${name}" belongs to ${other.displayName}` }] },
  );

/** 400 when a name has no words left to match, or two names of the list are one name as matched. */
function keysOf(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) {
    const key = measurandNameKey(name);
    if (!key) {
      throw new AppError(
        'bad_request',
        `"${name}" has no words to match by (only "total", "serum", a unit…)`,
        {
          fields: [{ path: 'body.names', message: `"${name}" has no words to match by` }],
        },
      );
    }
    const before = seen.get(key);
    if (before !== undefined) {
      throw new AppError(
        'bad_request',
        `"${before}" and "${name}" are the same name as a menu matches it (case, spelling, word order and "total" aside): keep one`,
        { fields: [{ path: 'body.names', message: `"${name}" repeats "${before}"` }] },
      );
    }
    seen.set(key, name);
  }
  return [...seen.keys()];
}

/**
 * Replaces a measurand's alternative names (curators and administrators, decision 083): the version
 * the curator saw, no name twice, none that is another measurand's (an alternative name, or the key of
 * its display or full name), so a menu line that names it fits one measurand only.
 */
export async function updateMeasurandNames(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  id: number,
  body: UpdateMeasurandNamesBody,
  userId: number,
): Promise<MeasurandNames> {
  const keys = keysOf(body.names);
  try {
    return await writeTransaction(deps, async (tx) => {
      const row = await repo.lockAnalyteVersion(tx, id);
      if (!row) throw notFound(`Measurand ${id}`);
      const before = await repo.listNamesOf(tx, id);
      if (row.version !== body.version) {
        throw new AppError(
          'conflict',
          'Someone else changed this measurand after you opened it; your names were not saved. Reload to see theirs.',
          {
            current: {
              measurand_id: id,
              version: row.version,
              names: before.map((n) => ({ name: n.name, source: n.source })),
            },
          },
        );
      }
      const [clash] = await repo.findNamesTakenByOthers(tx, id, keys);
      if (clash) throw taken(body.names[keys.indexOf(clash.matchKey)]!, clash);
      // Nor another measurand's own name, its name without the qualifier or its abbreviation ("ALT"),
      // unless this measurand's own name gives the same key ("Prostate specific antigen" for total PSA).
      const own = await repo.findOwnNames(tx, id);
      const mine = new Set([own?.displayName, own?.fullName].flatMap((n) => (n ? measurandNameKeys(n) : [])));
      const wanted = new Set(keys.filter((k) => !mine.has(k)));
      for (const other of await repo.listOtherMeasurandNames(tx, id)) {
        for (const n of [other.displayName, other.fullName]) {
          const k = n ? measurandNameKeys(n).find((x) => wanted.has(x)) : undefined;
          if (k)
            throw taken(body.names[keys.indexOf(k)]!, {
              name: n!,
              analyteId: other.id,
              displayName: other.displayName,
            });
        }
      }
      const kept = new Map(before.map((n) => [n.matchKey, n.source]));
      const version = await repo.replaceNames(
        tx,
        id,
        body.names.map((name, i) => ({ name, matchKey: keys[i]!, source: kept.get(keys[i]!) ?? null })),
      );
      await recordAudit(tx, {
        userId,
        entity: 'measurand',
        entityId: id,
        action: 'update',
        before: { alternative_names: before.map((n) => n.name) },
        after: { alternative_names: body.names },
      });
      const after = await repo.listNamesOf(tx, id);
      return { measurand_id: id, version, names: after.map((n) => ({ name: n.name, source: n.source })) };
    });
  } catch (err) {
    // Two curators giving one name to two measurands at once: the unique key stops the second.
    if (isUniqueViolation(err))
      throw new AppError(
        'conflict',
        'One of these names was just given to another measurand; reload and try again',
      );
    throw err;
  }
}
