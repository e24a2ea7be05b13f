# One image for the API and the workers (the command picks the process). Runs the TypeScript
# sources through tsx, as `npm run api` and `npm run workers` do on one box.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies included: tsx runs the sources and esbuild bundles the storefront widget.
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN npm run build:widget && mkdir -p /app/var/exports && chown -R node:node /app/var
USER node
EXPOSE 8080 9464 9465
CMD ["npm", "run", "api"]
