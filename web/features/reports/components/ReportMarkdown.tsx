/**
 * A report's text as formatted markdown (headings, lists, emphasis). The text is untrusted: a
 * language model writes the narrative, and the computed summary quotes names the tenant's users
 * typed (docs/decisions/012-report-injections.md). So raw HTML is dropped rather than rendered,
 * images are shown as their alt text (no request to any host), and a link stays a link only when
 * it leads to this application's own origin; any other link is shown as its text.
 */
import Markdown, { type Components } from 'react-markdown';
import { sameOriginHref } from '../report-links';

const components: Components = {
  h1: ({ children }) => <h3 className="text-lg font-semibold text-slate-900">{children}</h3>,
  h2: ({ children }) => <h3 className="text-base font-semibold text-slate-900">{children}</h3>,
  h3: ({ children }) => <h4 className="text-base font-semibold text-slate-900">{children}</h4>,
  p: ({ children }) => <p>{children}</p>,
  ul: ({ children }) => <ul className="flex list-disc flex-col gap-1 pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="flex list-decimal flex-col gap-1 pl-5">{children}</ol>,
  // The URL transform below has removed every href that leaves the origin.
  a: ({ href, children }) =>
    href ? (
      <a href={href} className="font-medium text-blue-700 underline">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  img: ({ alt }) => <>{alt}</>,
  code: ({ children }) => <code className="rounded bg-slate-200 px-1 py-0.5 font-mono text-sm">{children}</code>,
  pre: ({ children }) => <pre className="overflow-x-auto rounded-lg bg-slate-200 p-3 text-sm">{children}</pre>,
  blockquote: ({ children }) => <blockquote className="border-l-4 border-slate-300 pl-3 text-slate-600">{children}</blockquote>,
};

/**
 * Renders `text`; `base` is the page's URL (e.g. 'https://app.example/reports'): relative links
 * resolve against it, and its origin is the only one links may lead to.
 */
export function ReportMarkdown({ text, base = window.location.href }: { text: string; base?: string }) {
  return (
    <div className="flex flex-col gap-2 text-base break-words">
      <Markdown
        components={components}
        skipHtml
        urlTransform={(url, key) => (key === 'href' ? sameOriginHref(url, base) : null)}
      >
        {text}
      </Markdown>
    </div>
  );
}
