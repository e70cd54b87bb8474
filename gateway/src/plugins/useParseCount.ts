import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

/** Counts the documents Apollo Server parses itself: only those the request gate's cache did not hand it. */
export function useParseCount<C extends BaseContext>(count: () => void): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async parsingDidStart() {
          count();
        },
      };
    },
  };
}
