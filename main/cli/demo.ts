import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_CONTENTS, DEMO_FORMATS, runDemo, type DemoFormat } from '../../runners/demo';
import { wrapped } from './help-text';
import { defaultDemoRoot } from '../paths';
import { UsageError, type Io } from './io';

export const DEMO_HELP = `cellwatch demo [DIR] [--speed X] [--instant]

${wrapped(`Writes the built-in demo into DIR (default: the demo runs root in your data folder), emptying it first: ${DEMO_CONTENTS}. Live by default, files growing as a real run's do; about three minutes at speed 1.`)}
  --speed X   run X times faster (default 1)
  --instant   write everything at once
  --only F --name N   write one cell of format F (${DEMO_FORMATS.join(', ')}) named N,
              beside what DIR already holds (how the demo runner profile launches it)`;

export async function demo(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      speed: { type: 'string', default: '1' },
      instant: { type: 'boolean', default: false },
      only: { type: 'string' },
      name: { type: 'string' },
    },
  });
  if ((values.only === undefined) !== (values.name === undefined)) throw new UsageError('--only and --name go together');
  if (values.only !== undefined && !DEMO_FORMATS.includes(values.only as DemoFormat)) throw new UsageError(`--only must be one of ${DEMO_FORMATS.join(', ')}`);
  const only = values.only ? { format: values.only as DemoFormat, name: values.name as string } : undefined;
  if (positionals.length > 1) throw new UsageError(`name at most one folder\n\n${DEMO_HELP}`);
  const speed = Number(values.speed);
  if (!(speed > 0) || !Number.isFinite(speed)) throw new UsageError(`--speed must be a positive number, not ${values.speed}`);
  const dir = resolve(positionals[0] ?? defaultDemoRoot());
  io.out(`Writing the demo into ${dir}${values.instant ? '' : ` live at ${speed}x (Ctrl+C stops)`}...`);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const outcome = await runDemo(dir, { speed, instant: values.instant, signal: stop.signal, only });
    io.out(outcome === 'finished' ? `Done: cellwatch status ${dir}` : 'Stopped.');
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return 0;
}
