/**
 * The Action's own version (package.json's, kept equal by a unit test). It is
 * the SARIF tool version when the service does not say its own.
 */
export const ACTION_VERSION = '0.1.0';
