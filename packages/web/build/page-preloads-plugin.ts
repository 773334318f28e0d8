import type { Plugin } from 'vite';
import { everyPageData, pageRoutes, visitorData, type PageRecord } from '../src/app/route-table';

/** The file the server reads (packages/server/src/plugins/page-preloads.ts). */
export interface PagePreloadManifest {
  visitorData: string[];
  everyPageData: string[];
  /** The app itself (app/start.tsx and what it imports), which the tiny entry imports after a paint. */
  everyPageScripts: string[];
  pages: { page: string; scripts: string[]; data: string[]; ssr: boolean }[];
  /**
   * Every page the app has, in the router's order (the catch-all left out): any other path is the
   * not-found page, which the server answers with 404; a page about a record names its kind.
   */
  known: { page: string; record?: PageRecord }[];
}

interface ChunkInfo {
  fileName: string;
  imports: string[];
  facadeModuleId: string | null;
  moduleIds: string[];
  isEntry: boolean;
}

/**
 * Writes dist/page-preloads.json: for each page of src/app/route-table.ts that the server is told
 * about, the hashed chunk files its page file needs beyond what the app already loads, and the app's
 * own chunks (beyond what the entry loads, which index.html preloads itself), which every page needs.
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
      // A lazily imported page is its own chunk; one bundled with the app sits in the app's.
      const scriptsOf = (mod: string, exclude: Set<string>): string[] => {
        const id = `${root}/${mod}`;
        const chunk =
          chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
        if (!chunk) this.error(`page preloads: no chunk for ${mod}`);
        return [...closure(chunk.fileName)].filter((f) => !exclude.has(f)).map((f) => `/${f}`);
      };
      const app = scriptsOf('src/app/start.tsx', loadedByEntry);
      const loadedByApp = new Set([...loadedByEntry, ...app.map((f) => f.slice(1))]);

      const pages = pageRoutes.flatMap(({ path, page, server }) => {
        if (!server) return [];
        const scripts = scriptsOf(`src/app/routes/${page}.tsx`, loadedByApp);
        return [{ page: path, scripts: scripts.sort(), data: server.data, ssr: server.ssr }];
      });
      const known = pageRoutes
        .filter(({ path }) => path !== '*')
        .map(({ path, record }) => (record ? { page: path, record } : { page: path }));
      const manifest: PagePreloadManifest = {
        visitorData,
        everyPageData,
        everyPageScripts: app,
        pages,
        known,
      };
      this.emitFile({
        type: 'asset',
        fileName: 'page-preloads.json',
        source: JSON.stringify(manifest, null, 1),
      });
    },
  };
}
