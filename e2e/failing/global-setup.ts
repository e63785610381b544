// The specs that fail on purpose serve no demo: their run records its process groups alone, and holds none of
// the demo of the run that started it (its teardown removes the demo it holds).
import { recordGroups } from '../global-setup';
import { DEMO_ENV } from '../processes';

export default function globalSetup(): void {
  delete process.env[DEMO_ENV];
  recordGroups();
}
