/**
 * A value shown once for the person to keep (a new API key, a webhook endpoint's signing secret):
 * read-only selectable text with a Copy button, and a status line saying whether the copy worked,
 * since some browsers refuse the clipboard (then the person selects and copies it themselves).
 */
import { useId, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from './Button';

interface CopyFieldProps {
  label: string;
  value: string;
  /** What the value is, in the status line: 'key' gives 'The key is copied.' */
  noun: string;
}

/** Renders the label, the value with Copy beside it (below it on phones) and the copy's outcome. */
export function CopyField({ label, value, noun }: CopyFieldProps) {
  const id = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={`${id}-value`} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-value`}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="min-h-11 w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm break-all text-slate-900"
        />
        <Button variant="secondary" onClick={copy}>
          {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="text-sm text-slate-600">
        {copied === false ? `Could not copy. Select the ${noun} and copy it yourself.` : copied ? `The ${noun} is copied.` : ''}
      </p>
    </div>
  );
}
