import { runCli } from './runCli';

runCli(process.argv.slice(2)).then((code) => process.exit(code));
