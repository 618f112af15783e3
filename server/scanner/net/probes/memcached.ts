/** Memcached text protocol: `version` → `VERSION 1.6.21`. Nothing is stored or read. */
import type { ClientFirstProbe } from './probe.ts';

export const memcached: ClientFirstProbe = {
  name: 'memcached',
  async run(session, context) {
    session.write('version\r\n');
    const reply = (await session.read((data) => data.includes('\r\n'), context.replyWaitMs)).toString(
      'latin1',
    );
    const match = /^VERSION (\S+)\r\n/.exec(reply);
    if (!match) return null;
    session.write('quit\r\n');
    return { service: 'memcached', product: 'memcached', version: match[1], banner: `VERSION ${match[1]}` };
  },
};
