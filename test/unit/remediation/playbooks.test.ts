import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { getPlaybook, listPlaybooks, PLAYBOOK_IDS } from '../../../server/remediation/playbooks/index.ts';

const run = promisify(execFile);
const PLAYBOOK_DIR = fileURLToPath(new URL('../../../server/remediation/playbooks/', import.meta.url));

type Task = Record<string, unknown> & { name?: string; block?: Task[]; rescue?: Task[]; always?: Task[] };
interface Play {
  name: string;
  hosts: string;
  become?: boolean;
  tasks: Task[];
  handlers?: Task[];
}

const TASK_KEYWORDS = new Set([
  'name',
  'when',
  'register',
  'notify',
  'become',
  'become_user',
  'changed_when',
  'failed_when',
  'no_log',
  'loop',
  'loop_control',
  'vars',
  'environment',
  'retries',
  'delay',
  'until',
  'block',
  'rescue',
  'always',
]);

function flatten(tasks: Task[]): Task[] {
  return tasks.flatMap((t) =>
    t.block ? [...flatten(t.block), ...flatten(t.rescue ?? []), ...flatten(t.always ?? [])] : [t],
  );
}

function moduleOf(task: Task): string[] {
  return Object.keys(task).filter((key) => !TASK_KEYWORDS.has(key));
}

const ansible = await run('ansible-playbook', ['--version']).then(
  () => true,
  () => false,
);
if (!ansible)
  console.warn(
    'skipping ansible-playbook --syntax-check: ansible-playbook is not installed (apt-get install ansible-core)',
  );

describe('playbooks', () => {
  it('are the four documented playbooks', () => {
    expect([...PLAYBOOK_IDS].sort()).toEqual([
      'pb_postgres_scram',
      'pb_redis_requirepass',
      'pb_tls_disable_legacy',
      'pb_web_security_headers',
    ]);
    expect(listPlaybooks().map((p) => p.id)).toEqual(PLAYBOOK_IDS);
  });

  it.each(PLAYBOOK_IDS)('%s is served with its title, description and YAML file content', (id) => {
    const playbook = getPlaybook(id);
    expect(playbook?.title.length).toBeGreaterThan(10);
    expect(playbook?.description.length).toBeGreaterThan(40);
    expect(playbook?.content).toBe(readFileSync(join(PLAYBOOK_DIR, `${id}.yml`), 'utf8'));
  });

  it('answers undefined for an unknown or path-like id', () => {
    expect(getPlaybook('pb_nope')).toBeUndefined();
    expect(getPlaybook('../index')).toBeUndefined();
    expect(getPlaybook('toString')).toBeUndefined();
  });

  it.each(PLAYBOOK_IDS)(
    '%s parses as a play with named tasks that each call one fully-qualified module',
    (id) => {
      const plays = parse(getPlaybook(id)?.content ?? '') as Play[];
      expect(Array.isArray(plays)).toBe(true);
      expect(plays).toHaveLength(1);
      const play = plays[0] as Play;
      expect(play.name).toBeTruthy();
      expect(play.hosts).toContain('target_hosts');
      expect(play.become).toBe(true);
      expect(play.tasks.length).toBeGreaterThan(2);

      const tasks = flatten([...play.tasks, ...(play.handlers ?? [])]);
      for (const task of tasks) {
        expect(task.name, JSON.stringify(task)).toBeTruthy();
        const modules = moduleOf(task);
        expect(modules, task.name).toHaveLength(1);
        expect(modules[0], task.name).toMatch(/^ansible\.builtin\.[a-z_]+$/);
      }

      const handlerNames = new Set((play.handlers ?? []).map((h) => h.name));
      const notified = tasks.flatMap((t) => (t.notify === undefined ? [] : [t.notify].flat()));
      for (const name of notified) expect(handlerNames, `notify: ${String(name)}`).toContain(name);
    },
  );

  it('never logs the Redis password', () => {
    const plays = parse(getPlaybook('pb_redis_requirepass')?.content ?? '') as Play[];
    const usesPassword = flatten(plays[0]?.tasks ?? []).filter((t) => {
      const { when: _when, ...rest } = t;
      return JSON.stringify(rest).includes('redis_password }}');
    });
    expect(usesPassword.length).toBeGreaterThan(0);
    for (const task of usesPassword) expect(task.no_log, task.name).toBe(true);
  });

  it.skipIf(!ansible)('all pass ansible-playbook --syntax-check', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ansible-'));
    const files = PLAYBOOK_IDS.map((id) => join(PLAYBOOK_DIR, `${id}.yml`));
    const { stdout } = await run('ansible-playbook', ['--syntax-check', '-i', 'localhost,', ...files], {
      env: { ...process.env, HOME: home, ANSIBLE_LOCAL_TEMP: join(home, 'tmp'), ANSIBLE_NOCOLOR: '1' },
      timeout: 120_000,
    });
    for (const file of files) expect(stdout).toContain(`playbook: ${file}`);
  });
});
