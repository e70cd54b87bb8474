# One image for the gateway (which also serves the web application's built files, dashboard/dist), the
# subgraphs and the identity service, running the compiled JavaScript (`npm run build`) on
# production dependencies only. The default command runs the gateway; a subgraph runs the same image
# with its own entry point, e.g.
#   docker run -e PORT=4001 -e MONGODB_URI=... IMAGE node services/feedback/dist/main.js
# (docker-compose.yml and the Kubernetes manifests do exactly that). NODE_OPTIONS selects each
# workspace's `production` export, its dist/ folder, so no TypeScript is loaded at run time.

# --- manifests: the lock file and every workspace's package.json, the input of both installs below ---
FROM node:20-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY services/feedback/package.json services/feedback/
COPY services/contacts/package.json services/contacts/
COPY services/accounts/package.json services/accounts/
COPY services/identity/package.json services/identity/
COPY services/integrations/package.json services/integrations/
COPY gateway/package.json gateway/
COPY cli/package.json cli/
COPY dashboard/package.json dashboard/

# --- build: every dependency, the sources, then tsc into each workspace's dist/ ---
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/ scripts/
COPY shared/ shared/
COPY services/ services/
COPY gateway/ gateway/
COPY cli/ cli/
COPY dashboard/ dashboard/
RUN npm run build

# --- deps: production dependencies only, cached until a package.json or the lock file changes ---
FROM manifests AS deps
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: production dependencies plus the compiled output, owned by root and read-only to the process ---
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--conditions=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY --from=deps /app ./
COPY supergraph.graphql ./
COPY --from=build /app/shared/dist shared/dist
COPY --from=build /app/services/feedback/dist services/feedback/dist
COPY --from=build /app/services/contacts/dist services/contacts/dist
COPY --from=build /app/services/accounts/dist services/accounts/dist
COPY --from=build /app/services/identity/dist services/identity/dist
COPY --from=build /app/services/integrations/dist services/integrations/dist
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/cli/dist cli/dist
COPY --from=build /app/dashboard/dist dashboard/dist
USER node
EXPOSE 4000
# Slim images have no curl; Node's own fetch asks the service on the port it listens on.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "gateway/dist/main.js"]
