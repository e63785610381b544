// A private Kerberos realm for tests: its own KDC on a loopback port, a user principal with a ticket in a
// cache of its own, and host/127.0.0.1 in a keytab for a test sshd. Set in process.env (KRB5_CONFIG,
// KRB5_KTNAME, KRB5CCNAME) before the sshd starts, so that it and the system's ssh both read them.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { findTool } from '../../scripts/system-tools.mjs';
import { freePort } from './testing';

const REALM = 'CW.TEST';
const KEYS = ['KRB5_CONFIG', 'KRB5_KDC_PROFILE', 'KRB5_KTNAME', 'KRB5CCNAME'] as const;

export interface TestRealm {
  stop(): Promise<void>;
}

export async function startRealm(): Promise<TestRealm> {
  const dir = mkdtempSync(join(tmpdir(), 'cellwatch-krb5-'));
  const port = await freePort();
  const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]));
  writeFileSync(
    join(dir, 'krb5.conf'),
    // No DNS: the host's name is taken as written (host/127.0.0.1), as a cluster's fixed names are.
    `[libdefaults]\n  default_realm = ${REALM}\n  dns_canonicalize_hostname = false\n  rdns = false\n  dns_lookup_kdc = false\n  dns_lookup_realm = false\n[realms]\n  ${REALM} = {\n    kdc = 127.0.0.1:${port}\n  }\n`,
  );
  writeFileSync(
    join(dir, 'kdc.conf'),
    `[kdcdefaults]\n  kdc_ports = ${port}\n  kdc_tcp_ports = ${port}\n[realms]\n  ${REALM} = {\n    database_name = ${join(dir, 'principal')}\n    key_stash_file = ${join(dir, 'stash')}\n    acl_file = ${join(dir, 'kadm5.acl')}\n  }\n[logging]\n  kdc = FILE:${join(dir, 'kdc.log')}\n`,
  );
  Object.assign(process.env, { KRB5_CONFIG: join(dir, 'krb5.conf'), KRB5_KDC_PROFILE: join(dir, 'kdc.conf'), KRB5_KTNAME: `FILE:${join(dir, 'host.keytab')}`, KRB5CCNAME: `FILE:${join(dir, 'ccache')}` });
  const tool = (name: string) => findTool(name) ?? name;
  const admin = (query: string) => execFileSync(tool('kadmin.local'), ['-r', REALM, '-q', query], { stdio: 'ignore' });
  execFileSync(tool('kdb5_util'), ['create', '-s', '-r', REALM, '-P', 'master-password'], { stdio: 'ignore' });
  admin(`addprinc -pw user-password ${userInfo().username}@${REALM}`);
  admin(`addprinc -randkey host/127.0.0.1@${REALM}`);
  admin(`ktadd -k ${join(dir, 'host.keytab')} host/127.0.0.1@${REALM}`);
  const kdc: ChildProcess = spawn(tool('krb5kdc'), ['-n'], { stdio: 'ignore' });
  // The KDC answers once it has bound its port: kinit is tried until it gets the ticket.
  for (let tries = 0; ; tries++) {
    try {
      execFileSync(tool('kinit'), [`${userInfo().username}@${REALM}`], { input: 'user-password\n', stdio: ['pipe', 'ignore', 'pipe'] });
      break;
    } catch (error) {
      if (tries === 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    async stop() {
      const exited = new Promise((resolve) => kdc.once('exit', resolve));
      kdc.kill();
      await exited;
      for (const key of KEYS) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
