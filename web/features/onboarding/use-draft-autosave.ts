/** Hands every change of an onboarding form to the wizard, so a reload keeps what was typed. */
import { useEffect, useEffectEvent } from 'react';
import type { FieldValues, UseFormWatch } from 'react-hook-form';
import type { z } from 'zod';

/**
 * Subscribes to the form's changes (typing, rows added or removed) and calls `onChange` with the
 * complete values, checked against `draftSchema`.
 */
export function useDraftAutosave<T extends FieldValues>(
  watch: UseFormWatch<T>,
  draftSchema: z.ZodType<T>,
  onChange: (draft: T) => void,
): void {
  const emit = useEffectEvent((values: unknown) => {
    const parsed = draftSchema.safeParse(values);
    if (parsed.success) onChange(parsed.data);
  });

  useEffect(() => {
    const subscription = watch((values) => emit(values));
    return () => subscription.unsubscribe();
  }, [watch]);
}
