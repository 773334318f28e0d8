// The project's architecture fences as ESLint rules that judge resolved paths, not import strings
// (decision 047: string patterns let a deeper folder, a helper file or a query on the database
// handle through). One table of who may import what, read by `bvdb/fences`; where SQL may live is
// an allow-list, and `bvdb/no-query-outside-repositories` uses the types to find a query made on
// the database handle itself. eslint.config.js switches both on; the fence tests of the server and
// the web run them on deliberate violations.
import path from 'node:path';
import { noImportCycles } from './module-graph.mjs';
import { rel, resolveImport } from './resolve-import.mjs';

/** Tests, benches and test helpers set up data as they need: the fences guard the product code. */
const isTestFile = (rel) =>
  /\.test\.tsx?$/.test(rel) ||
  /^packages\/(server|web)\/src\/(test|bench)\//.test(rel) ||
  rel === 'packages/domain/src/test-data.ts' ||
  rel.startsWith('e2e/');

/** Where SQL may live: repositories, the database and seed folders, and the backup's table maps. */
const SQL_ALLOWED = [
  /^packages\/server\/src\/.*\.repository\.ts$/,
  /^packages\/server\/src\/db\//,
  /^packages\/server\/src\/seed\//,
  /^packages\/server\/src\/modules\/backup\/backup-(tables|file)\.ts$/,
  // the dataset form's column list, read off the table definition (no query)
  /^packages\/server\/src\/modules\/datasets\/dataset-columns\.ts$/,
  // pg-boss's adapter: the job queue runs its own SQL through the driver
  /^packages\/server\/src\/modules\/recompute-queue\/recompute-worker\.ts$/,
];
const sqlAllowed = (rel) => isTestFile(rel) || SQL_ALLOWED.some((re) => re.test(rel));

/** Packages whose values are SQL: the ORM and the drivers. */
const SQL_PACKAGE = /^(drizzle-orm|pg|@electric-sql\/pglite)(\/|$)/;
const NODE_IO = /^(node:)?(fs|fs\/promises|net|http|https|http2|child_process|worker_threads|dgram|dns|tls)$/;

/** The module a server file belongs to (the first folder under src/modules), or null. */
const serverModule = (file) => /^packages\/server\/src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
/** The part of the meta-analysis module a file belongs to (calculation, results, stats, tools), or null. */
const metaPart = (file) =>
  /^packages\/server\/src\/modules\/meta-analysis\/([^/]+)\//.exec(file)?.[1] ?? null;
/** A module's face: the one file the rest of the server imports from it (decision 077). */
const faceOf = (module) => `packages/server/src/modules/${module}/index`;
/** The workspace package a file is in (`packages/x`), or null. */
const packageOf = (file) => /^packages\/([^/]+)\//.exec(file)?.[1] ?? null;
const webFeature = (file) => /^packages\/web\/src\/features\/([^/]+)\//.exec(file)?.[1] ?? null;
const under = (file, dir) => file.startsWith(`${dir}/`);

const MESSAGES = {
  featureToFeature:
    'A feature does not import another feature: move the shared piece to src/components or src/lib, or compose both in a page in src/app/routes.',
  featureToApp:
    'A feature does not import app/: pages in src/app/routes compose features, not the other way round.',
  sharedToFeature:
    'Shared web code (src/components, src/lib) imports no feature and no page: features build on it, not the other way round.',
  webToServer:
    'The web app talks to the server over HTTP: share types through @bvdb/contract, not server files.',
  domainImports:
    'The domain is pure TypeScript with no I/O: it imports neither the other packages nor the file system or network.',
  contractImports: 'The contract imports only the domain and zod: it is shared by server and client.',
  leavesPackage:
    'A relative import stays inside its own package: reach another package by its name (@bvdb/domain, @bvdb/contract), never by ../../<package>/src.',
  testCode:
    'Product code imports no test code (src/test, src/bench, *.test): move what both need into the product code.',
  otherRepository:
    "Another module's repository is private: call that module's service through its face (index.js).",
  notAFace:
    "Modules meet through faces: import the other module's index.js (modules/<name>/index.ts), which exports what it offers.",
  otherInternals:
    "The meta-analysis module's parts meet through services: import the other part's *.service.js, not its internals.",
  faceReexport:
    "A face exports its own module's services, types and routes: never a repository's functions, never lib/ or another folder's items passed through (import those where they live).",
  kernelToModule:
    'lib/ and plugins/ are the kernel and import no module: declare a port (an interface or a callback) in lib/ or plugins/, implement it in the module and wire it in app.ts.',
  sql: 'SQL lives in repositories (and db/, seed/, the backup tables): call a repository instead.',
  schemaValue: 'SQL lives in repositories: import the schema in a *.repository.ts (types only elsewhere).',
};

/**
 * Why `file` may not import `target` (a resolved import), or null when it may. `typeOnly`: the
 * statement names types only; `reexport`: it is an `export … from`.
 */
