/**
 * Vite plugin: in the web app's code, `import { Boxes, CircleAlert } from 'lucide-react'` becomes
 * one import per icon from the package's per-icon entry points (`lucide-react/icons/boxes`, …),
 * so that the module graph says which icons each module uses (decision 016).
 *
 * Through the package's index, which re-exports every icon, each screen seemed to use all of
 * them: the first screens' chunks (scripts/web-first-screens.ts) could not take their icons in,
 * and each icon became a chunk of its own, a request of a few hundred bytes. The code that
 * reaches the browser is the same; only its chunks change.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const PACKAGE = 'lucide-react';

/**
 * Each icon's exported names (`CircleAlert`, `CircleAlertIcon`, `LucideCircleAlert`, …) -> its
 * module's name under `icons/` (`circle-exclamation-point`), read from the package's index:
 * `export { default as Boxes, default as BoxesIcon } from './icons/boxes.mjs';`.
 */
export function iconModules(indexSource: string): Map<string, string> {
  const modules = new Map<string, string>();
  for (const [, names, file] of indexSource.matchAll(/export\s*\{([^}]*)\}\s*from\s*'\.\/icons\/([\w-]+)\.mjs'/g)) {
    for (const name of names!.matchAll(/default as (\w+)/g)) modules.set(name[1]!, file!);
  }
  return modules;
}

/**
 * `source` with every `import { … } from 'lucide-react'` whose names are icons of `modules`
 * (aliases allowed: `X as Close`) or types (`type LucideIcon`) rewritten to one default import
 * per icon, the types kept in an `import type`; an import of anything else (a helper) is left as
 * it is. A statement on one line stays on one line.
 */
export function perIconImports(source: string, modules: Map<string, string>): string {
  return source.replace(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*'${PACKAGE}';?`, 'g'), (statement, list: string) => {
    const specifiers = list.split(',').map((s) => s.trim()).filter(Boolean);
    const types = specifiers.filter((s) => s.startsWith('type '));
    const icons = specifiers.filter((s) => !s.startsWith('type ')).map((specifier) => {
      const [name, local = name] = specifier.split(/\s+as\s+/);
      const file = modules.get(name!);
      return file && `import ${local} from '${PACKAGE}/icons/${file}';`;
    });
    if (!icons.every(Boolean)) return statement;
    const typeImport = types.length ? [`import type { ${types.map((t) => t.slice(5)).join(', ')} } from '${PACKAGE}';`] : [];
    return [...icons, ...typeImport].join(' ');
  });
}

/** The plugin: rewrites the imports of the app's own modules (under web/), at build time only. */
export function webIconImports(): Plugin {
  let modules: Map<string, string> | undefined;
  return {
    name: 'web-icon-imports',
    apply: 'build',
    enforce: 'pre',
    async transform(code, id) {
      if (!/[\\/]web[\\/][^?]*\.tsx?$/.test(id) || !code.includes(`'${PACKAGE}'`)) return null;
      if (!modules) {
        // The index the bundler itself would load (the ES module build), not Node's CommonJS one.
        const index = await this.resolve(PACKAGE, id);
        if (!index) return this.error(`${PACKAGE} cannot be resolved`);
        modules = iconModules(readFileSync(index.id, 'utf8'));
      }
      return { code: perIconImports(code, modules), map: null };
    },
  };
}
