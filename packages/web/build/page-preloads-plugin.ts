import type { Plugin } from 'vite';
import { everyPageData, pagePreloads, visitorData } from '../src/app/page-preloads';

/** The file the server reads (packages/server/src/plugins/page-preloads.ts). */
export interface PagePreloadManifest {
  visitorData: string[];
  everyPageData: string[];
  /** The app itself (app/start.tsx and what it imports), which the tiny entry imports after a paint. */
  everyPageScripts: string[];
  pages: { page: string; scripts: string[]; data: string[]; ssr: boolean }[];
}

interface ChunkInfo {
  fileName: string;
  imports: string[];
  facadeModuleId: string | null;
  isEntry: boolean;
}

/**
 * Writes dist/page-preloads.json: for each page of src/app/page-preloads.ts, the hashed chunk files
 * its modules need beyond what the entry already loads (index.html preloads those itself), and the
 * app's own chunks, which every page needs.
 */
export function pagePreloadsPlugin(root: string): Plugin {
  return {
    name: 'bvdb-page-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (c): c is ChunkInfo & (typeof bundle)[string] => c.type === 'chunk',
      );
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (fileName: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const dep of byFile.get(fileName)?.imports ?? []) closure(dep, seen);
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) this.error('page preloads: no entry chunk');
      const loadedByEntry = closure(entry.fileName);
      const scriptsOf = (mod: string, exclude: Set<string>): string[] => {
        const chunk = chunks.find((c) => c.facadeModuleId === `${root}/${mod}`);
        if (!chunk) this.error(`page preloads: no chunk for ${mod} (is it lazily imported?)`);
        return [...closure(chunk.fileName)].filter((f) => !exclude.has(f)).map((f) => `/${f}`);
      };
      const app = scriptsOf('src/app/start.tsx', loadedByEntry);
      const loadedByApp = new Set([...loadedByEntry, ...app.map((f) => f.slice(1))]);

      const pages = pagePreloads.map(({ page, modules, data, ssr }) => {
        const scripts = new Set(modules.flatMap((mod) => scriptsOf(mod, loadedByApp)));
        return { page, scripts: [...scripts].sort(), data, ssr };
      });
      const manifest: PagePreloadManifest = { visitorData, everyPageData, everyPageScripts: app, pages };
      this.emitFile({
        type: 'asset',
        fileName: 'page-preloads.json',
        source: JSON.stringify(manifest, null, 1),
      });
    },
  };
}
