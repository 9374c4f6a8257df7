/** A white panel with a border, the building block of most screens. */
import type { HTMLAttributes } from 'react';

/** Renders a card container; extra props go to the element. */
export function Card({ className = '', ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={`rounded-xl border border-slate-200 bg-white shadow-sm ${className}`} {...rest} />;
}
