/** A square icon-only button with a 44 px touch target; `label` names it for screen readers. */
import type { ButtonHTMLAttributes } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Spinner } from './Spinner';

export type IconButtonTone = 'neutral' | 'danger' | 'primary';

const toneClasses: Record<IconButtonTone, string> = {
  neutral: 'text-slate-600 hover:bg-slate-100 disabled:text-slate-300',
  danger: 'text-red-600 hover:bg-red-50 disabled:text-red-200',
  primary: 'text-blue-700 hover:bg-blue-50 disabled:text-blue-200',
};

interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  icon: LucideIcon;
  label: string;
  tone?: IconButtonTone;
  /** Draws a border, for buttons that sit in a row of controls (the quantity steppers). */
  outlined?: boolean;
  isBusy?: boolean;
}

/** Renders the button; disabled while busy. */
export function IconButton({ icon: Icon, label, tone = 'neutral', outlined = false, isBusy = false, className = '', disabled, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled || isBusy}
      aria-busy={isBusy || undefined}
      className={`flex size-11 shrink-0 items-center justify-center rounded-lg transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:hover:bg-transparent ${
        outlined ? 'border border-slate-300 bg-white' : ''
      } ${toneClasses[tone]} ${className}`}
      {...rest}
    >
      {isBusy ? <Spinner className="size-5" /> : <Icon className="size-5" aria-hidden="true" />}
    </button>
  );
}
