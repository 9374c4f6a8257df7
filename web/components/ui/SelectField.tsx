/** A labelled select with an optional error line, styled like TextField. */
import type { Ref, SelectHTMLAttributes } from 'react';

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  id: string;
  label: string;
  /** Shown under the select; marks it invalid. */
  error?: string;
  /** Marks the select invalid without a message of its own (the form shows one message). */
  invalid?: boolean;
  /** Classes of the wrapper, e.g. a grid column. */
  className?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** Renders `<label htmlFor>` + select (its options are the children) + error. */
export function SelectField({ id, label, error, invalid, className = '', ref, children, ...selectProps }: SelectFieldProps) {
  const errorId = `${id}-error`;
  const isInvalid = Boolean(error) || Boolean(invalid);
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        ref={ref}
        aria-invalid={isInvalid || undefined}
        aria-describedby={error ? errorId : undefined}
        className={`min-h-11 w-full min-w-0 rounded-lg border bg-white px-3 py-2 text-base text-slate-900 focus:outline-2 focus:outline-offset-0 disabled:bg-slate-100 disabled:text-slate-500 ${
          isInvalid ? 'border-red-500 focus:outline-red-500' : 'border-slate-300 focus:outline-blue-600'
        }`}
        {...selectProps}
      >
        {children}
      </select>
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
