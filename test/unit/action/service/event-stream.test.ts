import { describe, expect, it } from 'vitest';
import {
  EventStreamParser,
  scanEventOf,
  withEvent,
  type ServerSentEvent,
} from '../../../../action/service/event-stream.ts';
import { scanRecord } from '../../../fixtures/action-verdicts.ts';

const frame = (id: number, type: string, data: Record<string, unknown>) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ type, timestamp: '2026-11-26T00:00:00.000Z', data })}\n\n`;

describe('the event stream parser', () => {
  it('reads the service’s frames however the bytes are split, skipping heartbeats', () => {
    const text = `retry: 3000\n\n${frame(7, 'scan.started', { id: 'scan_a' })}: heartbeat\n\n${frame(8, 'scan.progress', { id: 'scan_a', progress: 40 })}`;
    const whole = new EventStreamParser().push(text);
    expect(whole.map((e) => [e.event, e.lastEventId])).toEqual([
      ['scan.started', '7'],
      ['scan.progress', '8'],
    ]);
    // Every split point, one character at a time: the same events.
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new EventStreamParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(events, `cut at ${cut}`).toEqual(whole);
      expect(parser.retry).toBe(3000);
    }
  });

  it('takes CRLF and CR line ends, a CRLF split across chunks, and joins data lines', () => {
    const parser = new EventStreamParser();
    const events = [
      ...parser.push('id: 1\r\nevent: a\r\ndata: one\r'),
      ...parser.push('\ndata: two\r\n\r'),
      ...parser.push('\nid: 2\rdata:three\r\r'),
    ];
    expect(events).toEqual<ServerSentEvent[]>([
      { event: 'a', data: 'one\ntwo', lastEventId: '1' },
      { event: 'message', data: 'three', lastEventId: '2' },
    ]);
  });

  it('keeps the last id across events and dispatches nothing for a frame without data', () => {
    const parser = new EventStreamParser();
    expect(parser.push('id: 5\nevent: scan.progress\n\n')).toEqual([]);
    expect(parser.lastEventId).toBe('5');
    expect(parser.push('data: x\n\n')).toEqual([{ event: 'message', data: 'x', lastEventId: '5' }]);
    // An id with a NUL is ignored; a retry that is not digits too.
    parser.push('id: 6\0\nretry: soon\n\n');
    expect(parser.lastEventId).toBe('5');
    expect(parser.retry).toBeUndefined();
    // An incomplete frame is not dispatched until its blank line arrives.
    expect(parser.push('id: 9\ndata: half')).toEqual([]);
    expect(parser.push('\n\n')).toEqual([{ event: 'message', data: 'half', lastEventId: '9' }]);
  });
});

describe('picking the followed scan’s events', () => {
  const parse = (text: string) => new EventStreamParser().push(text);

  it('answers the scan events of the scan and nothing else', () => {
    const [ours, other, finding, progress] = parse(
      frame(1, 'scan.completed', { id: 'scan_a', status: 'completed' }) +
        frame(2, 'scan.completed', { id: 'scan_b', status: 'completed' }) +
        frame(3, 'vulnerability.found', { id: 'find_1', scan_id: 'scan_a' }) +
        frame(4, 'scan.progress', { id: 'scan_a', progress: 40 }),
    );
    expect(scanEventOf(ours!, 'scan_a')).toEqual({
      type: 'scan.completed',
      scan: { id: 'scan_a', status: 'completed' },
    });
    expect(scanEventOf(other!, 'scan_a')).toBeUndefined();
    expect(scanEventOf(finding!, 'scan_a')).toBeUndefined();
    expect(scanEventOf(progress!, 'scan_a')?.type).toBe('scan.progress');
    expect(
      scanEventOf({ event: 'scan.progress', data: 'not json', lastEventId: '5' }, 'scan_a'),
    ).toBeUndefined();
    expect(
      scanEventOf({ event: 'scan.progress', data: '{"data":null}', lastEventId: '5' }, 'scan_a'),
    ).toBeUndefined();
  });

  it('moves the scan’s state forward with each event, never its progress back', () => {
    const pending = {
      ...scanRecord(),
      status: 'pending',
      progress: 0,
      phase: 'discovery',
      current_tool: undefined,
    };
    const started = withEvent(pending, {
      id: 'scan_abc',
      status: 'running',
      progress: 0,
      phase: 'discovery',
    });
    expect(started).toMatchObject({ status: 'running', progress: 0, phase: 'discovery' });
    const tooled = withEvent(started, {
      status: 'running',
      progress: 40,
      phase: 'web_analysis',
      current_tool: 'nuclei',
    });
    expect(tooled).toMatchObject({ progress: 40, phase: 'web_analysis', current_tool: 'nuclei' });
    // An older event arriving after a newer read changes nothing.
    expect(withEvent(tooled, { status: 'running', progress: 20, phase: 'discovery' })).toBe(tooled);
    // A phase done clears the tool.
    expect(
      withEvent(tooled, { status: 'running', progress: 60, phase: 'reporting', current_tool: null })
        .current_tool,
    ).toBeUndefined();
  });
});
