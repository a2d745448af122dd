/**
 * A vitest reporter that names every test that did not run, with its file, after the
 * summary. A skipped test says why in its name (`seed fidelity not run: …`), so a check
 * that could not run is seen, not only counted.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class NotRunReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const notRun = testModules.flatMap((module) => [...module.children.allTests('skipped')].map((test) => `  ↓ ${module.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}`));
    if (notRun.length === 0) return;
    process.stdout.write(`\nNot run (${notRun.length}):\n${notRun.join('\n')}\n`);
  }
}
