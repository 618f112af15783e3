/**
 * Memcached text protocol: `version` → `VERSION 1.6.21`, then the read-only `stats`: a
 * server that lists its statistics to a client that did not authenticate lets anyone read
 * (and write) its cache. Nothing is stored or read from the cache itself.
 */
import { compact, type ClientFirstProbe } from './probe.ts';

export const memcached: ClientFirstProbe = {
  name: 'memcached',
  async run(session, context) {
    session.write('version\r\n');
    const reply = (await session.read((data) => data.includes('\r\n'), context.replyWaitMs)).toString(
      'latin1',
    );
    const match = /^VERSION (\S+)\r\n/.exec(reply);
    if (!match) return null;
    session.write('stats\r\n');
    const stats = (
      await session.read(
        (data) => /(?:^|\r\n)(END|ERROR|CLIENT_ERROR[^\r]*)\r\n$/.test(data.toString('latin1')),
        context.replyWaitMs,
      )
    ).toString('latin1');
    const stat = (name: string): string | undefined =>
      new RegExp(`^STAT ${name} (\\S+)\\r$`, 'm').exec(stats)?.[1];
    const open = /^STAT /m.test(stats) && /END\r\n$/.test(stats);
    session.write('quit\r\n');
    return compact({
      service: 'memcached' as const,
      product: 'memcached',
      version: match[1],
      banner: `VERSION ${match[1]}`,
      anonymousAccess: open,
      details: compact({
        curr_items: stat('curr_items'),
        curr_connections: stat('curr_connections'),
        uptime: stat('uptime'),
      }),
    });
  },
};
