import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCore } from '../core';
import { openBrowser } from '../open-browser';
import { builtRendererDir, defaultConfigDir, defaultDataDir, defaultDemoRoot } from '../paths';
import { isLoopback } from '../server/guard';
import { startServer } from '../server/server';
import { forgetServing, recordServing, runningServer } from '../server/serving-file';
import { UsageError, type Io } from './io';
import { commandLineRoot } from '../roots/address';

export const SERVE_HELP = `cellwatch serve [--port N] [--host H] [--open] [--no-demo] [ROOT...]

Serves the app to a browser on this machine, behind a token printed in the URL.
  --port N   port to listen on (default 4780; 0 picks a free one)
  --host H   address to bind (default 127.0.0.1; anything else is reachable from the network)
  --open     open the URL in the default browser
  --no-demo  with no runs root configured, show the empty state instead of the live demo
  ROOT       runs roots to show for this start (not saved; add roots in the app to keep them)`;

export const DEFAULT_PORT = 4780;

export async function serve(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: String(DEFAULT_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      open: { type: 'boolean', default: false },
      'no-demo': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not ${values.port}`);
  if (!isLoopback(values.host)) io.err(`warning: binding ${values.host}: anyone who can reach this address and has the token can use the app`);

  // A second start while one runs opens the one running.
  const dataDir = defaultDataDir();
  const running = port === 0 ? null : await runningServer(dataDir, values.host, port);
  if (running) {
    io.out(`Cellwatch is already serving ${running}`);
    if (values.open && !openBrowser(running)) io.out('No browser found here: open the URL above in one.');
    return 0;
  }

  const core = await createCore({
    configDir: defaultConfigDir(),
    transport: 'serve',
    // A root typed here is relative to where the command runs; the core takes absolute paths only.
    commandLineRoots: positionals.map(commandLineRoot),
    demoRoot: values['no-demo'] ? undefined : defaultDemoRoot(),
    nvidiaSmi: process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi',
    remoteNvidiaSmi: process.env.CELLWATCH_REMOTE_NVIDIA_SMI,
  });
  const rendererDir = builtRendererDir(dirname(fileURLToPath(import.meta.url)));
  let server;
  try {
    server = await startServer({ host: values.host, port, rendererDir, core });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${values.host} is in use: pass --port 0 for a free one`);
    throw error;
  }
  // The last line of defence: an error no part of the core caught is said, and the server goes on.
  process.on('unhandledRejection', (error) => io.err(`cellwatch serve: an unexpected error, the server goes on: ${(error as Error)?.stack ?? String(error)}`));
  await recordServing(dataDir, server.url);
  io.out(`Cellwatch serving ${server.url}`);
  if (values.open && !openBrowser(server.url)) io.out('No browser found here: open the URL above in one.');

  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // A close that hangs (a watcher still starting, a disk that stopped answering) must not keep Ctrl+C waiting.
  const closed = (async () => {
    await server.close();
    await core.close();
  })();
  forgetServing(dataDir);
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  process.exit(0);
}
