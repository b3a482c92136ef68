// `npm run mail:test -- <address>`: checks the mail server of SMTP_URL (connection, TLS,
// sign-in) and sends one test e-mail to the address at once, from MAIL_FROM, with the site's
// settings; says what the server answered and, when it refused, the likely cause. Exit 0 when
// the server took the e-mail, 1 when not, 2 for a wrong command line (server/mail/mail-test.ts).
import { ConfigError, loadConfig } from '../server/base/config.ts';
import { sendTestMail } from '../server/mail/mail-test.ts';

const USAGE = `Usage: npm run mail:test -- <address>
Sends one test e-mail to <address> through SMTP_URL, from MAIL_FROM, and says what the mail server answered.`;

const args = process.argv.slice(2);
if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
  console.log(USAGE);
  process.exit(args.length === 1 ? 0 : 2);
}
try {
  const report = await sendTestMail(loadConfig(), args[0]!);
  for (const line of report.lines) (report.ok ? console.log : console.error)(line);
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `The test e-mail could not be sent: ${(error as Error).message}`);
  process.exitCode = 1;
}
