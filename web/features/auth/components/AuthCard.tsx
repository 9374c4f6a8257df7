/** The centred card that frames the sign-in and sign-up forms. */
import type { ReactNode } from 'react';
import { Boxes } from 'lucide-react';

interface AuthCardProps {
  title: string;
  children: ReactNode;
}

/** Renders the app mark, the screen's heading and the form below it. */
export function AuthCard({ title, children }: AuthCardProps) {
  return (
    <main className="flex min-h-dvh items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="flex size-14 items-center justify-center rounded-2xl bg-blue-700 text-white">
            <Boxes className="size-8" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        </div>
        {children}
      </div>
    </main>
  );
}
