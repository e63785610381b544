import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const EXCLUDE = ['e2e/**', 'node_modules/**', 'out/**'];
/** The window's components and its stores, tested in a DOM of their own (happy-dom); every other file in Node alone. */
const WINDOW = ['renderer/**/*.test.tsx', 'renderer/src/data/*[sS]tore.test.ts'];

export default defineConfig({
  test: {
    // Two projects, so that the files of each environment run together: a process runs files one after
    // another only while they share one (isolate: false, below), and the two mixed in the queue's order made
    // 22 processes of the 3 (441 busy CPU s for the stage here, against 355 with 6 processes).
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['{app,main,runners,shared,scripts}/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'],
          exclude: [...EXCLUDE, ...WINDOW],
          // Once for the run: the instant demo the files that read it copy (a global setup of the root would
          // run once for it and once for each project).
          globalSetup: ['scripts/unit-setup.ts'],
        },
      },
      { extends: true, test: { name: 'window', include: WINDOW, exclude: EXCLUDE, environment: 'happy-dom' } },
    ],
    // A test's limit and a hook's are there to catch a hang, not to race the machine: on a slow machine with
    // its cores busy with other work, the NeMo row fuzz (11 s with them free) ran past 20 s. Hooks stop sshds,
    // clusters and cores, which can take far longer than Vitest's 10 s there too.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The same for a poll: it waits for what a test is to see (a line read, a row changed, a process gone),
    // which on a busy machine comes seconds later than on an idle one; Vitest's default gives it 1 s.
    expect: { poll: { timeout: 15_000 } },
    // Node 25 on has a localStorage of its own (undefined without --localstorage-file), which hides happy-dom's
    // from the window's tests: off, where Node knows the flag (22.4 on).
    execArgv: Number(process.versions.node.split('.')[0]) >= 23 ? ['--no-experimental-webstorage'] : [],
    // Three files at a time: many files mostly wait (on an sshd, a cluster, a child process), so on 2 cores
    // two at a time left a third of the cores idle; three use them (196-219 s for the stage here), and four
    // only add more at once (233 s). The suite passes with both cores busy with other work too.
    maxWorkers: 3,
    // Files run one after another in each of those processes, not a fresh one each: 3.4 min where it took
    // 4.7 (313 CPU s where it took 455), a third of it starting a process and importing for each of 154
    // files. Nothing carries from file to file: each restores what it changes (the environment, timers;
    // spies are restored here), and the leak guard checks each file apart as before.
    isolate: false,
    restoreMocks: true,
    // After each file: whatever its tests opened is closed (scripts/open-handles.ts).
    setupFiles: ['scripts/open-handles.ts'],
    // The stylesheet as text, for the test that measures its colours' contrast (others import no CSS).
    css: { include: [/styles\.css/] },
    // A core a test starts without its own data folder (alerts, recordings) writes here, never in the user's.
    env: { XDG_DATA_HOME: join(tmpdir(), 'cellwatch-unit-tests-data') },
  },
});
