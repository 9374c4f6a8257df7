/**
 * The company's service level on the Forecast screen (docs/product.md "Screens: Forecast"): a
 * select of SERVICE_LEVELS with the sentence that says what it means; admins change it, everyone
 * else sees it with the reason they cannot.
 */
import { SERVICE_LEVELS } from '../../../../common/contracts/forecast';
import { SelectField } from '../../../components/ui/SelectField';
import { usePermission } from '../../../lib/use-permission';
import { useSetServiceLevel } from '../api/set-service-level';
import { serviceLevelMeaning } from '../forecast-text';

/** Renders the choice at `level` (percent), the company's level as the forecast answered it. */
export function ServiceLevelChoice({ level }: { level: number }) {
  const permission = usePermission('serviceLevel');
  const setLevel = useSetServiceLevel();
  const shown = setLevel.isPending ? setLevel.variables : level;
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-center sm:gap-4" data-testid="service-level">
      <SelectField
        id="service-level"
        label="Service level"
        className="sm:w-40 sm:shrink-0"
        value={shown}
        disabled={!permission.allowed || setLevel.isPending}
        aria-describedby="service-level-meaning"
        onChange={(event) => setLevel.mutate(Number(event.target.value))}
      >
        {SERVICE_LEVELS.map((option) => (
          <option key={option} value={option}>{`${option} %`}</option>
        ))}
      </SelectField>
      <p id="service-level-meaning" className="text-sm text-slate-600">
        {serviceLevelMeaning(shown)}
        {permission.reason ? ` ${permission.reason}` : ''}
      </p>
    </div>
  );
}
