import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Client, ClientChannel, SFTPWrapper } from 'ssh2';
import type { Spawned } from '../programs';
import { onlyFirst } from '../../shared/once';
import { channelSession } from './helper';
import { hostCommands, type HostCommands, type SessionOpener } from './commands';

/** A live connection to a host, however it was made: what a RemoteHost needs of it. */
export interface HostConnection {
  /** What carries it, for the Fleet view: `ssh2`, or `OpenSSH` and why. */
  readonly via: string;
  readonly sftp: SFTPWrapper;
  /** Every command run on the host, short or streaming. */
  readonly commands: HostCommands;
  /** Once, when the connection is gone. */
  onClose(listener: () => void): void;
  end(): void;
}

/** A connection made by ssh2 (this process speaks SSH), its SFTP channel open. */
export function ssh2Transport(client: Client, sftp: SFTPWrapper): HostConnection {
  return {
    via: 'ssh2',
    sftp,
    commands: hostCommands(sessionsOn(client)),
    onClose(listener) {
      const once = onlyFirst(() => listener());
      client.on('close', once);
      client.on('error', once);
    },
    end: () => client.end(),
  };
}

/** Sessions of an ssh2 connection: each an exec channel of its own. */
export function sessionsOn(client: Client): SessionOpener {
  return {
    open: (commandLine) => new Promise((resolve, reject) => client.exec(commandLine, (error, channel) => (error ? reject(error) : resolve(channelSession(channel))))),
    stream: (commandLine) => streamOver(client, commandLine),
  };
}

function streamOver(client: Client, commandLine: string): Spawned {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const events = new EventEmitter();
  let channel: ClientChannel | undefined;
  let ended = false;
  const exit = (code: number | null, signal: string | null) => {
    if (ended) return;
    ended = true;
    events.emit('exit', code, signal);
  };
  client.exec(commandLine, (error, stream) => {
    if (error) return void events.emit('error', error);
    channel = stream;
    stream.on('error', (streamError: Error) => events.emit('error', streamError));
    stream.pipe(stdout);
    stream.stderr.pipe(stderr);
    stream.on('exit', (code: number | null, signal?: string) => exit(code ?? null, signal ?? null));
    stream.on('close', () => exit(null, 'SIGHUP'));
  });
  return {
    stdout,
    stderr,
    kill: () => {
      try {
        channel?.signal('KILL');
        // Closing ends the command's input: how the change feed's shell knows to end what it started.
        channel?.close();
      } catch {
        // The connection is gone, and the command's channel with it.
      }
    },
    on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener),
  } as Spawned;
}
