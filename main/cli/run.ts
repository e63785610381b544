import { NotFoundError } from '../errors';
import { CompareError } from '../compare/paired';
import { APP_VERSION } from '../version';
import { UsageError, type Io } from './io';
import { alerts, ALERTS_HELP } from './alerts';
import { demo, DEMO_HELP } from './demo';
import { episodes, EPISODES_HELP } from './episodes';
import { gpu, GPU_HELP } from './gpu';
import { launch, LAUNCH_HELP } from './launch';
import { record, RECORD_HELP } from './record';
import { drain, runs, RUNS_HELP, stop } from './runs';
import { mcnemar, MCNEMAR_HELP } from './mcnemar';
import { serve, SERVE_HELP } from './serve';
import { status, STATUS_HELP } from './status';
import { tail, TAIL_HELP } from './tail';

const HELP = `Cellwatch ${APP_VERSION}: watch coding-agent benchmark runs.

Usage: cellwatch <command> [options]

Commands:
  serve      the app in a browser (serve mode)
  status     budgets, states and success rates of cells
  episodes   a cell's pairable units
  tail       a cell's events as they arrive
  alerts     alerts as they happen (finished, failed, stalled, ...)
  mcnemar    are two runs really different? (exact paired test)
  gpu        GPU memory, CPU, memory and disks of this machine
  launch     start a UI run of a runner profile, here, on an SSH host or on Slurm
  runs       the launched runs on every target; stop, drain: stop or drain one
  record     policy versions side by side on one seed, to mp4
  demo       write the built-in demo runs

Options:
  --help      this text; cellwatch <command> --help for a command's own
  --version   the version

${SERVE_HELP}

${STATUS_HELP}

${EPISODES_HELP}

${TAIL_HELP}

${ALERTS_HELP}

${MCNEMAR_HELP}

${GPU_HELP}

${LAUNCH_HELP}

${RUNS_HELP}

${RECORD_HELP}

${DEMO_HELP}`;

const COMMANDS: Record<string, (argv: string[], io: Io, stop?: AbortSignal) => Promise<number>> = { serve, status, episodes, tail, alerts, mcnemar, gpu, launch, runs, stop, drain, record, demo };

export async function runCli(argv: string[], io: Io, stop?: AbortSignal): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.out(HELP);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(APP_VERSION);
    return 0;
  }
  const command = COMMANDS[first];
  if (!command) {
    io.err(`cellwatch: unknown command ${JSON.stringify(first)}. Run cellwatch --help for the list.`);
    return 2;
  }
  try {
    return await command(rest, io, stop);
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof NotFoundError || error instanceof CompareError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(`cellwatch ${first}: ${(error as Error).message}`);
    return usage ? 2 : 1;
  }
}