export function fenceViolation(file, target, typeOnly, reexport = false) {
  if (isTestFile(file)) return null;
  const t = target.file;
  // Every package: a relative path never climbs out of its own package, and product code never
  // reaches into test code.
  if (t && target.relative && packageOf(file) && packageOf(t) !== packageOf(file)) return 'leavesPackage';
  if (t && (/^packages\/[^/]+\/src\/(test|bench)\//.test(t) || /\.test$/.test(t))) return 'testCode';
  // The web
  if (under(file, 'packages/web/src')) {
    if (t && (under(t, 'packages/server') || t === 'packages/server/src/index')) return 'webToServer';
    const own = webFeature(file);
    if (own && t) {
      const other = webFeature(t);
      if (other && other !== own) return 'featureToFeature';
      if (under(t, 'packages/web/src/app') || t === 'packages/web/src/entry-server') return 'featureToApp';
    }
    if (!own && (under(file, 'packages/web/src/components') || under(file, 'packages/web/src/lib')) && t) {
      if (under(t, 'packages/web/src/features') || under(t, 'packages/web/src/app')) return 'sharedToFeature';
    }
    return null;
  }
  // The domain and the contract
  if (under(file, 'packages/domain/src')) {
    if (t && !under(t, 'packages/domain/src')) return 'domainImports';
    if (
      target.pkg &&
      (NODE_IO.test(target.pkg) || SQL_PACKAGE.test(target.pkg) || target.pkg.startsWith('@bvdb/'))
    )
      return 'domainImports';
    return null;
  }
  if (under(file, 'packages/contract/src')) {
    if (t && !under(t, 'packages/contract/src') && !under(t, 'packages/domain/src')) return 'contractImports';
    if (
      target.pkg &&
      (NODE_IO.test(target.pkg) || SQL_PACKAGE.test(target.pkg) || target.pkg.startsWith('@bvdb/'))
    )
      return 'contractImports';
    return null;
  }
  // The server
  if (under(file, 'packages/server/src')) {
    if (!typeOnly && !sqlAllowed(file)) {
      if (target.pkg && SQL_PACKAGE.test(target.pkg)) return 'sql';
      if (t === 'packages/server/src/db/schema') return 'schemaValue';
    }
    if (!t || !under(t, 'packages/server/src')) return null;
    const from = serverModule(file);
    const to = serverModule(t);
    // The kernel (lib/, plugins/) is a floor: modules plug into it through ports.
    if (to && (under(file, 'packages/server/src/lib') || under(file, 'packages/server/src/plugins')))
      return 'kernelToModule';
    // A face passes on its own module's services, types and routes only (a repository's row
    // types may pass, its functions never).
    if (from && file.replace(/\.tsx?$/, '') === faceOf(from) && reexport) {
      if (to !== from) return 'faceReexport';
      if (/\.repository$/.test(t)) return typeOnly ? null : 'faceReexport';
    }
    const sameFolder = path.posix.dirname(t) === path.posix.dirname(file);
    if (/\.repository$/.test(t) && !sameFolder && !under(t, 'packages/server/src/lib'))
      return 'otherRepository';
    if (to && to !== from && t !== faceOf(to)) return 'notAFace';
    const fromPart = metaPart(file);
    const toPart = metaPart(t);
    if (fromPart && toPart && fromPart !== toPart && !/\.(service|job)$/.test(t)) return 'otherInternals';
    return null;
  }
  return null;
}

const fences = {
  meta: {
    type: 'problem',
    docs: { description: "The project's import fences, judged on resolved paths (decision 047)." },
    schema: [],
  },
  create(context) {
    const file = rel(context.filename);
    function check(node, source, typeOnly) {
      if (!source || typeof source.value !== 'string') return;
      const reexport = node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration';
      const why = fenceViolation(file, resolveImport(context.filename, source.value), typeOnly, reexport);
      if (why) context.report({ node: source, message: MESSAGES[why] });
    }
    const allTypes = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 &&
        node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source, allTypes(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, allTypes(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source, false),
    };
  },
};

/** Members of a database handle, a transaction or a driver that run a query (not `transaction`). */
const QUERY_MEMBERS = new Set([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'query',
  'exec',
  '$count',
  '$with',
  'with',
  'refreshMaterializedView',
]);
const HANDLE_SOURCES =
  /\/node_modules\/(drizzle-orm|pg|@types\/pg|@electric-sql\/pglite)\/|\/packages\/server\/src\/db\/client\.ts$/;

function isDatabaseHandle(type) {
  const parts = type.isUnion?.() ? type.types : [type];
  return parts.some((t) => {
    const symbol = t.getSymbol?.() ?? t.aliasSymbol;
    const declaration = symbol?.declarations?.[0];
    if (!declaration) return false;
    const source = declaration.getSourceFile().fileName;
    if (!HANDLE_SOURCES.test(source)) return false;
    // db/client.ts declares our own handle (`Database`); the packages declare theirs.
    return !source.endsWith('db/client.ts') || symbol.getName() === 'Database';
  });
}

const noQueryOutsideRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'A query on the database handle outside the places where SQL may live.' },
    schema: [],
  },
  create(context) {
    const file = rel(context.filename);
    if (!under(file, 'packages/server/src') || sqlAllowed(file)) return {};
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    return {
      MemberExpression(node) {
        const name = node.property.type === 'Identifier' ? node.property.name : node.property.value;
        if (!QUERY_MEMBERS.has(name)) return;
        if (isDatabaseHandle(services.getTypeAtLocation(node.object))) {
          context.report({ node, message: MESSAGES.sql });
        }
      },
    };
  },
};

export default {
  meta: { name: 'bvdb-fences' },
  rules: {
    fences,
    'no-query-outside-repositories': noQueryOutsideRepositories,
    'no-import-cycles': noImportCycles,
  },
};
