# One image for the API and the workers (the command picks the process). Runs the code compiled
# to dist/ (`npm run api:built`, `npm run workers:built`): the tsx loader that `npm run api` uses in
# development costs an API process about 60 MiB of RSS (README, Performance).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies included: tsc compiles, esbuild bundles the storefront widget, tsx runs the scripts (migrate, CLIs).
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN npm run build && mkdir -p /app/var/exports && chown -R node:node /app/var
USER node
EXPOSE 8080 9464 9465
CMD ["npm", "run", "api:built"]
