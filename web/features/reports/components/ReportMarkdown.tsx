/**
 * A report's text as formatted markdown (headings, lists, emphasis, links). Raw HTML in the text
 * is dropped rather than rendered, and link targets go through react-markdown's URL filter, so a
 * model's answer cannot inject markup or script links.
 */
import Markdown, { type Components } from 'react-markdown';

const components: Components = {
  h1: ({ children }) => <h3 className="text-lg font-semibold text-slate-900">{children}</h3>,
  h2: ({ children }) => <h3 className="text-base font-semibold text-slate-900">{children}</h3>,
  h3: ({ children }) => <h4 className="text-base font-semibold text-slate-900">{children}</h4>,
  p: ({ children }) => <p>{children}</p>,
  ul: ({ children }) => <ul className="flex list-disc flex-col gap-1 pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="flex list-decimal flex-col gap-1 pl-5">{children}</ol>,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-blue-700 underline">
      {children}
    </a>
  ),
  code: ({ children }) => <code className="rounded bg-slate-200 px-1 py-0.5 font-mono text-sm">{children}</code>,
  pre: ({ children }) => <pre className="overflow-x-auto rounded-lg bg-slate-200 p-3 text-sm">{children}</pre>,
  blockquote: ({ children }) => <blockquote className="border-l-4 border-slate-300 pl-3 text-slate-600">{children}</blockquote>,
};

/** Renders `text`. */
export function ReportMarkdown({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-2 text-base break-words">
      <Markdown components={components} skipHtml>
        {text}
      </Markdown>
    </div>
  );
}
