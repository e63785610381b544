import { parseArgs } from 'node:util';
import type { Alert } from '../../shared/alerts';
import { createCore } from '../core';
import { defaultConfigDir } from '../paths';
import { outJson, untilStopped, type Io } from './io';
import { printable, problemLine } from './printable';
import { counted } from '../../shared/counts';
import { commandLineRoot } from '../roots/address';

export const ALERTS_HELP = `cellwatch alerts [--json] [ROOT...]

Prints alerts as they happen, one a line, until Ctrl+C (on stderr, once the roots are read, how many cells
it watches): a cell finishes, a launched run fails, an
evaluation fails or ends void, a budget is used up, a running cell stalls, an SSH host is unreachable,
a launched run's GPU drops under the free-memory guard, a pinned paired test crosses p < 0.05. The
kinds turned off in the app, everywhere or per cell, are honoured; nothing is written. With no ROOT, watches
the runs roots the app has saved.
  --json   one object a line: {"key", "kind", "at", "cell", "subject", "message"}`;

/** An alert on a line of its own: an object (--json), else its time, kind, subject and message in words. */
function print(io: Io, alert: Alert, json: boolean): void {
  if (json) return outJson(io, alert);
  io.out(`${new Date(alert.at).toISOString().slice(0, 19).replace('T', ' ')}  ${printable(alert.kind.padEnd(11))} ${printable(alert.subject)}: ${printable(alert.message)}`);
}

export async function alerts(argv: string[], io: Io, stop?: AbortSignal): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  const core = await createCore({
    configDir: defaultConfigDir(),
    transport: 'serve',
    commandLineRoots: positionals.map(commandLineRoot),
    onlyCommandLineRoots: positionals.length > 0,
    nvidiaSmi: process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi',
    alerts: { readOnly: true },
  });
  core.events.on('alertRaised', (alert) => print(io, alert, values.json));
  // What could not be used (a hosts file's entry, the settings) is said with its file and line, as the window says it.
  const problems = [...(await core.getInfo()).problems, ...(await core.listRoots()).flatMap((root) => root.problems)];
  for (const p of problems) io.err(problemLine(p));
  await core.scanned();
  const cells = (await core.listCells()).length;
  io.err(`watching ${counted(cells, 'cell')}; alerts print here as they happen (Ctrl+C ends)`);
  await untilStopped(stop);
  await core.close();
  return 0;
}
