#!/usr/bin/env node
// The `scanward` operator command line from a checkout: runs the TypeScript
// entry through tsx, in this process, so exit codes and signals pass straight through.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli/main.ts');
