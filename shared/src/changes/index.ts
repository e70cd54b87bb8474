export * from './changeFeed';
export * from './changeStamp';
