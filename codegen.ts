import type { CodegenConfig } from '@graphql-codegen/cli';
import { codegenConfig } from './scripts/codegenConfig';

const config: CodegenConfig = codegenConfig();
export default config;
