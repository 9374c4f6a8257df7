/** A labelled text input with an optional error line, wired for screen readers. */
import type { InputHTMLAttributes, Ref } from 'react';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  /** Shown under the input; marks the input invalid. */
  error?: string;
  /** Marks the input invalid without a message of its own (the form shows one message). */
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** Renders `<label htmlFor>` + input + error; extra props go to the input. */
export function TextField({ id, label, error, invalid, className = '', ref, ...inputProps }: TextFieldProps) {
  const errorId = `${id}-error`;
  const isInvalid = Boolean(error) || Boolean(invalid);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        aria-invalid={isInvalid || undefined}
        aria-describedby={error ? errorId : undefined}
        className={`min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 disabled:bg-slate-100 disabled:text-slate-500 ${
          isInvalid ? 'border-red-500 focus:outline-red-500' : 'border-slate-300 focus:outline-blue-600'
        }`}
        {...inputProps}
      />
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
