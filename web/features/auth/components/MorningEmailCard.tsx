/**
 * The Account screen's "Morning email" card (docs/product.md "Daily email"): the member's switch,
 * what the email holds and when it goes out in the company's time zone, and the company's time
 * zone, which admins and owners change there and members see read-only.
 */
import { useState } from 'react';
import type { DailyEmailSetting } from '../../../../common/contracts/daily-email';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { LoadError } from '../../../components/ui/LoadError';
import { SelectField } from '../../../components/ui/SelectField';
import { Spinner } from '../../../components/ui/Spinner';
import { usePermission } from '../../../lib/use-permission';
import { useDailyEmail, useSetCompanyTimeZone, useSetDailyEmail } from '../api/daily-email';

/** The time zones this browser knows, with `current` first among them when it is not listed (e.g. 'UTC'). */
function timeZones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

/** "7:00" for the hour 7. */
const clock = (hour: number) => `${hour}:00`;

function CompanyTimeZone({ setting }: { setting: DailyEmailSetting }) {
  const { allowed, reason } = usePermission('setup');
  const save = useSetCompanyTimeZone();
  const [zone, setZone] = useState(setting.time_zone);
  if (!allowed) {
    return (
      <div className="flex flex-col gap-1">
        <p className="text-sm font-medium text-slate-700">Company time zone</p>
        <p className="text-base text-slate-900">{setting.time_zone}</p>
        {reason && <p className="text-sm text-slate-600">{reason}</p>}
      </div>
    );
  }
  return (
    <form
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(zone);
      }}
    >
      <SelectField id="company-time-zone" label="Company time zone" value={zone} onChange={(event) => setZone(event.target.value)} className="sm:flex-1">
        {timeZones(setting.time_zone).map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary" isBusy={save.isPending} disabled={zone === setting.time_zone}>
        Save Time Zone
      </Button>
    </form>
  );
}

/** The card; loads the setting itself. */
export function MorningEmailCard() {
  const setting = useDailyEmail();
  const toggle = useSetDailyEmail();
  return (
    <Card className="max-w-lg p-4 sm:p-6" aria-labelledby="morning-email-title">
      <h2 id="morning-email-title" className="mb-4 text-lg font-semibold text-slate-900">
        Morning email
      </h2>
      {setting.isPending ? (
        <Spinner className="size-6" label="Loading the morning email setting" />
      ) : setting.isError ? (
        <LoadError onRetry={() => void setting.refetch()} />
      ) : (
        <div className="flex flex-col gap-5">
          <div className="flex items-start justify-between gap-4">
            <p id="morning-email-description" className="text-base text-slate-700">
              Tomorrow&apos;s arrivals, each storage&apos;s pick list for tomorrow and what is critical now, sent around{' '}
              {clock(setting.data.send_hour)}, {setting.data.time_zone} time.
            </p>
            <button
              type="button"
              role="switch"
              aria-checked={setting.data.enabled}
              aria-labelledby="morning-email-title"
              aria-describedby="morning-email-description"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate(!setting.data.enabled)}
              className={`relative inline-flex h-11 w-14 shrink-0 items-center rounded-full border-y-[6px] border-transparent bg-clip-padding transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-60 ${
                setting.data.enabled ? 'bg-blue-700' : 'bg-slate-300'
              }`}
            >
              <span className={`inline-block size-6 rounded-full bg-white shadow transition-transform ${setting.data.enabled ? 'translate-x-7' : 'translate-x-1'}`} />
            </button>
          </div>
          <CompanyTimeZone key={setting.data.time_zone} setting={setting.data} />
        </div>
      )}
    </Card>
  );
}
