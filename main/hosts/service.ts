// The SSH hosts of the runs roots: their connections (the registry) and the contract's host calls.
import type { Backend } from '../../shared/contract';
import type { EventHub } from '../events';
import { HostRegistry, type RegistryOptions } from '../place/registry';

type HostCalls = Pick<Backend, 'listHosts' | 'acceptHostKey' | 'unlockHostKey' | 'reconnectHost'>;

export class HostsService implements HostCalls {
  readonly registry: HostRegistry;

  constructor(events: EventHub, registryOptions: RegistryOptions = {}) {
    this.registry = new HostRegistry((statuses) => events.emit('hostsChanged', statuses), registryOptions);
  }

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

  close(): void {
    this.registry.close();
  }
}
