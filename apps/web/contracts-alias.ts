// '@eta/contracts' resolves to the contracts' TypeScript sources (types and schemas);
// '@eta/contracts/domain' is the typebox-free module the browser bundle takes runtime constants from.
import { fileURLToPath } from 'node:url';

const contractsSrc = (file: string): string =>
  fileURLToPath(new URL(`../../packages/contracts/src/${file}`, import.meta.url));

export const contractsAlias = [
  { find: /^@eta\/contracts$/, replacement: contractsSrc('index.ts') },
  { find: /^@eta\/contracts\/domain$/, replacement: contractsSrc('domain.ts') },
];
