# One image for the gateway, the three subgraphs and the identity service. The default command runs the gateway; a subgraph
# runs the same image with its own entry point, e.g.
#   docker run -e PORT=4001 -e MONGODB_URI=... IMAGE node --import tsx services/feedback/src/index.ts
# (docker-compose.yml does exactly that). There is no compile step: tsx, a runtime dependency,
# loads the TypeScript sources.

# --- deps: production dependencies only, cached until a package.json or the lock file changes ---
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY services/feedback/package.json services/feedback/
COPY services/contacts/package.json services/contacts/
COPY services/accounts/package.json services/accounts/
COPY services/identity/package.json services/identity/
COPY gateway/package.json gateway/
COPY cli/package.json cli/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: dependencies plus sources, owned by root and read-only to the process ---
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY --from=deps /app ./
COPY tsconfig.json supergraph.graphql ./
COPY shared/ shared/
COPY services/ services/
COPY gateway/ gateway/
COPY cli/ cli/
USER node
EXPOSE 4000
# Slim images have no curl; Node's own fetch asks the service on the port it listens on.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "gateway/src/index.ts"]
