/** Removes the run's demo template (e2e/fixtures/demo.ts), if a spec seeded one. */
import { rmSync } from 'node:fs';
import { demoTemplateRoot } from './fixtures/demo';

export default function globalTeardown(): void {
  rmSync(demoTemplateRoot(), { recursive: true, force: true });
}
