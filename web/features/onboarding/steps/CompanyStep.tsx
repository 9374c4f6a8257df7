/** Onboarding step 1, Company: the company name, which creates the tenant and starts the trial. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { CompanyStepBody } from '../../../../common/contracts/onboarding';
import { TextField } from '../../../components/ui/TextField';
import { useMe } from '../../../lib/queries/get-me';
import { useSaveCompany } from '../api/save-company';
import { StepActions } from '../components/StepActions';
import { StepCard } from '../components/StepCard';
import { companyDraft, companyForm, type CompanyDraft } from '../forms';
import { useDraftAutosave } from '../use-draft-autosave';

interface CompanyStepProps {
  draft: CompanyDraft;
  onDraftChange: (draft: CompanyDraft) => void;
  /** True once the server has the company; its name can then no longer be changed here. */
  companyExists: boolean;
  onDone: (saved: CompanyStepBody) => void;
}

/** Shown when the company was created earlier: its name, read-only, and Continue. */
function ExistingCompany({ fallbackName, onDone }: { fallbackName: string; onDone: CompanyStepProps['onDone'] }) {
  const { data: me } = useMe();
  const name = me?.tenant?.name ?? fallbackName;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onDone({ company_name: name });
      }}
    >
      <TextField id="company-name" label="Company Name" value={name} disabled readOnly />
      <StepActions isLast={false} isBusy={false} />
    </form>
  );
}

function NewCompany({ draft, onDraftChange, onDone }: Omit<CompanyStepProps, 'companyExists'>) {
  const save = useSaveCompany();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<CompanyDraft, unknown, CompanyStepBody>({ resolver: zodResolver(companyForm), defaultValues: draft });
  useDraftAutosave(watch, companyDraft, onDraftChange);

  const onSubmit = handleSubmit((body) => save.mutate(body, { onSuccess: () => onDone(body) }));

  return (
    <form onSubmit={onSubmit} noValidate>
      <TextField
        id="company-name"
        label="Company Name"
        autoComplete="organization"
        placeholder="e.g. Seaside Rentals"
        maxLength={MAX_TEXT_LENGTH}
        error={errors.company_name?.message}
        {...register('company_name')}
      />
      <StepActions isLast={false} isBusy={save.isPending} />
    </form>
  );
}

/** The company step. */
export function CompanyStep({ companyExists, ...props }: CompanyStepProps) {
  return (
    <StepCard title="Company details" intro="Enter the name of your company.">
      {companyExists ? <ExistingCompany fallbackName={props.draft.company_name} onDone={props.onDone} /> : <NewCompany {...props} />}
    </StepCard>
  );
}
