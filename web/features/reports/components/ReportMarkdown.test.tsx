/**
 * The report renderer shows untrusted markdown (docs/decisions/012-report-injections.md): no
 * image and no link to another origin is ever rendered, raw HTML is dropped, and links on the
 * application's own origin are kept.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ReportMarkdown } from './ReportMarkdown';

const PAGE = 'https://app.example/reports';
const render = (text: string) => renderToStaticMarkup(<ReportMarkdown text={text} base={PAGE} />);

/** Every href of an <a> in `html`. */
const hrefs = (html: string) => [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1]);

describe('ReportMarkdown', () => {
  it('renders no image, however it is written', () => {
    const html = render(
      [
        '![x](https://evil.example/p.png)',
        '![relative](/logo.png)',
        '![ref][pic]',
        '<img src="https://evil.example/q.png">',
        '[pic]: https://evil.example/r.png',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<img\b/i);
    expect(html).not.toContain('evil.example');
    // What the image was called stays readable.
    expect(html).toContain('x');
    expect(html).toContain('relative');
  });

  it('shows links to other origins as their text', () => {
    const html = render(
      [
        '[Reset your password](https://evil.example/reset)',
        '[protocol relative](//evil.example/reset)',
        '[other port](https://app.example:8443/reset)',
        '[plain http](http://app.example/reset)',
        '[script](javascript:alert(1))',
        '[mail](mailto:someone@evil.example)',
        '<https://evil.example/auto>',
        '[ref link][ref]',
        '<a href="https://evil.example/raw">raw</a>',
        '[ref]: https://evil.example/ref',
      ].join('\n\n'),
    );
    expect(hrefs(html)).toEqual([]);
    expect(html).not.toMatch(/<a\b/i);
    expect(html).toContain('Reset your password');
    expect(html).toContain('ref link');
    expect(html).not.toContain('raw</a>');
  });

  it('keeps links on its own origin, relative or absolute', () => {
    const html = render('[Units](/units) [Top](#top) [Unit](units/1) [Reports](https://app.example/reports?period=week)');
    expect(hrefs(html)).toEqual([
      'https://app.example/units',
      'https://app.example/reports#top',
      'https://app.example/units/1',
      'https://app.example/reports?period=week',
    ]);
    expect(html).toContain('>Units</a>');
  });

  it('renders the formatting of a report', () => {
    const html = render('## Supply Overview\n\n- **2 items** low\n- `Towel` at Loft\n\n_note_');
    expect(html).toContain('<h3 class="text-base font-semibold text-slate-900">Supply Overview</h3>');
    expect(html).toContain('<strong>2 items</strong>');
    expect(html).toContain('<em>note</em>');
  });

  it('shows escaped names literally', () => {
    const html = render('- Low: \\[Reset your password\\]\\(https:\\/\\/evil\\.example\\/reset\\) at Loft\\.');
    expect(html).toContain('<li>Low: [Reset your password](https://evil.example/reset) at Loft.</li>');
  });
});
