// The one way to open a runs root's index: the app's roots service and the CLI list cells through it.
import type { CellsDelta } from '../../shared/model';
import type { HostRegistry } from '../place/registry';
import { isLocal, parseAddress } from '../../shared/address';
import type { IndexOptions } from './index-options';
import { LocalIndex } from './local-index';
import type { ReaderPool } from './pool';
import { RemoteIndex } from './remote-index';
import type { RemoteCellReads } from './remote-cell';
import type { RootIndex } from './root-index';

export interface IndexPlaces {
  /** The read workers local roots share. */
  pool: ReaderPool;
  hosts: HostRegistry;
  /** The workers that read remote roots' cells (watch/open-reader.ts). */
  cells: RemoteCellReads;
}

export interface OpenIndexOptions extends IndexOptions {
  /** How often a remote root without a live change feed is rescanned; false: only when asked (tests, the CLI). */
  rescanMs?: number | false;
}

/** The index of the root at `address`; `onDelta` hears its rows change, `onStatus` its status. */
export function openIndex(address: string, places: IndexPlaces, onDelta: (delta: CellsDelta) => void, onStatus: () => void, options: OpenIndexOptions = {}): RootIndex {
  const { host, path } = parseAddress(address);
  if (isLocal(host)) return new LocalIndex(address, places.pool, onDelta, onStatus, options);
  return new RemoteIndex(address, places.hosts.contextOf({ host }), places.cells, path, onDelta, onStatus, { rescanMs: options.rescanMs, watch: options.watch !== false });
}
