/**
 * The caller's type moved to http/principal.ts (http/ carries it and must not import
 * auth/). Kept so modules outside auth/ that still import it from here compile.
 */
export type { Principal, PrincipalUser } from '../http/principal.ts';
