# syntax=docker/dockerfile:1
# bvdb: a build stage with the whole toolchain, then a small runtime stage with only what
# `npm start` needs (BVDB_SKIP_BUILD=1: the tree is built here, once). Linted by `npm test`
# (dockerfile-utils). e2e/tests/container.spec.ts runs the runtime stage's CMD, ENV and USER on a
# read-only copy of its file set; packages/server/src/deploy-files.test.ts checks the base image's
# Node line, the health check's start period against WARM_UP_READY_SECONDS and .dockerignore.
# docs/operations.md, "Containers".
#
# Node 24, an LTS line in support until April 2028 (Node 20 reached its end of life in April 2026).
# The tests run on Node 20.19 here and in CI (package.json `engines`); the image's line is not run
# by them (decision 081).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY packages packages
COPY scripts/start.mjs scripts/cli.mjs scripts/
RUN npm run build

# The runtime's node_modules: the server's production dependencies only (the web app is built).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --workspace=@bvdb/server --no-audit --no-fund --ignore-scripts

FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="bvdb" \
      org.opencontainers.image.description="Biological Variation database" \
      org.opencontainers.image.licenses="MIT"
WORKDIR /app
ENV NODE_ENV=production \
    BVDB_SKIP_BUILD=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/packages/server/node_modules packages/server/node_modules
COPY --from=build /app/package.json package.json
COPY --from=build /app/scripts/start.mjs scripts/start.mjs
COPY --from=build /app/scripts/cli.mjs scripts/cli.mjs
COPY --from=build /app/packages/domain/package.json packages/domain/package.json
COPY --from=build /app/packages/domain/dist packages/domain/dist
COPY --from=build /app/packages/contract/package.json packages/contract/package.json
COPY --from=build /app/packages/contract/dist packages/contract/dist
COPY --from=build /app/packages/server/package.json packages/server/package.json
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/server/drizzle packages/server/drizzle
COPY --from=build /app/packages/server/seed-data packages/server/seed-data
COPY --from=build /app/packages/web/dist packages/web/dist
COPY --from=build /app/packages/web/dist-ssr packages/web/dist-ssr
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# On SIGTERM /readyz answers 503 for SHUTDOWN_DRAIN_SECONDS (default 5) before the server closes:
# run the container with a stop timeout of at least that plus 10 s (compose.yaml: stop_grace_period).
# At a start /readyz answers 503 "warming up" for at most WARM_UP_READY_SECONDS (default 120) after
# the migrations: the start period covers both (150 s); raise it with that setting.
HEALTHCHECK --interval=15s --timeout=3s --start-period=150s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "scripts/start.mjs"]
