FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json nest-cli.json ./
COPY scripts ./scripts
COPY src ./src
# `npm ci` builds dist/ (the prepare script), a link to the build: copied out of it, then the dev tools dropped.
RUN npm ci && cp -rL dist /app/built && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/built ./dist
COPY package.json ./
RUN mkdir -p /data/imports && chown -R node:node /data
# Not root: the image's own unprivileged user.
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As `npm start`: the heap grows at most 60 % past live data before V8 collects (bench/README.md).
CMD ["node", "--heap-growing-percent=60", "dist/main.js"]
