import type { Change } from '@bvdb/contract';
import { presentVersion } from '../estimates/index.js';
import type { ChangeWithVersions } from './changes.repository.js';

/** One change as `/api/v1/changes` answers it: ids, the action, and for an estimate its two versions. */
export function presentChange({ change, from, to }: ChangeWithVersions): Change {
  const estimate = change.entity === 'estimate';
  return {
    cursor: String(change.cursor),
    at: change.at.toISOString(),
    entity: change.entity as Change['entity'],
    id: change.entityId,
    action: change.action as Change['action'],
    ...(change.analyteId === null ? {} : { measurand_id: change.analyteId }),
    ...(estimate && change.estimateId !== null ? { estimate_id: change.estimateId } : {}),
    ...(estimate && change.version !== null ? { version: change.version } : {}),
    ...(estimate && from ? { from: presentVersion(from) } : {}),
    ...(estimate && to ? { to: presentVersion(to) } : {}),
  };
}
