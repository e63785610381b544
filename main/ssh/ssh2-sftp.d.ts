// ssh2's SFTP client, which system-ssh.ts runs over a process's stdio; ssh2's types do not cover it.
declare module 'ssh2/lib/protocol/SFTP.js' {
  export const SFTP: unknown;
}
