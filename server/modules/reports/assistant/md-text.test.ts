/**
 * Names in report text (docs/decisions/012-report-injections.md): whatever a name holds, a
 * markdown reader shows it literally — one paragraph of plain text, no link, image, emphasis,
 * code, HTML, entity or block — with its line breaks as spaces.
 */
import fc from 'fast-check';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { mdText } from './shared';

/** The node types of `tree` and the text a reader sees. */
function read(markdown: string): { types: string[]; text: string } {
  const types: string[] = [];
  const walk = (node: Nodes): string => {
    types.push(node.type);
    if (node.type === 'text') return node.value;
    return 'children' in node ? node.children.map(walk).join('') : '';
  };
  const text = walk(fromMarkdown(markdown));
  return { types, text };
}

const asLine = (name: string) => name.replace(/\r\n|\r|\n/g, ' ');

describe('mdText', () => {
  it.each([
    '[Reset your password](https://evil.example/reset)',
    '![x](https://evil.example/p.png)',
    '<https://evil.example>',
    '<img src="https://evil.example/p.png">',
    '*bold* _em_ `code` ~~gone~~',
    '&lt; &#91;x&#93;(https://evil.example) &copy;',
    'a\\[b](https://evil.example)',
    '[x][ref]\n\n[ref]: https://evil.example',
    'Towel\n# Heading\n- item\n> quote\n---\n1. one',
    'Towel\r\n===',
    '    indented code',
    'trailing backslash \\',
  ])('shows %j as it is', (name) => {
    const { types, text } = read(`- Low: ${mdText(name)} at Loft.`);
    expect(types).toEqual(['root', 'list', 'listItem', 'paragraph', 'text']);
    expect(text).toBe(`Low: ${asLine(name)} at Loft.`);
  });

  it('keeps names without punctuation unchanged', () => {
    expect(mdText('Beach House 2')).toBe('Beach House 2');
  });

  it('shows any name as one paragraph of its own text', () => {
    // NUL is the one character markdown replaces (by U+FFFD); the contracts refuse it in names.
    const name = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replaceAll('\0', ''));
    const markdowny = fc
      .array(fc.constantFrom('[', ']', '(', ')', '!', '<', '>', '&', '#', ';', '*', '_', '`', '\\', '\n', '\r', ' ', '-', '=', 'a', '1', '.', ':', '/'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(name, markdowny), (s) => {
        const { types, text } = read(`Used by ${mdText(s)} today.`);
        expect(types).toEqual(['root', 'paragraph', 'text']);
        expect(text).toBe(`Used by ${asLine(s)} today.`);
      }),
      { numRuns: 500 },
    );
  });
});
