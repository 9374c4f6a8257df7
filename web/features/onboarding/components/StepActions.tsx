/**
 * Continue (or 'Complete Setup' on the last step), Back to the step before when there is one to
 * reopen (what was typed is kept as a draft), and Sign Out, under every onboarding step.
 */
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';

interface StepActionsProps {
  isLast: boolean;
  isBusy: boolean;
  /** The path of the step before, which Back reopens; no Back without it. */
  backTo?: string;
}

/** Renders the step's submit button, Back when `backTo` is given, and the sign-out button. */
export function StepActions({ isLast, isBusy, backTo }: StepActionsProps) {
  const navigate = useNavigate();
  return (
    <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
      <Button variant="secondary" onClick={() => navigate('/signout')}>
        Sign Out
      </Button>
      <div className="flex flex-col-reverse gap-3 sm:flex-row">
        {backTo && (
          <Button variant="secondary" onClick={() => navigate(backTo)}>
            Back
          </Button>
        )}
        <Button type="submit" isBusy={isBusy}>
          {isLast ? 'Complete Setup' : 'Continue'}
        </Button>
      </div>
    </div>
  );
}
