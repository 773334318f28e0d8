import type { Config } from '../../config.js';
import { CITATION, DATA_USE_NOTICE } from './export-columns.js';

/** The data-use notice and the citation every export carries (and the site shows), as configured. */
export function exportNotice(config: Pick<Config, 'DATA_USE_NOTICE' | 'CITATION'>): {
  dataUse: string;
  citation: string;
} {
  return { dataUse: config.DATA_USE_NOTICE ?? DATA_USE_NOTICE, citation: config.CITATION ?? CITATION };
}
