import type { Change } from '@bvdb/contract';
import { nextTurn } from '../../lib/loop-turns.js';
import { changeTitle, type ChangeNames } from './changes-text.js';

/** Lines listed per measurand; the rest are counted ("and 12 more changes"). */
export const NOTE_LINES_PER_MEASURAND = 50;

/** Measurands written per turn of the event loop: 7,000 at once held it ~55 ms (issue 44.1). */
const GROUPS_PER_TURN = 200;

export interface NotesHeading {
  version: string;
  /** The day of the release (YYYY-MM-DD). */
  date: string;
  previousVersion: string | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Release notes in Markdown (issue 30.2): the changes of the feed since the previous release,
 * grouped by measurand (sorted by name), references last. Each line is the change's Atom title.
 * Changes are added one at a time (the caller lets the event loop go between them: a first release
 * at 100× the demo has tens of thousands), then rendered, a few hundred measurands per turn.
 */
export class ReleaseNotes {
  private readonly groups = new Map<string, Change[]>();
  private count = 0;

  constructor(
    private readonly heading: NotesHeading,
    private readonly names: ChangeNames,
  ) {}

  add(c: Change): void {
    const group =
      c.entity === 'reference'
        ? 'References'
        : ((c.measurand_id === undefined ? undefined : this.names.measurand(c.measurand_id)) ??
          `Measurand ${c.measurand_id ?? c.id}`);
    const list = this.groups.get(group);
    if (list) list.push(c);
    else this.groups.set(group, [c]);
    this.count++;
  }

  async render(): Promise<string> {
    const { heading, groups, count } = this;
    const lines = [`# Release ${heading.version}`, ''];
    const since = heading.previousVersion ? `since release ${heading.previousVersion}` : 'recorded so far';
    lines.push(
      `The published data of the EFLM Biological Variation Database on ${heading.date}. ` +
        (count === 0 ? `No changes ${since}.` : `${plural(count, 'change')} ${since}, by measurand.`),
    );
    const order = [...groups.keys()]
      .filter((g) => g !== 'References')
      .sort((a, b) => a.localeCompare(b, 'en'));
    if (groups.has('References')) order.push('References');
    for (const [i, group] of order.entries()) {
      if (i > 0 && i % GROUPS_PER_TURN === 0) await nextTurn();
      const items = groups.get(group)!;
      lines.push('', `## ${group}`, '');
      // Titles only for the lines shown.
      for (const item of items.slice(0, NOTE_LINES_PER_MEASURAND))
        lines.push(`- ${changeTitle(item, this.names)}`);
      const more = items.length - NOTE_LINES_PER_MEASURAND;
      if (more > 0) lines.push(`- and ${plural(more, 'more change')}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
