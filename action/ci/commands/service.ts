import { fromVariable, stringOptions, type OptionGroup } from './group.ts';

/** How to reach the Scanward service and sign in: `--api-url`, `--api-key`, `--token`, `--id-token-env`. */
export const serviceOptions: OptionGroup = {
  options: stringOptions('api-url', 'api-key', 'token', 'id-token-env'),
  help: `  --api-url URL                Scanward service address        (SCANWARD_API_URL; required
                               except with --local)
  --api-key KEY                API key; prefer the variable    (SCANWARD_API_KEY)
  --token TOKEN                bearer token instead of a key   (SCANWARD_TOKEN)
  --id-token-env VAR           sign in with the CI's OpenID ID token in the
                               variable VAR (GitLab id_tokens:), no stored key
                               (SCANWARD_ID_TOKEN_ENV)
`,
  // The ID token itself, read from the variable --id-token-env names (never a flag: it is a secret).
  input: (name, _values, env, get) =>
    name === 'id-token' ? fromVariable(get('id-token-env'), env) : undefined,
};
