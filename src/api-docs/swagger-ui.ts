import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

/** The Swagger UI files the page loads, with their types; nothing else under /docs is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Voice campaigns API</title>
  <link rel="stylesheet" href="./docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="./docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./docs/swagger-ui-bundle.js"></script>
  <script src="./docs/swagger-ui-standalone-preset.js"></script>
  <script src="./docs/swagger-ui-init.js"></script>
</body>
</html>
`;

const INIT = `window.onload = () => {
  window.ui = SwaggerUIBundle({ url: './docs-json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', deepLinking: true });
};
`;

/**
 * `GET /docs`: Swagger UI from the swagger-ui-dist package, served by the service itself (no
 * internet needed). Each file is read once, at its first request.
 */
export function serveSwaggerUi(fastify: FastifyInstance): void {
  const files = new Map<string, Buffer>();
  const read = (name: string) => files.get(name) ?? files.set(name, readFileSync(join(getAbsoluteFSPath(), name))).get(name)!;
  fastify.get('/docs', (_request, reply) => void reply.type('text/html; charset=utf-8').send(PAGE));
  fastify.get('/docs/swagger-ui-init.js', (_request, reply) => void reply.type(ASSETS['swagger-ui-bundle.js']).send(INIT));
  for (const [name, type] of Object.entries(ASSETS)) {
    fastify.get(`/docs/${name}`, (_request, reply) => void reply.type(type).header('cache-control', 'public, max-age=86400').send(read(name)));
  }
}
