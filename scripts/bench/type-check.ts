/**
 * 5. Consumer type-check: `tsc --noEmit` wall time (TypeScript 5.9 and 7) on consumer files
 * that import the package: import only; an exhaustive nested `switch` over every event; a
 * `createHandler` map covering every event (and, for information, `createExhaustiveHandler`).
 * Each file is its own project; each compiler runs each project `runs` times, interleaved.
 * Output is kept: any error (TS2590 above all) is reported.
 */
import { join } from 'node:path';
import { PACKAGE_NAME, ROOT, TSC, summarize, timedSpawn, write, type CompilerName, type Summary } from './common.js';
import type { ManifestEvent, PackageUnderTest } from './package.js';

export type ConsumerCase = 'import-only' | 'exhaustive-switch' | 'create-handler' | 'exhaustive-handler';
export const TARGET_CASES: readonly ConsumerCase[] = ['exhaustive-switch', 'create-handler'];

export interface TypeCheckRow {
  compiler: CompilerName;
  skipLibCheck: boolean;
  file: ConsumerCase;
  ms: Summary;
  /** Exit status of the last run. */
  status: number | null;
  errors: number;
  ts2590: number;
  /** First lines of the compiler's output, when it printed anything. */
  output?: string;
}

export interface TypeCheckResult {
  runs: number;
  events: number;
  rows: TypeCheckRow[];
  /** Lines of each consumer file. */
  lines: Record<ConsumerCase, number>;
}

const member = (e: ManifestEvent): string => (e.fields[0] ? `String(e.payload.${e.fields[0].name})` : 'JSON.stringify(e.payload)');
const payloadMember = (e: ManifestEvent): string => (e.fields[0] ? `String(p.${e.fields[0].name})` : 'JSON.stringify(p)');

function groupByType(events: readonly ManifestEvent[]): Map<string, ManifestEvent[]> {
  const map = new Map<string, ManifestEvent[]>();
  for (const e of events) map.set(e.type, [...(map.get(e.type) ?? []), e]);
  return map;
}

/** The consumer files, importing the root through `specifier`. */
export function consumerFiles(specifier: string, events: readonly ManifestEvent[]): Record<ConsumerCase, string> {
  const byType = groupByType(events);
  const q = JSON.stringify;

  const cases: string[] = [];
  for (const [type, versions] of byType) {
    cases.push(`    case ${q(type)}:`, '      switch (e.version) {');
    for (const e of versions) cases.push(`        case ${q(e.version)}: return ${member(e)};`);
    cases.push('        default: { const unreachable: never = e; return unreachable; }', '      }');
  }
  const handlerMap = (indent: string): string[] => {
    const lines: string[] = [];
    for (const [type, versions] of byType) {
      lines.push(`${indent}${q(type)}: {`);
      for (const e of versions) lines.push(`${indent}  ${q(e.version)}: (p, event) => ${payloadMember(e)} + event.version,`);
      lines.push(`${indent}},`);
    }
    return lines;
  };

  return {
    'import-only': [`import { validateEvent, type CatalogEvent } from ${q(specifier)};`, 'export const check: (message: unknown) => unknown = validateEvent;', 'export type Event = CatalogEvent;', ''].join('\n'),
    'exhaustive-switch': [
      `import type { CatalogEvent } from ${q(specifier)};`,
      '',
      'export function describeEvent(e: CatalogEvent): string {',
      '  switch (e.type) {',
      ...cases,
      '    default: { const unreachable: never = e; return unreachable; }',
      '  }',
      '}',
      '',
    ].join('\n'),
    'create-handler': [`import { createHandler } from ${q(specifier)};`, '', 'export const handle = createHandler<string>({', ...handlerMap('  '), '});', ''].join('\n'),
    'exhaustive-handler': [
      `import { createExhaustiveHandler } from ${q(specifier)};`,
      '',
      'export const handle = createExhaustiveHandler<string>({',
      ...handlerMap('  '),
      '});',
      '',
    ].join('\n'),
  };
}

function tsconfig(pkg: PackageUnderTest, file: string, skipLibCheck: boolean): object {
  const compilerOptions: Record<string, unknown> = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck,
    types: [],
  };
  if (pkg.kind === 'source') {
    // Quick mode: no declarations were built; point the package name at the sources.
    compilerOptions.paths = { [PACKAGE_NAME]: [join(ROOT, 'runtime/index.ts')] };
    compilerOptions.types = ['node'];
    compilerOptions.typeRoots = [join(ROOT, 'node_modules/@types')];
  }
  return { compilerOptions, files: [file] };
}

export function measureTypeCheck(
  pkg: PackageUnderTest,
  options: { runs: number; compilers: readonly CompilerName[]; skipLibCheck: readonly boolean[]; events: readonly ManifestEvent[]; cases?: readonly ConsumerCase[] },
): TypeCheckResult {
  const cases = options.cases ?? (['import-only', 'exhaustive-switch', 'create-handler', 'exhaustive-handler'] as const);
  const files = consumerFiles(PACKAGE_NAME, options.events);
  const projects: { compiler: CompilerName; skipLibCheck: boolean; file: ConsumerCase; dir: string }[] = [];
  for (const skip of options.skipLibCheck) {
    for (const file of cases) {
      const dir = join(pkg.consumerDir, 'type-check', `${file}${skip ? '-skiplibcheck' : ''}`);
      write(join(dir, `${file}.ts`), files[file]);
      write(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(pkg, `${file}.ts`, skip), null, 2));
      for (const compiler of options.compilers) projects.push({ compiler, skipLibCheck: skip, file, dir });
    }
  }

  const times = new Map<(typeof projects)[number], number[]>(projects.map((p) => [p, []]));
  const last = new Map<(typeof projects)[number], { status: number | null; output: string }>();
  for (let round = 0; round < options.runs; round++) {
    for (const project of projects) {
      const run = timedSpawn(process.execPath, [TSC[project.compiler], '-p', project.dir], { cwd: project.dir });
      times.get(project)!.push(run.ms);
      last.set(project, { status: run.status, output: run.stdout + run.stderr });
    }
  }

  const rows = projects.map((project): TypeCheckRow => {
    const { status, output } = last.get(project)!;
    const errors = (output.match(/error TS\d+/g) ?? []).length;
    const ts2590 = (output.match(/TS2590/g) ?? []).length;
    return {
      compiler: project.compiler,
      skipLibCheck: project.skipLibCheck,
      file: project.file,
      ms: summarize(times.get(project)!),
      status,
      errors,
      ts2590,
      ...(output.trim() !== '' && { output: output.split('\n').slice(0, 20).join('\n') }),
    };
  });
  const lines = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.split('\n').length])) as Record<ConsumerCase, number>;
  return { runs: options.runs, events: options.events.length, rows, lines };
}
