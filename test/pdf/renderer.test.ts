// The layout thread and its queue: one document at a time, a short queue, a refusal (503)
// beyond it, each user's share of it (429 beyond), users served in turn, and a thread that dies
// or hangs replaced without taking the server along.
import { afterEach, expect, test } from 'vitest';
import type { PdfJob } from '../../server/pdf/jobs.ts';
import { PdfBusyError, pdfRenderer, PdfShareError, type PdfRenderer } from '../../server/pdf/renderer.ts';
import { pdfText } from './pdf-text.ts';
import { scaled } from '../helpers/time-scale.ts';

const ctx = { locale: 'en' as const, siteName: 'the product', brandColor: '#30B7BB', defaultColor: '#30B7BB' };
const profile = (userName: string): PdfJob => ({ kind: 'profile', user: { userName, name: 'Ana', lastName: 'Núñez', role: 'ORG' }, ctx });

const renderers: PdfRenderer[] = [];
function renderer(options: Parameters<typeof pdfRenderer>[0] = {}) {
  const made = pdfRenderer(options);
  renderers.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(renderers.splice(0).map((r) => r.close()));
});

test('makes the PDF in the layout thread, one document at a time, in the order asked', async () => {
  const pdfs = renderer();
  const finished: string[] = [];
  const jobs = ['ana', 'bea', 'carla'].map((name) =>
    pdfs.render(profile(name)).then((pdf) => {
      finished.push(name);
      return pdf;
    }),
  );
  // The first is being laid out, the other two wait.
  expect(pdfs.state()).toEqual({ running: true, waiting: 2, thread: true });
  const [first] = await Promise.all(jobs);
  expect(finished).toEqual(['ana', 'bea', 'carla']);
  expect(first!.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfText(first!)).toContain('User nameana');
  expect(pdfs.state()).toEqual({ running: false, waiting: 0, thread: true });
});

test('refuses at once, with the seconds to wait, a document beyond the queue', async () => {
  const pdfs = renderer({ maxWaiting: 1, retryAfterSeconds: 7 });
  const running = pdfs.render(profile('ana'));
  const waiting = pdfs.render(profile('bea'));
  const refused = pdfs.render(profile('carla'));
  await expect(refused).rejects.toBeInstanceOf(PdfBusyError);
  await expect(refused).rejects.toMatchObject({
    retryAfterSeconds: 7,
    message: 'Too many documents are being made: try again in 7 seconds',
  });
  await expect(Promise.all([running, waiting])).resolves.toHaveLength(2);
});

test("one user has at most their share of the queue: the next of theirs is refused (429's error) while another user's is taken", async () => {
  const pdfs = renderer({ perUser: 2, maxWaiting: 3, retryAfterSeconds: 4 });
  const mine = [pdfs.render(profile('ana'), { owner: 'ana' }), pdfs.render(profile('ana'), { owner: 'ana' })];
  const third = pdfs.render(profile('ana'), { owner: 'ana' });
  await expect(third).rejects.toBeInstanceOf(PdfShareError);
  await expect(third).rejects.toMatchObject({
    retryAfterSeconds: 4,
    message: 'You have 2 documents being made already: try again in 4 seconds, once one is done',
  });
  const theirs = pdfs.render(profile('bea'), { owner: 'bea' });
  expect(pdfText(await theirs)).toContain('User namebea');
  await Promise.all(mine);
  // Done, the share is free again.
  await expect(pdfs.render(profile('ana'), { owner: 'ana' })).resolves.toBeInstanceOf(Buffer);
});

test('the next document is the oldest of the user served least recently: users take turns, whoever asked first', async () => {
  const pdfs = renderer({ perUser: 3, maxWaiting: 10 });
  const finished: string[] = [];
  const ask = (owner: string, label: string) =>
    pdfs.render(profile(owner), { owner }).then(() => {
      finished.push(label);
    });
  await Promise.all([ask('ana', 'a1'), ask('ana', 'a2'), ask('ana', 'a3'), ask('bea', 'b1'), ask('bea', 'b2'), ask('carla', 'c1')]);
  expect(finished).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
});

