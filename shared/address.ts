// Where a folder or file is: this machine, or an SSH host of ~/.ssh/config, and its path there. One grammar,
// parsed and written here for the CLI, the core, the hosts files, the fleet and the window: `ALIAS:/abs/path`
// or `ssh://ALIAS/abs/path` on a host, anything else a path here. A cell's id is its address with this
// machine named too (`local:/abs/path`).

/** This machine, as a host id. */
export const LOCAL = 'local';

/** A host: LOCAL, or an SSH alias (`gpu1`, `me@gpu1`). */
export type HostId = string;

export interface Address {
  host: HostId;
  path: string;
}

export const isLocal = (host: HostId) => host === LOCAL;

/** A host as a sentence names it: "this machine", or its alias. */
export const hostWords = (host: HostId) => (isLocal(host) ? 'this machine' : host);

/** An SSH alias as an address may name it. */
const ALIAS = '[A-Za-z0-9_.@-]+';
const URL_FORM = new RegExp(`^ssh://(${ALIAS})(/.*)$`);
const SCP_FORM = new RegExp(`^(${ALIAS}):(/.*)$`);

/** `ssh://ALIAS/abs/path` or `ALIAS:/abs/path` → that host and path; anything else a path on this machine. */
export function parseAddress(text: string): Address {
  const remote = URL_FORM.exec(text) ?? SCP_FORM.exec(text);
  return remote ? { host: remote[1] as string, path: remote[2] as string } : { host: LOCAL, path: text };
}

/** An address as a root is kept and shown: `ALIAS:/path` on a host, the bare path here. */
export function formatAddress({ host, path }: Address): string {
  return isLocal(host) ? path : `${host}:${path}`;
}

/** The id of the cell at `path` on `host`: `HOST:/path`, this machine's too. */
export function cellId(host: HostId, path: string): string {
  return `${host}:${path}`;
}
