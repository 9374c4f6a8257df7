/** A screen that is in the menu but not built yet: its title, subtitle and a plain notice. */
import type { ReactNode } from 'react';
import { NotAvailableNotice } from './NotAvailableNotice';
import { PageHeader } from './PageHeader';

interface PlaceholderScreenProps {
  title: string;
  subtitle?: string;
  /** Real content that can already be shown above the notice. */
  children?: ReactNode;
}

/** Renders the header, any `children`, and the "not available yet" notice. */
export function PlaceholderScreen({ title, subtitle, children }: PlaceholderScreenProps) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <div className="flex flex-col gap-6">
        {children}
        <NotAvailableNotice />
      </div>
    </>
  );
}
