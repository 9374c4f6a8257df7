/** The onboarding progress indicator: Company, Items, Storage, Properties (docs/product.md "Screens: Onboarding"). */
import { Check } from 'lucide-react';
import { onboardingSteps, type OnboardingStep } from '../../../../common/contracts/onboarding-status';
import type { CompletedSteps } from '../step-access';

/** The label of each step as users see it. */
export const stepLabels: Record<OnboardingStep, string> = {
  company: 'Company',
  items: 'Items',
  garage: 'Storage',
  units: 'Properties',
};

interface ProgressStepsProps {
  current: OnboardingStep;
  completed: CompletedSteps;
}

/** Renders the four steps, highlighting the current one and marking completed ones. */
export function ProgressSteps({ current, completed }: ProgressStepsProps) {
  return (
    <nav aria-label="Setup progress" className="mb-6">
      <ol className="grid grid-cols-4 gap-2">
        {onboardingSteps.map((step, index) => {
          const isCurrent = step === current;
          const isDone = completed.has(step) && !isCurrent;
          const circle = isCurrent
            ? 'bg-blue-700 text-white ring-4 ring-blue-200'
            : isDone
              ? 'bg-green-600 text-white'
              : 'bg-slate-200 text-slate-600';
          return (
            <li
              key={step}
              aria-current={isCurrent ? 'step' : undefined}
              data-state={isCurrent ? 'current' : isDone ? 'completed' : 'upcoming'}
              className="flex flex-col items-center gap-2 text-center"
            >
              <span className={`flex size-10 items-center justify-center rounded-full text-base font-semibold ${circle}`}>
                {isDone ? <Check className="size-5" aria-label="Completed" /> : index + 1}
              </span>
              <span className={`text-sm ${isCurrent ? 'font-semibold text-blue-800' : isDone ? 'text-green-800' : 'text-slate-500'}`}>
                {stepLabels[step]}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
