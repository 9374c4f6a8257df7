/** Icon imports rewritten to the package's per-icon modules (decision 016). */
import { describe, expect, it } from 'vitest';
import { iconModules, perIconImports } from './web-icon-imports';

/** Shaped like lucide-react's index: several names per icon, and exports that are not icons. */
const index = `import * as index from './icons/index.mjs';
export { index as icons };
export { default as Boxes, default as BoxesIcon, default as LucideBoxes } from './icons/boxes.mjs';
export { default as CircleAlert, default as AlertCircle, default as CircleExclamationPoint } from './icons/circle-exclamation-point.mjs';
export { default as X, default as XIcon } from './icons/x.mjs';
export { default as createLucideIcon } from './createLucideIcon.mjs';
export { LucideProvider, useLucideContext } from './context.mjs';
`;

describe('icon imports', () => {
  const modules = iconModules(index);

  it('reads every name of each icon from the index, and nothing else', () => {
    expect(modules.get('CircleAlert')).toBe('circle-exclamation-point');
    expect(modules.get('AlertCircle')).toBe('circle-exclamation-point');
    expect(modules.get('BoxesIcon')).toBe('boxes');
    expect(modules.has('createLucideIcon')).toBe(false);
    expect(modules.has('LucideProvider')).toBe(false);
  });

  it('imports each icon from its own module, keeping aliases, types and the lines', () => {
    const source = `import { useState } from 'react';\nimport { Boxes, X as Close, type LucideIcon } from 'lucide-react';\nconst a = 1;\n`;
    expect(perIconImports(source, modules)).toBe(
      `import { useState } from 'react';\n` +
        `import Boxes from 'lucide-react/icons/boxes'; import Close from 'lucide-react/icons/x'; import type { LucideIcon } from 'lucide-react';\n` +
        `const a = 1;\n`,
    );
  });

  it('leaves an import alone when one of its names is not an icon', () => {
    const source = `import { Boxes, createLucideIcon } from 'lucide-react';\nimport type { LucideIcon } from 'lucide-react';`;
    expect(perIconImports(source, modules)).toBe(source);
  });
});
