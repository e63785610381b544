#!/usr/bin/env node
import { processIo } from './io';
import { runCli } from './run';

// A reader that went away (`| head`) ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

runCli(process.argv.slice(2), processIo).then((code) => {
  process.exitCode = code;
});
