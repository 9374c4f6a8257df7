/** Removes the run's templates (e2e/fixtures/templates.ts), if a spec made one. */
import { rmSync } from 'node:fs';
import { templatesRoot } from './fixtures/templates';

export default function globalTeardown(): void {
  rmSync(templatesRoot(), { recursive: true, force: true });
}
