/**
 * The findings filter, sorts and the query pieces built from them now live in
 * the findings repository (findings.repository.ts), beside the queries that use
 * them; the filter input itself is parsed and validated by the route schemas
 * (schemas/findings.ts). Re-exported here for the benchmark and tests that
 * import them from this module.
 */
export {
  applyAfter,
  applyFilter,
  applyOrder,
  selectColumns,
  sortColumns,
  type FindingFilter,
  type FindingSort,
  type SortOrder,
} from './findings.repository.ts';
