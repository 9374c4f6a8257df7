/** A list's search box: a magnifier, the phone's search keyboard, a label for screen readers. */
import { useId } from 'react';
import { Search } from 'lucide-react';

interface SearchFieldProps {
  /** The label screen readers announce ('Search units'); not shown. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/** Renders the box; `onChange` gets the text as typed. */
export function SearchField({ label, placeholder, value, onChange, className = '' }: SearchFieldProps) {
  const id = useId();
  return (
    <div className={`relative ${className}`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className="min-h-12 w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-400 focus:outline-2 focus:outline-blue-600"
      />
    </div>
  );
}
