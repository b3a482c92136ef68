// `npm run mail:test -- <address>` (scripts/mail-test.ts) as ops run it, a child process with the
// site's settings, against a real SMTP server in the test process: one that takes the e-mail,
// one that refuses every connection, and none at all.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { smtpServerName } from '../../server/mail/mail-test.ts';
import { startSmtp } from '../helpers/smtp.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs the script without blocking this process's event loop (the SMTP server lives in it). */
function mailTest(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'mail-test.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development', SMTP_URL: '', MAIL_FROM: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function smtpServer() {
  const smtp = await startSmtp();
  onTestFinished(() => smtp.stop());
  return smtp;
}

test('npm run mail:test sends one test e-mail through SMTP_URL from MAIL_FROM, and says the server checked out and took it', async () => {
  const smtp = await smtpServer();
  const run = await mailTest(['ops@example.com'], { SMTP_URL: smtp.url, MAIL_FROM: 'site@example.org', SITE_NAME: 'Acme' });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`The mail server ${smtpServerName(smtp.url)} answered the check`);
  expect(run.stdout).toContain('Sent a test e-mail from site@example.org to ops@example.com: the server took it (250');
  const [mail] = await smtp.waitFor(1);
  expect(mail!.envelope).toEqual({ from: 'site@example.org', to: ['ops@example.com'] });
  expect(mail!.subject).toBe('Test e-mail from Acme');
  expect(mail!.headers.get('auto-submitted')).toBe('auto-generated');
  expect(mail!.text).toContain('npm run mail:test');
});

test('npm run mail:test against a mail server that refuses says so with its reason and a likely cause, sends nothing and exits 1', async () => {
  const smtp = await smtpServer();
  smtp.refuseConnections(true);
  const run = await mailTest(['ops@example.com'], { SMTP_URL: smtp.url });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`The mail server ${smtpServerName(smtp.url)} did not answer the check:`);
  expect(run.stderr).toContain('421');
  expect(run.stderr).toContain('Likely:');
  expect(smtp.messages).toEqual([]);
});

test('npm run mail:test without SMTP_URL says nothing was sent and how to set it; without an address it shows its usage', async () => {
  const unset = await mailTest(['ops@example.com'], {});
  expect(unset.code).toBe(1);
  expect(unset.stderr).toContain('SMTP_URL is not set: nothing was sent.');
  expect(unset.stderr).toContain('SMTP_URL=smtps://user:password@smtp.example.com:465');
  const usage = await mailTest([], {});
  expect(usage.code).toBe(2);
  expect(usage.stdout).toContain('Usage: npm run mail:test -- <address>');
});

test("the server is named by its scheme, host and port, never with SMTP_URL's user or password", () => {
  expect(smtpServerName('smtps://user:s3cret@smtp.example.com:465')).toBe('smtps://smtp.example.com:465');
  expect(smtpServerName('smtp://user:s3cret@smtp.example.com')).toBe('smtp://smtp.example.com:587');
});
