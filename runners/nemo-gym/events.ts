import { basename } from 'node:path';
import { num, str } from '../common/values';
import type { EventLog } from '../types';
import { collectionFiles } from './files';
import { agentName } from './agent-name';

const unit = (value: Record<string, unknown>) => `${num(value._ng_task_index) ?? '?'}#${num(value._ng_rollout_index) ?? 0}`;

/**
 * A collection's two logs: a line per finished rollout (its unit and reward, not its conversation) and
 * one per failed attempt. Their malformed lines are the adapter's problems already.
 */
export async function nemoEventLogs(path: string): Promise<EventLog[]> {
  const files = collectionFiles(path);
  return [
    {
      stream: 'rollouts',
      file: basename(files.rollouts),
      eventName: () => 'rollout',
      shown: (value) => ({ episode: unit(value), fields: { reward: value.reward ?? null, agent: agentName(value.agent_ref) } }),
      checked: true,
    },
    {
      stream: 'failures',
      file: basename(files.failures),
      eventName: () => 'rollout_failed',
      shown: (value) => ({
        episode: unit(value),
        fields: { class: str(value._ng_failure_class), terminal: value._ng_failure_terminal === true, attempt: num(value._ng_attempt_index), agent: agentName(value.agent_ref) },
      }),
      checked: true,
    },
  ];
}
