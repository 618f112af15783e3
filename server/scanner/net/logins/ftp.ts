/**
 * FTP: one anonymous login (`USER anonymous`, `PASS anonymous@`, the convention of RFC 1635)
 * and, when it is accepted, the harmless reads `SYST` and `PWD`; then `QUIT`. No file is
 * listed, read or written.
 */
import { MessageReader, openLoginSession, type LoginResult, type LoginTarget } from './session.ts';

/** The last line of a whole reply is `NNN text`. */
const whole = (text: string): boolean => /(?:^|\n)\d{3}(?: [^\n]*)?\r?\n$/.test(text);
const code = (reply: string): number => Number(/(?:^|\n)(\d{3})(?: [^\n]*)?\r?\n$/.exec(reply)?.[1] ?? 0);
const tidy = (reply: string): string => reply.trim().replace(/\r?\n/g, ' | ');

export async function ftpAnonymousLogin(target: LoginTarget): Promise<LoginResult> {
  const session = await openLoginSession(target);
  const reader = new MessageReader(session);
  const request: string[] = [];
  const response: string[] = [];
  const say = async (line: string, shown = line): Promise<string> => {
    request.push(shown);
    session.write(`${line}\r\n`);
    const reply = await reader.lines(whole);
    response.push(`${shown.split(' ')[0]} → ${tidy(reply)}`);
    return reply;
  };
  try {
    const greeting = await reader.lines(whole);
    response.push(`greeting → ${tidy(greeting)}`);
    if (code(greeting) !== 220) return { accepted: false, request: '', response: response.join('\n') };
    let reply = await say('USER anonymous');
    if (code(reply) === 331)
      reply = await say('PASS anonymous@', 'PASS anonymous@ (the anonymous convention)');
    const accepted = code(reply) === 230;
    if (accepted) {
      await say('SYST');
      await say('PWD');
    }
    request.push('QUIT');
    session.write('QUIT\r\n');
    return { accepted, request: request.join('\n'), response: response.join('\n') };
  } finally {
    session.close();
  }
}
