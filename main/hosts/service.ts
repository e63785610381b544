// The contract's host calls, on the registry's connections.
import type { Backend } from '../../shared/contract';
import type { HostRegistry } from '../place/registry';

type HostCalls = Pick<Backend, 'listHosts' | 'acceptHostKey' | 'unlockHostKey' | 'reconnectHost'>;

export class HostsService implements HostCalls {
  constructor(private readonly registry: HostRegistry) {}

  async listHosts() {
    return this.registry.statuses();
  }

  async acceptHostKey(alias: string) {
    this.registry.acceptKey(alias);
  }

  async unlockHostKey(alias: string, keyFile: string, passphrase: string) {
    this.registry.unlock(alias, keyFile, passphrase);
  }

  async reconnectHost(alias: string) {
    this.registry.reconnect(alias);
  }
}
