/** The frame of one onboarding step: heading, intro and the step's form. */
import type { ReactNode } from 'react';

interface StepCardProps {
  title: string;
  intro: string;
  children: ReactNode;
}

/** Renders the step's card. */
export function StepCard({ title, intro, children }: StepCardProps) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <p className="mt-1 mb-6 text-base text-slate-600">{intro}</p>
      {children}
    </section>
  );
}
