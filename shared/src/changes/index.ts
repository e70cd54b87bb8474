export * from './changeFeed';
export * from './changeStamp';
export * from './changeSources';
