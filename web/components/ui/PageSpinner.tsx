/** The spinner shown in place of a screen while its data or the session loads. */
import { Spinner } from './Spinner';

/** Centres a large spinner in the available space. */
export function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] w-full items-center justify-center text-blue-700">
      <Spinner className="size-10" label="Loading" />
    </div>
  );
}
