export * from './exportFormats';
export * from '../data/exportJobStore';
export * from './exportSource';
export * from './exportWorker';
export * from './exportOperations';
export * from './exportDownload';
export * from './startExports';
export * from './directoryExportSource';
