import { vocabulary } from '../src/api/vocabulary';

/**
 * Compile-time proof (`npm run typecheck` runs `tsc -p console` over this file) that a
 * vocabulary cannot come loose from the schema type it names: each line below must fail to
 * compile, or tsc reports the unused `@ts-expect-error`.
 */

type Made = 'open' | 'closed';

// @ts-expect-error the schema has a value that has no words (a new enum value)
vocabulary<Made>({ open: 'Open' });

// @ts-expect-error words for a value the schema does not have (a dropped enum value)
vocabulary<Made>({ open: 'Open', closed: 'Closed', gone: 'Gone' });

// @ts-expect-error no schema type named, so nothing ties the words to the schema
vocabulary({ open: 'Open' });

export const complete = vocabulary<Made>({ open: 'Open', closed: 'Closed' });
