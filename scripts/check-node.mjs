// Runs before every npm script that runs TypeScript (the pre* hooks in package.json). Plain
// JavaScript on purpose: a Node older than 22.12 cannot load .ts files and would otherwise fail
// with a cryptic ERR_UNKNOWN_FILE_EXTENSION before any of our code could explain why.
import { fileURLToPath } from 'node:url';

export const REQUIRED = { major: 22, minor: 12 };

/** The message for a Node version that cannot run the project, or null when it can. */
export function nodeVersionProblem(version) {
  const [major = 0, minor = 0] = String(version).replace(/^v/, '').split('.').map(Number);
  if (major > REQUIRED.major || (major === REQUIRED.major && minor >= REQUIRED.minor)) return null;
  return [
    `Node.js >= ${REQUIRED.major}.${REQUIRED.minor} is needed (you have v${String(version).replace(/^v/, '')}).`,
    'This project runs its TypeScript with Node itself. Install Node.js 24 LTS, for example:',
    '  nvm install 24 && nvm use 24',
    'or, with only npm at hand:',
    '  npm install --prefix ~/.node24 node@24 && export PATH="$HOME/.node24/node_modules/node/bin:$PATH"',
    'then run the command again.',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
