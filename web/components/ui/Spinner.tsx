/** A spinning indicator for work in progress. */
import { LoaderCircle } from 'lucide-react';

interface SpinnerProps {
  /** Tailwind size classes, e.g. 'size-5'. */
  className?: string;
  /** Announced to screen readers; omit inside a control that already says what is happening. */
  label?: string;
}

/** Renders the spinner; with `label` it is announced as a loading status. */
export function Spinner({ className = 'size-5', label }: SpinnerProps) {
  const icon = <LoaderCircle className={`${className} animate-spin`} aria-hidden="true" />;
  if (!label) return icon;
  return (
    <span role="status" aria-label={label} className="inline-flex">
      {icon}
    </span>
  );
}