test("two accounts that fill the queue do not starve an administrator's report: it is made, and the newest waiting job of theirs is refused (503's error)", async () => {
  const pdfs = renderer({ perUser: 2, maxWaiting: 3 });
  const mallory = [pdfs.render(profile('mallory'), { owner: 'mallory' }), pdfs.render(profile('mallory'), { owner: 'mallory' })];
  const trudy = [pdfs.render(profile('trudy'), { owner: 'trudy' }), pdfs.render(profile('trudy'), { owner: 'trudy' })];
  const report = pdfs.render(profile('staff'), { owner: 'staff', staff: true });
  await expect(trudy[1]).rejects.toBeInstanceOf(PdfBusyError);
  expect(pdfText(await report)).toContain('User namestaff');
  await expect(Promise.all([...mallory, trudy[0]])).resolves.toHaveLength(3);
});

test("a document given up while waiting frees its place in its user's share", async () => {
  const pdfs = renderer({ perUser: 2 });
  const running = pdfs.render(profile('ana'), { owner: 'ana' });
  const gone = new AbortController();
  const waiting = pdfs.render(profile('ana'), { owner: 'ana', signal: gone.signal });
  gone.abort(new Error('client went away'));
  await expect(waiting).rejects.toThrow('client went away');
  await expect(pdfs.render(profile('ana'), { owner: 'ana' })).resolves.toBeInstanceOf(Buffer);
  await running;
});

test('a request whose client has gone stops waiting and frees its place', async () => {
  const pdfs = renderer({ maxWaiting: 1 });
  const running = pdfs.render(profile('ana'));
  const gone = new AbortController();
  const waiting = pdfs.render(profile('bea'), { signal: gone.signal });
  gone.abort(new Error('client went away'));
  await expect(waiting).rejects.toThrow('client went away');
  expect(pdfs.state().waiting).toBe(0);
  await expect(pdfs.render(profile('carla'))).resolves.toBeInstanceOf(Buffer);
  await running;
});

test('a job that fails fails alone: the thread goes on with the next document', async () => {
  const pdfs = renderer();
  const broken = pdfs.render({ kind: 'nonsense' } as unknown as PdfJob);
  const next = pdfs.render(profile('ana'));
  await expect(broken).rejects.toThrow('The PDF could not be laid out');
  expect(pdfText(await next)).toContain('User nameana');
});

test(
  'a document that runs the thread out of memory fails alone: the process lives, the next document gets a new thread',
  async () => {
    // 40 MB: enough for pdfmake and a profile, not for 50 messages of 2,500 lines each.
    const pdfs = renderer({ heapMb: 40 });
    const message = { id: 1, name: 'N', email: 'n@example.com', subject: 'S', createdAt: '2026-11-20T15:30:00.000Z', read: false };
    const messages = Array.from({ length: 50 }, (_, id) => ({ ...message, id, message: 'a\n'.repeat(2500) }));
    const tooBig = pdfs.render({ kind: 'messages', messages, ctx });
    const next = pdfs.render(profile('ana'));
    await expect(tooBig).rejects.toThrow(/memory limit/);
    expect(pdfText(await next)).toContain('User nameana');
  },
  scaled(30_000),
);

test('without its thread (a deploy that lost pdf-worker.js) each document fails alone and the process lives', async () => {
  const pdfs = renderer({ workerUrl: new URL('./no-such-worker.js', import.meta.url) });
  await expect(Promise.all([pdfs.render(profile('ana')), pdfs.render(profile('bea'))])).rejects.toThrow();
  await expect(pdfs.render(profile('carla'))).rejects.toThrow();
  expect(pdfs.state()).toEqual({ running: false, waiting: 0, thread: false });
});

test('a document that takes longer than the time limit is abandoned and its thread replaced', async () => {
  const pdfs = renderer({ timeoutMs: 1 });
  await expect(pdfs.render(profile('ana'))).rejects.toThrow('The PDF took longer than 1 ms to lay out and was abandoned');
  expect(pdfs.state().thread).toBe(false);
});

test('an idle thread is stopped, and started again for the next document', async () => {
  const pdfs = renderer({ idleMs: 50 });
  await pdfs.render(profile('ana'));
  expect(pdfs.state().thread).toBe(true);
  await expect.poll(() => pdfs.state().thread, { timeout: scaled(5_000), interval: 10 }).toBe(false);
  expect(pdfText(await pdfs.render(profile('bea')))).toContain('User namebea');
});
